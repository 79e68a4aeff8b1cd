"""The shape of the code (docs/developing.md): arrows point down only, and files stay small.

- The core (``bot/core``) imports no system and no adapter: systems add themselves to its registry.
- A system (``bot/keizer``, ``bot/nk``, ``bot/grades``, ``bot/go``, ``bot/backup``) imports the core and
  the engine, never another system; what it needs of another asks through ``bot/core/commands/competitions.py``.
- Adapters import the core only, no system: every command reaches them through the registry.
- The engine imports nothing of the bot and nothing that does I/O.
- Arrows point down in data too: every table the migrations make has one owner, the core or a system, that
  declares it to the registry (``Registry.table``); a system's SQL names its own tables and the core's
  shared ones, the core's (and the adapters' and the website's) only the core's; the core names no system's
  table even outside SQL.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.core.storage.row_checks import expected_columns
from bot.core.storage.table_rules import CORE, Table
from bot.systems import INSTALLED, build_registry
from tests.paths import REPO

SYSTEMS = tuple(name.split(".")[1] for name in INSTALLED)
NO_IO = ("asyncio", "aiosqlite", "sqlite3", "socket", "os", "subprocess", "discord", "telegram", "aiohttp", "time")
MAX_LINES = 500


def imports_of(path: Path) -> set[str]:
    """Every module a file imports (``from x import y`` gives x and x.y), at any depth of the file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def files(folder: str) -> list[Path]:
    return sorted((REPO / folder).rglob("*.py"))


def reaches(imported: set[str], package: str) -> bool:
    return any(name == package or name.startswith(package + ".") for name in imported)


@pytest.mark.parametrize("path", files("bot/core"), ids=lambda p: str(p.relative_to(REPO)))
def test_the_core_imports_no_system_and_no_adapter(path: Path) -> None:
    imported = imports_of(path)
    for other in (*(f"bot.{s}" for s in SYSTEMS), "bot.adapters", "bot.systems", "bot.app"):
        assert not reaches(imported, other), f"{path.relative_to(REPO)} imports {other}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_system_imports_no_other_system(system: str) -> None:
    for path in files(f"bot/{system}"):
        imported = imports_of(path)
        for other in SYSTEMS:
            if other != system:
                assert not reaches(imported, f"bot.{other}"), f"{path.relative_to(REPO)} imports bot.{other}"
        assert not reaches(imported, "bot.adapters"), f"{path.relative_to(REPO)} imports an adapter"


@pytest.mark.parametrize("path", files("bot/adapters"), ids=lambda p: str(p.relative_to(REPO)))
def test_adapters_import_no_system(path: Path) -> None:
    imported = imports_of(path)
    for system in SYSTEMS:
        assert not reaches(imported, f"bot.{system}"), f"{path.relative_to(REPO)} imports bot.{system}"


@pytest.mark.parametrize("path", files("engine"), ids=lambda p: str(p.relative_to(REPO)))
def test_the_engine_is_pure(path: Path) -> None:
    imported = imports_of(path)
    assert not reaches(imported, "bot"), f"{path.relative_to(REPO)} imports the bot"
    for module in NO_IO:
        assert not reaches(imported, module), f"{path.relative_to(REPO)} imports {module}"


def test_every_system_has_the_same_rooms() -> None:
    for system in SYSTEMS:
        folder = REPO / "bot" / system
        assert (folder / "__init__.py").exists() and (folder / "commands.py").exists(), system
        assert "def register(" in (folder / "commands.py").read_text(encoding="utf-8"), system
        assert sorted(p.name for p in (folder / "i18n").iterdir()) == ["en", "nl"], system


@pytest.mark.parametrize("folder", ["bot", "engine", "tests", "benchmarks"])
def test_no_file_is_over_the_size_that_asks_for_a_split(folder: str) -> None:
    long = {str(p.relative_to(REPO)): n for p in files(folder) if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, long


def test_the_architecture_test_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from bot.keizer.store import KeizerStore\nimport sqlite3\n", encoding="utf-8")
    imported = imports_of(bad)
    assert reaches(imported, "bot.keizer") and reaches(imported, "sqlite3") and not reaches(imported, "bot.nk")


# A string is SQL when it holds a statement's keyword; the tables it names follow FROM, JOIN, INTO, UPDATE
# (OR IGNORE) or TABLE (write joins with JOIN: a comma join's second table is not read).
SQL = re.compile(r"\b(?:SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP)\b")
NAMED = re.compile(r'\b(?:FROM|JOIN|INTO|UPDATE(?:\s+OR\s+\w+)?|TABLE(?:\s+IF\s+(?:NOT\s+)?EXISTS)?)\s+"?(\w+)"?', re.IGNORECASE)
# Who may be named where: a system's own tables and the core's; the core's, adapters' and website's: the core's.
PACKAGES = {**{s: {s, CORE} for s in SYSTEMS}, "core": {CORE}, "adapters": {CORE}, "web": {CORE}}


def strings_of(path: Path) -> list[tuple[int, str]]:
    """Every string of a file with its line: constants (adjacent literals are one), f-strings with ``?``
    for what they fill in."""
    found: list[tuple[int, str]] = []
    nodes = list(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    parts = {id(v) for n in nodes if isinstance(n, ast.JoinedStr) for v in ast.walk(n) if v is not n}
    for node in nodes:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in parts:
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.JoinedStr):
            found.append((node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "?" for v in node.values)))
    return found


def foreign_tables(path: Path, allowed: set[str], tables: dict[str, Table]) -> list[str]:
    """``line: table (owner)`` for each table of an owner outside ``allowed`` that the file's SQL names."""
    return [
        f"{path.name}:{line}: {name} ({tables[name].owner})"
        for line, text in strings_of(path) if SQL.search(text)
        for name in NAMED.findall(text) if name in tables and tables[name].owner not in allowed
    ]  # fmt: skip


def test_every_table_has_one_owner() -> None:
    """Each table the migrations make is declared once (a second declaration is refused by the registry)."""
    assert set(build_registry().tables) == set(expected_columns())


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_sql_names_only_its_own_and_the_shared_tables(package: str) -> None:
    tables = build_registry().tables
    found = [f for path in files(f"bot/{package}") for f in foreign_tables(path, PACKAGES[package], tables)]
    assert not found, found


def test_the_core_names_no_systems_table() -> None:
    """Not in SQL, nor anywhere else (``table == "signons"``): what it does with a system's tables it reads
    from their declarations."""
    tables = build_registry().tables
    found = [f"{path.relative_to(REPO)}:{line}: {text}" for folder in ("bot/core", "bot/adapters", "bot/web")
             for path in files(folder) for line, text in strings_of(path)
             if text in tables and tables[text].owner != CORE]  # fmt: skip
    assert not found, found


def test_the_sql_check_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        'A = "SELECT member_id FROM season_players WHERE season_id = ?"\n'
        "B = f'UPDATE OR IGNORE \"seasons\" SET version = {1} WHERE id = ?'\n"
        'C = ("SELECT m.name FROM members m"\n     " JOIN nk_players p ON p.member_id = m.id")\n'
        'D = "INSERT INTO nk_tournaments (club_id, name, rounds) VALUES (?, ?, ?)"  # a column named like a table\n',
        encoding="utf-8",
    )
    tables = build_registry().tables
    assert foreign_tables(bad, {"nk", CORE}, tables) == ["bad.py:1: season_players (keizer)", "bad.py:2: seasons (keizer)"]
    assert foreign_tables(bad, {CORE}, tables) == [
        "bad.py:1: season_players (keizer)", "bad.py:2: seasons (keizer)", "bad.py:3: nk_players (nk)",
        "bad.py:5: nk_tournaments (nk)",
    ]  # fmt: skip

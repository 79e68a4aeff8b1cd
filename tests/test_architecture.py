"""The shape of the code (docs/developing.md): arrows point down only, and files stay small.

- The core (``bot/core``) imports no system and no adapter: systems add themselves to its registry.
- A system (``bot/keizer``, ``bot/nk``, ``bot/grades``, ``bot/go``, ``bot/backup``) imports the core and
  the engine, never another system; what it needs of another asks through ``bot/core/competitions.py``.
- Adapters import the core only, no system: every command reaches them through the registry.
- The engine imports nothing of the bot and nothing that does I/O.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.systems import INSTALLED
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

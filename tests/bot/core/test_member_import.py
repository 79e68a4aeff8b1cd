"""``/leden importeer`` (``/members import``): a club's members in one step from a CSV file or a pasted
list (name, rating, optional chat account); director only; all or nothing, with every bad line named."""

from __future__ import annotations

import io
from pathlib import Path

from bot.adapters.console import ConsoleAdapter
from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, ok, refused, rows

CSV = "\ufeffNaam;Rating;Account\nAnna de Vries;1800;<@111>\nJan van 't Hof;1650;\nÉmile Zola;1500\n".encode()


def members(config) -> list[tuple]:
    return rows(config, "SELECT name, rating FROM members WHERE is_director = 0 ORDER BY id")


async def test_a_csv_file_adds_the_members_and_links_their_accounts(commands: Core, config) -> None:
    said = await ok(commands, DIRECTOR, "/leden importeer", CSV)
    assert said == "3 leden ingelezen: 3 nieuw, 0 bijgewerkt, 1 chataccount gekoppeld."
    assert members(config) == [("Anna de Vries", 1800), ("Jan van 't Hof", 1650), ("Émile Zola", 1500)]
    assert rows(config, "SELECT m.name FROM identities i JOIN members m ON m.id = i.member_id WHERE i.user_id = '111'") == [("Anna de Vries",)]
    again = await ok(commands, DIRECTOR, "/members import", b"anna de vries,1850\nBert Jansen,1700\n")
    assert again == "2 leden ingelezen: 1 nieuw, 1 bijgewerkt, 0 chataccounts gekoppeld."
    assert members(config)[0] == ("Anna de Vries", 1850) and members(config)[-1] == ("Bert Jansen", 1700)


async def test_a_pasted_list(commands: Core, config) -> None:
    said = await ok(commands, DIRECTOR, "/leden importeer\nAnna de Vries 1800\nBert Jansen\t1700\nCarla, 1600, <@333>")
    assert said == "3 leden ingelezen: 3 nieuw, 0 bijgewerkt, 1 chataccount gekoppeld."
    assert members(config) == [("Anna de Vries", 1800), ("Bert Jansen", 1700), ("Carla", 1600)]


async def test_bad_lines_are_named_and_nothing_is_added(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Daan 1500")
    await ok(commands, DIRECTOR, '/koppel Daan <@444>')
    text = "naam;rating\nAnna;1800\nBert;veel\n;1700\nAnna;1900\nCarla;99999\nEva;1600;<@444>\n" + "X" * 70 + ";1500\nFien\x07;1500\n"
    said = await refused(commands, DIRECTOR, "/leden importeer", config, text.encode())
    assert said.splitlines() == [
        "Niets ingelezen: 7 regels kloppen niet.",
        'regel 3: "veel" is geen rating (0 tot 4000).',
        "regel 4: er staat geen naam.",
        "regel 5: Anna staat er al in (regel 2).",
        'regel 6: "99999" is geen rating (0 tot 4000).',
        "regel 7: dat chataccount is al van Daan.",
        "regel 8: een naam heeft 1 tot 60 tekens.",
        "regel 9: een naam zonder stuurtekens, alsjeblieft.",
    ]


async def test_only_the_director_and_hostile_input_is_refused_cleanly(commands: Core, config) -> None:
    assert "alleen voor de wedstrijdleider" in await refused(commands, actor("Anna"), "/leden importeer", config, CSV)
    assert "lijst" in await refused(commands, DIRECTOR, "/leden importeer", config)  # nothing to read
    assert "tekst" in await refused(commands, DIRECTOR, "/leden importeer", config, b"\x00\xff\xfe\x81garbage")
    assert "5000" in await refused(commands, DIRECTOR, "/leden importeer", config, b"A;1\n" * 6000)
    assert "MB" in await refused(commands, DIRECTOR, "/leden importeer", config, b"A" * (6 * 1024 * 1024))
    assert "Gebruik" in await refused(commands, DIRECTOR, "/leden weg", config)


async def test_on_the_console_the_file_comes_by_its_path(commands: Core, clock, config, tmp_path: Path) -> None:
    path = tmp_path / "leden.csv"
    path.write_bytes(CSV)
    out = io.StringIO()
    console = ConsoleAdapter(commands, clock, "Wedstrijdleider", "Test club", out=out)
    await console.start()
    await console.handle_line(f"/leden importeer {path}")
    assert out.getvalue() == "bot> 3 leden ingelezen: 3 nieuw, 0 bijgewerkt, 1 chataccount gekoppeld.\n"


async def test_the_readmes_example_list_then_a_season_with_everyone(commands: Core, clock, config) -> None:
    out = io.StringIO()
    console = ConsoleAdapter(commands, clock, "Wedstrijdleider", "Test club", out=out)
    await console.start()
    await console.handle_line(f"/leden importeer {Path(__file__).resolve().parents[3] / 'examples' / 'leden.csv'}")
    await console.handle_line("/seizoen naam=2026-27 start=2026-12-03 rondes=28")
    assert out.getvalue().splitlines()[0] == "bot> 3 leden ingelezen: 3 nieuw, 0 bijgewerkt, 0 chataccounts gekoppeld."
    assert "3 spelers doen mee" in out.getvalue()
    assert members(config) == [("Anna", 2100), ("Bert", 1950), ("Carla", 1800)]

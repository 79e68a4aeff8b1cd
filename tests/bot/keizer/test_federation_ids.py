"""A member's federation identities (issue 34 §1): ``/speler Naam knsb=... fide=... egd=...`` sets them
(``-`` removes one), ``/speler Naam`` shows them to the director, and the member import reads them from
columns 4-6. A KNSB relatienummer and a FIDE ID are digits, an EGD PIN 8 digits; one identity is one
member's; a member asks nothing of another's."""

from __future__ import annotations

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, ok, refused, rows


def ids(config, name: str) -> tuple:
    return rows(config, "SELECT knsb_id, fide_id, egd_pin FROM members WHERE name = ?", name)[0]


async def test_the_director_sets_shows_and_removes_identities(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Anna de Vries 1800 knsb=8359087")
    assert ids(config, "Anna de Vries") == ("8359087", None, None)
    said = await ok(commands, DIRECTOR, "/speler anna de vries fide=1503014 egd=10396133")
    assert said == "Anna de Vries: rating 1800; KNSB 8359087, FIDE 1503014, EGD 10396133; lichess —."
    assert ids(config, "Anna de Vries") == ("8359087", "1503014", "10396133")
    assert await ok(commands, DIRECTOR, "/speler Anna de Vries knsb=-") == "Anna de Vries: rating 1800; KNSB —, FIDE 1503014, EGD 10396133; lichess —."
    assert await ok(commands, DIRECTOR, "/player Anna de Vries") == "Anna de Vries: rating 1800; KNSB —, FIDE 1503014, EGD 10396133; lichess —."
    assert ids(config, "Anna de Vries") == (None, "1503014", "10396133")


async def test_bad_identities_are_refused_and_change_nothing(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 1800")
    await ok(commands, DIRECTOR, "/speler Bert 1700 fide=1503014")
    assert "8 cijfers" in await refused(commands, DIRECTOR, "/speler Anna egd=1234567", config)
    assert "8 cijfers" in await refused(commands, DIRECTOR, "/speler Anna egd=1234567x", config)
    assert "alleen cijfers" in await refused(commands, DIRECTOR, "/speler Anna knsb=83-59", config)
    assert "alleen cijfers" in await refused(commands, DIRECTOR, "/speler Anna fide=١٢٣", config)  # Arabic digits
    assert "hoort al bij Bert" in await refused(commands, DIRECTOR, "/speler Anna fide=1503014", config)
    assert "hoort al bij Bert" in await refused(commands, DIRECTOR, "/speler Anna 1850 fide=1503014", config)
    assert "ken ik niet" in await refused(commands, DIRECTOR, "/speler Niemand knsb=1", config)
    assert "wedstrijdleider" in await refused(commands, actor("Anna"), "/speler Anna knsb=8359087", config)
    assert "wedstrijdleider" in await refused(commands, actor("Anna"), "/speler Bert", config)


async def test_the_member_import_reads_identities_from_columns_4_to_6(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Bert 1700 fide=1503014")
    csv = "naam;rating;account;knsb;fide;egd\nAnna;1800;;8359087;;10396133\nCarla;1600\nBert;1710;;;;\n"
    await ok(commands, DIRECTOR, "/leden importeer", csv.encode())
    assert ids(config, "Anna") == ("8359087", None, "10396133")
    assert ids(config, "Carla") == (None, None, None) and ids(config, "Bert") == (None, "1503014", None)  # empty: unchanged
    bad = "naam;rating;account;knsb;fide;egd\nDaan;1500;;;1503014;\nEva;1400;;;;123\nFien;1300;;1;2;12345678;FienF;A;x\n"
    said = await refused(commands, DIRECTOR, "/leden importeer", config, bad.encode())
    assert said.splitlines()[1:] == [
        "regel 2: 1503014 hoort al bij Bert.",
        'regel 3: "123" is geen EGD-PIN: dat zijn 8 cijfers (egd=10396133; egd=- haalt het weg).',
        "regel 4: er staan meer dan 8 kolommen (naam, rating, chataccount, KNSB, FIDE, EGD, lichess, groep).",
    ]


async def test_a_merge_keeps_the_identities_only_the_merged_record_had(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 1800 knsb=8400001 fide=1000330")
    await ok(commands, DIRECTOR, "/speler Anna V 1800 fide=1000331 egd=12345678")
    await ok(commands, DIRECTOR, "/speler Anna samenvoegen Anna V")
    assert ids(config, "Anna V") == ("8400001", "1000331", "12345678")  # the kept record's FIDE ID stays

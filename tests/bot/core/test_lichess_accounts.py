"""Each member's lichess account (issue 43 §1): the director sets it with ``/speler Naam lichess=...``
(``-`` removes it) and in the member import's column 7, ``/speler Naam`` shows it; a username is checked
as lichess checks existing names (2-30 of A-Z a-z 0-9 _ -) and compared without regard to case, so two
members of a club cannot hold one lichess account (the refusal names the holder); a member sets none."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from bot.core.commands.dispatch import Core
from bot.core.club.lichess_tables import BY_DIRECTOR, LichessAccount
from tests.bot.conftest import DIRECTOR, actor, ok, refused, rows

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)


def account(config, name: str) -> list[tuple]:
    return rows(config, "SELECT a.username, a.user_id, a.linked_by FROM lichess_accounts a"
                        " JOIN members m ON m.id = a.member_id WHERE m.name = ?", name)  # fmt: skip


async def test_the_director_sets_shows_and_removes_a_lichess_account(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Anna de Vries 1800 lichess=AnnaDV")
    assert account(config, "Anna de Vries") == [("AnnaDV", "annadv", "director")]
    said = await ok(commands, DIRECTOR, "/speler anna de vries")
    assert said == "Anna de Vries: rating 1800; KNSB —, FIDE —, EGD —; lichess AnnaDV."
    await ok(commands, DIRECTOR, "/speler Anna de Vries lichess=anna-dv_2")  # replaced
    assert account(config, "Anna de Vries") == [("anna-dv_2", "anna-dv_2", "director")]
    assert await ok(commands, DIRECTOR, "/player Anna de Vries lichess=-") == "Anna de Vries: rating 1800; KNSB —, FIDE —, EGD —; lichess —."
    assert account(config, "Anna de Vries") == []


async def test_one_lichess_account_is_one_members_case_aside(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 1800 lichess=Bobby")
    await ok(commands, DIRECTOR, "/speler Bert 1700")
    said = await refused(commands, DIRECTOR, "/speler Bert lichess=BOBBY", config)
    assert said == ("Het lichess-account BOBBY hoort al bij Anna: twee leden kunnen niet één lichess-account hebben. "
                    "Haal het daar eerst weg (/speler Anna lichess=-).")  # fmt: skip
    assert "hoort al bij Anna" in await refused(commands, DIRECTOR, "/speler Bert 1750 lichess=bobby", config)
    assert "hoort al bij Anna" in await refused(commands, DIRECTOR, "/speler Carla 1600 lichess=bObBy", config)
    await ok(commands, DIRECTOR, "/speler Anna lichess=bobby")  # her own, in other capitals: fine
    await ok(commands, DIRECTOR, "/speler Anna lichess=-")
    await ok(commands, DIRECTOR, "/speler Bert lichess=BOBBY")  # free again
    assert account(config, "Bert") == [("BOBBY", "bobby", "director")]
    await ok(commands, DIRECTOR, "/speler Carla 1600 lichess=none")  # a name like any other: only - removes
    assert account(config, "Carla") == [("none", "none", "director")]


@pytest.mark.parametrize("typed", ["a", "x" * 31, "anna devries", "é1234", "anna.dv", "anna@dv", "ånna", "١٢٣٤"])
async def test_a_name_lichess_could_not_have_is_refused_and_changes_nothing(commands: Core, config, typed) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 1800")
    said = await refused(commands, DIRECTOR, f'/speler Anna "lichess={typed}"', config)
    assert "geen lichess-gebruikersnaam" in said and "2 tot 30" in said


async def test_only_the_director_sets_an_account(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 1800")
    assert "wedstrijdleider" in await refused(commands, actor("Anna"), "/speler Anna lichess=AnnaDV", config)


async def test_the_member_import_reads_the_lichess_account_from_column_7(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Bert 1700 lichess=BertB")
    await ok(commands, DIRECTOR, "/speler Daan 1500 lichess=Daan_1")
    csv = "naam;rating;account;knsb;fide;egd;lichess\nAnna;1800;;;;;AnnaDV\nCarla;1600\nBert;1710;;;;;\nDaan;1500;;;;;-\n"
    await ok(commands, DIRECTOR, "/leden importeer", csv.encode())
    assert account(config, "Anna") == [("AnnaDV", "annadv", "director")]
    assert account(config, "Carla") == [] and account(config, "Bert") == [("BertB", "bertb", "director")]  # empty: unchanged
    assert account(config, "Daan") == []  # -: removed
    bad = ("naam;rating;account;knsb;fide;egd;lichess\nEva;1500;;;;;bertb\nFien;1400;;;;;x\n"
           "Gijs;1300;;;;;GijsG\nHan;1300;;;;;gijsg\nIda;1200;;;;;ida;A;meer\n")  # fmt: skip
    said = await refused(commands, DIRECTOR, "/leden importeer", config, bad.encode())
    assert said.splitlines()[1:] == [
        "regel 2: bertb hoort al bij Bert.",
        'regel 3: "x" is geen lichess-gebruikersnaam: die heeft 2 tot 30 letters (zonder accenten), cijfers, _ of - '
        "(lichess=anna_devries; lichess=- haalt hem weg).",
        "regel 5: het lichess-account gijsg staat er al in (regel 4): twee leden kunnen niet één lichess-account hebben.",
        "regel 6: er staan meer dan 8 kolommen (naam, rating, chataccount, KNSB, FIDE, EGD, lichess, groep).",
    ]


async def test_a_merge_keeps_the_account_and_a_member_with_only_an_account_may_go(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 1800 lichess=AnnaDV")
    await ok(commands, DIRECTOR, "/speler Anna V 1800")
    await ok(commands, DIRECTOR, "/speler Anna samenvoegen Anna V")
    assert account(config, "Anna V") == [("AnnaDV", "annadv", "director")]
    await ok(commands, DIRECTOR, "/speler Anna V verwijder")  # a lichess account is no history
    assert rows(config, "SELECT COUNT(*) FROM lichess_accounts") == [(0,)]


async def test_the_store_compares_accounts_case_aside_on_both_databases(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    other = await any_store.get_or_create_club("console", "y", "Other", "nl", "Europe/Amsterdam", NOW)
    anna = await any_store.add_member(club.id, "Anna", 1800, NOW)
    elsewhere = await any_store.add_member(other.id, "Anna", 1800, NOW)
    async with any_store.transaction():
        await any_store.set_lichess_account(club.id, anna.id, "AnnaDV", BY_DIRECTOR, NOW)
        await any_store.set_lichess_account(other.id, elsewhere.id, "annadv", BY_DIRECTOR, NOW)  # another club: fine
    assert await any_store.lichess_holder(club.id, "ANNADV") == (anna.id, "Anna")
    assert await any_store.lichess_account(anna.id) == LichessAccount(anna.id, "AnnaDV", BY_DIRECTOR)
    assert await any_store.lichess_accounts(club.id) == {anna.id: LichessAccount(anna.id, "AnnaDV", BY_DIRECTOR)}
    bert = await any_store.add_member(club.id, "Bert", 1700, NOW)
    with pytest.raises(Exception) as caught:  # the database itself holds one account to one member
        async with any_store.transaction():
            await any_store.set_lichess_account(club.id, bert.id, "annaDV", BY_DIRECTOR, NOW)
    assert "unique" in str(caught.value).lower()
    assert await any_store.lichess_account(bert.id) is None


async def test_a_login_link_is_good_once_on_both_databases(any_store) -> None:
    club = await any_store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    anna = await any_store.add_member(club.id, "Anna", 1800, NOW)
    until = NOW + timedelta(hours=1)
    async with any_store.transaction():
        await any_store.set_lichess_login(club.id, anna.id, "link-hash", until)
    assert await any_store.lichess_login_of_link(club.id, "link-hash") == (anna.id, until)
    assert await any_store.lichess_login_of_link(club.id + 1, "link-hash") is None  # another club's address
    assert await any_store.take_lichess_login("state-hash") is None  # no login begun
    async with any_store.transaction():
        await any_store.begin_lichess_login(anna.id, "state-hash", "the-verifier")
    assert await any_store.lichess_login_club("state-hash") == club.id
    async with any_store.transaction():
        taken = await any_store.take_lichess_login("state-hash")
        again = await any_store.take_lichess_login("state-hash")
    assert taken == (club.id, anna.id, until, "the-verifier") and again is None  # one answer from lichess, taken once
    assert await any_store.lichess_login_of_link(club.id, "link-hash") == (anna.id, until)  # the link itself stays
    async with any_store.transaction():
        await any_store.set_lichess_login(club.id, anna.id, "new-hash", until)  # a new link: the old one stops
        await any_store.begin_lichess_login(anna.id, "state-2", "verifier-2")
    assert await any_store.lichess_login_of_link(club.id, "link-hash") is None
    async with any_store.transaction():
        await any_store.drop_lichess_login(anna.id)
    assert await any_store.lichess_login_of_link(club.id, "new-hash") is None and await any_store.lichess_login_club("state-2") is None

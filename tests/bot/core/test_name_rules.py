"""Names the bot can tell apart (issue 44 §2), through the commands layer on a real SQLite file: a name
that is a keyword, a number or a mention is refused where a name is given (joining, the member import,
/speler, a rename) with the reason; a quoted word is always a name, so the members an older bot let in
under such names are still reached; names that differ by look-alike letters are listed; a part of a name
is answered with the members it may mean."""

from __future__ import annotations

from bot.core.commands.command_line import quote_word, split_words
from bot.core.commands.context import Quoted, parse_int
from bot.core.commands.dispatch import Core
from bot.systems import build_registry
from tests.bot.conftest import DIRECTOR, START, actor, link, ok, refused, rows
from tests.paths import REPO

ANNA = actor("Anna")


def signoffs(config) -> list[tuple]:
    return rows(config, "SELECT m.name, r.number, so.kind FROM signoffs so JOIN members m ON m.id = so.member_id"
                        " JOIN rounds r ON r.id = so.round_id ORDER BY m.name, r.number")  # fmt: skip


def test_a_quoted_word_is_a_name_never_a_number() -> None:
    words = split_words('3 "3" "Jan de Vries" tegen="Bert Jansen" “Teamwedstrijd”')
    assert words == ["3", "3", "Jan de Vries", "tegen=Bert Jansen", "Teamwedstrijd"]
    assert [isinstance(w, Quoted) for w in words] == [False, True, True, False, True]
    assert parse_int(words[0]) == 3 and parse_int(words[1]) is None


async def test_a_display_name_that_looks_like_a_mention_cannot_join(commands: Core, config) -> None:
    """Before: a chat account called <@user:anna> became a member, and every command naming it acted on
    Anna, whose account the name mentions."""
    await ok(commands, DIRECTOR, "/speler Anna 1800")
    await link(commands, ANNA)
    said = await refused(commands, actor("<@user:anna>"), "/aanmelden", config)
    assert '"<@user:anna>" kan geen naam van een lid zijn' in said and "vermelding" in said
    assert "vermelding" in await refused(commands, DIRECTOR, '/speler "<@user:anna>" 1500', config)
    assert "regel 2" in await refused(commands, DIRECTOR, "/leden importeer", config, b"Bert;1700\n<@user:anna>x;1500\n")


async def test_a_name_that_is_a_keyword_or_a_number_is_refused_with_the_reason(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=10")
    for name in ("Teamwedstrijd", "NK", "A", '"rapid"', "Remise"):  # unquoted, rapid is /speler's own word
        said = await refused(commands, DIRECTOR, f"/speler {name} 1500", config)
        name = name.strip('"')
        assert f'"{name}" kan geen naam van een lid zijn: opdrachten lezen het als een eigen woord' in said
    assert "als een getal" in await refused(commands, DIRECTOR, '/speler "3" 1500', config)
    for display in ("NK", "3", "Teamwedstrijd"):
        assert "kan geen naam van een lid zijn" in await refused(commands, actor(display), "/aanmelden", config)
    imported = await refused(commands, DIRECTOR, "/leden importeer", config, b"Anna;1800\nNK;1500\n12;1400\n")
    assert "regel 2" in imported and "regel 3" in imported and "regel 1" not in imported
    await ok(commands, DIRECTOR, "/speler Anna 1800")
    assert "eigen woord" in await refused(commands, DIRECTOR, "/speler Anna hernoem Teamwedstrijd", config)
    season = (REPO / "examples" / "season.json").read_text().replace('"Eva Smit"', '"NK"')
    assert '"NK" kan geen naam' in await refused(commands, DIRECTOR, "/importeer start=2026-12-03 naam=I toch", config, season.encode())
    await ok(commands, DIRECTOR, "/speler Speler 3 1500")  # a number after a name's first word: a name
    await ok(commands, DIRECTOR, "/speler Anna 1850")  # an existing member is no new name


async def test_a_quoted_name_is_always_a_name(commands: Core, config) -> None:
    """Members an older bot let in as 3, Teamwedstrijd and <@user:anna>: in quotes each is a name, not
    round 3, not a team match, not Anna's mention."""
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=10")
    await ok(commands, DIRECTOR, "/speler Anna 1800")
    await link(commands, ANNA)
    club_id = rows(config, "SELECT id FROM clubs")[0][0]
    for name in ("3", "Teamwedstrijd", "<@user:anna>"):
        member = await commands.store.add_member(club_id, name, 1500, START)
        await commands.store.write(
            "INSERT INTO season_players (season_id, member_id, rating, joined_round) VALUES (1, ?, 1500, 1)", (member.id,)
        )
    await ok(commands, DIRECTOR, '/afmelden "3"')
    await ok(commands, DIRECTOR, '/afmelden "Teamwedstrijd" 2')
    await ok(commands, DIRECTOR, '/afmelden "<@user:anna>" 3')
    await ok(commands, DIRECTOR, "/afmelden <@user:anna> 4")  # unquoted: the mention, Anna
    await ok(commands, DIRECTOR, "/afmelden Anna 3 teamwedstrijd")
    assert signoffs(config) == [("3", 1, "notice"), ("<@user:anna>", 3, "notice"), ("Anna", 3, "team"), ("Anna", 4, "notice"),
                                ("Teamwedstrijd", 2, "notice")]  # fmt: skip


async def test_look_alike_letters_make_a_near_duplicate(commands: Core, config) -> None:
    """Vrieѕ with a Cyrillic ѕ is another name than Vries that looks the same."""
    await ok(commands, DIRECTOR, "/speler Vries 1500")
    assert "Ben jij Vries?" in await refused(commands, actor("Vrieѕ"), "/aanmelden", config)  # a newcomer is asked
    added = await ok(commands, DIRECTOR, "/speler Vrieѕ 1600")
    assert 'Let op: "Vrieѕ" ziet eruit als "Vries" maar is een andere naam' in added
    assert "/speler Vrieѕ samenvoegen Vries" in added
    assert 'Lijken gelijk maar zijn andere namen (letters uit een ander schrift): "Vries" en "Vrieѕ"' in await ok(commands, DIRECTOR, "/leden")
    assert "Let op" not in await ok(commands, DIRECTOR, "/speler Anna 1800")
    imported = await ok(commands, DIRECTOR, "/leden importeer", "Аnna;1700\n".encode())  # a Cyrillic А
    assert 'Let op: "Аnna" ziet eruit als "Anna"' in imported


async def test_part_of_a_name_names_the_members_it_may_mean(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=S start=2026-12-03 rondes=10")
    for line in ("Jan de Boer 1800", "Jan Smit 1700", "Anna 1600"):
        await ok(commands, DIRECTOR, f"/speler {line}")
    said = await refused(commands, DIRECTOR, "/afmelden jan", config)
    assert said == 'Speler "jan" ken ik niet. Bedoel je een van deze leden: Jan de Boer, Jan Smit? Typ de hele naam.'
    assert "Jan Smit" in await refused(commands, DIRECTOR, "/afmelden smit", config)
    assert await refused(commands, DIRECTOR, "/afmelden Zed", config) == 'Speler "Zed" ken ik niet.'


def test_a_discord_option_that_names_a_member_is_quoted_in_the_line() -> None:
    """Discord's ``speler`` option "3" names the member called 3: the line it makes is ``/afmelden 2 "3"``."""
    args = build_registry().commands["afmelden"].line({"ronde": 2, "speler": "3"})
    assert " ".join(quote_word(a) for a in args) == '2 "3"'
    assert split_words(" ".join(quote_word(a) for a in args)) == ["2", "3"] and isinstance(split_words('2 "3"')[1], Quoted)

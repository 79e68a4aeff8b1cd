"""``/help``: the commands of the systems the club uses (the Keizer competition always; the NK once it has
a tournament, grades once a member has a grade, go once someone challenged someone), a pointer to the
others; ``/help uitslag`` explains one command: how to type it, who may, what it does."""

from __future__ import annotations

from bot.core.commands.dispatch import Core
from tests.bot.conftest import DIRECTOR, actor, link, ok, refused

ANNA, BERT = actor("Anna"), actor("Bert")


async def test_help_of_one_command(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 1800")
    await link(commands, ANNA)
    said = await ok(commands, ANNA, "/help uitslag")
    assert said.splitlines() == [
        "/uitslag (/result): de uitslag van je eigen partij melden; je tegenstander bevestigt",
        "Gebruik: /uitslag 1-0 | 0-1 | remise | gewonnen | verloren [rapid] [ronde]  (wedstrijdleider: /uitslag Naam"
        " 1-0 | 0-1 | remise | gewonnen | verloren [rapid] [ronde] [toch], ook 1-0F, 0-1F, 0-0F; gewonnen: Naam won)",
        "Wie: elk lid.",
    ]
    assert (await ok(commands, ANNA, "/help /result")) == said  # the English name, with its slash
    director_only = await ok(commands, ANNA, "/help publiceer")
    assert director_only.splitlines()[0].startswith("/publiceer (/publish): ")
    assert director_only.splitlines()[-1] == "Wie: alleen de wedstrijdleider."
    assert await refused(commands, ANNA, "/help onzin", config) == "Onbekende opdracht /onzin. Typ /help voor de lijst."
    await ok(commands, DIRECTOR, "/taal en")
    english = await ok(commands, ANNA, "/help result")
    assert english.splitlines()[-1] == "Who: every member."


async def test_help_lists_the_systems_the_club_uses(commands: Core) -> None:
    await ok(commands, DIRECTOR, "/speler Anna 1800")
    await ok(commands, DIRECTOR, "/speler Bert 1700")
    await link(commands, ANNA, BERT)
    chess = await ok(commands, ANNA, "/help")
    assert "/afmelden (/signoff)" in chess and "/stand" in chess
    assert "/zet" not in chess and "/nk" not in chess and "/graad" not in chess, chess
    assert chess.splitlines()[-1] == "Ook beschikbaar, nog niet in gebruik in deze club: NK (/help NK), graden (/help graden), go (/help go)."
    go = await ok(commands, ANNA, "/help go")
    assert go.splitlines()[0] == "go:" and "/zet (/move)" in go and "/afmelden" not in go
    await ok(commands, ANNA, "/go uitdagen @Bert 9")
    playing = await ok(commands, BERT, "/help")
    assert "/zet (/move)" in playing and "/nk" not in playing
    assert playing.splitlines()[-1] == "Ook beschikbaar, nog niet in gebruik in deze club: NK (/help NK), graden (/help graden)."
    await ok(commands, DIRECTOR, "/graadzetten Anna 1d")
    director = await ok(commands, DIRECTOR, "/help")
    assert "/graadzetten" in director and "/graad (/grade)" in director and "/backup" in director
    assert director.splitlines()[-1] == "Ook beschikbaar, nog niet in gebruik in deze club: NK (/help NK)."

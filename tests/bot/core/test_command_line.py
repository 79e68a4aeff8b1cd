"""How a command line is split into words: only double quotes group words; an apostrophe is a letter."""

from __future__ import annotations

import pytest

from bot.core.commands.context import UserError
from bot.core.commands.dispatch import Core, parse_command
from tests.bot.conftest import DIRECTOR, ok, rows


def test_an_apostrophe_is_a_letter() -> None:
    assert parse_command("/speler Anne-Marie O'Neill 1700") == ("speler", ["Anne-Marie", "O'Neill", "1700"])
    assert parse_command("/afmelden D'Artagnan") == ("afmelden", ["D'Artagnan"])
    assert parse_command("/speler Jan van 't Hof 1500") == ("speler", ["Jan", "van", "'t", "Hof", "1500"])
    assert parse_command("/speler 'Jan Smit' 1500") == ("speler", ["'Jan", "Smit'", "1500"])


def test_double_quotes_and_typographic_quotes_group_words() -> None:
    assert parse_command('/speler "Jan van \'t Hof" 1500') == ("speler", ["Jan van 't Hof", "1500"])
    assert parse_command("/speler “Jan de Vries” 1500") == ("speler", ["Jan de Vries", "1500"])
    assert parse_command("/speler „Jan de Vries” 1500") == ("speler", ["Jan de Vries", "1500"])
    assert parse_command('/afmelden tegen="Bert Jansen"') == ("afmelden", ["tegen=Bert Jansen"])
    assert parse_command('/speler "" 1500') == ("speler", ["", "1500"])
    assert parse_command(r'/importeer "C:\temp\x.json" \a') == ("importeer", [r"C:\temp\x.json", r"\a"])
    with pytest.raises(UserError):
        parse_command('/speler "Jan 1800')
    with pytest.raises(UserError):
        parse_command("/speler “Jan 1800")


def test_a_quoted_word_reads_back_as_itself() -> None:
    from bot.core.commands.command_line import quote_word, split_words

    for word in ("Anna", "O'Neill", "Jan van 't Hof", 'Jan "de Snelle" Smit', "a\\b", "", "“x”"):
        assert split_words(quote_word(word)) == [word]


async def test_names_with_apostrophes_on_the_console(commands: Core, config) -> None:
    await ok(commands, DIRECTOR, "/seizoen naam=2026-27 start=2026-12-03 rondes=28")
    await ok(commands, DIRECTOR, "/speler Anne-Marie O'Neill 1700")
    await ok(commands, DIRECTOR, "/speler D'Artagnan 1600")
    await ok(commands, DIRECTOR, "/speler Jan van 't Hof 1500")
    names = sorted(r[0] for r in rows(config, "SELECT name FROM members WHERE NOT is_director"))
    assert names == ["Anne-Marie O'Neill", "D'Artagnan", "Jan van 't Hof"]
    await ok(commands, DIRECTOR, "/afmelden D'Artagnan")

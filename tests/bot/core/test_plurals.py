"""Counts read as their number: every message with a number that counts something ("{games} partijen")
is rendered with it at 0, 1 and 2 in Dutch and English, and must read "1 partij", "2 partijen",
"0 partijen", and never "na ronde 0". The messages are found by the words after their placeholders, so a
message added later is checked too."""

from __future__ import annotations

import re
import string

import pytest

from bot.core.i18n import LANGUAGES, catalogue, plural_form, t

# what a count counts, (singular, plural), both languages
NOUNS = [
    ("partij", "partijen"), ("ronde", "rondes"), ("ronde", "ronden"), ("speler", "spelers"), ("punt", "punten"),
    ("uitslag", "uitslagen"), ("minuut", "minuten"), ("dag", "dagen"), ("steen", "stenen"), ("zet", "zetten"),
    ("pagina", "pagina's"), ("regel", "regels"), ("rij", "rijen"), ("veld", "velden"), ("lid", "leden"),
    ("seconde", "seconden"), ("teken", "tekens"), ("afmelding", "afmeldingen"), ("game", "games"),
    ("round", "rounds"), ("player", "players"), ("point", "points"), ("result", "results"), ("minute", "minutes"),
    ("hour", "hours"), ("day", "days"), ("stone", "stones"), ("move", "moves"), ("page", "pages"), ("row", "rows"),
    ("line", "lines"), ("field", "fields"), ("member", "members"), ("second", "seconds"),
    ("character", "characters"), ("sign-off", "sign-offs"), ("byte", "bytes"),
]  # fmt: skip
SINGULAR = {s for s, _ in NOUNS}
PLURAL = {p for _, p in NOUNS}
LABELS = r"(?<!bord )(?<!board )(?<!ronde )(?<!round )(?<!#)(?<!pagina )(?<!page )"  # "bord 2 ronde 3": no count
ADJECTIVE = r"(?:(?:gespeelde|toegelaten|verschillende|witte|zwarte|ontbrekende|open|played|admitted|different|white|black|handicap|missing|more) )?"
AFTER_ROUND = re.compile(r"(?:na|after|tot|up to) (?:ronde|round) \{(\w+)[:}]")
NEVER_ZERO = {"nk_champion_line", "nk_champion_announcement", "nk_champion_corrected"}  # a champion is known after a round


_NOUNS = "|".join(re.escape(n) for n in sorted(SINGULAR | PLURAL, key=len, reverse=True))
COUNTED = re.compile(LABELS + r"\{(\w+)\} " + ADJECTIVE + rf"(?:{_NOUNS})\b(?! by\b)")  # "{season} round by round" counts nothing


def fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def counts(template: str) -> set[str]:
    """The placeholders a count noun follows (``{games} partijen``, ``{n} handicap stones``), or that
    already have a count's forms."""
    found = set(COUNTED.findall(template))
    return found | {name for _, name, spec, _ in string.Formatter().parse(template) if name and spec and "|" in spec}


def rendered(language: str, key: str, count: str, number: int) -> str:
    values = {name: ("X" if name != count else number) for name in fields(catalogue(language)[key])}
    return t(language, key, **values)


def wrong_form(text: str, number: int) -> str | None:
    nouns = SINGULAR - PLURAL if number != 1 else PLURAL - SINGULAR
    pattern = LABELS + rf"\b{number} {ADJECTIVE}({'|'.join(re.escape(n) for n in nouns)})(?![\w'])"
    match = re.search(pattern, text)
    return match.group(0) if match else None


CASES = sorted({(language, key, count) for language in LANGUAGES for key, text in catalogue(language).items() for count in counts(text)})


def test_the_count_messages_are_found() -> None:
    assert len({key for _, key, _ in CASES}) >= 40


@pytest.mark.parametrize(("language", "key", "count"), CASES)
def test_a_count_reads_as_its_number(language: str, key: str, count: str) -> None:
    for number in (0, 1, 2):
        text = rendered(language, key, count, number)
        assert wrong_form(text, number) is None, (number, text)
        if number == 0 and key not in NEVER_ZERO and count in AFTER_ROUND.findall(catalogue(language)[key]):
            assert not re.search(r"\b(ronde|round) 0\b", text), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_after_round_zero_is_never_shown(language: str) -> None:
    for key, text in catalogue(language).items():
        for count in AFTER_ROUND.findall(text):
            if key not in NEVER_ZERO:
                assert not re.search(r"\b(ronde|round) 0\b", rendered(language, key, count, 0)), key


def test_the_forms() -> None:
    assert [plural_form(n, "# partij|# partijen") for n in (0, 1, 2, "1", "1½")] == [
        "0 partijen", "1 partij", "2 partijen", "1 partij", "1½ partijen",
    ]  # fmt: skip
    assert plural_form(0, "nog geen|#|#") == "nog geen"

"""The rating lists' readers against small files in the published layouts (``data/``: each names where
its layout comes from; the players are made up). Expected values read off the files by hand."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from bot.core.commands.context import UserError
from bot.ratings import egd, fide, knsb
from bot.ratings.commands import read_list
from bot.ratings.lists import Listed, name_keys, text_of

DATA = Path(__file__).parent / "samples"


def data(name: str) -> bytes:
    return (DATA / name).read_bytes()


def test_fide_txt_columns_from_the_heading_and_windows_1252() -> None:
    listing = fide.parse_txt(text_of(data("players_list_foa.txt")))
    assert listing.source == "fide" and listing.day is None  # the TXT says no date
    assert listing.players == (
        Listed("1000330", "Vries, Jan de", 2285, "NED"),
        Listed("1000950", "Jansen, Bert", 1912, "NED"),
        Listed("24612345", "Öztürk, Jürgen", 1733, "GER"),
        Listed("1503014", "Carlsen, Magnus", 2831, "NOR"),
        Listed("1001001", "Bakker, Carla", None, "NED"),  # a rapid rating only: no standard rating
    )


def test_fide_xml() -> None:
    listing = fide.parse_xml(text_of(data("players_list_xml.xml")))
    assert [(p.identity, p.name, p.rating, p.federation) for p in listing.players] == [
        ("1000330", "Vries, Jan de", 2285, "NED"), ("1000950", "Jansen, Bert", 1912, "NED"),
        ("24612345", "Öztürk, Jürgen", 1733, "GER"), ("1001001", "Bakker, Carla", None, "NED"),
    ]  # fmt: skip


def test_knsb_csv_by_column_names_with_the_date_of_its_heading() -> None:
    listing = knsb.parse(text_of(data("knsb_ratinglijst.csv")))
    assert listing.day == date(2026, 11, 1)
    assert [(p.identity, p.name, p.rating, p.federation) for p in listing.players] == [
        ("8400001", "Vries, Jan de", 2261, "NED"), ("8400002", "Jansen, Bert", 1895, "NED"),
        ("8400003", "Öztürk, Jürgen", 1750, "GER"), ("8400004", "Bakker, Carla", 1702, "NED"),
        ("8400005", "Jansen, Bert", 1400, "NED"),
    ]  # fmt: skip
    moved = "Naam,Rating,Relatienummer\nVries; Jan de,2261,8400001\n"  # other places, another separator
    assert [(p.identity, p.rating) for p in knsb.parse(moved).players] == [("8400001", 2261)]


EGD_PLAYERS = (
    Listed("12345678", "Vries Jan de", 2190, "NL"), Listed("10396133", "Jansen Bert", 1610, "NL"),
    Listed("11122233", "Öztürk Jürgen", 1998, "DE"), Listed("19876543", "Tanaka Hiroshi", 2650, "JP"),
)  # fmt: skip


def test_egd_all_hst_read_by_its_heading_with_grade_n_between_grade_and_gor() -> None:
    """The published column set: ``Grade_n`` (the grade proposed, ``--`` for none) stands between the
    grade and the GoR; the heading says so, and the GoR is the column it names (issue 45 §3)."""
    listing = egd.parse(text_of(data("all.hst")))
    assert listing.day == date(2026, 11, 1)
    assert listing.players == EGD_PLAYERS
    assert read_list(data("all.hst"), None).players == EGD_PLAYERS  # recognised, not "geen ratinglijst"


def test_egd_page_allworld_lp_read_by_its_own_heading() -> None:
    listing = egd.parse(text_of(data("allworld_lp.html")))
    assert listing.day == date(2026, 11, 1)
    assert listing.players == EGD_PLAYERS
    assert read_list(data("allworld_lp.html"), None).source == "egd"


def test_egd_columns_in_another_order_follow_the_heading() -> None:
    """No fixed order: a list without ``Grade_n``, and one whose GoR comes before the club and which has
    a column the reader does not know, are read by what their headings name."""
    old = "Pin  Name  Co Club Grade  GoR  Tot Last\n  12345678 Vries Jan de  NL Utr   2d   2190   41 T261025A\n"
    assert egd.parse(old).players == (Listed("12345678", "Vries Jan de", 2190, "NL"),)
    moved = ("Pin_Player Name Country Grade GoR Placement Club\n"
             "  10396133 Jansen Bert  NL 5k 1610 3712 Ams\n  19876543 Tanaka Hiroshi JP 7d -- 1 xxxx\n")  # fmt: skip
    assert egd.parse(moved).players == (Listed("10396133", "Jansen Bert", 1610, "NL"),)  # "--" is no GoR
    assert egd.heading_columns("Pin_Player Last_Name Name Country_Code Club Grade Grade_n GoR") == (
        "country", "club", "grade", "grade n", "gor")
    assert egd.heading_columns("Pin Name Country Club GoR Grade") is None  # a GoR before the grade: no list of theirs
    assert egd.heading_columns("Name Pin Country Club Grade GoR") is None


def test_egd_list_without_a_heading_is_read_in_the_published_order() -> None:
    lines = "  12345678  Vries Jan de   NL  Utr  2d  --  2190  41  T261025A\n"
    assert egd.parse(lines).players == (Listed("12345678", "Vries Jan de", 2190, "NL"),)


def test_each_file_is_recognised() -> None:
    for name, source in (("players_list_foa.txt", "fide"), ("players_list_xml.xml", "fide"),
                         ("knsb_ratinglijst.csv", "knsb"), ("all.hst", "egd")):  # fmt: skip
        assert read_list(data(name), None).source == source
    with pytest.raises(UserError):
        read_list(data("all.hst"), "knsb")  # named as another federation's list


def test_names_match_turned_round() -> None:
    assert "jan de vries" in name_keys("Vries, Jan de")
    assert "jan de vries" in name_keys("de Vries, Jan")
    assert "jurgen ozturk" in name_keys("Öztürk, Jürgen")
    assert "bert jansen" in name_keys("Jansen Bert")


@pytest.mark.parametrize(
    "content, key",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "ratings_not_text"),
        (b"PK\x03\x04\x14\x00\x00\x00\x08\x00", "ratings_not_text"),  # a zip as downloaded
        (b"just some words\nand more\n", "ratings_unknown_format"),
        (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><playerslist>&a;</playerslist>', "ratings_xml_refused"),
        (b"<?xml version='1.0'?><playerslist><player>", "ratings_xml_refused"),
        (b"<?xml version='1.0'?><other/>", "ratings_unknown_format"),
        (b"Relatienummer;Naam;Punten\n1;A;3\n", "ratings_knsb_columns"),
        (b"ID Number      Name      Sex\n1  A  M\n", "ratings_fide_columns"),
    ],
)
def test_hostile_files_are_refused_by_name(content: bytes, key: str) -> None:
    with pytest.raises(UserError) as refused:
        read_list(content, None)
    assert refused.value.key == key

"""The bot imports and exports the season file: what it exports is what it holds, and the CLI on the
exported file pairs and ranks exactly as the bot does."""

from __future__ import annotations

from tests.paths import REPO

from datetime import datetime, timezone

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from engine import keizer
from engine.keizer import pairing, season_file
from tests.bot.conftest import DIRECTOR, dump, ok, rows
from tests.bot.keizer.test_commands import make_season, pair_round_one

EXAMPLE = REPO / "examples" / "season.json"
PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)


async def test_import_then_export_keeps_every_round(commands: Core) -> None:
    reply = await commands.handle(DIRECTOR, "/importeer start=2026-12-03 naam=Import", attachment=EXAMPLE.read_bytes())
    assert reply.ok, reply.text
    exported = await commands.handle(DIRECTOR, "/exporteer")
    assert exported.ok and exported.attachment is not None
    name, content = exported.attachment
    assert name == "Import.json"
    original = season_file.parse_season(EXAMPLE.read_text())
    back = season_file.parse_season(content.decode())
    ids = {p.id: p.name for p in original.players}
    assert sorted((p.name, p.rating, p.group, p.joined_round) for p in back.players) == sorted(
        (p.name, p.rating, p.group, p.joined_round) for p in original.players
    )
    assert len(back.rounds) == len(original.rounds)
    for a, b in zip(original.rounds, back.rounds):
        assert [(ids[g.white], ids[g.black], g.result) for g in a.games] == [(g.white, g.black, g.result) for g in b.games]
        assert [ids[x] for x in a.byes] == list(b.byes)
        assert {ids[k]: v for k, v in a.absent.items()} == dict(b.absent)
    # the standings the bot shows are the engine's on the original file
    expected = [(s.player.name, s.score) for s in keizer.standings(original.players, original.rounds, original.settings)]
    shown = [(s.player.name, s.score) for s in keizer.standings(back.players, back.rounds, back.settings)]
    assert shown == expected


async def test_the_exported_file_pairs_like_the_bot(commands: Core, clock: ShiftedClock) -> None:
    assert (await commands.handle(DIRECTOR, "/importeer start=2026-12-03 naam=I", attachment=EXAMPLE.read_bytes())).ok
    exported = await commands.handle(DIRECTOR, "/exporteer")
    assert exported.attachment is not None
    file = season_file.parse_season(exported.attachment[1].decode())
    assert file.present is not None
    predicted = pairing.pair_round(file.players, file.rounds, file.present, file.settings)
    clock.set(PUBLISH)
    assert (await commands.handle(DIRECTOR, "/publiceer")).ok
    shown = (await commands.handle(DIRECTOR, "/indeling")).text
    for board, game in enumerate(predicted.games, start=1):
        assert any(line.split()[0] == str(board) and game.white in line and game.black in line for line in shown.splitlines())
    assert predicted.bye is not None and predicted.bye in shown


async def test_a_bad_file_is_refused_naming_the_line_and_changes_nothing(commands: Core, config) -> None:
    text = EXAMPLE.read_text().replace('"1-0"', '"1-O"', 1)
    line = next(i for i, row in enumerate(text.splitlines(), start=1) if '"1-O"' in row)
    assert (await commands.handle(DIRECTOR, "/help")).ok  # the club exists from its first command on
    before = dump(config.db_path)
    reply = await commands.handle(DIRECTOR, "/importeer start=2026-12-03 naam=X", attachment=text.encode())
    assert not reply.ok and f"line {line}" in reply.text
    assert dump(config.db_path) == before
    for bad in (b"\xff\xfe", b"{", b"[]"):
        assert not (await commands.handle(DIRECTOR, "/importeer start=2026-12-03 naam=X", attachment=bad)).ok
    assert not (await commands.handle(DIRECTOR, "/importeer start=2026-12-03 naam=X")).ok
    assert not (await commands.handle(DIRECTOR, "/importeer start=2020-01-02 naam=X", attachment=EXAMPLE.read_bytes())).ok
    assert dump(config.db_path) == before


async def test_a_start_far_ahead_would_date_the_played_rounds_after_today(commands: Core, config) -> None:
    """start= is the first round still to play; the played rounds are dated weekly before it. With a start
    months ahead they stood after today, and /publiceer refused "round 3 is only played on ..." for rounds
    long played (found in a console month): refused, nothing changed."""
    before = dump(config.db_path)
    reply = await commands.handle(DIRECTOR, "/importeer start=2027-09-02 naam=Import", attachment=EXAMPLE.read_bytes())
    assert not reply.ok and reply.text.startswith("start=2027-09-02 is de datum van de eerste ronde die nog gespeeld wordt")
    assert dump(config.db_path) == before


async def test_export_and_import_keep_each_rounds_date_and_the_free_evenings(commands: Core, clock: ShiftedClock, config) -> None:
    """Issue 44 §1: a round moved (/ronde 2 datum=) and a free evening (/seizoen vrij) go into the season file,
    and a season imported from it has the played rounds on their dates and the rounds to play around the
    free evenings, so its next export is the same file."""
    def dates(name: str) -> list[str]:
        return [d for (d,) in rows(config, "SELECT r.play_date FROM rounds r JOIN seasons s ON s.id = r.season_id"
                                           " WHERE s.name = ? ORDER BY r.number", name)]  # fmt: skip

    await make_season(commands)
    await pair_round_one(commands, clock)
    await ok(commands, DIRECTOR, "/ronde 2 datum=2026-12-09")  # a Wednesday, once
    await ok(commands, DIRECTOR, "/seizoen vrij 2026-12-24")
    await ok(commands, DIRECTOR, "/uitslag Bert 0-1")
    await ok(commands, DIRECTOR, "/uitslag Daan 1-0")
    clock.set(datetime(2026, 12, 9, 17, 5, tzinfo=timezone.utc))
    await ok(commands, DIRECTOR, "/publiceer")
    exported = (await commands.handle(DIRECTOR, "/exporteer")).attachment
    assert exported is not None
    file = season_file.parse_season(exported[1].decode())
    assert file.dates == ("2026-12-03", "2026-12-09") and file.free_evenings == ("2026-12-24",)

    reply = await commands.handle(DIRECTOR, "/importeer start=2026-12-17 naam=Terug rondes=6 toch", attachment=exported[1])
    assert reply.ok, reply.text
    assert dates("Terug") == ["2026-12-03", "2026-12-09", "2026-12-17", "2026-12-31", "2027-01-07", "2027-01-14"]
    assert await ok(commands, DIRECTOR, "/seizoen vrij") == "Vrije avonden van Terug: 2026-12-24."
    again = (await commands.handle(DIRECTOR, "/exporteer")).attachment
    assert again is not None and season_file.parse_season(again[1].decode()).dates == file.dates

    # a file whose played rounds are dated on or after start, or after today, is refused and changes nothing
    before = dump(config.db_path)
    after_start = exported[1].replace(b'"2026-12-09"', b'"2026-12-20"')
    late = await commands.handle(DIRECTOR, "/importeer start=2026-12-17 naam=Laat toch", attachment=after_start)
    assert not late.ok and late.text.startswith("Het bestand dateert de laatste gespeelde ronde op 2026-12-20, niet vóór start=2026-12-17")
    future = exported[1].replace(b'"2026-12-09"', b'"2026-12-16"')
    ahead = await commands.handle(DIRECTOR, "/importeer start=2026-12-17 naam=Vooruit toch", attachment=future)
    assert not ahead.ok and ahead.text.startswith("Het bestand dateert de laatste gespeelde ronde op 2026-12-16, na vandaag")
    assert dump(config.db_path) == before

"""Games for grades, the director's side: ``/partij`` (enter, correct, delete, list), ``/partijenimport``
(a CSV file, all or nothing) and ``/speeltempo`` (the time control that makes a competition's games count)."""



from __future__ import annotations

import csv
import io
import re
from collections import Counter

from engine import promotion as rules

from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.grades.competition_games import time_controls
from bot.grades.store import GradeStore, ManualGame


from bot.grades.cards import games_table, reason
from bot.grades.club_grades import load, record_promotions
from bot.grades.parsing import MAX_CSV_BYTES, MAX_CSV_ROWS, REQUIRED, _FIELDS, field_words, _SUBS, game_values, member_named, parse_number, parse_yes_no, split_options, with_opponent_words

# --------------------------------------------------------------------------- /partij


async def cmd_partij(core: Core, ctx: Context) -> Reply:
    """The director enters, corrects, deletes and lists games for grades."""
    sub = _SUBS.get(ctx.args[0].lower()) if ctx.args else None
    gs = GradeStore(core.store)
    if sub == "lijst":
        if len(ctx.args) < 2:
            raise UserError("error_usage", usage=ctx.t("grade_usage_partij"))
        member = await member_named(core, ctx, " ".join(ctx.args[1:]))
        lines = await record_promotions(core, ctx.club, ctx.now)
        view = await load(core, ctx.club)
        games, info = view.games_of(member.id)
        grade = view.grade(member.id)
        if not games:
            return Reply(lines=(*lines, ctx.t("grade_games_none", name=member.name)), private=True)
        # every game scored at the member's grade when it was played (before their first grade: not at all)
        scored = []
        for g in sorted(games, key=lambda g: (g.played_on, g.key)):
            own = view.grade_on(member.id, g.played_on, g.key) if grade is not None else None
            scored.append(rules.score_game(own if own is not None else -1, g))
        title = ctx.t("grade_games_title", name=member.name, count=len(games))
        return Reply(lines=(*lines, title), table=games_table(ctx, scored, info, numbers=True), private=True)
    if sub == "verwijder":
        if len(ctx.args) != 2:
            raise UserError("error_usage", usage=ctx.t("grade_usage_partij"))
        game = await _entered(gs, ctx, ctx.args[1])
        await gs.delete_game(game.id)
        lines = [ctx.t("grade_game_deleted", number=game.id, name=await member_name(core, game.member_id))]
        lines.extend(await record_promotions(core, ctx.club, ctx.now))
        return Reply(lines=tuple(lines))
    if sub == "wijzig":
        if len(ctx.args) < 3:
            raise UserError("error_usage", usage=ctx.t("grade_usage_partij"))
        game = await _entered(gs, ctx, ctx.args[1])
        words, fields = split_options(await with_opponent_words(ctx, ctx.args[2:]), "grade_usage_partij", ctx)
        if words or not fields:
            raise UserError("error_usage", usage=ctx.t("grade_usage_partij"))
        values = await game_values(core, ctx, fields, complete=False)
        if "opponent_id" in values and "opponent_grade" not in values and values["opponent_id"] is None:
            if game.opponent_grade is None:
                raise UserError("grade_error_opponent_grade", name=str(values["opponent_name"]))
        await gs.update_game(game.id, **values)
        return await _after_game(core, ctx, game.member_id, game.id, "grade_game_corrected")
    words, fields = split_options(await with_opponent_words(ctx, ctx.args), "grade_usage_partij", ctx)
    if not words:
        raise UserError("error_usage", usage=ctx.t("grade_usage_partij"))
    member = await member_named(core, ctx, " ".join(words))
    values = await game_values(core, ctx, fields, complete=True)
    if values.get("opponent_id") == member.id:
        raise UserError("grade_error_self")
    game_id = await gs.add_game(ctx.club.id, member.id, "manual", ctx.now, ctx.member.id if ctx.member else None, **values)
    return await _after_game(core, ctx, member.id, game_id, "grade_game_added")


def _game_key(member_id: int, played_on: object, opponent: object, result: object, event: object) -> tuple[object, ...]:
    """What makes two games of a member alike: date, opponent (case aside), result and event."""
    return (member_id, played_on, str(opponent).lower(), result, event or "")


async def member_name(core: Core, member_id: int) -> str:
    member = await core.store.member(member_id)
    return member.name if member else "?"


async def _entered(gs: GradeStore, ctx: Context, text: str) -> ManualGame:
    number = text.lstrip("#")
    game = await gs.game(ctx.club.id, int(number)) if re.fullmatch(r"[0-9]{1,9}", number) else None
    if game is None:
        raise UserError("grade_error_no_game", number=text[:12])
    return game


async def _after_game(core: Core, ctx: Context, member_id: int, game_id: int, key: str) -> Reply:
    """The reply to an entered or corrected game: what it is worth now, and any promotion it completed."""
    promoted = await record_promotions(core, ctx.club, ctx.now)
    view = await load(core, ctx.club)
    games, _ = view.games_of(member_id)
    game = next(g for g in games if g.key == f"m{game_id:08d}")
    own = view.grade_on(member_id, game.played_on, game.key)
    name = view.names.get(member_id, "?")
    if own is None:
        worth = ctx.t("grade_game_no_grade", name=name)
    else:
        worth = reason(ctx, rules.score_game(own, game))
    return Reply(lines=(ctx.t(key, number=game_id, name=name, date=game.played_on.isoformat(), worth=worth), *promoted))


# --------------------------------------------------------------------------- /partijenimport


async def cmd_partijenimport(core: Core, ctx: Context) -> Reply:
    """Games from a CSV file (docs/grades.md, examples/grades.csv), all or nothing: a wrong line refuses
    the whole file, naming the line. Lines alike (same player, date, opponent, result and event) are as
    many games; of those, as many as the database already holds are skipped, named by line number."""
    if ctx.args:
        raise UserError("error_usage", usage=ctx.t("grade_usage_partijenimport"))
    if ctx.attachment is None:
        raise UserError("grade_error_no_file")
    if len(ctx.attachment) > MAX_CSV_BYTES:
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_too_big", limit=MAX_CSV_BYTES))
    try:
        text = ctx.attachment.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_not_utf8"))
    sample = text[:2000]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        rows = [r for r in reader if any(cell.strip() for cell in r)]
    except csv.Error as err:  # a field over the csv module's limit, a NUL byte: the line it is on
        reason = ctx.t("grade_csv_field_too_long") if "field larger" in str(err) else ctx.t("grade_csv_bad_line")
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_unreadable", line=reader.line_num, reason=reason))
    if not rows:
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_empty"))
    header = [_FIELDS.get(h.strip().lower(), "") for h in rows[0]]
    unknown = [h for h, f in zip(rows[0], header) if not f]
    if unknown:
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_columns", columns=", ".join(unknown)[:200]))
    missing = [f for f in ("player", *REQUIRED) if f not in header]
    if missing:
        raise UserError("grade_error_csv", detail=ctx.t("grade_error_missing", fields=field_words(ctx, missing)))
    if len(rows) - 1 > MAX_CSV_ROWS:
        raise UserError("grade_error_csv", detail=ctx.t("grade_csv_too_many", limit=MAX_CSV_ROWS))
    gs = GradeStore(core.store)
    # A line alike another is another game (a two-game match): only as many lines of one game are skipped
    # as the database holds already, so the same file read again adds nothing and /partij agrees.
    stored = Counter(_game_key(g.member_id, g.played_on, g.opponent_name, g.result, g.event)
                     for g in await gs.games_of_club(ctx.club.id))  # fmt: skip
    todo: list[tuple[int, dict[str, object]]] = []
    skipped: list[int] = []
    for line_number, row in enumerate(rows[1:], start=2):
        try:
            if len(row) != len(header):
                raise UserError("grade_csv_cells", count=len(row), expected=len(header))
            fields = {f: cell.strip() for f, cell in zip(header, row)}
            member = await member_named(core, ctx, fields.pop("player"))
            values = await game_values(core, ctx, fields, complete=True)
            if values.get("opponent_id") == member.id:
                raise UserError("grade_error_self")
        except UserError as err:
            raise UserError("grade_error_csv_line", line=line_number, detail=ctx.t(err.key, **err.values))
        same = _game_key(member.id, values["played_on"], values["opponent_name"], values["result"], values.get("event", ""))
        if stored[same] > 0:
            stored[same] -= 1
            skipped.append(line_number)
            continue
        todo.append((member.id, values))
    by = ctx.member.id if ctx.member else None
    for member_id, values in todo:
        await gs.add_game(ctx.club.id, member_id, "csv", ctx.now, by, **values)
    if skipped:
        listed = ", ".join(str(n) for n in skipped[:-1])
        listed = f"{listed} {ctx.t('grade_and')} {skipped[-1]}" if listed else str(skipped[-1])
        lines = [ctx.t("grade_imported_skipped", count=len(todo), skipped=len(skipped), lines=listed)]
    else:
        lines = [ctx.t("grade_imported", count=len(todo))]
    lines.extend(await record_promotions(core, ctx.club, ctx.now))
    return Reply(lines=tuple(lines))


# --------------------------------------------------------------------------- /speeltempo


async def cmd_speeltempo(core: Core, ctx: Context) -> Reply:
    """The time control of a Keizer season (default: the running main season) or an NK tournament, so its
    confirmed games count for grades: ``/speeltempo [seizoen=Naam | nk=Naam] minuten=90 byoyomi=30
    [officieel=ja|nee]``. A club competition is not an official event in seed 002's sense, so a season
    counts only with ``officieel=ja``; an NK (a national championship) is official unless ``officieel=nee``.
    Without options: the time controls set."""
    gs = GradeStore(core.store)
    if not ctx.args:
        controls = await time_controls(core, ctx.club.id)
        if not controls:
            return Reply(lines=(ctx.t("grade_time_none"),))
        return Reply(lines=tuple(
            ctx.t("grade_time_line", kind=ctx.t(f"grade_kind_{c.kind}"), name=c.name, minutes=c.minutes,
                  byoyomi=c.byoyomi, official=ctx.t("grade_yes" if c.official else "grade_no"))
            for c in controls
        ))  # fmt: skip
    values: dict[str, str] = {}
    keys = {"seizoen": "season", "season": "season", "nk": "nk", "minuten": "minutes", "minutes": "minutes",
            "byoyomi": "byoyomi", "officieel": "official", "official": "official"}  # fmt: skip
    for arg in ctx.args:
        key, sep, value = arg.partition("=")
        if not sep or key.lower() not in keys or not value.strip():
            raise UserError("error_usage", usage=ctx.t("grade_usage_speeltempo"))
        values[keys[key.lower()]] = value.strip()
    if "minutes" not in values or "byoyomi" not in values or ("season" in values and "nk" in values):
        raise UserError("error_usage", usage=ctx.t("grade_usage_speeltempo"))
    minutes = parse_number(values["minutes"], 0, 1000)
    byoyomi = parse_number(values["byoyomi"], 0, 3600)
    kind = "nk" if "nk" in values else "season"
    source = core.registry.competition(kind)
    if source is None:
        raise UserError("error_usage", usage=ctx.t("grade_usage_speeltempo"))
    found = await source.find(core, ctx, values.get(kind))
    ref_id, name = found.id, found.name
    # A club competition is not an official event in seed 002's sense; a national championship is.
    official = parse_yes_no(values.get("official", "ja" if kind == "nk" else "nee"))
    await gs.set_time_control(ctx.club.id, kind, ref_id, minutes, byoyomi, official)
    lines = [
        ctx.t("grade_time_set", kind=ctx.t(f"grade_kind_{kind}"), name=name, minutes=minutes, byoyomi=byoyomi,
              official=ctx.t("grade_yes" if official else "grade_no"))
    ]  # fmt: skip
    lines.extend(await record_promotions(core, ctx.club, ctx.now))
    return Reply(lines=tuple(lines))

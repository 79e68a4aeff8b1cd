"""``/groepen`` (``/groups``): next season's groups A-D, by seed 004's "GEHANTEERDE REGELS GROEPEN
INDELING" (``engine.keizer.groups.propose_groups``).

- ``/groepen [Naam=B ...]``, anyone in the club: the proposal. While the main season is being played it
  is "if the season ended now" (from the ranking as it stands); once the director has created the new
  season (``/seizoen``, which carries every player with last season's group) and before its first round
  is paired, it is from the final ranking of the season before. Each group's players, and who moves and
  why: a group's winner (its highest player who played 2/3 of the rounds, as for the group prize) up,
  its last down, newcomers to the group whose rating range fits, then the director's choices
  (``Naam=B``, rule 4), which a member may also try out here.
- ``/groepen toepassen [Naam=B ...]`` (``apply``), director: put the proposal on the new season.
- ``/groepen A: Anna, Bert; B: ...``, director: set groups by hand in the running season
  (``bot/keizer/group_setting.py``).
"""

from __future__ import annotations

from engine.keizer import groups as group_rules
from engine.keizer import prizes as prize_rules
from engine.keizer.season import GROUPS

from bot.core.club.name_key import name_key
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply
from bot.keizer import competition
from bot.keizer.group_setting import group_lists, set_groups
from bot.keizer.lookups import active_season, keizer_store

APPLY = {"toepassen", "apply"}


async def cmd_groepen(core: Core, ctx: Context) -> Reply:
    wanted = group_lists(ctx)  # /groepen A: Anna, Bert; B: ...: the director sets them (group_setting.py)
    if wanted is not None:
        return await set_groups(core, ctx, wanted)
    args = list(ctx.args)
    apply = bool(args) and args[0].lower() in APPLY
    if apply:
        args.pop(0)
        if not ctx.is_director:
            raise UserError("error_director_only", command="groepen toepassen")
    choices: dict[str, str] = {}
    words: list[str] = []  # a name of several words typed without quotes: Anna de Vries=B
    for arg in args:
        name, sep, group = arg.rpartition("=")
        if not sep:
            words.append(arg)
            continue
        name, words = " ".join([*words, name]), []
        if not name.strip():
            raise UserError("error_usage", usage=ctx.t("groups_usage"))
        group = group.strip().upper()
        if group not in GROUPS:
            raise UserError("groups_bad_group", group=group[:10], groups=", ".join(GROUPS))
        choices[" ".join(name.split())] = group
    if words:  # words after the last Name=Group
        raise UserError("error_usage", usage=ctx.t("groups_usage"))

    current = await active_season(core, ctx)
    current_data = await competition.load(core.store, current)
    if current_data.rounds:  # being played: the proposal as if it ended now
        source, source_data, target = current, current_data, None
    else:
        previous = await keizer_store(core).previous_season(ctx.club.id, current.id)
        if previous is None:
            raise UserError("groups_nothing_played", season=current.name)
        source, source_data, target = previous, await competition.load(core.store, previous), current
    if apply and target is None:
        raise UserError("groups_apply_when", season=current.name)

    last_groups = {competition.player_id(sp.member_id): sp.group_name for sp in source_data.season_players if sp.group_name}
    if not last_groups:
        raise UserError("groups_none", season=source.name)
    ranking = [s.player.id for s in competition.standings(source_data)]  # in rank order
    prizes = prize_rules.prizes_from_rounds(
        source_data.players, source_data.rounds, source_data.settings, season_rounds=source.rounds_count
    )
    next_players = (current_data if target is not None else source_data).season_players
    names = {competition.player_id(sp.member_id): sp.name for sp in [*source_data.season_players, *next_players]}
    by_name = {name_key(sp.name): competition.player_id(sp.member_id) for sp in next_players}
    overrides: dict[str, str] = {}
    for name, group in choices.items():
        pid = by_name.get(name_key(name))
        if pid is None:
            await ctx.find_member(name)  # not a member at all: "unknown player"
            raise UserError("groups_not_in_season", name=name[:40], season=(target or source).name)
        overrides[pid] = group
    proposal = group_rules.propose_groups(
        last_groups, ranking,
        members=[competition.player_id(sp.member_id) for sp in next_players],
        ratings={competition.player_id(sp.member_id): sp.rating for sp in next_players},
        eligible=prizes.eligible, overrides=overrides,
    )  # fmt: skip

    played = max((r.number for r in source_data.rounds), default=0)
    if target is None:
        lines = [ctx.t("groups_title_now", season=source.name, round=played, required=prizes.required)]
    else:
        lines = [ctx.t("groups_title_next", season=target.name, previous=source.name, required=prizes.required)]
    for group in GROUPS:
        members = sorted((names[p] for p in proposal.members(group)), key=str.casefold)
        lines.append(ctx.t("groups_line", group=group, players=", ".join(members) or "-"))
    for move in sorted(proposal.moves, key=lambda m: (m.new, names[m.player].casefold())):
        lines.append(
            ctx.t(f"groups_move_{move.kind}", name=names[move.player], old=move.old or "-", new=move.new)
        )
    if not proposal.moves:
        lines.append(ctx.t("groups_no_moves"))
    if apply:
        assert target is not None
        for sp in next_players:
            new_group = proposal.groups.get(competition.player_id(sp.member_id))
            if new_group is not None and new_group != sp.group_name:
                await keizer_store(core).upsert_season_player(target.id, sp.member_id, sp.rating, sp.joined_round, new_group)
        lines.append(ctx.t("groups_applied", season=target.name))
    elif target is not None and ctx.is_director:
        lines.append(ctx.t("groups_how_to_apply"))
    return Reply(lines=tuple(lines))

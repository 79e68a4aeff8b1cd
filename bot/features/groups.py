"""``/groepen`` (``/groups``): next season's groups A-D, by seed 004's "GEHANTEERDE REGELS GROEPEN
INDELING" (``engine.season.propose_groups``).

- ``/groepen [Naam=B ...]``, anyone in the club: the proposal. While the main season is being played it
  is "if the season ended now" (from the ranking as it stands); once the director has created the new
  season (``/seizoen``, which carries every player with last season's group) and before its first round
  is paired, it is from the final ranking of the season before. Each group's players, and who moves and
  why: a group's winner (its highest player who played 2/3 of the rounds, as for the group prize) up,
  its last down, newcomers to the group whose rating range fits, then the director's choices
  (``Naam=B``, rule 4), which a member may also try out here.
- ``/groepen toepassen [Naam=B ...]`` (``apply``), director: put the proposal on the new season.
"""

from __future__ import annotations

from bot import competition
from bot.commands import Commands, Context, UserError
from bot.replies import Reply
from bot.store import Season
from engine import season as season_rules

APPLY = {"toepassen", "apply"}


def register(commands: Commands) -> None:
    commands.add("groepen", cmd_groepen, director_only=False, english="groups")


async def cmd_groepen(commands: Commands, ctx: Context) -> Reply:
    args = list(ctx.args)
    apply = bool(args) and args[0].lower() in APPLY
    if apply:
        args.pop(0)
        if not ctx.is_director:
            raise UserError("error_director_only", command="groepen toepassen")
    choices: dict[str, str] = {}
    for arg in args:
        name, sep, group = arg.rpartition("=")
        if not sep or not name.strip():
            raise UserError("error_usage", usage=ctx.t("groups_usage"))
        group = group.strip().upper()
        if group not in season_rules.GROUPS:
            raise UserError("groups_bad_group", group=group[:10], groups=", ".join(season_rules.GROUPS))
        choices[name.strip()] = group

    current = await commands._season(ctx)
    current_data = await competition.load(commands.store, current)
    if current_data.rounds:  # being played: the proposal as if it ended now
        source, source_data, target = current, current_data, None
    else:
        previous = await _previous_season(commands, ctx.club.id, current.id)
        if previous is None:
            raise UserError("groups_nothing_played", season=current.name)
        source, source_data, target = previous, await competition.load(commands.store, previous), current
    if apply and target is None:
        raise UserError("groups_apply_when", season=current.name)

    last_groups = {competition.player_id(sp.member_id): sp.group_name for sp in source_data.season_players if sp.group_name}
    if not last_groups:
        raise UserError("groups_none", season=source.name)
    ranking = [s.player.id for s in competition.standings(source_data)]  # in rank order
    prizes = season_rules.prizes_from_rounds(
        source_data.players, source_data.rounds, source_data.settings, season_rounds=source.rounds_count
    )
    next_players = (current_data if target is not None else source_data).season_players
    names = {competition.player_id(sp.member_id): sp.name for sp in [*source_data.season_players, *next_players]}
    by_name = {sp.name.casefold(): competition.player_id(sp.member_id) for sp in next_players}
    overrides: dict[str, str] = {}
    for name, group in choices.items():
        pid = by_name.get(name.casefold())
        if pid is None:
            await commands._find_member(ctx, name)  # not a member at all: "unknown player"
            raise UserError("groups_not_in_season", name=name[:40], season=(target or source).name)
        overrides[pid] = group
    proposal = season_rules.propose_groups(
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
    for group in season_rules.GROUPS:
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
            group = proposal.groups.get(competition.player_id(sp.member_id))
            if group is not None and group != sp.group_name:
                await commands.store.upsert_season_player(target.id, sp.member_id, sp.rating, sp.joined_round, group)
        lines.append(ctx.t("groups_applied", season=target.name))
    elif target is not None and ctx.is_director:
        lines.append(ctx.t("groups_how_to_apply"))
    return Reply(lines=tuple(lines))


async def _previous_season(commands: Commands, club_id: int, current_id: int) -> Season | None:
    """The club's main season before the current one."""
    row = await commands.store._one(
        "SELECT id FROM seasons WHERE club_id = ? AND kind = 'main' AND id < ? ORDER BY id DESC LIMIT 1",
        (club_id, current_id),
    )
    return await commands.store.season(row["id"]) if row else None

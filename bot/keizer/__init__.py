"""The Keizer competition (seeds 003, 004): the club's weekly competition, its rapid twin, prizes and
groups. ``register(registry)`` adds its tables, its commands, its timed work, its competition source and
its website pages."""

from bot.core.commands.registry import Registry
from bot.core.storage.table_rules import AtMostOne

# What the commands rely on: "the" season of a kind (bot/keizer/lookups.py active_season).
ONE_ACTIVE_SEASON = AtMostOne(("club_id", "kind"), ("status", "active"), "club {club_id} has {count} active {kind} seasons (at most one)")


def register(registry: Registry) -> None:
    from bot.keizer import web
    from bot.keizer.commands import register as register_commands

    table = registry.table
    table("seasons", at_most_one=(ONE_ACTIVE_SEASON,), kept_on_copy=("version",))  # its triggers count changes
    table("rounds", dates=("play_date",))
    table("free_evenings", dates=("day",))  # /seizoen vrij (bot/keizer/free_evenings.py)
    table("club_venues", times=("starts_at", "ends_at"))  # /speelavond tijd=19:30-23:30: local times of day
    for name in ("games", "byes", "pairing_failures", "season_online", "postponed_games"):
        table(name)
    # A member who never played may have these: a place in a season, sign-offs, a sign-on, an attendance
    # mode, a calendar feed, a sign-on waiting for the director's approval. A sign-off or sign-on is no clash in a round; a sign-off says absent.
    for name in ("season_players", "attendance_modes", "calendar_feeds", "join_requests"):
        table(name, goes_with_member=True)
    table("signoffs", goes_with_member=True, absent_in_round=("member_id",), clashes_in_round=False)
    table("signons", goes_with_member=True, clashes_in_round=False)
    register_commands(registry)
    web.register(registry)
    from bot.keizer.online_round import SYSTEM, KeizerOnline

    from bot.keizer.online_results import KeizerResults

    registry.online_rounds[SYSTEM] = KeizerOnline()  # its rounds played on lichess (issue 43 §2)
    registry.online_results[SYSTEM] = KeizerResults()  # and their results read back (§3)
    from bot.keizer.group_column import GROUP_COLUMN

    registry.member_columns.append(GROUP_COLUMN)  # the member list's column 8: the group (issue 44 §2)

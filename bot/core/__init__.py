"""The thin core every system builds on; it imports no system and names no system's table, command or
word. Five floors, each a package a newcomer can name:

- ``commands``: the command machinery. ``Core.handle(actor, text)`` (``dispatch``): parse, rights, one
  transaction per command, the reply; ``Actor``, ``Context``, ``UserError`` (``context``); ``Command``,
  ``Param``, ``Registry`` (``registry``): what systems add themselves to; ``Reply`` (``replies``).
- ``running``: the bot as it runs. The clock, the scheduler's alarm, sending within the platforms' limits,
  health and metrics, the log's lines, what the file commands share.
- ``storage``: the database. Both drivers (SQLite, PostgreSQL) behind one interface, their migrations and
  checks, the core's shared tables (``store``: clubs, members, identities, announcements) and how an owner
  declares a table (``table_rules``).
- ``club``: the club and its members. Joining, linking chat accounts, the member list and its import,
  names, federation identities, the club's details and style, members' links and notices.
- ``output``: what the bot draws and hands out. Pictures and fonts, local times and calendars, CSV files.
- ``online``: playing online on a chess server. The lichess client keeping lichess's rules, "log in with
  lichess" (PKCE), whether this bot plays online at all (``core.online``).
- ``i18n``: the core's words, and the catalogue every system's words join.

The floors are cut by meaning, not by who imports whom: the club's commands use the machinery's
``Context`` and ``Reply``, the store uses ``name_key`` from the club floor. What holds for all of them is
the core's rule (tests/test_architecture.py): nothing under ``bot/core`` imports a system or an adapter.
"""

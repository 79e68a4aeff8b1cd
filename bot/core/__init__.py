"""The thin core every system builds on; it imports no system.

- ``dispatch``: ``Core.handle(actor, text)``: parse, rights, one transaction per command, the reply.
- ``context``: ``Actor``, ``Context``, ``UserError``; ``registry``: ``Command``, ``Param``, ``Registry``.
- ``database`` (connection, transactions, group commit, the read path), ``database_lock`` (what tells
  ``clubbot restore`` a bot has the file open), ``migrations``, ``store`` (clubs, members, identities,
  announcements), ``competitions`` (what systems share), ``membership`` (joining a club), ``linking``
  (/koppel and link codes), ``member_admin`` (rename, merge, remove members).
- ``scheduler`` (the alarm), ``rate_limit`` (sending within the platforms' limits), ``user_limits`` (one
  member in a tight loop), ``club_slots``, ``reply_cache``, ``clock``, ``calendar`` (local times),
  ``limits`` (hostile sizes), ``i18n``, ``replies``, ``pictures`` and ``fonts``, ``completers``,
  ``club_commands`` (/help, /taal, /kanaal, /koppel), ``checkpoints``, ``cli_common``.
"""

"""The thin core every system builds on; it imports no system.

- ``dispatch``: ``Core.handle(actor, text)``: parse, rights, one transaction per command, the reply.
- ``context``: ``Actor``, ``Context``, ``UserError``; ``registry``: ``Command``, ``Param``, ``Registry``.
- ``database`` (connection, transactions), ``migrations``, ``store`` (clubs, members, identities,
  announcements), ``competitions`` (what systems share), ``membership`` (joining a club).
- ``scheduler`` (the alarm), ``clock``, ``calendar`` (local times), ``i18n``, ``replies``, ``pictures``,
  ``completers``, ``club_commands`` (/help, /taal, /kanaal), ``checkpoints``, ``cli_common``.
"""

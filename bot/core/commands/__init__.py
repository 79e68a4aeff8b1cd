"""The command machinery: where every command arrives and how it is answered.

``dispatch`` (``Core.handle``: parse, find the command, rights, one transaction, the reply), ``context``
(``Actor``, ``Context``, ``UserError``), ``registry`` (``Command``, ``Param``, ``Registry``: commands,
tables, timed work, web pages), ``replies`` (the platform-neutral ``Reply``) and ``reply_cache``,
``command_line`` (the words of a line), ``completers`` (autocomplete), ``help`` and ``club_commands``
(/help, /taal, /kanaal), ``competitions`` (what one system may ask of another's competitions), and the
limits on what users send: ``limits``, ``user_limits``, ``club_slots``.
"""

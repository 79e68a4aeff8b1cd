"""The Discord adapter: ``adapter.py`` (the client, commands in, replies out), ``slash.py`` (application
commands built from the registry's commands and their parameters), ``render.py`` (escaping, tables, long
texts as several messages, file names Discord keeps), ``announce.py`` (announcements to a club's channel,
exactly once) and ``channels.py`` (may a channel carry the announcements)."""

"""The Discord adapter: ``adapter.py`` (the client, commands in, replies and announcements out) and
``slash.py`` (application commands built from the registry's commands and their parameters)."""

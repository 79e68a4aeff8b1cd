"""The Telegram adapter: ``adapter.py`` (updates in, directors, menus), ``outgoing.py`` (replies and
announcements out), ``render.py`` (HTML and message limits) and ``store.py`` (its own SQL)."""

"""The database, on SQLite (the embedded default) or PostgreSQL (several processes), behind one interface.

``database`` (SQLite: one writer, group commit, the read path) and ``postgres`` with ``pg_lanes``,
``pg_claims`` and ``pg_literals`` (the same on PostgreSQL), ``outage`` (the database out of reach), ``sql_dialect`` (the one SQL rewritten for PostgreSQL),
``migrations`` and ``pg_migrations`` (``migrations/``, applied in order at start), ``schema_check``,
``row_checks`` and ``migrate_db`` (what restore and migrate-db ask of a database and its rows),
``database_lock``, ``checkpoints``; ``store`` and ``store_part`` (the core's shared tables: clubs,
members, identities, announcements), ``tables`` and ``table_rules`` (who owns which table, and what
removing a member means for it).
"""

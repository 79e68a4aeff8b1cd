"""Feature modules: each adds its commands to the commands layer with ``register(commands)``.

A feature module (``mcmahon.py``, ``grades.py``, ``go.py``, ...) defines handlers
``async def handler(commands: Commands, ctx: Context) -> Reply`` and a function
``register(commands: Commands) -> None`` that calls ``commands.add(name, handler, director_only, english)``.
Optional hooks: ``async def after_command(commands, ctx, name)`` runs after every command that succeeded,
in its transaction; ``run_due(commands, now)`` and ``next_due_moment(commands)`` give it timed work on
the scheduler's alarm. Its sentences go in ``bot/i18n/{nl,en}/<feature>.json``; help texts are the keys ``help_<name>``.
"""

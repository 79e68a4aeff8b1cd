"""The bot as it runs: ``clock`` (the time the bot lives in), ``scheduler`` (the alarm: each system's timed
work, the outbox, and a command's own club's work after it), ``batched`` (calls that go together),
``rate_limit`` (sending within the platforms' limits), ``health`` (/healthz, /metrics), ``log_lines``
(one line per event, with its club) and ``cli_common`` (what the file commands share).
"""

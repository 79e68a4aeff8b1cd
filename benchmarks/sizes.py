"""``--smoke``: a benchmark's smallest size, which the test suite runs once (``tests/benchmarks/``) to see that
it still prints every figure it promises. Its figures mean nothing; nothing is timed against them."""

from __future__ import annotations

import argparse
import sys
from typing import Any

SMOKE_HELP = "the smallest size: every part runs once, in seconds (the tests run this; its figures mean nothing)"


def smallest(parser: argparse.ArgumentParser, **sizes: Any) -> None:
    """Add ``--smoke`` to ``parser``: with it, ``sizes`` are the defaults (a size given on the command line
    still wins)."""
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    if "--smoke" in sys.argv[1:]:
        parser.set_defaults(**sizes)

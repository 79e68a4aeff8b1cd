"""What the `clubbot` file commands (keizer, mcmahon, restore) share: the exit code for a user error and
the wrapper that prints a command's output, or its error on stderr."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

EXIT_ERROR = 2


class CliError(Exception):
    """A user error: the message goes to stderr, the exit code is 2."""


def guarded(
    prog: str,
    fn: Callable[[argparse.Namespace], str],
    errors: tuple[type[Exception], ...] = (),
    where: Callable[[argparse.Namespace], str] | None = None,
) -> Callable[[argparse.Namespace], int]:
    """Run a command that returns its output: print it (exit 0), or print ``prog: [where: ]error`` on
    stderr and exit 2 for a ``CliError`` or one of ``errors``; nothing then goes to stdout."""

    caught: tuple[type[Exception], ...] = (CliError, *errors)

    def handler(args: argparse.Namespace) -> int:
        try:
            out = fn(args)
        except caught as e:
            place = f"{where(args)}: " if where is not None else ""
            print(f"{prog}: {place}{e}", file=sys.stderr)
            return EXIT_ERROR
        sys.stdout.write(out)
        return 0

    handler.__name__ = fn.__name__
    handler.__doc__ = fn.__doc__
    return handler


def file_command(
    sub: Any, name: str, help: str, file_metavar: str, handler: Callable[[argparse.Namespace], int], json_help: str
) -> argparse.ArgumentParser:
    """A subcommand that works on one file (its first argument, stored as ``file``) and can print JSON
    instead of text (``--json``); the caller adds its own further options."""
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help)
    parser.add_argument("file", metavar=file_metavar)
    parser.add_argument("--json", action="store_true", help=json_help)
    parser.set_defaults(handler=handler)
    return parser


def read_text_file(path: str, name_it: bool = True) -> str:
    """A UTF-8 text file's content (a byte-order mark is skipped); a ``CliError`` that says why it cannot be
    read (naming the file unless ``name_it`` is False, for a command that names it itself)."""
    shown = f" {path}" if name_it else ""
    try:
        with open(path, encoding="utf-8-sig") as f:
            return f.read()
    except OSError as e:
        raise CliError(f"cannot read{shown}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        what = f"{path} is not UTF-8 text" if name_it else "not UTF-8 text"
        raise CliError(f"{what}: {e.reason} at byte {e.start}") from None


def round_number(text: str) -> int:
    """An argparse type: a round number, 0 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a round number: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"round numbers are 0 or more, not {n}")
    return n

"""The words of a command line as people type them: spaces separate words, double quotes group them.

An apostrophe is a letter (``O'Neill``, ``D'Artagnan``, ``van 't Hof``): only a double quote groups
words, the straight one (``"Jan de Vries"``) or the typographic ones phones type (``“Jan de Vries”``,
``„Jan de Vries”``). Inside quotes a backslash keeps the next quote or backslash as a letter, so any
name can be quoted (``quote_word``) and reads back as itself. Quotes may sit inside a word:
``tegen="Bert Jansen"`` is the one word ``tegen=Bert Jansen``.

A word typed in quotes from its first letter is a ``Quoted`` word: always a name or a text, never a
keyword (``/afmelden "3"`` names the member called 3, ``/afmelden 3`` reads round 3); ``keyword`` is how
a handler reads a word as one of its keywords (both in ``bot/core/commands/context.py``).
"""

from __future__ import annotations

from bot.core.commands.context import Quoted, UserError

OPENING = frozenset('"“”„')
CLOSING = frozenset('"“”')


def split_words(text: str) -> list[str]:
    """``Anna "Jan de Vries" 3`` -> ["Anna", "Jan de Vries", "3"] (the quoted one a ``Quoted``); a quote
    left open is refused."""
    words: list[str] = []
    word: list[str] = []
    in_word = quoted = escaped = whole = False
    for char in text:
        if quoted:
            if escaped:  # only a quote or a backslash is escaped: "C:\temp" keeps its backslash
                word.append(char if char in OPENING or char == "\\" else "\\" + char)
                escaped = False
            elif char == "\\":
                escaped = True
            elif char in CLOSING:
                quoted = False
            else:
                word.append(char)
        elif char.isspace():
            if in_word:
                words.append(Quoted("".join(word)) if whole else "".join(word))
                word, in_word, whole = [], False, False
        elif char in OPENING:
            whole = whole or not in_word  # the quote opens the word: the whole word is a name
            quoted = in_word = True
        else:
            word.append(char)
            in_word = True
    if quoted:
        raise UserError("error_malformed")
    if in_word:
        words.append(Quoted("".join(word)) if whole else "".join(word))
    return words


def quote_word(word: str) -> str:
    """``word`` as one word of a command line, quoted where it must be (a ``Quoted`` word always is)."""
    if word and not isinstance(word, Quoted) and not any(c.isspace() or c in OPENING or c == "\\" for c in word):
        return word
    return '"' + word.replace("\\", "\\\\").translate({ord(c): "\\" + c for c in OPENING}) + '"'


def keyed_values(words: list[str], keys: dict[str, str], spoken: frozenset[str] = frozenset()) -> dict[str, str] | None:
    """``key=value`` words as {field: value} (``keys`` maps each typed key, any case, to its field); the
    value of a field in ``spoken`` (an address, a person's name) runs on over the unquoted words that follow
    up to the next ``key=``, as people type ``arbiter=Jan de Vries``. None (the usage): a word that is no
    known key and follows no such field, a field given twice, or one left empty (``plaats=``: clearing is
    ``plaats=-``, said on purpose)."""
    found: dict[str, str] = {}
    current = ""
    for word in words:
        key, eq, value = word.partition("=")
        field = keys.get(key.lower()) if eq else None
        if field is not None and field not in found:
            current = field
            found[field] = value.strip()
        elif field is None and current in spoken:
            found[current] = f"{found[current]} {word}".strip()
        else:
            return None
    if any(not value for value in found.values()):
        return None
    return found

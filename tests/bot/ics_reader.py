"""A strict reader of iCalendar files, written from RFC 5545 (not from the bot's writer): it refuses what
the RFC does not allow and returns the components with their properties unescaped.

- 3.1: every content line ends in CRLF, is at most 75 octets, and is continued by a line starting with one
  space or tab (unfolding removes CRLF and that one character); no other CR or LF.
- 3.1: ``contentline = name *(";" param) ":" value``, names of ALPHA, DIGIT and "-"; parameter values
  plain (no ``"`` ``;`` ``:`` ``,``) or quoted.
- 3.3.11: TEXT escapes ``\\\\``, ``\\;``, ``\\,``, ``\\n``/``\\N``; a bare ``;`` or ``,`` or another
  backslash is an error (for the single-valued TEXT properties read here).
- 3.3.5: DATE-TIME in UTC is ``YYYYMMDDTHHMMSSZ``.
- 3.4, 3.6.1, 3.6.6: VCALENDAR has PRODID and VERSION once; VEVENT has UID and DTSTAMP once and DTSTART,
  DTEND after it; VALARM has ACTION and TRIGGER once, DISPLAY with a DESCRIPTION; BEGIN and END nest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

_NAME = r"[A-Za-z0-9-]+"
_PARAM = rf';{_NAME}=(?:"[^"\x00-\x08\x0a-\x1f\x7f]*"|[^";:,\x00-\x08\x0a-\x1f\x7f]*)(?:,(?:"[^"]*"|[^";:,]*))*'
_LINE = re.compile(rf"^({_NAME})((?:{_PARAM})*):(.*)$")
_TEXT = {"SUMMARY", "DESCRIPTION", "LOCATION", "X-WR-CALNAME"}
_UTC = re.compile(r"^[0-9]{8}T[0-9]{6}Z$")


class Invalid(ValueError):
    pass


@dataclass
class Component:
    name: str
    props: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # name -> [(params, value)]
    children: list["Component"] = field(default_factory=list)

    def one(self, name: str) -> str:
        values = self.props.get(name, [])
        if len(values) != 1:
            raise Invalid(f"{self.name} must have {name} once, has it {len(values)} times")
        return values[0][1]

    def params(self, name: str) -> str:
        return self.props[name][0][0]


def unescape(value: str) -> str:
    out, i = [], 0
    while i < len(value):
        char = value[i]
        if char == "\\":
            if i + 1 >= len(value) or value[i + 1] not in "\\;,nN":
                raise Invalid(f"a bad escape in {value!r}")
            out.append("\n" if value[i + 1] in "nN" else value[i + 1])
            i += 2
            continue
        if char in ";,":
            raise Invalid(f"an unescaped {char!r} in TEXT {value!r}")
        out.append(char)
        i += 1
    return "".join(out)


def utc_moment(value: str) -> datetime:
    if not _UTC.match(value):
        raise Invalid(f"not a UTC DATE-TIME: {value!r}")
    return datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)


def read(raw: bytes) -> Component:
    text = raw.decode("utf-8")
    if not text.endswith("\r\n"):
        raise Invalid("the file does not end in CRLF")
    physical = text[:-2].split("\r\n")
    for line in physical:
        if "\r" in line or "\n" in line:
            raise Invalid(f"a bare CR or LF in {line!r}")
        if len(line.encode("utf-8")) > 75:
            raise Invalid(f"a line over 75 octets: {line!r}")
    logical: list[str] = []
    for line in physical:
        if line[:1] in (" ", "\t"):
            if not logical:
                raise Invalid("a continuation line first")
            logical[-1] += line[1:]
        else:
            logical.append(line)
    stack: list[Component] = []
    root: Component | None = None
    for line in logical:
        match = _LINE.match(line)
        if match is None:
            raise Invalid(f"not a content line: {line!r}")
        name, params, value = match.group(1).upper(), match.group(2), match.group(3)
        if any(ord(c) < 32 and c != "\t" for c in value):
            raise Invalid(f"a control character in {line!r}")
        if name == "BEGIN":
            component = Component(value.upper())
            if stack:
                stack[-1].children.append(component)
            elif root is not None:
                raise Invalid("a second top-level component")
            else:
                root = component
            stack.append(component)
        elif name == "END":
            if not stack or stack[-1].name != value.upper():
                raise Invalid(f"END:{value} does not close {stack[-1].name if stack else 'anything'}")
            stack.pop()
        else:
            if not stack:
                raise Invalid(f"a property outside a component: {line!r}")
            stack[-1].props.setdefault(name, []).append((params, unescape(value) if name in _TEXT else value))
    if stack or root is None or root.name != "VCALENDAR":
        raise Invalid("the components do not close, or it is no VCALENDAR")
    _check(root)
    return root


def _check(calendar: Component) -> None:
    calendar.one("PRODID")
    if calendar.one("VERSION") != "2.0":
        raise Invalid("VERSION is not 2.0")
    uids = []
    for event in calendar.children:
        if event.name != "VEVENT":
            continue
        uids.append(event.one("UID"))
        utc_moment(event.one("DTSTAMP"))
        start, end = utc_moment(event.one("DTSTART")), utc_moment(event.one("DTEND"))
        if end <= start:
            raise Invalid("DTEND is not after DTSTART")
        for alarm in event.children:
            if alarm.name != "VALARM":
                raise Invalid(f"{alarm.name} inside a VEVENT")
            if alarm.one("ACTION") == "DISPLAY":
                alarm.one("DESCRIPTION")
            trigger = alarm.one("TRIGGER")
            if "VALUE=DATE-TIME" in alarm.params("TRIGGER").upper():
                utc_moment(trigger)
    if len(uids) != len(set(uids)):
        raise Invalid("two events share a UID")


def events(calendar: Component) -> list[Component]:
    return [c for c in calendar.children if c.name == "VEVENT"]

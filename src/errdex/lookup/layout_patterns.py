"""A log4j/logback pattern layout (``%d{ISO8601} - %-5p [%t:%C{1}@%L] - %m%n``) compiled to
one RE2 regex with named groups, so an operator can name any layout a log was written with.

RE2 runs in time linear in the line, whatever the pattern: a log line cannot make the
parser slow. A pattern this module cannot read is one clear ``UsageError`` (exit 2).
"""

from __future__ import annotations

import re

from errdex.errors import UsageError

# One conversion: ``%-5p``, ``%.30c``, ``%d{yyyy-MM-dd HH:mm:ss}``, ``%logger{36}``, ``%%``.
_CONVERSION = re.compile(r"%(-?\d*(?:\.\d+)?)([A-Za-z]+|%)(?:\{([^}]*)\})?")

_LEVEL = r"[A-Za-z]+"
_NAMED_DATES = {
    "ISO8601": r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[,.]\d{3}",
    "ISO8601_BASIC": r"\d{8}T?\d{6}[,.]\d{3}",
    "ABSOLUTE": r"\d\d:\d\d:\d\d[,.]\d{3}",
    "DATE": r"\d\d [A-Za-z]{3} \d{4} \d\d:\d\d:\d\d[,.]\d{3}",
    "COMPACT": r"\d{17}",
    "UNIX": r"\d+",
    "UNIX_MILLIS": r"\d+",
}
# conversion word → (group name, regex of its value)
_FIELDS: dict[str, tuple[str, str]] = {}
for _words, _field in (
    (("p", "le", "level"), ("level", _LEVEL)),
    (("t", "thread"), ("thread", r".*?")),
    (("c", "lo", "logger"), ("logger", r"[\w$.\-]+")),
    (("C", "class"), ("class", r"[\w$.]+")),
    (("L", "line"), ("line", r"\d+")),
    (("F", "file"), ("file", r"[\w$.\-/]+")),
    (("M", "method"), ("method", r"[\w$<>]+")),
    (("l", "location"), ("location", r"\S+")),
    (("r", "relative"), ("relative", r"\d+")),
    (("pid", "processId"), ("pid", r"\d+")),
    (("x", "X", "mdc", "MDC", "ndc", "NDC", "marker", "kvp"), ("", r".*?")),
    (("m", "msg", "message"), ("message", r".*")),
):
    for _word in _words:
        _FIELDS[_word] = _field
_FIELDS["d"] = _FIELDS["date"] = ("time", "")
_FIELDS["n"] = ("", "")
_STYLING = frozenset({"highlight", "style", "clr", "black", "red", "green", "yellow", "blue",
                      "magenta", "cyan", "white", "gray", "boldRed", "boldGreen"})


def compile_layout(pattern: str) -> str:
    """The RE2 regex (named groups: ``time``, ``level``, ``thread``, ``logger``, ``class``,
    ``line``, ``file``, ``method``, ``location``, ``message``) a log4j pattern writes."""
    if not pattern.strip():
        raise UsageError("empty --layout pattern: give a log4j-style pattern such as "
                         "'%d{ISO8601} %-5p [%t] %c: %m%n'")
    parts: list[str] = ["^"]
    used: set[str] = set()
    at = 0
    for found in _CONVERSION.finditer(pattern):
        parts.append(_literal(pattern[at:found.start()]))
        at = found.end()
        width, word, option = found.groups()
        if word == "%":
            parts.append("%")
            continue
        parts.append(_conversion(word, option, width, used, pattern))
    rest = pattern[at:]
    if "%" in rest:
        raise UsageError(f"--layout {pattern!r}: a '%' at the end names no conversion")
    parts.append(_literal(rest))
    if "message" not in used:
        raise UsageError(f"--layout {pattern!r} has no %m (the message): add %m where the "
                         "message is written")
    return "".join(parts).rstrip() + r"\s*$"


def _conversion(word: str, option: str | None, width: str, used: set[str], pattern: str) -> str:
    if word in _STYLING:  # %highlight{%p}: the text inside is what is written
        return _inner(option or "", used, pattern)
    if word not in _FIELDS:
        raise UsageError(f"--layout {pattern!r}: unknown conversion %{word}; known: %d %p %t "
                         "%c %C %L %F %M %l %r %x %X %m %n")
    name, value = _FIELDS[word]
    if name == "time":
        value = date_regex(option)
    if not name and not value:
        return ""
    padded = width.lstrip("-").split(".")[0]
    pad_before = r" *" if padded and not width.startswith("-") else ""
    pad_after = r" *" if padded and width.startswith("-") else ""
    if name and name not in used:
        used.add(name)
        return f"{pad_before}(?P<{name}>{value}){pad_after}"
    return f"{pad_before}(?:{value}){pad_after}"


def _inner(text: str, used: set[str], pattern: str) -> str:
    """The regex of a styled part's own pattern (``%highlight{%-5p}``)."""
    out, at = [], 0
    for found in _CONVERSION.finditer(text):
        out.append(_literal(text[at:found.start()]))
        at = found.end()
        width, word, option = found.groups()
        out.append("%" if word == "%" else _conversion(word, option, width, used, pattern))
    out.append(_literal(text[at:]))
    return "".join(out)


def _literal(text: str) -> str:
    """Literal layout text: spaces stretch (padding), everything else as written."""
    return "".join(r" +" if char == " " else re.escape(char) for char in
                   re.sub(r" +", " ", text))


_DATE_LETTERS = re.compile(r"'[^']*'|([A-Za-z])\1*|.", re.S)


def date_regex(option: str | None) -> str:
    """The regex of a ``%d{...}`` date (a named format or a SimpleDateFormat pattern)."""
    if not option:
        return _NAMED_DATES["ISO8601"]
    if option in _NAMED_DATES:
        return _NAMED_DATES[option]
    out = []
    for found in _DATE_LETTERS.finditer(option):
        token = found.group(0)
        if token.startswith("'"):
            out.append(re.escape(token.strip("'")))
        elif found.group(1):
            letter, count = token[0], len(token)
            if (letter == "M" and count >= 3) or letter in "Ea":
                out.append(r"[A-Za-z]+")
            elif letter in "zZX":
                out.append(r"[A-Za-z0-9+\-:]+")
            elif count == 1:
                out.append(r"\d{1,3}")
            else:
                out.append(rf"\d{{{count}}}")
        else:
            out.append(" +" if token == " " else re.escape(token))
    return "".join(out)


__all__ = ["compile_layout", "date_regex"]

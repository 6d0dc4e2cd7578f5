"""Text written by strangers, made safe to show: nothing in it may act on the reader.

Repository text (messages, paths, source code), imported records and the user's
own paste reach terminals and web pages. A terminal obeys escape sequences
(ESC, C1 controls, a lone carriage return that rewrites a line) and both a
terminal and a browser obey bidirectional overrides, which reorder what the
reader sees (U+202E makes ``exe.txt`` read as ``txt.exe``). Lone surrogates
cannot be encoded at all and crash the writer. Every interface shows such
characters as visible escapes through :func:`visible`, and writes JSON through
:func:`json_text`, so there is one rule for the CLI, the web pages and the API.

What stays as it is: newlines and tabs (text has lines), every other printable
character, and backslashes already in the text (doubling them would garble
every regex and Windows path for the sake of an ambiguity nobody acts on).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_BIDI_CLASS = "".join(sorted(BIDI_CONTROLS))
# C0 controls but tab and newline, DEL, C1 controls, bidi controls, surrogates.
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI_CLASS}\ud800-\udfff]")
# What json.dumps(ensure_ascii=False) leaves raw: it escapes C0 controls already.
_JSON_UNSAFE = re.compile(f"[\x7f-\x9f{_BIDI_CLASS}\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char in BIDI_CONTROLS:
        return f"⟨U+{code:04X}⟩"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with controls shown as ``\\x1b``, bidi controls as ``⟨U+202E⟩``.

    A Windows line ending (CR LF) is a line break, so only a carriage return on its
    own (which rewrites the line on a terminal) is shown.
    """
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(_escape, text.replace("\r\n", "\n"))


def first_surrogate(text: str) -> int | None:
    """Where the first lone surrogate is (not Unicode: no UTF-8 can carry it), if any."""
    found = _SURROGATE.search(text)
    return None if found is None else found.start()


def surrogate_problem(text: str, what: str) -> str | None:
    """One line saying where ``text`` is not valid Unicode, or None when it is."""
    at = first_surrogate(text)
    if at is None:
        return None
    return (f"{what} is not valid Unicode: character {at + 1} is a lone surrogate "
            f"(U+{ord(text[at]):04X}); send the text as UTF-8")


def scrub_surrogates(value: Any) -> Any:
    """``value`` (JSON-like) with lone surrogates replaced by U+FFFD, for writers that
    refuse them (they cannot be encoded); everything else is returned as it is."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value) if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {scrub_surrogates(k): scrub_surrogates(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrub_surrogates(v) for v in value]
    return value


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_text(value: Any, *, compact: bool = False, allow_nan: bool = True) -> str:
    """``value`` as JSON whose text is safe on a terminal and always encodable.

    The data is unchanged: controls, bidi controls and surrogates are written as
    ``\\uXXXX`` escapes, which every JSON reader turns back into the same string.
    """
    separators = (",", ":") if compact else None
    text = json.dumps(value, ensure_ascii=False, allow_nan=allow_nan,
                      separators=separators)
    return _JSON_UNSAFE.sub(_json_escape, text)


def https_url(url: str | None) -> str | None:
    """``url`` when it may be a link: ``https://`` with a host and nothing invisible in it.

    Records come from imports too, and a ``javascript:`` or ``data:`` "GitHub URL" would
    be one click from running script; a control character would end a terminal hyperlink
    early and inject the rest.
    """
    if not url or _UNSAFE.search(url) or any(c.isspace() for c in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() != "https" or not parts.hostname:
        return None
    return url

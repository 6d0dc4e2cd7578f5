"""Spelling a stored pattern (Python ``re`` or JavaScript syntax) for RE2, with the same
meaning: the escapes RE2 spells differently, Python's Unicode classes, and a refusal of
what no linear-time engine runs. Apart from ``template`` so that each reads as one concern;
``template.compile_pattern`` compiles what ``to_re2`` writes.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["PatternError", "to_re2"]


class PatternError(ValueError):
    """A pattern that RE2 cannot run (lookaround, backreferences, bad syntax); one line."""


# Python's ``\s`` (``str.isspace``): ASCII whitespace, the separators U+001C-U+001F,
# NEL and every Unicode space separator. RE2's own ``\s`` is ASCII only.
_SPACE_SET = r"\t-\r\x1c-\x1f\x85\p{Z}"
_WORD_SET = r"\p{L}\p{N}_"
# Escapes outside a character class → RE2 spelling with Python's (Unicode) meaning.
_CLASS_ESCAPES = {
    "s": f"[{_SPACE_SET}]", "S": f"[^{_SPACE_SET}]",
    "d": r"\p{Nd}", "D": r"\P{Nd}",
    "w": f"[{_WORD_SET}]", "W": f"[^{_WORD_SET}]",
}
# The same inside a character class (``[\s,]``); ``\S`` and ``\W`` there keep RE2's
# ASCII meaning, since a class cannot hold the complement of a union.
_IN_CLASS_ESCAPES = {"s": _SPACE_SET, "d": r"\p{Nd}", "D": r"\P{Nd}", "w": _WORD_SET}
# The same for a text that is all ASCII (``compile_pattern(ascii_only=True)``): there the Unicode
# classes hold only their ASCII members, and RE2 compiles ``[0-9]`` ten times faster than
# ``\p{Nd}`` (a pattern's first lookup pays for it: ~140 -> ~15 µs for a number's hole).
_ASCII_SPACES = r"\t-\r\x1c-\x1f "  # ``_SPACE_SET``'s ASCII members (``\p{Z}``'s: the space)
_ASCII_WORD = "0-9A-Za-z_"
_ASCII_CLASS_ESCAPES = {
    "s": f"[{_ASCII_SPACES}]", "S": f"[^{_ASCII_SPACES}]", "d": "[0-9]", "D": "[^0-9]",
    "w": f"[{_ASCII_WORD}]", "W": f"[^{_ASCII_WORD}]",
}
_ASCII_IN_CLASS_ESCAPES = {"s": _ASCII_SPACES, "d": "0-9", "D": r"\P{Nd}", "w": _ASCII_WORD}
_HEX = frozenset("0123456789abcdefABCDEF")
_OCTAL = frozenset("01234567")
_INLINE_FLAGS = re.compile(r"\(\?([a-zA-Z]*)(?:-[a-zA-Z]*)?[:)]")
_UPPER_BOUND_ONLY = re.compile(r"\{,(\d{0,9})\}")


def to_re2(pattern: str, *, ascii_only: bool = False) -> str:
    """``pattern`` (Python ``re`` or JavaScript syntax) spelled for RE2, same meaning.

    Rewrites the escapes RE2 spells differently (``\\uXXXX``, ``\\u{…}``,
    ``\\UXXXXXXXX``, ``\\N{NAME}``, ``\\cX``, ``\\Z``, ``{,n}``, ``[\\b]``) and gives
    ``\\d``, ``\\s``, ``\\w`` Python's Unicode meaning; raises ``PatternError`` for
    what no linear-time engine runs (lookaround, backreferences) and for RE2's
    ungreedy flag, which would silently change what the holes capture. ``ascii_only``: spelled
    for texts that are all ASCII, its classes holding only their ASCII members (the same
    matches on such a text, and much cheaper to compile).
    """
    out: list[str] = []
    i = 0
    n = len(pattern)
    in_class = False
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            text, i = _escape_at(pattern, i, in_class, ascii_only)
            out.append(text)
            continue
        if in_class:
            if ch == "]":
                in_class = False
            elif ch == "[" and pattern.startswith("[:", i):
                raise PatternError(f"POSIX class at {i} ([:name:]) is not Python or JavaScript "
                                   "syntax; write the characters out")
            out.append(ch)
            i += 1
            continue
        if ch == "[":
            in_class = True
            start = i + 1
            if pattern.startswith("^", start):
                start += 1
            if pattern.startswith("]", start):  # a leading "]" is a literal one
                start += 1
            out.append(pattern[i:start].replace("]", r"\]") if start > i + 1 else "[")
            i = start
            continue
        if ch == "(" and pattern.startswith("(?", i):
            _check_group(pattern, i)
        if ch == "{" and (counted := _UPPER_BOUND_ONLY.match(pattern, i)):
            out.append(f"{{0,{counted.group(1)}}}")  # Python's {,n} is {0,n}, {,} is {0,}
            i = counted.end()
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _check_group(pattern: str, at: int) -> None:
    """Refuse the ``(?…`` constructs that need backtracking or change the holes."""
    lookaround = next((p for p in ("(?<=", "(?<!", "(?=", "(?!") if pattern.startswith(p, at)),
                      None)
    if lookaround:
        raise PatternError(f"lookaround at {at} ({lookaround}…) cannot run in linear time; "
                           "match the text itself instead")
    if pattern.startswith("(?P=", at):
        raise PatternError(f"backreference at {at} ((?P=…)) cannot run in linear time")
    if pattern.startswith("(?>", at):
        raise PatternError(f"atomic group at {at} ((?>…)) is not supported")
    flags = _INLINE_FLAGS.match(pattern, at)
    if flags and "U" in pattern[at : flags.end()]:
        raise PatternError(f"inline flag U at {at} is not Python or JavaScript syntax")


def _escape_at(pattern: str, i: int, in_class: bool, ascii_only: bool = False) -> tuple[str, int]:
    """The RE2 spelling of the escape starting at ``pattern[i]`` and the index after it."""
    if i + 1 >= len(pattern):
        raise PatternError("pattern ends with a lone backslash")
    nxt = pattern[i + 1]
    if nxt == "u":
        return _unicode_escape(pattern, i)
    if nxt == "U":
        digits = pattern[i + 2 : i + 10]
        if len(digits) < 8 or not set(digits) <= _HEX:
            raise PatternError(f"bad escape at {i}: \\U needs 8 hex digits")
        return _code_point(int(digits, 16), i), i + 10
    if nxt == "N":
        end = pattern.find("}", i)
        if not pattern.startswith("{", i + 2) or end < 0:
            raise PatternError(f"bad escape at {i}: \\N needs {{NAME}}")
        try:
            char = unicodedata.lookup(pattern[i + 3 : end])
        except KeyError:
            raise PatternError(f"bad escape at {i}: no character named "
                               f"{pattern[i + 3 : end]!r}") from None
        return _code_point(ord(char), i), end + 1
    if nxt == "c":
        letter = pattern[i + 2 : i + 3]
        if not (letter.isascii() and letter.isalpha()):
            raise PatternError(f"bad escape at {i}: \\c needs a letter")
        return _code_point(ord(letter) % 32, i), i + 3
    if nxt in ("Z", "z") and not in_class:
        return r"\z", i + 2
    if nxt == "b" and in_class:
        return r"\x08", i + 2  # a backspace inside a class, in Python and JavaScript
    if nxt == "C":
        raise PatternError(f"escape \\C at {i} (any byte) is not supported")
    if nxt.isdigit():
        return _digit_escape(pattern, i)
    if ascii_only:
        table = _ASCII_IN_CLASS_ESCAPES if in_class else _ASCII_CLASS_ESCAPES
    else:
        table = _IN_CLASS_ESCAPES if in_class else _CLASS_ESCAPES
    if nxt in table:
        return table[nxt], i + 2
    return pattern[i : i + 2], i + 2


def _unicode_escape(pattern: str, i: int) -> tuple[str, int]:
    """``\\uXXXX`` (a UTF-16 pair joined into one code point) or ``\\u{X…}``."""
    if pattern.startswith("{", i + 2):
        end = pattern.find("}", i)
        digits = pattern[i + 3 : end] if end > 0 else ""
        if not digits or len(digits) > 6 or not set(digits) <= _HEX:
            raise PatternError(f"bad escape at {i}: \\u{{…}} needs 1 to 6 hex digits")
        return _code_point(int(digits, 16), i), end + 1
    digits = pattern[i + 2 : i + 6]
    if len(digits) < 4 or not set(digits) <= _HEX:
        raise PatternError(f"bad escape at {i}: \\u needs 4 hex digits")
    value = int(digits, 16)
    if 0xD800 <= value < 0xDC00:  # a high surrogate: JavaScript's spelling of one character
        low = pattern[i + 6 : i + 12]
        if low.startswith("\\u") and set(low[2:]) <= _HEX and len(low) == 6:
            low_value = int(low[2:], 16)
            if 0xDC00 <= low_value < 0xE000:
                joined = 0x10000 + ((value - 0xD800) << 10) + (low_value - 0xDC00)
                return _code_point(joined, i), i + 12
    return _code_point(value, i), i + 6


def _code_point(value: int, at: int) -> str:
    if 0xD800 <= value < 0xE000:
        return r"\x{FFFD}"  # texts are matched with a lone surrogate read as U+FFFD (``utf8``)
    if value > 0x10FFFF:
        raise PatternError(f"escape at {at} is past U+10FFFF")
    return f"\\x{{{value:X}}}"


def _digit_escape(pattern: str, i: int) -> tuple[str, int]:
    """Octal escapes stay (``\\0``, ``\\101``); ``\\1``…``\\99`` are backreferences."""
    digits = pattern[i + 1 : i + 4]
    if digits[0] == "0":
        run = 1
        while run < 3 and run < len(digits) and digits[run] in _OCTAL:
            run += 1
        return f"\\x{{{int(digits[:run], 8):X}}}", i + 1 + run
    if len(digits) == 3 and set(digits) <= _OCTAL:
        return f"\\x{{{int(digits, 8):X}}}", i + 4
    raise PatternError(f"backreference at {i} (\\{digits[0]}) cannot run in linear time")

"""The readings of an event's message matched against the index: the message, its wrapped
parts, shorter readings of a message that picked up extra lines, and the messages that
runtimes quote inside their own print (Debug structs, NSError, logged error objects)."""

from __future__ import annotations

import re

from errdex.languages._engine.pastes.common import ErrorEvent, message_segments

_MAX_VARIANTS = 24
_INDENTED = re.compile(r"\n[ \t]+")
_BARE_LITERAL = 5  # a log line's text after its stamp shorter than this: no message
# The details ``_without_trailing_group`` takes off sit in the last this many characters.
_TRAILING_GROUP_CHARS = 20_000


def _variants(event: ErrorEvent) -> list[str]:
    """What to match: the message, its wrapped inner parts (``op: inner: innermost``),
    then shorter readings of a message that picked up extra lines: each leading run
    of paragraphs, and the first line, with their inner parts.

    At most ``_MAX_VARIANTS``, and each built only while there is room: a paste of
    thousands of paragraphs costs a few readings, not one per paragraph."""
    variants = [event.message]

    def add(text: str) -> bool:
        """Keep ``text`` if new; False once the list is full."""
        if text and text not in variants and len(variants) < _MAX_VARIANTS:
            variants.append(text)
        return len(variants) < _MAX_VARIANTS

    if event.printed and not add(event.printed):  # as the runtime printed it
        return variants
    for segment in getattr(event, "segments", ()) or ():
        if not add(segment):
            return variants
    # Continuation lines a test runner or logger indented: read without the indent.
    if "\n" in event.message:
        dedented = _INDENTED.sub("\n", event.message)
        if dedented != event.message and not add(dedented):
            return variants
        # and a line wrapped where the template has one space (``argument,\n    but``)
        if dedented != event.message and not add(_INDENTED.sub(" ", event.message)):
            return variants
    # The line as printed, when reading it took a prefix off (``fatal: ``, ``error: ``):
    # a record whose reporter prints that prefix (git's ``die``) matches it whole.
    printed = event.text.strip().partition("\n")[0]
    first = event.message.partition("\n")[0]
    if event.kind == "message" and printed != first and printed.endswith(first) and (
            len(printed) - len(first) <= _MAX_PREFIX) and not add(printed):
        return variants
    # A log line whose prefix ends at its time and level mark (``[3683] 13 Nov 11:42:52.767 #
    # WARNING …``): the text after them, with its inner parts.
    stamped = _STAMPED.search(first, 0, _MAX_PREFIX + 40)
    if stamped is not None and len(first) - stamped.end() >= _BARE_LITERAL:
        for segment in message_segments(first[stamped.end():]):
            if not add(segment):
                return variants
    message = event.message
    if "\n" in message:
        paragraphs = message.split("\n\n")
        for k in range(min(len(paragraphs) - 1, _MAX_VARIANTS), -1, -1):
            text = "\n\n".join(paragraphs[:k]) if k else message.partition("\n")[0]
            for segment in message_segments(text):
                if not add(segment):
                    return variants
    # An error printed with Debug (Rust's ``Error("invalid type: …", line: 1, column: 13)``
    # after ``called `Result::unwrap()` on an `Err` value: ``): the message it quotes.
    for text in list(variants):
        quoted = _DEBUG_STRUCT.match(text) if '("' in text else None  # a substring test first
        if quoted and not add(re.sub(r"\\(.)", r"\1", quoted.group(1))):
            return variants
    # An NSError as Apple's runtimes print it (``Error Domain=X Code=-6003 "msg" UserInfo=…``),
    # or a logged error object's ``message: 'msg'`` (Node's util.inspect): the message quoted.
    for pattern, marker in ((_NSERROR, 'Error Domain='), (_MESSAGE_PROPERTY, "message: '")):
        if marker not in message:  # each regex needs its marker: most messages have neither
            continue
        quoted = pattern.search(message, 0, _TRAILING_GROUP_CHARS)
        if quoted and not add(re.sub(r"\\(.)", r"\1", quoted.group(1))):
            return variants
    # A level in brackets before the text (nginx's ``nginx: [emerg] bind() to … failed``,
    # Apache's ``[error] …``): the text after it.
    for text in list(variants):
        level = _BRACKETED_LEVEL.match(text) if text[:1] == "[" else None
        if level is not None and len(text) - level.end() >= _BARE_LITERAL and not add(
                text[level.end():]):
            return variants
    # Details a library appends in parentheses (Jackson's ``(3 known properties: …)``,
    # ``(through reference chain: …)``): each reading without them, once or twice.
    for text in list(variants):
        for _ in range(2):
            text = _without_trailing_group(text)
            if not text or text in variants:
                break
            if not add(text):
                return variants
    return variants


_MAX_PREFIX = 40  # a level or program prefix, not a message of its own
_SENTENCE = 1_000  # a message this long at most may have lost its final period
# A clock time, then a level mark (redis's ``#``/``*``/``-``, a ``|``) and/or a level word.
_STAMPED = re.compile(
    r"\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})?\]? +(?:(?:[#*|] +)(?:[A-Z]{3,8}:? +)?|[A-Z]{3,8}:? +)"
)
_BRACKETED_LEVEL = re.compile(r"\[(?:emerg|alert|crit|critical|error|err|warn|warning|notice"
                              r"|fatal|panic)\] +", re.IGNORECASE)
_NSERROR = re.compile(r'Error Domain=\S+ Code=-?\d+ "((?:[^"\\\n]|\\.)*)"')
_MESSAGE_PROPERTY = re.compile(r"^ *message: '((?:[^'\\\n]|\\.)*)'", re.MULTILINE)
_DEBUG_STRUCT = re.compile(r'[A-Za-z_][\w:]*\("((?:[^"\\]|\\.)*)"[,)]')


def reading_note(event: ErrorEvent, reading: str) -> str:
    """What a match's reason says of a reading other than the event's message."""
    if reading == event.printed:
        return " of the message as the runtime printed it"
    return f" of the wrapped part {reading!r}"


def _lost_period(message: str) -> bool:
    """Whether ``message`` reads like one sentence that lost its final period."""
    return len(message) <= _SENTENCE and message[-1:].isalnum() and "\n" not in message


_DEPTH = {")": 1, "(": -1}  # how a character read backwards changes the depth


def _without_trailing_group(text: str) -> str:
    """``text`` without a final `` (…)`` group; empty when it has none."""
    text = text.rstrip()
    if not text.endswith(")"):
        return ""
    depth = 0
    for index in range(len(text) - 1, max(-1, len(text) - 1 - _TRAILING_GROUP_CHARS), -1):
        depth += _DEPTH.get(text[index], 0)
        if depth == 0:
            return text[:index - 1].rstrip() if index > 1 and text[index - 1] == " " else ""
    return ""


"""The lines of a multi-line template as patterns of their own: a paste often holds only
a template's first line (cut where the user stopped copying) or one later line, and a test
runner indents the continuation lines. Each line with enough literal text is filed in the
index under its own key word, with an id of its own (negative) that names its template."""

from __future__ import annotations

from errdex.templates.analysis import prefilter_words, shape_of

MIN_LITERAL = 12  # a line with less literal text than this says too little on its own
MAX_PARTS = 64  # lines of one template registered, at most
PART_PENALTY = 0.35  # a line of a template ranks below a whole match, above approximate ones


def part_id(pid: int, line: int) -> int:
    """The id of line ``line`` (0-based) of pattern ``pid``: negative, never a pattern's."""
    return -(pid * MAX_PARTS + line) - 1


def parent(part: int) -> tuple[int, int]:
    """(pattern id, 0-based line) of a part id."""
    return divmod(-part - 1, MAX_PARTS)


def split_lines(pattern: str) -> list[str]:
    """A pattern's text cut at each escaped newline (``\\n``) outside groups and classes."""
    parts: list[str] = []
    start = depth = i = 0
    in_class = False
    n = len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            if pattern[i + 1] == "n" and depth == 0 and not in_class:
                parts.append(pattern[start:i])
                start = i + 2
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        i += 1
    parts.append(pattern[start:])
    return parts


def pattern_parts(pattern: str) -> list[tuple[int, str, int, list[str]]]:
    """(line, pattern, literal length, required words) of each line of a multi-line pattern
    that can stand alone; none for a one-line pattern."""
    if "\\n" not in pattern:
        return []
    found: list[tuple[int, str, int, list[str]]] = []
    for line, text in enumerate(split_lines(pattern)[:MAX_PARTS]):
        text = text.lstrip(" \t")  # a continuation line's indent: pastes are stripped
        shape = shape_of(text)
        words = prefilter_words(shape)
        if not shape.opaque and words and shape.literal_length >= MIN_LITERAL:
            found.append((line, text, shape.literal_length, words))
    return found if len(found) > 1 or (found and found[0][1] != pattern) else []

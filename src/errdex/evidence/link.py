"""Linking test expectations to records: which tests trigger which error site.

A test is linked to a record when what it expects can come from the record's
template:

* ``exact`` (``err.Error() == "…"``, ``assert_eq!(e.to_string(), "…")``): the record's
  ``messagePattern`` fullmatches the expected message;
* ``substring`` (``#[should_panic(expected)]``, jest ``toThrow("…")``): the expected text
  is a substring of some message the template produces — literal text must line up
  with the template's literal fragments, anything else must fall in a hole;
* ``regex`` (``pytest.raises(match=…)``): a regex that is plain text once unescaped is
  checked as a substring; otherwise its longest literal run is;
* ``class`` (``pytest.raises(X)`` without ``match``, ``assertThrows``): the class matches
  and the test's call names the record's function, and exactly one record fits.

A candidate must also agree on the error class when both sides name one.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import lru_cache
from itertools import chain

from errdex.evidence.tests import Expectation
from errdex.records.evidence import Evidence, TestLink
from errdex.records.model import Record
from errdex.templates.analysis import shape_of
from errdex.templates.template import CompiledPattern, PatternError, compile_pattern

MAX_LINKS = 3
_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_META = set(".^$*+?{}[]|()")
_CALLED = re.compile(r"\b(\w+)\s*\(")


def link_tests(pairs: list[tuple[Record, Evidence]], found: Iterable[Expectation]) -> int:
    """Attach each expectation to the records it matches; the number of links made."""
    postings: dict[str, list[int]] = defaultdict(list)
    # (short class name, short function name) → records
    by_class: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, (record, evidence) in enumerate(pairs):
        for word in {w.lower() for w in _WORDS.findall(record.error_message)}:
            postings[word].append(index)
        if record.error_class and evidence.symbol:
            by_class[_last(record.error_class), _last(evidence.symbol)].append(index)
    made = 0
    for expectation in found:
        test = expectation.link
        for index in _candidates(pairs, postings, by_class, test):
            record, evidence = pairs[index]
            if len(evidence.tests) < MAX_LINKS and all(
                (t.path, t.line) != (test.path, test.line) for t in evidence.tests
            ):
                evidence.tests.append(test)
                made += 1
    return made


def _candidates(
    pairs: list[tuple[Record, Evidence]], postings: dict[str, list[int]],
    by_class: dict[tuple[str, str], list[int]], test: TestLink,
) -> list[int]:
    if test.mode == "class" or not test.expected:
        return _by_class(by_class, test)
    literal = _plain(test.expected) if test.mode == "regex" else test.expected
    if literal is None and test.expected is not None:
        runs = re.split(r"(?:\\.|[.^$*+?{}\[\]|()])+", test.expected)
        literal = max(runs, key=len) if runs else None
        if literal is None or len(literal) < 8:
            return []
    if literal is None:
        return []
    words = [w for w in {w.lower() for w in _WORDS.findall(literal)} if w in postings]
    hits = Counter(chain.from_iterable(postings[w] for w in words))  # counted in C
    known = len(words)
    indices = sorted(i for i, n in hits.items() if n * 2 >= known)
    mode = "exact" if test.mode == "exact" else "substring"
    fitting: dict[str, bool] = {}  # records sharing a pattern are one check
    fits = []
    for i in indices:
        record = pairs[i][0]
        if not _same_class(record.error_class, test.error_class):
            continue
        pattern = record.message_pattern
        fit = fitting.get(pattern)
        if fit is None:
            fit = fitting[pattern] = message_fits(pattern, literal, mode)
        if fit:
            fits.append(i)
    return _nearest(pairs, fits, test, specific=len(_WORDS.findall(literal)) >= 3)


def _nearest(
    pairs: list[tuple[Record, Evidence]], fits: list[int], test: TestLink, specific: bool
) -> list[int]:
    """Of several matching records, those nearest the test in the tree (same file, else same
    folder, else same crate/package); a short expectation (under three words) that fits
    several records is ambiguous and links none."""
    if not fits or (not specific and len(fits) > 1):
        return []
    test_parts = test.path.split("/")
    shared = {i: _common(pairs[i][0].file_path.split("/"), test_parts) for i in fits}
    best = max(shared.values())
    return [i for i in fits if shared[i] == best]


def _common(left: list[str], right: list[str]) -> int:
    """Leading path components two paths share (a file shared with itself counts whole)."""
    count = 0
    for a, b in zip(left, right, strict=False):
        if a != b:
            break
        count += 1
    return count


def _by_class(by_class: dict[tuple[str, str], list[int]], test: TestLink) -> list[int]:
    """The one record of the expected class whose function the test's call names (looked up
    by class and function together: a common class has thousands of records)."""
    if not test.error_class or not test.call:
        return []
    expected = _last(test.error_class)
    fits = [i for called in set(_CALLED.findall(test.call))  # the functions the call names
            for i in by_class.get((expected, called), ())]
    return fits if len(fits) == 1 else []


@lru_cache(maxsize=65536)
def _last(name: str) -> str:
    return re.split(r"\.|::", name)[-1]


def _same_class(record_class: str | None, test_class: str | None) -> bool:
    return not record_class or not test_class or _last(record_class) == _last(test_class)


def _plain(regex: str) -> str | None:
    """The text a regex matches when it is plain text (escapes aside); else None."""
    out: list[str] = []
    index = 0
    while index < len(regex):
        char = regex[index]
        if char == "\\" and index + 1 < len(regex):
            if regex[index + 1].isalnum():
                return None  # \d, \s, \b: a class, not a character
            out.append(regex[index + 1])
            index += 2
            continue
        if char in _META and char != ".":
            return None
        out.append(char)
        index += 1
    return "".join(out)


def message_fits(pattern: str, message: str, mode: str) -> bool:
    """Whether ``message`` is (``exact``) or is part of (``substring``) a message of ``pattern``."""
    if mode == "exact":
        regex = compiled_pattern(pattern)
        return regex is not None and regex.fullmatch(message) is not None
    fragments = _fragments(pattern)
    return fragments is not None and _substring_fits(fragments, message)


@lru_cache(maxsize=8192)
def compiled_pattern(pattern: str) -> CompiledPattern | None:
    """A record's pattern compiled the way lookup matches it (RE2: a repository's test
    text cannot make it backtrack); None if RE2 cannot run it."""
    try:
        return compile_pattern(pattern)
    except PatternError:
        return None


@lru_cache(maxsize=8192)
def _fragments(pattern: str) -> list[str] | None:
    shape = shape_of(pattern)
    if shape.opaque or len(shape.fragments) != shape.groups + 1:
        return None
    return list(shape.fragments)


def _substring_fits(fragments: list[str], message: str) -> bool:
    """Whether ``message`` lines up with the template: a suffix of one fragment, the next
    fragments whole and in order (holes between take any text), a prefix of the last —
    with enough of ``message`` matched literally."""
    if not message:
        return False
    need = max(min(len(message), 10), 0.4 * len(message))
    holes = len(fragments) - 1
    for i, first in enumerate(fragments):
        if message in first:
            return len(message) >= need
        starts = [k for k, char in enumerate(first)
                  if char == message[0] and message.startswith(first[k:])]
        if i < holes:
            starts.append(len(first))  # the message starts inside the hole after ``first``
        for k in starts:
            if _literal_run(fragments, i, len(first) - k, message) >= need:
                return True
    return False


def _literal_run(fragments: list[str], i: int, lead: int, message: str) -> int:
    """Literal characters matched when ``message`` opens with the last ``lead`` characters
    of fragment ``i`` and continues through the template from there (0 if it cannot)."""
    holes = len(fragments) - 1
    position = literal = lead
    k = i + 1
    while position < len(message):
        if k - 1 >= holes:
            return 0  # text after the last fragment, with no hole to hold it
        fragment = fragments[k]
        found = message.find(fragment, position + 1) if fragment else -1
        if fragment and found != -1:
            literal += len(fragment)
            position = found + len(fragment)
            k += 1
            continue
        rest = message[position + 1 :]  # the hole takes at least one character
        literal += max((n for n in range(len(fragment), 0, -1) if rest.endswith(fragment[:n])),
                       default=0)
        break
    return literal

"""Approximate retrieval: the templates closest to a message that fullmatches none of them
(reworded, re-quoted, re-capitalised, a typo fixed, text appended since the user's release).

Candidates come from a ranked search over the literal text of every template, BM25 over
its words and its character trigrams, so no single word decides whether a template is
looked at: when the rarest word is the one that changed, the others and the trigrams of
the changed word still find it. The survivors are re-ranked by RapidFuzz on the literal
text. The words and trigrams are read by SQLite's FTS5 tokenizers when the index is built;
only the postings a query can ever read (terms in at most ``_MAX_POSTINGS`` templates) are
kept, as arrays of pattern ids saved with the index tables, and summed in memory per
query: no statement runs per term.

Work per query is bounded whatever the paste: at most ``QUERY_CHARS`` characters are read,
at most ``_MAX_TERMS`` terms are searched, rarest first, while their postings together stay
under ``_MAX_POSTINGS``; at most ``limit`` candidates are compared. User text is data:
its terms are only looked up in a dictionary, never read as query syntax.
"""

from __future__ import annotations

import heapq
import math
import re
import sqlite3
from array import array
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Final

from rapidfuzz import fuzz

from errdex.lookup.ranking import Scored

QUERY_CHARS = 1_000  # a message is searched on its first this many characters
_MAX_TERMS = 48  # words and trigrams searched per query, rarest first
_MAX_POSTINGS = 4_000  # postings read per query, all terms together
_MAX_WORDS = 48  # distinct words of a message considered
_MAX_GRAMS = 160  # distinct trigrams of a message considered
_GRAM_WEIGHT = 0.35  # a trigram says less than a whole word
_K1, _B = 1.2, 0.5  # BM25 (each term counted once: the postings keep no positions)
_TOKEN = re.compile(r"[^\W_]+")
_QUOTES = str.maketrans({c: "'" for c in "\"`‘’“”«»"})
_SPACES = re.compile(r"\s+")
# Closeness is scored on at most this many characters of each text: the score's cost
# grows with the product of the lengths.
FUZZY_CHARS = 4_000
# A template found as a close part of a longer message (text appended or prepended since)
# needs this much literal text to count: shorter ones occur anywhere.
_PARTIAL_FULL_CHARS = 24
_PARTIAL_MIN = 0.6  # a looser part of a longer message is chance
# Looking for a literal inside a message costs about the product of the two lengths times
# the message's: only literals up to this long, in the message's first characters.
_PARTIAL_LITERAL_CHARS = 200
_PARTIAL_MESSAGE_CHARS = 800
CLOSE_SCORE = 0.3 + 0.65 * 0.85  # an approximate match this good outranks a wrapper's
RETRIEVED = 32  # candidates the ranked retrieval adds, compared letter by letter
MIN_RATIO = 0.75  # a retrieved candidate sharing few words must be this close
FOLDED_RATIO = 0.95  # the similarity of a message the template matches but for case and quotes
_FOLDED_MIN = 0.4  # a candidate less similar than this is not checked for it

_SCHEMA = (
    "CREATE VIRTUAL TABLE words USING fts5(t, content='', detail='none')",
    "CREATE VIRTUAL TABLE grams USING fts5(t, content='', detail='none', tokenize='trigram')",
    "CREATE VIRTUAL TABLE words_vocab USING fts5vocab(words, 'row')",
    "CREATE VIRTUAL TABLE grams_vocab USING fts5vocab(grams, 'row')",
    "CREATE VIRTUAL TABLE words_postings USING fts5vocab(words, 'instance')",
    "CREATE VIRTUAL TABLE grams_postings USING fts5vocab(grams, 'instance')",
)
_ID: Final = "i"  # array type code of a posting (a pattern id)
Dumped = tuple[dict[str, bytes], dict[str, int], bytes, int]


def normalize(text: str) -> str:
    """Text as compared: lower case, one kind of quote, single spaces."""
    return _SPACES.sub(" ", text.lower().translate(_QUOTES)).strip()


def _words(text: str) -> list[str]:
    """Distinct searchable words of normalized text, in order (numbers are values)."""
    seen: dict[str, None] = {}
    for word in _TOKEN.findall(text):
        if len(word) > 1 and not word.isdigit():
            seen.setdefault(word, None)
            if len(seen) >= _MAX_WORDS:
                break
    return list(seen)


def _grams(words: list[str]) -> list[str]:
    """Distinct trigrams inside the words, in order."""
    seen: dict[str, None] = {}
    for word in words:
        for i in range(len(word) - 2):
            seen.setdefault(word[i:i + 3], None)
            if len(seen) >= _MAX_GRAMS:
                return list(seen)
    return list(seen)


class Retrieval:
    """BM25 over the words and trigrams of every template's literal text."""

    def __init__(self, postings: dict[str, bytes], frequency: dict[str, int], lengths: bytes,
                 size: int):
        self._postings = postings  # "w:word" / "g:gram" → pattern ids (array ``_ID``)
        self._frequency = frequency  # "w:word" / "g:gram" → documents holding it
        self._lengths = array("H")
        self._lengths.frombytes(lengths)
        self._size = size
        self._average = (sum(self._lengths) / size) if size else 1.0

    @classmethod
    def load(cls, dumped: object) -> Retrieval | None:
        """``Retrieval(*dumped)``, or None when a snapshot saved another layout."""
        if (isinstance(dumped, tuple) and len(dumped) == 4 and isinstance(dumped[0], dict)
                and isinstance(dumped[1], dict) and isinstance(dumped[2], bytes)):
            return cls(*dumped)
        return None

    @classmethod
    def build(cls, texts: Iterable[tuple[int, str]]) -> Retrieval:
        """Index (pattern id, literal text) pairs."""
        db = sqlite3.connect(":memory:")
        for statement in _SCHEMA:
            db.execute(statement)
        lengths = array("H")
        rows: list[tuple[int, str]] = []
        for pid, text in texts:
            text = normalize(text)
            if not text or pid < 0:
                continue
            rows.append((pid, text))
            if pid >= len(lengths):
                lengths.extend([0] * (pid + 1 - len(lengths)))
            lengths[pid] = min(len(text), 65_535)
        db.executemany("INSERT INTO words(rowid, t) VALUES (?, ?)", rows)
        db.executemany("INSERT INTO grams(rowid, t) VALUES (?, ?)", rows)
        frequency = {f"w:{term}": n for term, n in db.execute(
            "SELECT term, doc FROM words_vocab")}
        frequency.update((f"g:{term}", n) for term, n in db.execute(
            "SELECT term, doc FROM grams_vocab") if term.isalnum())
        postings: dict[str, bytes] = {}
        for kind, table in (("w", "words"), ("g", "grams")):
            # Only terms a query may read: rarer than the postings one query reads in all.
            readable = [term for term, n in db.execute(f"SELECT term, doc FROM {table}_vocab")
                        if 0 < n <= _MAX_POSTINGS and f"{kind}:{term}" in frequency]
            for chunk in range(0, len(readable), 500):
                terms = readable[chunk:chunk + 500]
                found: dict[str, array[int]] = {}
                for term, pid in db.execute(
                        f"SELECT term, doc FROM {table}_postings WHERE term IN "
                        f"({', '.join('?' * len(terms))})", terms):
                    found.setdefault(term, array(_ID)).append(pid)
                postings.update((f"{kind}:{term}", ids.tobytes()) for term, ids in found.items())
        db.close()
        return cls(postings, frequency, lengths.tobytes(), len(rows))

    def dump(self) -> Dumped:
        """What ``Retrieval(*dump)`` rebuilds this from (saved in the index snapshot)."""
        return self._postings, self._frequency, self._lengths.tobytes(), self._size

    def search(self, message: str, limit: int) -> list[int]:
        """Pattern ids whose literal text is closest to ``message`` by BM25, best first."""
        if not self._size:
            return []
        words = _words(normalize(message[:QUERY_CHARS]))
        terms: list[tuple[int, str]] = []
        frequency = self._frequency
        for kind, found in (("w", words), ("g", _grams(words))):
            for term in found:
                key = f"{kind}:{term}"
                n = frequency.get(key, 0)
                if n:
                    terms.append((n, key))
        terms.sort()
        scores: dict[int, float] = {}
        get = scores.get
        read = 0
        for n, key in terms[:_MAX_TERMS]:
            if read + n > _MAX_POSTINGS:
                continue  # a common term: the rarer ones already say more
            read += n
            weight = math.log(1 + (self._size - n + 0.5) / (n + 0.5))
            if key[0] == "g":
                weight *= _GRAM_WEIGHT
            for pid in memoryview(self._postings.get(key, b"")).cast(_ID):
                scores[pid] = get(pid, 0.0) + weight
        if not scores:
            return []
        # The best by shared terms, then the best of those by BM25 (their lengths normalized).
        best = dict(sorted(scores.items(), key=itemgetter(1), reverse=True)[:4 * limit])
        lengths, average = self._lengths, self._average
        size = len(lengths)

        def bm25(pid: int) -> float:
            length = lengths[pid] if pid < size else average
            return best[pid] * (_K1 + 1) / (1 + _K1 * (1 - _B + _B * length / average))

        return heapq.nlargest(limit, best, key=bm25)


def within(literal: str, message: str) -> float:
    """How closely the shorter of a template's literal text and a message (both normalized)
    appears inside the longer, 0 to 1: text appended or prepended since, on either side.
    Little for a shorter text too short to say anything on its own."""
    short, long = (literal, message) if len(literal) < len(message) else (message, literal)
    if not short or len(short) > _PARTIAL_LITERAL_CHARS:
        return 0.0
    long = long[:_PARTIAL_MESSAGE_CHARS]
    part = fuzz.partial_ratio(short, long) / 100 * min(1.0, len(short) / _PARTIAL_FULL_CHARS)
    # The unexplained rest costs a little: closer to the whole is better.
    part *= 0.9 + 0.1 * len(short) / len(long)
    return part if part >= _PARTIAL_MIN else 0.0


# A template whose text before its first hole opens the message word for word, this many
# words or more, is as close as this: the message is its older or shorter wording (text
# appended to the template since, as grep's three-word search would find it). A lead
# several candidates share is a family's preamble (``Unexpected JSON token at offset``):
# it says nothing of which one.
OPENING_RATIO = 0.8
_OPENING_WORDS = 3


def openers(leads: dict[int, str], message: str) -> set[int]:
    """The pattern ids whose text before the first hole (``leads``) opens the normalized
    message, ending where a word of it ends, and is the only candidate's to do so."""
    found: dict[str, list[int]] = {}
    for pid, lead in leads.items():
        lead = normalize(lead)
        if len(_TOKEN.findall(lead)) < _OPENING_WORDS or not message.startswith(lead):
            continue
        rest = message[len(lead):len(lead) + 1]
        if not (rest.isalnum() and lead[-1:].isalnum()):
            found.setdefault(lead, []).append(pid)
    return {pids[0] for pids in found.values() if len(pids) == 1} if len(found) == 1 else set()


_UPPER_ESCAPE = re.compile(r"\\[A-Z]")


def folded_pair(pattern: str, message: str, ratio: float, literal: int,
                wrapper: int) -> tuple[str, str] | None:
    """A pattern and a message folded alike (lower case, one kind of quote), to check whether
    the template matches a message re-capitalised or re-quoted since; None when not worth
    it: already that similar (``ratio``), hardly similar, a thin template (less than
    ``wrapper`` literal characters, or under half the message: ``{error} in {location}``),
    escapes lower case would change (``\\D``, ``\\S``), or a message too long."""
    if not _FOLDED_MIN <= ratio < FOLDED_RATIO or literal < wrapper or 2 * literal < len(
            message) or _UPPER_ESCAPE.search(pattern) or len(message) > FUZZY_CHARS:
        return None
    return pattern.lower().translate(_QUOTES), message.lower().translate(_QUOTES)


def weak(scored: dict[str, Scored], message: str, literal: Callable[[Scored], int],
         wrapper: int) -> bool:
    """Whether approximate candidates should stand beside these matches: none, or none a
    specific template (``wrapper`` literal characters or more) whose literal text holds a
    third of the message or more."""
    for item in scored.values():
        length = literal(item)
        if not item.approximate and length >= wrapper and 3 * length >= len(message):
            return False
    return True


def add_close(scored: dict[str, Scored], close: dict[str, Scored],
              literal: Callable[[Scored], int], wrapper: int) -> None:
    """Close templates beside the matches found: below every full match of a template as
    specific as theirs, above a wrapper's (``Error: {msg}``, a line printing another error;
    less than ``wrapper`` literal characters) when they hold twice its literal text and
    most of the message."""
    found = [(s.score, literal(s), s.approximate) for s in scored.values()]
    for rid, item in close.items():
        if rid in scored:
            continue
        own = literal(item)
        wrappers = [score for score, length, _ in found if length < wrapper and own >= 2 * length]
        if wrappers and item.score >= CLOSE_SCORE:
            item.score = max(item.score, max(wrappers) + 0.01)
        ceiling = max((score for score, length, approximate in found if not approximate
                       and (length >= wrapper or own < 2 * length)), default=None)
        if ceiling is not None:
            item.score = min(item.score, ceiling - 0.01)
        scored[rid] = item

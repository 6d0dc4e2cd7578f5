"""Linking a site's wordings across two consecutive releases.

When a release's mine removes a record and adds another with the same error class in the
same enclosing symbol (moved to another file or not) and a similar message, the two are
one site reworded: the old wording is linked to its successor. A message moved unchanged
into a function of another name is the same site too, and so is one moved and reworded at
once when the two wordings are nearly the same (releases mined far apart, ``--history-stride
minor``, see both changes in one step). Each old record is linked once, to its best
successor, and each new record takes at most one predecessor.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from errdex.records.stored import StoredRecord
from errdex.store import lineage as table
from errdex.store.protocol import Store

# Least similarity of two wordings (Indel, as in lookup) for one site reworded.
MIN_SIMILARITY = 0.6
_CHARS = 2_000  # wordings compared on at most this many characters
_CLASS_CHANGE_SIMILARITY = 0.9  # a class change in place needs near-identical wordings
_MOVED_SIMILARITY = 0.85  # moved to another function and reworded: nearly the same text
# The only site changed in its function whose wording holds the other's (a note appended):
# the shorter wording this long at least, its partial similarity weighted so.
_HELD_CHARS = 16
# Least similarity of the only record a function lost and the only one it gained (same
# class): a prefix dropped and a hint spelled out at once still reads as one site.
_ALONE_SIMILARITY = 0.4
_HELD_WEIGHT = 0.75
_MOVED_CANDIDATES = 64  # fresh records of one class read for a moved and reworded site
_GAP_PENALTY = 0.3  # a site missing from the releases between ranks below one just removed
_SYMBOL_PARTS = re.compile(r"\.|::|#|/")


def pair_wordings(
    removed: list[StoredRecord], fresh: list[StoredRecord],
    earlier: list[StoredRecord] | None = None,
) -> list[tuple[str, str]]:
    """(old id, new id) of the removed records that live on as a fresh one, best first.

    ``earlier``: sites removed by an earlier release that no release continued; a fresh
    record continues one of those only after those removed by this release."""
    by_symbol: dict[tuple[object, ...], list[StoredRecord]] = defaultdict(list)
    by_text: dict[tuple[object, ...], list[StoredRecord]] = defaultdict(list)
    by_place: dict[tuple[object, ...], list[StoredRecord]] = defaultdict(list)
    by_class: dict[tuple[object, ...], list[StoredRecord]] = defaultdict(list)
    for new in fresh:
        by_symbol[_symbol_key(new)].append(new)
        by_text[_text_key(new)].append(new)
        by_place[_place_key(new)].append(new)
        by_class[_class_key(new)].append(new)
    sole = _sole_places(removed, fresh)
    scored: list[tuple[float, str, str]] = []
    for gap, olds in ((0.0, removed), (-_GAP_PENALTY, earlier or [])):
        for old in olds:
            candidates = {id(n): n for n in by_symbol.get(_symbol_key(old), [])}
            candidates.update({id(n): n for n in by_text.get(_text_key(old), [])})
            candidates.update({id(n): n for n in by_place.get(_place_key(old), [])})
            same_class = by_class.get(_class_key(old), [])
            if len(same_class) <= _MOVED_CANDIDATES:  # bounded: a release adding many
                candidates.update({id(n): n for n in same_class})
            for new in candidates.values():
                score = _score(old, new, alone=not gap and _place_key(old) in sole)
                if score is not None:
                    scored.append((score + gap, old.record.id, new.record.id))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    taken_old: set[str] = set()
    taken_new: set[str] = set()
    pairs: list[tuple[str, str]] = []
    for _, old_id, new_id in scored:
        if old_id in taken_old or new_id in taken_new:
            continue
        taken_old.add(old_id)
        taken_new.add(new_id)
        pairs.append((old_id, new_id))
    return pairs


def link_release(store: Store, repo: str, name: str, sha: str) -> int:
    """Stamp release ``name`` (just mined at ``sha``) and link each reworded site's old
    wording to its successor; how many were linked."""
    with table.release_write(store, repo):  # stamped and linked, or neither (resumable)
        removed, fresh = table.stamp_release(store, repo, name, sha, joined=True)
        if not fresh:
            return 0
        records = store.get_many(fresh)
        classes = {r.record.error_class for r in records.values()}
        orphans = table.orphan_heads(store, repo, sha, classes)
        records.update(store.get_many([*removed, *orphans]))
        pairs = pair_wordings([records[i] for i in removed if i in records],
                              [records[i] for i in fresh if i in records],
                              [records[i] for i in orphans if i in records])
        table.link_wordings(store, repo, pairs, joined=True)
    return len(pairs)


def _symbol_key(stored: StoredRecord) -> tuple[object, ...]:
    """What a site keeps across a move: its function's own name (``Pundit.authorize`` and
    ``Pundit::Context#authorize`` are one), class and kind."""
    record = stored.record
    symbol = stored.extras.enclosing_symbol
    # Module-level sites have no symbol: their file stands in (a move is then not followed).
    where = _SYMBOL_PARTS.split(symbol)[-1] if symbol else f"file:{record.file_path}"
    return (record.repo, record.error_class, record.error_type, where)


def _place_key(stored: StoredRecord) -> tuple[object, ...]:
    """The whole enclosing symbol, whatever the class: a site whose error class changed
    (``UsageError`` → its subclass ``NoSuchOption``) in the same function."""
    record = stored.record
    return (record.repo, record.error_type, stored.extras.enclosing_symbol or
            f"file:{record.file_path}")


def _class_key(stored: StoredRecord) -> tuple[object, ...]:
    record = stored.record
    return (record.repo, record.error_class, record.error_type)


def _text_key(stored: StoredRecord) -> tuple[object, ...]:
    record = stored.record
    return (record.repo, record.error_class, record.error_type, record.error_message)


def _sole_places(removed: list[StoredRecord], fresh: list[StoredRecord]
                 ) -> set[tuple[object, ...]]:
    """The enclosing symbols where this release removed one record and added one: the one
    error site there changed, whatever its class became."""
    gone = Counter(_place_key(r) for r in removed)
    added = Counter(_place_key(r) for r in fresh)
    return {place for place, count in gone.items() if count == 1 and added[place] == 1}


def _score(old: StoredRecord, new: StoredRecord, alone: bool = False) -> float | None:
    """How surely ``new`` is ``old`` reworded or moved; None when it is not. ``alone``:
    the two are the only record removed and the only one added in their symbol."""
    if old.record.error_class != new.record.error_class:
        # another class in the same function: only the same text (or nearly) is the site,
        # or a similar one when nothing else there changed (a subclass raised instead)
        if _place_key(old) != _place_key(new):
            return None
        least = MIN_SIMILARITY if alone else _CLASS_CHANGE_SIMILARITY
        similarity = float(Indel.normalized_similarity(
            old.record.error_message[:_CHARS], new.record.error_message[:_CHARS],
            score_cutoff=least))
        return similarity if similarity >= least else None
    same_symbol = _symbol_key(old) == _symbol_key(new)
    if old.record.error_message == new.record.error_message:
        similarity = 1.0
    else:
        least = MIN_SIMILARITY if same_symbol else _MOVED_SIMILARITY
        if alone and _place_key(old) == _place_key(new):
            least = _ALONE_SIMILARITY  # the one site its function lost and gained
        similarity = float(Indel.normalized_similarity(
            old.record.error_message[:_CHARS], new.record.error_message[:_CHARS],
            score_cutoff=least))
        if similarity < least and same_symbol and alone:
            similarity = _held(old.record.error_message, new.record.error_message)
        if similarity < least:
            return None
    same_file = old.record.file_path == new.record.file_path
    whole_symbol = old.extras.enclosing_symbol == new.extras.enclosing_symbol
    return (similarity + (0.3 if same_symbol else 0.0) + (0.2 if whole_symbol else 0.0)
            + (0.2 if same_file else 0.0))


def _held(old: str, new: str) -> float:
    """How much one wording holds the other (a sentence appended, a word put in), scaled
    below plain similarity: 0.75 when the shorter appears whole in the longer."""
    shorter, longer = sorted((old[:_CHARS], new[:_CHARS]), key=len)
    if len(shorter) < _HELD_CHARS:
        return 0.0
    return float(fuzz.partial_ratio(shorter, longer)) / 100 * _HELD_WEIGHT


__all__ = ["MIN_SIMILARITY", "link_release", "pair_wordings"]

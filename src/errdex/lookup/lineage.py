"""Matches of older wordings, answered with the site as it is now.

A repository mined ``--history`` keeps each wording a site had (``store.lineage``); an old
wording is still a record in the index (removed at the release that reworded it), so it
matches like any other. Here such a match is handed out with the site's newest record
(``filePath``/``lineNumber`` are where to read the code today, ``removed`` only if the site
is gone for good), and a ``version`` saying which wording matched and the releases that
printed it. One site is listed once, at its best rank.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from errdex.lookup import retrieval as close_text
from errdex.lookup.ranking import Match, Scored
from errdex.lookup.text_sites import REASON as HELD_WHOLE
from errdex.lookup.text_sites import TextSiteMatch
from errdex.records.lineage import Wording, WordingVersion
from errdex.records.stored import StoredRecord
from errdex.records.text_sites import contained, spaced, words
from errdex.store import lineage as table
from errdex.store.protocol import Store

# a template's hole: ``{name}``, or a printf conversion (``%s``, ``%-8.3lf``)
_HOLE = re.compile(r"\{[^{}]*\}|%[-+ #0-9.*]*[hlLqjzt]*[a-zA-Z@]")
_SWALLOWED = 2  # words a current template spells out that an older wording's hole took
_SPELLED_READS = 8  # older wordings and current close templates read for it, each at most
_ABSORBED_SIMILARITY = 0.6  # a gone site's wording and the current one of its function
_CHARS = 2_000  # wordings compared on at most this many characters
_HELD_CHARS = 16  # the shorter wording this long at least to be read as held by the other
_HELD_WEIGHT = 0.75  # a wording held by another counts this much of its partial similarity
_ABSORBED_READS = 8  # current sites read (for their symbol) per gone site, closest first
_KEPT_WORDS = 0.75  # share of a gone wording's words a current site of its class still says
_KEPT_LEAST = 4  # ... read only for a gone wording of this many distinct words at least


def follow_sites(store: Store, matches: list[Match]) -> list[Match]:
    """The matches with each older wording's record replaced by its site's newest record
    (and a ``version``); a site matched through several wordings is listed once."""
    ids = [match.record.id for match in matches]
    rows = table.wordings(store, ids)
    if not rows:  # nothing mined with history: the usual case, one probe
        return matches
    site_of = {rid: row.site_id for rid, row in rows.items()}
    family = table.site_wordings(store, set(site_of.values()))
    records = store.get_many([*site_of.values(),
                              *(w.id for members in family.values() for w in members)])
    merged = _absorbed(store, [records[s] for s in set(site_of.values())
                               if s in records and records[s].removed is not None])
    if merged:  # a site gone for good that lives on in a site of its function
        more = table.site_wordings(store, set(merged.values()))
        records.update(store.get_many(
            [*merged.values(), *(w.id for members in more.values() for w in members)]))
        for new in set(merged.values()):
            family[new] = list(more.get(new, []))
        for gone, new in merged.items():
            family[new].extend(family.get(gone, []))
        site_of = {rid: merged.get(site, site) for rid, site in site_of.items()}
    positions = table.release_positions(store, {m.record.repo for m in matches})
    followed: list[Match] = []
    seen: set[str] = set()
    for match in matches:
        rid = match.record.id
        site_id = site_of.get(rid, rid)
        if site_id in seen:
            continue
        seen.add(site_id)
        site = records.get(site_id)
        matched = records.get(rid) or StoredRecord(match.record, match.extras, match.removed)
        if rid not in rows or site is None or (site_id == rid and site.removed is None):
            followed.append(match)
            continue
        version = _version(matched, site, family.get(site_id, []), records, positions)
        reason = match.reason
        if site_id != rid:
            reason = _older_wording_reason(reason, version)
        followed.append(replace(match, reason=reason, record=site.record, extras=site.extras,
                                removed=site.removed, version=version))
    return _current_first(followed)


def _absorbed(store: Store, gone: list[StoredRecord]) -> dict[str, str]:
    """Sites gone for good that live on in another current site of their file: gone site
    id → that site's id; lineage links only sites new in a release.

    - In the same function: the current site has the same file, enclosing symbol and error
      class, and the most similar wording (``_ABSORBED_SIMILARITY`` at least): jq's
      ``Cannot index %s with %s`` branch dropped for the ``Cannot index %s with %s (%s)``
      beside it, which already existed.
    - Reworded past that and moved into a helper: a current site of the same error class in
      the same file, or in the file the file's other sites moved to, whose wording still
      says ``_KEPT_WORDS`` of the gone wording's words (requests' ``Invalid return
      character or leading space in header`` became ``Invalid leading whitespace, reserved
      character(s), or return character(s) in header {kind}`` in a helper, and utils.py
      moved under src/)."""
    placed = [old for old in gone if old.extras.enclosing_symbol]
    if not placed:
        return {}
    close: dict[str, list[tuple[float, str]]] = {}  # gone id → (similarity, head id)
    kept: dict[tuple[str, str], list[tuple[float, float, str]]] = {}  # (repo, gone id) → …
    for repo in sorted({old.record.repo for old in placed}):
        mine = [old for old in placed if old.record.repo == repo]
        files = {old.record.file_path for old in mine}
        moved = table.moved_files(store, repo, files)
        heads = table.current_heads(store, repo, files.union(*moved.values()))
        for old in mine:
            record = old.record
            followed = moved.get(record.file_path, set()) | {record.file_path}
            said = _literal_words(record.error_message)
            for rid, path, error_class, error_type, wording in heads:
                if path not in followed or (error_class, error_type) != (
                        record.error_class, record.error_type):
                    continue
                similarity = _similarity(record.error_message, wording)
                if path == record.file_path and similarity >= _ABSORBED_SIMILARITY:
                    close.setdefault(record.id, []).append((similarity, rid))
                if len(said) >= _KEPT_LEAST:
                    share = len(said & _literal_words(wording)) / len(said)
                    if share >= _KEPT_WORDS:
                        kept.setdefault((repo, record.id), []).append(
                            (share, similarity, rid))  # words kept, similarity, head id
    # the enclosing symbol is read for the closest few only
    ranked = {gone: sorted(found, reverse=True)[:_ABSORBED_READS]
              for gone, found in close.items()}
    heads_read = store.get_many({rid for found in ranked.values() for _, rid in found})
    merged: dict[str, str] = {}
    for old in placed:
        for _, rid in ranked.get(old.record.id, []):
            head = heads_read.get(rid)
            if head is not None and head.extras.enclosing_symbol == old.extras.enclosing_symbol:
                merged[old.record.id] = rid
                break
    merged.update(_succeeded(store, {key: found for key, found in kept.items()
                                     if key[1] not in merged}))
    return merged


def _succeeded(store: Store, kept: dict[tuple[str, str], list[tuple[float, float, str]]]
               ) -> dict[str, str]:
    """Of each gone site's current sites that still say most of its words (best first),
    the first whose lineage began after the gone site's ended: it took over; one printed
    beside it all along is another message. ``kept``: (repo, gone id) → candidates."""
    if not kept:
        return {}
    family = table.site_wordings(store, {gone for _, gone in kept}.union(
        *({rid for _, _, rid in found} for found in kept.values())))
    positions = table.release_positions(store, {repo for repo, _ in kept})

    def span(repo: str, site: str) -> tuple[int, int] | None:
        seen = [(positions[(repo, w.first_seen)], positions[(repo, w.last_seen)])
                for w in family.get(site, [])
                if (repo, w.first_seen) in positions and (repo, w.last_seen) in positions]
        if not seen:
            return None
        return min(first for first, _ in seen), max(last for _, last in seen)

    taken: dict[str, str] = {}
    for (repo, gone), found in kept.items():
        ended = span(repo, gone)
        for _, _, rid in sorted(found, reverse=True):
            began = span(repo, rid)
            if ended is not None and began is not None and began[0] > ended[1]:
                taken[gone] = rid
                break
    return taken


def _literal_words(template: str) -> set[str]:
    """The words a template spells out itself (its holes left out)."""
    return set(words(_HOLE.sub(" ", template)))


def _similarity(old: str, new: str) -> float:
    """How alike two wordings of one function are: Indel, or (a hint spelled out, a
    suggestion appended) how much the longer holds the shorter, weighted below it."""
    old, new = old[:_CHARS], new[:_CHARS]
    similarity = float(Indel.normalized_similarity(old, new))
    shorter, longer = sorted((old, new), key=len)
    if similarity >= _ABSORBED_SIMILARITY or len(shorter) < _HELD_CHARS:
        return similarity
    return max(similarity, float(fuzz.partial_ratio(shorter, longer)) / 100 * _HELD_WEIGHT)


def _current_first(matches: list[Match]) -> list[Match]:
    """History adds, never displaces: a wording of a site gone for good (``gone_for_good``)
    goes after every current record the paste matched, scored just below the last of them,
    so the current sites rank as they would without ``--history``; alone, it stays."""
    current = [m for m in matches if not gone_for_good(m)]
    if len(current) == len(matches) or not current:
        return matches
    floor = min(m.score for m in current)
    gone = [replace(m, score=min(m.score, round(floor - 0.0001, 4)))
            for m in matches if gone_for_good(m)]
    return current + gone


def _version(
    matched: StoredRecord, site: StoredRecord, wordings: list[Wording],
    records: dict[str, StoredRecord], positions: dict[tuple[str, str], int],
) -> WordingVersion:
    """The releases that printed ``matched``'s wording (over every record of the site that
    had it: a move keeps the wording), where it lived last, and since when the site reads
    as it does now."""
    repo = matched.record.repo

    def place(name: str) -> int:
        return positions.get((repo, name), 0)

    def span(template: str) -> tuple[str, str, StoredRecord] | None:
        same = [(w, records[w.id]) for w in wordings
                if w.id in records and records[w.id].record.error_message == template]
        if not same:
            return None
        first = min(same, key=lambda pair: place(pair[0].first_seen))[0].first_seen
        last_wording, last_record = max(same, key=lambda pair: place(pair[0].last_seen))
        return first, last_wording.last_seen, last_record

    old = span(matched.record.error_message)
    now = span(site.record.error_message)
    if old is None:  # its own row only (no lineage): the matched record is the place
        own = next((w for w in wordings if w.id == matched.record.id), None)
        first = own.first_seen if own else ""
        old = (first, own.last_seen if own else first, matched)
    first, last, where = old
    return WordingVersion(matched.record.error_message, where.record.file_path,
                          where.record.line_number, first, last,
                          now[0] if now is not None else None)


def _older_wording_reason(reason: str, version: WordingVersion) -> str:
    """The ranking's reason with its "removed in …" note replaced: the site lives on."""
    kept = [part for part in reason.split("; ") if not part.startswith("removed in ")]
    kept.append(f"an older wording of this site ({version.span()})")
    return "; ".join(kept)


def gone_for_good(match: Match) -> bool:
    """Whether a match (after ``follow_sites``) is a wording of a site that history shows
    removed for good: no current record continues it. Its exact match is then no stronger
    than a wrapper's; the message may live on where errdex sees no raise of its own (a
    text site) or reworded past what lineage links (a close template)."""
    return match.removed is not None and match.version is not None


def lives_on_in_text(texts: list[TextSiteMatch], matches: list[Match]) -> bool:
    """Whether the paste's message lives on at the best text site while every record it
    matched is a wording history shows gone for good: the line's literal, held whole by
    the paste, is words of such a wording of the same repository (pundit's ``not allowed
    to`` kept in its error class once the raise stopped spelling the message). A text
    site that short never outranks a current record; against a site gone for good it is
    where the message is written today."""
    if not texts or not matches or texts[0].reason != HELD_WHOLE:
        return False
    if not all(gone_for_good(m) for m in matches):
        return False
    found = words(texts[0].site.text)
    return any(m.record.repo == texts[0].repo and m.version is not None
               and contained(found, spaced(words(m.version.template))) for m in matches)


def close_beside(
    store: Store | None, scored: dict[str, Scored], message: str,
    approximate: Callable[[], dict[str, Scored]], literal: Callable[[Scored], int],
    wrapper: int, spelled: Callable[[Scored], str],
) -> None:
    """Close templates beside weak full matches (``retrieval.weak``/``add_close``); one
    that spells out what a match's hole took (``spelled``: a candidate's literal text)
    ranks above it (``prefer_spelled_out``). With
    ``store`` (some repository mined ``--history``), a removed candidate whose site is gone
    for good (see ``gone_for_good``) reads no literal text, as a wrapper: close current
    templates are then looked for and a close one ranks above it; close removed ones are
    added as before, never lifted over it."""
    gone = _gone(store, scored) if store is not None else set()
    thin = (lambda item: 0 if item.row.id in gone else literal(item)) if gone else literal
    if not close_text.weak(scored, message, thin, wrapper):
        return
    close = approximate()
    if not gone:  # the usual case
        close_text.add_close(scored, close, literal, wrapper)
    else:
        close_text.add_close(scored, {rid: item for rid, item in close.items()
                                      if not item.row.removed_sha}, thin, wrapper)
        close_text.add_close(scored, {rid: item for rid, item in close.items()
                                      if item.row.removed_sha}, literal, wrapper)
    prefer_spelled_out(spelled, scored, message, store)


def prefer_spelled_out(text_of: Callable[[Scored], str], scored: dict[str, Scored],
                       message: str, store: Store | None = None) -> None:
    """A close current template above a match whose holes swallowed its words
    (``text_of``: a candidate's literal text).

    An older wording (mine --history; read when ``store`` is given) often matches fully
    only because a hole takes text the site prints differently today: gson's ``Expected
    {expected} but was {peek()}`` takes ``STRING at line 1 column 17`` whole, where the
    current ``Expected BEGIN_OBJECT but was {peek()} at line {line} column {column} path …``
    spells ``at line … column`` out. A current full match may do the same: nginx's ``"%s"
    directive %s`` takes ``is not allowed here in /etc/nginx/nginx.conf:1`` whole, where
    ``"%s" directive is not allowed here`` spells it out (its reporter appends `` in
    file:line``, so it is only close). A current template of the repository that says every
    word the match says and at least ``_SWALLOWED`` more words of the paste that its holes
    took is the better explanation, even as a close match: it ranks just above."""
    currents = sorted((item for item in scored.values()
                       if item.approximate and not item.row.removed_sha),
                      key=lambda item: -item.score)[:_SPELLED_READS]
    if not currents:
        return
    olds = [item for item in scored.values() if not item.approximate and item.row.removed_sha
            and item.groups][:_SPELLED_READS]
    if olds and store is not None:
        rows = table.wordings(store, [item.row.id for item in olds])
        olds = [item for item in olds if item.row.id in rows]  # mined with history only
        _lift_spelled(text_of, olds, currents, message, "an older wording's hole took")
    fulls = [item for item in scored.values() if not item.approximate
             and not item.row.removed_sha and item.groups][:_SPELLED_READS]
    _lift_spelled(text_of, fulls, currents, message, "a matching template's hole took")


def _lift_spelled(text_of: Callable[[Scored], str], olds: list[Scored], currents: list[Scored],
                  message: str, whose: str) -> None:
    """Each of ``currents`` that says every word an ``olds`` match says (``text_of``: its
    literal text) and at least ``_SWALLOWED`` more of the words its holes took: just above."""
    said = {w for w in words(message) if not w.isdigit()}

    def literal_words(item: Scored) -> set[str]:
        return said & set(words(text_of(item)))

    spelled = {item.row.id: literal_words(item) for item in currents}
    for old in olds:
        own = literal_words(old)
        swallowed = {w for value in old.groups if value for w in words(value)} & said
        for item in currents:
            taken = (spelled[item.row.id] & swallowed) - own
            if (item.row.repo == old.row.repo and own <= spelled[item.row.id]
                    and len(taken) >= _SWALLOWED and item.score <= old.score):
                item.score = round(old.score + 0.01, 4)
                item.reasons.append(f"spells out as its own words what {whose} "
                                    f"({', '.join(sorted(taken))})")


def _gone(store: Store, scored: dict[str, Scored]) -> set[str]:
    """The removed candidates whose site (their own, or the one lineage linked them to) is
    removed too, and lives on in no other site of its function (``_absorbed``); a plain
    mine's removed records have no wording row and are never here."""
    rows = table.wordings(store, [rid for rid, item in scored.items() if item.row.removed_sha])
    if not rows:
        return set()
    sites = store.get_many({row.site_id for row in rows.values()})
    removed = {sid: site for sid, site in sites.items() if site.removed is not None}
    if not removed:
        return set()
    living = _absorbed(store, list(removed.values()))
    return {rid for rid, row in rows.items() if row.site_id in removed
            and row.site_id not in living}


def has_wordings(store: Store) -> bool:
    """Whether any repository of ``store`` was mined with history (else nothing to follow)."""
    return table.has_wordings(store)


__all__ = ["close_beside", "follow_sites", "gone_for_good", "has_wordings",
           "lives_on_in_text", "prefer_spelled_out"]

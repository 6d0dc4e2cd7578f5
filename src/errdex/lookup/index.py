"""Lookup: pasted text → candidate patterns → verified matches → ranked records.

The index holds each *distinct* pattern once, filed under its most selective
required word (``templates.analysis.prefilter_words``, computed when the record is
written). A query costs one dictionary probe per word of the message and a set
check of each candidate's other required words; only survivors run their regex,
compiled on first use. No query ever loops over all patterns.

Every step is bounded for any paste (``parse.MAX_INPUT_CHARS``): patterns run on
RE2 (linear in the text, whatever the pattern), at most ``_MAX_VERIFIED``
candidates are verified per reading of the message, and similarity is scored
by RapidFuzz on texts cut to ``similarity.FUZZY_CHARS``.

Ranking, best first: a full pattern match, a matching error class, stack frames
pointing at the site (path suffix and line, tolerant of drift), then
specificity (more literal text). Records sharing a template stay next to each
other, frames deciding their order. When nothing matches fully, reworded
messages are found by word overlap and flagged approximate; a frame alone can
also surface a record (location only, approximate).
"""

from __future__ import annotations

import copy
import re
from itertools import compress, repeat

from errdex.languages._engine.pastes.common import Frame
from errdex.lookup import retrieval as close_text
from errdex.lookup.classes import class_matches
from errdex.lookup.codes import apply_codes, paste_codes
from errdex.lookup.context import apply_context, foreign, order_texts, read_context
from errdex.lookup.frames import FRAME_LINE_TOLERANCE as FRAME_LINE_TOLERANCE
from errdex.lookup.frames import apply_frames
from errdex.lookup.lineage import close_beside, follow_sites, has_wordings
from errdex.lookup.lines import line_event, message_lines, other_events
from errdex.lookup.parse import ErrorEvent, main_event
from errdex.lookup.parts import PART_PENALTY, parent
from errdex.lookup.prefilter import Probe, ShapeCache, index_words, walk_bucket
from errdex.lookup.ranking import Match as Match
from errdex.lookup.ranking import Ranked as Ranked
from errdex.lookup.ranking import (
    Scored,
    apply_examples,
    apply_passed_on,
    apply_type_arguments,
    class_signal,
    in_example,
    mark_constructors,
    rank,
    read_records,
)
from errdex.lookup.ranking import materialize as materialize
from errdex.lookup.replay import Replays, Trace, check
from errdex.lookup.similarity import (
    APPROXIMATE_MIN_RATIO,
    FUZZY_CHARS,
    literal_of,
    literal_text,
    similarity,
)
from errdex.lookup.tables import ByKey, load_tables
from errdex.lookup.tables import bucket as word_bucket
from errdex.lookup.text_sites import TextSiteMatch, find_text_sites
from errdex.lookup.variants import _MAX_VARIANTS as _MAX_VARIANTS
from errdex.lookup.variants import _lost_period, _variants, reading_note
from errdex.records.stored import CandidateRow, StoredText
from errdex.store.protocol import Store
from errdex.templates.analysis import shape_of
from errdex.templates.matching import verify

_WORD = re.compile(r"[A-Za-z0-9_]+")
_MAX_FUZZY_CANDIDATES = 16
_WRAPPER_LITERAL = 12  # less literal text than this: a wrapper, not a message of its own
_BARE_LITERAL = 5  # less than this (" in ", ": "): no message at all, whatever it matches
_LONG_FOR_ONE_WORD = 40  # a message this long is not explained by a one-word template
_DETAILS_CACHE = 200_000
# Bump when the saved index layout changes; older snapshots are then rebuilt.
SNAPSHOT_FORMAT = 11
# Most candidate patterns verified per reading of a message: real messages have a handful;
# a paste holding thousands of templates' words reaches it (the most specific are kept).
_MAX_VERIFIED = 512
# Most patterns one lookup looks at while probing the index (all readings together): real
# messages touch tens; a paste holding the words of a whole index stops here.
_PROBE_CHECKS = 200_000
_MANY_BUCKETS = 256  # past this many key words in a message, smallest buckets first
# Records read whole with a reading's candidate rows (one statement) when at most this many
_READ_WITH_ROWS = 8  # raise its verified patterns: a hit's few sites, not a wrapper's hundreds


class Index:
    """A lookup index over every distinct pattern of a store.

    The word table is built once per store generation and saved in the store
    (``index_snapshot``), so opening an index is one read, not a pass over every
    pattern. Pattern texts are read on demand, only for candidates.
    """

    def __init__(self, store: Store):
        self.store = store
        self._by_key: ByKey
        self._rest: dict[int, tuple[str, ...]]
        self._size: int
        self._parts: dict[int, tuple[str, int]]  # part id → (a template line's pattern, literal)
        (self._by_key, self._rest, self._size, self._parts, self._retrieval,
         self._held, self._shared) = load_tables(store, SNAPSHOT_FORMAT, literal_of)
        self._details: dict[int, tuple[str, int]] = {}
        self._read: dict[str, StoredText] = {}  # records read with this ranking's candidates
        # the last probe: its message, its result, the budget it was walked with
        self._last_probe: tuple[str | None, Probe, int] = (None, ([], []), 0)
        self._lineage = has_wordings(store)  # some repository was mined --history
        self._shapes: ShapeCache | None = None  # a scan's probe cache (cache_shapes)
        self._replays: Replays | None = None  # a scan's rankings by line shape (cache_shapes)

    def __len__(self) -> int:
        return self._size

    def bound_to(self, store: Store) -> Index:
        """This index's tables (shared, read-only) over ``store``, with caches of its own:
        one per server thread, each with its own connection, without rebuilding anything."""
        view = copy.copy(self)
        view.store, view._details, view._read = store, {}, {}
        view._last_probe, view._shapes, view._replays = (None, ([], []), 0), None, None
        return view

    def _pattern_details(self, pids: list[int]) -> dict[int, tuple[str, int]]:
        """(pattern, literal length) of candidate patterns, cached."""
        if not pids:  # a wrapped part no template could fit: most of a hit's readings
            return {}
        missing = [pid for pid in pids if pid not in self._details]
        for pid in missing:  # a line of a multi-line template, a held pattern: no read
            if found := self._parts.get(pid) if pid < 0 else self._held and self._held.get(pid):
                self._details[pid] = found
        missing = [pid for pid in missing if pid >= 0 and pid not in self._details]
        if missing:
            if len(self._details) > _DETAILS_CACHE:
                self._details.clear()
            self._details.update(self.store.pattern_details(missing))
        return {pid: self._details[pid] for pid in pids if pid in self._details}

    # --- public ---------------------------------------------------------------------

    def explain(self, text: str, *, top: int = 5, repo: str | None = None) -> list[Match]:
        """The best records for the main error in ``text``, best first."""
        return self.explain_event(main_event(text), top=top, repo=repo, paste=text)

    def explain_event(self, event: ErrorEvent, *, top: int = 5, repo: str | None = None,
                      paste: str | None = None) -> list[Match]:
        ranked = self.rank_event(event, top=top, repo=repo, paste=paste)
        return self.follow_sites(materialize(ranked, read_records(
            self.store, self._read, [r.id for r in ranked])))

    def follow_sites(self, matches: list[Match]) -> list[Match]:
        """An older wording (mine --history) answered with its site as it is now."""
        return follow_sites(self.store, matches) if self._lineage else matches

    def rank_event(
        self, event: ErrorEvent, *, top: int = 5, repo: str | None = None,
        paste: str | None = None,
    ) -> list[Ranked]:
        """The best record ids for one event, without reading the records yet.

        Split from ``explain_event`` so a scan can rank in worker processes and read
        the records it reports in one batch. ``paste``: the text the event was read from,
        whose other lines are read as messages when the event's matches no record.
        In a scan (``cache_shapes``) a line's ranking is replayed for the next line of its
        shape that checks the same (``replay``).
        """
        self._read = {}  # what the last ranking read: not this one's
        replays = self._replays if paste is None and not self._lineage else None
        if replays is None:
            return self._rank(event, top, repo, paste, None)
        key = replays.key(event.message, (event.error_class, event.kind, event.frames,
                                          event.code, event.text == event.message, top, repo))
        found = replays.replay(key, event.message, count=True)
        if found is not None:
            return found
        words = replays.words_key(event.message, key[1:])  # the probe's words: a wider shape
        found = replays.recheck(words, event, key)
        if found is not None:
            return found
        trace = Trace()
        ranked = self._rank(event, top, repo, paste, trace)
        replays.keep(key, words, ranked, trace, _WRAPPER_LITERAL)
        return ranked

    def replayed(self, message: str, frames: tuple[Frame, ...], top: int,
                 repo: str | None) -> list[Ranked] | None:
        """A log entry's ranking replayed by its line's shape (``rank_event`` of the event
        ``ErrorEvent(message, None, "message", frames, message)``), before that event is
        built; None when it is not (then ``rank_event``)."""
        replays = self._replays if not self._lineage else None
        if replays is None:
            return None
        key = replays.key(message, (None, "message", frames, None, True, top, repo))
        return replays.replay(key, message, count=False)

    def _rank(self, event: ErrorEvent, top: int, repo: str | None, paste: str | None,
              trace: Trace | None) -> list[Ranked]:
        scored = self._full_matches(event, repo, trace=trace)
        if not scored and paste:
            scored = self._line_matches(event, paste, repo)
        bare = not event.message.strip()  # a bare class: no text to compare
        if not scored and bare:
            scored = class_matches(self.store, event, repo)
        # the ranked retrieval is the costliest step: once per event, whoever asks first
        kept: list[dict[str, Scored]] = []

        def approximate() -> dict[str, Scored]:
            if not kept:
                kept.append(self._approximate_matches(event, repo, trace))
            return kept[0]
        if not bare:  # close templates beside weak full matches (``lineage.close_beside``)
            close_beside(self.store if self._lineage else None, scored, event.message,
                         approximate, self._literal, _WRAPPER_LITERAL,
                         lambda s: literal_text(self._details.get(s.row.pattern_id, ("", 0))[0]))
        if not scored and not bare:  # a message reworded past recognition, a dumped struct
            scored = class_matches(self.store, event, repo)
        context = read_context(event, paste)
        codes = paste_codes(event, paste)
        if trace is not None:  # not replayed: a code, package, program; example code's
            trace.plain = not context.names and not codes.codes and not any(
                in_example(item.row.file_path) for item in scored.values())  # holes weigh
            trace.literal = {rid: self._literal(item) for rid, item in scored.items()}
            trace.scored = set(scored)
        if not bare and foreign(context, scored, event.error_class):  # none could raise it
            for rid, item in (approximate() | class_matches(self.store, event, repo)).items():
                scored.setdefault(rid, item)
        apply_codes(self.store, codes, scored, repo)  # codes are keys
        mark_constructors(self.store, self._read, scored)
        apply_passed_on(self.store, scored)  # the caller's site before its helper's raise
        apply_frames(self.store, event.frames, scored, repo)
        apply_examples(scored, self._literal)  # an example's generic print: said elsewhere
        if paste is not None:  # the class as printed: a C++ type's template arguments
            apply_type_arguments(self.store, event.text, event.error_class, scored)
        apply_context(context, scored)  # which language, which repository
        return [
            Ranked(s.row.id, s.score, "; ".join(s.reasons), s.groups, s.approximate)
            for s in rank(scored)[:top]
        ]

    def text_sites(self, text: str, *, top: int = 5,
                   repo: str | None = None) -> list[TextSiteMatch]:
        """When no record matches: the lines whose literal text the message contains."""
        # those of the repository and language the paste names first (``lookup.context``)
        return order_texts(text, find_text_sites(self.store, text, top=2 * top, repo=repo))[:top]

    def cache_shapes(self) -> ShapeCache:
        """Cache probes by message shape and candidate rows by verified patterns, from now on
        (``prefilter``): a scan's lines repeat a few shapes with other values in them."""
        if self._shapes is None:
            self._shapes = ShapeCache(index_words(self._by_key, self._rest))
            self._replays = Replays(self._shapes.vocabulary, lambda *args: verify(*args),
                                    self._reading_candidates)
        return self._shapes

    def _reading_candidates(self, readings: list[str]) -> list[dict[int, tuple[str, int]]]:
        """The candidates ``_full_matches`` verifies against each reading (one budget)."""
        budget = [_PROBE_CHECKS]
        return [self._pattern_details(self._most_specific(self.candidates(text, budget)))
                for text in readings]

    def candidates(self, message: str, budget: list[int] | None = None) -> list[int]:
        """Pattern ids whose required words all appear as words of ``message``.

        ``budget`` ([checks left]) is shared by the probes of one lookup.
        """
        return self._probe(message, budget)[0]

    def _probe(
        self, message: str, budget: list[int] | None = None, close: bool = False
    ) -> Probe:
        """(all required words present, most of them present) pattern ids for a message.

        The second list is best first (share of words present) and at most
        ``_MAX_FUZZY_CANDIDATES`` long: only those are compared letter by letter. It is
        made only when ``close`` asks for it (the approximate pass), else None: a full
        match needs the first alone, whose walk then runs in C (no loop per pattern).
        At most ``budget[0]`` patterns are looked at (``_PROBE_CHECKS`` without one):
        a paste holding the words of most of a large index stops there, having
        looked at the patterns filed under its rarest words first.
        """
        last = self._last_probe
        if last[0] == message:  # the full and the approximate pass share it
            if not close or last[1][1] is not None:
                return last[1]
            budget = [last[2]]  # its near misses too: walked as that probe was
        elif budget is not None and budget[0] <= 0:
            return [], []
        words = set(_WORD.findall(message))
        left = _PROBE_CHECKS if budget is None else budget[0]
        shapes = self._shapes
        shape = shapes.shape(words) if shapes is not None else frozenset()
        cached = shapes.probe(shape, left, close) if shapes is not None else None
        if cached is not None:  # a message of this shape was probed: same candidates
            if budget is not None:
                budget[0] = left - cached[1]
            self._last_probe = (message, cached[0], left)
            return cached[0]
        rest_of, by_key = self._rest, self._by_key
        buckets = []
        for word in words:  # most words key no bucket, most buckets are a tuple: no call
            entry = by_key.get(word)
            if entry is None:
                continue
            found = entry if type(entry) is tuple else word_bucket(entry, words)
            if found:
                buckets.append(found)
        if len(buckets) > _MANY_BUCKETS:
            buckets.sort(key=len)
        start, whole = left, True
        full: list[int] = []
        near: list[tuple[float, int]] = []
        issuperset, rest_get = words.issuperset, rest_of.get
        for bucket in buckets:
            left -= len(bucket)
            if left < 0:
                whole = False
                break
            if close:
                walk_bucket(bucket, words, rest_of, full, near)
            else:  # the patterns whose other required words are all there, in C
                full.extend(compress(bucket, map(issuperset, map(rest_get, bucket, repeat(())))))
        if budget is not None:
            budget[0] = max(0, left)
        near.sort(reverse=True)
        result = (full, [pid for _, pid in near[:_MAX_FUZZY_CANDIDATES]] if close else None)
        self._last_probe = (message, result, start)
        if shapes is not None and whole:
            shapes.keep_probe(shape, result, start - left)
        return result

    def _candidate_rows(self, pids: list[int], repo: str | None) -> list[CandidateRow]:
        """The records raising verified patterns; cached by pattern ids in a scan."""
        if self._shapes is None:
            found = self.store.candidate_records(pids, repo, _READ_WITH_ROWS)
            if found is None:
                return self.store.candidate_rows(pids, repo)
            rows, texts = found
            self._read.update(texts)
            return rows
        return self._shapes.rows(pids, repo, self.store.candidate_rows)

    def _most_specific(self, pids: list[int]) -> list[int]:
        """At most ``_MAX_VERIFIED`` candidates, those requiring the most words first."""
        if len(pids) <= _MAX_VERIFIED:
            return pids
        rest_of = self._rest
        return sorted(pids, key=lambda pid: -len(rest_of.get(pid, ())))[:_MAX_VERIFIED]

    # --- full matches ---------------------------------------------------------------

    def _line_matches(self, event: ErrorEvent, paste: str, repo: str | None
                      ) -> dict[str, Scored]:
        """Records the paste's other errors (``lines.other_events``), else one of its lines,
        fullmatch (each line and its wrapped parts, the first ``lines.MAX_LINES`` lines, one
        probe budget for all): the best line wins."""
        best: dict[str, Scored] = {}
        budget = [_PROBE_CHECKS]
        for other in other_events(paste, event):
            for rid, item in self._full_matches(other, repo, budget).items():
                item.reasons[0] += f" of the error {other.message.partition(chr(10))[0]!r}"
                best[rid] = item if rid not in best or best[rid].score < item.score else best[rid]
        if best:
            return best
        for line in message_lines(paste, event.message):
            read = line_event(line, event.error_class)
            found = self._full_matches(read, repo, budget)
            wrapped = set(read.segments[1:])  # the event split the line once already
            for rid, item in found.items():
                item.reasons[0] += f" of the line {line!r}"
                if wrapped.intersection(item.groups):
                    # A wrapper printing another error (``[x] Unhandled: Error: …``): a
                    # place, not the raise; a line holding the inner text may say more.
                    item.approximate = True
                    item.reasons.append("the line wraps another error")
                if rid not in best or best[rid].score < item.score:
                    best[rid] = item
        return best

    def _full_matches(self, event: ErrorEvent, repo: str | None,
                      budget: list[int] | None = None, whole: bool = True,
                      trace: Trace | None = None) -> dict[str, Scored]:
        """Records whose pattern fullmatches the message (or, failing that, a wrapped segment;
        ``whole``: and the other readings of a multi-line message). ``trace``: what each
        record matched, and the candidates checked against the message itself."""
        best: dict[str, Scored] = {}
        budget = [_PROBE_CHECKS] if budget is None else budget
        readings = _variants(event) if whole else event.segments
        if trace is not None:
            trace.readings, trace.texts = len(readings), list(readings)
        for reading, message in enumerate(readings):
            verified: dict[int, tuple[str | None, ...]] = {}
            details = self._pattern_details(self._most_specific(self.candidates(message, budget)))
            if not details:
                continue
            encoded: list[bytes] = []  # the message for RE2, encoded once if a regex runs
            # A sentence pasted without its final period (copied from a title, or trimmed):
            # read with it against a template ending in one (same words: same candidates).
            period = _lost_period(message)
            with_period: list[bytes] = []
            seen: dict[str, tuple[str | None, ...] | None] = {}  # templates sharing a line
            for pid, (pattern, literal) in details.items():
                groups = seen[pattern] if pattern in seen else seen.setdefault(
                    pattern, check(pattern, message, encoded, period, with_period, verify))
                if groups is not None:
                    verified[pid] = groups
                if trace is not None:
                    trace.check(reading, pid, pattern, groups is not None,
                                groups is not None and literal < _WRAPPER_LITERAL)
            if not verified:
                continue
            for pid in [pid for pid in verified if pid in self._shared]:
                for line in self._shared[pid]:  # a line many templates share: each of them
                    verified[line], details[line] = verified[pid], details[pid]
            via = {pid: pid for pid in verified if pid >= 0}
            for pid in sorted(verified, reverse=True):  # the template's first line first
                if pid < 0:
                    via.setdefault(parent(pid)[0], pid)
            for row in self._candidate_rows(list(via), repo):
                vid = via[row.pattern_id]
                reasons = ["full pattern match"]
                if vid < 0:
                    reasons[0] = (f"line {parent(vid)[1] + 1} of the multi-line template "
                                  "matches; the paste holds only part of it")
                if message != event.message:
                    reasons[0] += reading_note(event, message)
                score = 1.0 + class_signal(event.error_class, row.error_class, reasons)
                if vid < 0:
                    score -= PART_PENALTY
                # More literal text explains more: the specific site beats a template
                # that only re-prints what it was given (``Error: {msg}``).
                literal = details[vid][1]
                if literal < _BARE_LITERAL and len(message) > 3 * _BARE_LITERAL:
                    continue  # ``{error} in {location}`` fullmatches any text with " in "
                if literal < _WRAPPER_LITERAL and len(message) > _LONG_FOR_ONE_WORD and len(
                        _WORD.findall(literal_text(details[vid][0]))) < 2:
                    continue  # ``fatal: %s``, ``invalid %s``: a word says nothing of a long one
                score += 0.3 * min(1.0, literal / 80)
                if literal < _WRAPPER_LITERAL:
                    score -= 0.3
                current = best.get(row.id)
                if current is None or current.score < score:
                    best[row.id] = Scored(row, score, reasons, verified[vid] if vid >= 0 else (),
                                          literal=literal)
                    if trace is not None:
                        trace.origin[row.id] = (vid, reading)
        return best

    # --- approximate matches ----------------------------------------------------------

    def _literal(self, item: Scored) -> int:
        """The literal length of what a candidate matched (a template's line: that line's)."""
        known = item.literal
        return known if known is not None else self._details.get(item.row.pattern_id, ("", 0))[1]

    def _approximate_matches(self, event: ErrorEvent, repo: str | None,
                             trace: Trace | None = None) -> dict[str, Scored]:
        """Templates close to a message none fullmatches (reworded since the user's version):
        ranked retrieval over every template's literal text (retrieval.py) and the probe's
        near misses, re-scored by similarity on the literal text."""
        if trace is not None:
            trace.searched = True  # the text decided: not replayed
        message = event.message
        full, close = self._probe(message, close=True)
        assert close is not None  # asked for
        # full: every word there, the regex failed; those requiring the most words first (the
        # probe lists them in the order of a set of words, which changes from run to run)
        rest_of = self._rest
        full = sorted(full, key=lambda pid: (-len(rest_of.get(pid, ())), pid))
        pids = [pid for pid in full + close if pid >= 0][:_MAX_FUZZY_CANDIDATES]
        seen = set(pids)
        found = self._retrieval.search(message, close_text.RETRIEVED)
        pids += [pid for pid in found if pid not in seen]
        ratios: dict[int, float] = {}
        text = close_text.normalize(message[:FUZZY_CHARS])
        folded: list[bytes] = []  # the message folded, for RE2, encoded once
        details = self._pattern_details(pids)
        opened = close_text.openers({p: shape_of(d[0]).fragments[0] for p, d in details.items()},
                                    text)
        for pid, (pattern, length) in details.items():
            literal = close_text.normalize(literal_text(pattern))[:FUZZY_CHARS]
            ratio = max(similarity(literal, text), close_text.within(literal, text),
                        close_text.OPENING_RATIO if pid in opened else 0.0)
            pair = close_text.folded_pair(pattern, message, ratio, length, _WRAPPER_LITERAL)
            if pair is not None and verify(*pair, folded) is not None:
                ratio = close_text.FOLDED_RATIO  # re-capitalised or re-quoted, folded
            # Most of its words there (the probe's), or letter by letter very close.
            if ratio >= (APPROXIMATE_MIN_RATIO if pid in seen else close_text.MIN_RATIO):
                ratios[pid] = ratio
        scored: dict[str, Scored] = {}
        for row in self.store.candidate_rows(list(ratios), repo) if ratios else ():
            ratio = ratios[row.pattern_id]
            reasons = [f"approximate: {ratio:.0%} similar text, the message was probably reworded"]
            score = 0.3 + 0.65 * ratio + class_signal(event.error_class, row.error_class, reasons)
            scored[row.id] = Scored(row, score, reasons, approximate=True,
                                    literal=details[row.pattern_id][1])
        return scored


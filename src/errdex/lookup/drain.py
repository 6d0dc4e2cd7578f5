"""Templates of log messages no statement explains, learnt from the log itself (Drain's
algorithm: He et al., ICWS 2017), so ``scan --group`` still folds a million such lines
into a few rows, each flagged as a template of the log's own and not a statement of the
source.

A message is split into words and the values in them masked first, generically (no
per-log regexes): numbers, hex, IPs, uuids, times, paths, URLs and calendar words
become ``<*>``, inside a word too (``uid=0`` reads ``uid=<*>``). A fixed-depth prefix
tree then files it by its word count and its first ``depth`` words (a word holding a
value is the ``<*>`` branch; a node with too many children sends the rest there), so
it is compared only with the templates of one leaf: a bounded amount of work per
message, linear in the log. It joins the most similar template when the share of
positions that agree reaches ``threshold`` (a literal word the same, or a value in
both: two messages of the same shape agree on where their values are), ties going to
the template with the most literal words; the positions that differ become ``<*>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

WILDCARD = "<*>"
_LEAF_SIZE = 64  # templates kept per leaf (the most recent)
_MAX_CHILDREN = 64  # branches per tree node; past it a word takes the ``<*>`` branch
_MAX_WORDS = 128  # words past this are one tail: a pasted blob is one long message

_CALENDAR = frozenset((
    "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Monday", "Tuesday", "Wednesday",
    "Thursday", "Friday", "Saturday", "Sunday", "Jan", "Feb", "Mar", "Apr", "May", "Jun",
    "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "January", "February", "March",
    "April", "June", "July", "August", "September", "October", "November", "December"))
_MAY_HOLD_VALUE = re.compile(r"[\d/]")  # every value below holds a digit or a slash
# Values inside a word, longest first: a URL or a path (the rest of the word), an IPv4
# address with its port, a uuid, hex (a run of hex digits holding a digit, not glued to
# letters), then a run of digits with its separators (times, dates, versions, sizes).
_VALUE = re.compile(
    r"[A-Za-z][A-Za-z0-9+.-]*://\S*"
    r"|(?<![\w.])(?:\.{0,2}/|~/)[^\s,;()\[\]{}\"']+"
    r"|\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?"
    r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
    r"|0[xX][0-9a-fA-F]+"
    r"|(?<![A-Za-z])[0-9a-fA-F]*\d[0-9a-fA-F]*(?:[.:,_-][0-9a-fA-F]*\d[0-9a-fA-F]*)*(?![A-Za-z])"
    r"|\d+(?:[.:,_-]\d+)*")
_RUNS = re.compile(r"(?:<\*>)+")


@dataclass
class Cluster:
    """A template learnt from the log, and how many messages it holds."""

    words: list[str]
    id: int = 0
    size: int = 0

    @property
    def template(self) -> str:
        return " ".join(self.words)


@dataclass
class _Node:
    children: dict[str, _Node] = field(default_factory=dict)
    clusters: list[Cluster] = field(default_factory=list)


@dataclass
class Drain:
    """Groups messages by template as they come, one pass."""

    # One setting for every log (Drain's are tuned per log), chosen on twelve Loghub
    # samples whose source errdex does not mine (HDFS, Hadoop, Spark, BGL, HPC,
    # Thunderbird, Windows, Linux, Android, HealthApp, Proxifier, Mac): mean grouping
    # accuracy 0.866 at 0.75 (0.859 at 0.7, 0.856 at 0.65, 0.864 at 0.8, whose HDFS
    # falls to 0.930); Drain3 with Loghub's per-log settings: 0.857.
    threshold: float = 0.75
    depth: int = 2  # words of the message's start that file it, after its word count
    root: _Node = field(default_factory=_Node)
    count: int = 0  # clusters made so far (their ids)

    def add(self, message: str) -> Cluster:
        """The cluster ``message`` joins (its template updated), or a new one."""
        words = masked_words(message)
        leaf = self._leaf(words)
        best, best_key = None, (-1.0, -1)
        for cluster in leaf.clusters:
            key = _similarity(cluster.words, words)
            if key > best_key:
                best, best_key = cluster, key
        if best is None or best_key[0] < self.threshold:
            self.count += 1
            best = Cluster(words, self.count)
            leaf.clusters.append(best)
            if len(leaf.clusters) > _LEAF_SIZE:
                del leaf.clusters[0]
        else:
            best.words = [a if a == b else WILDCARD
                          for a, b in zip(best.words, words, strict=True)]
            leaf.clusters.remove(best)  # most recent last: the oldest leaves a full leaf
            leaf.clusters.append(best)
        best.size += 1
        return best

    def _leaf(self, words: list[str]) -> _Node:
        """The leaf for ``words``: by their count, then their first ``depth`` words."""
        node = self.root.children.setdefault(str(len(words)), _Node())
        for word in words[:self.depth]:
            key = WILDCARD if WILDCARD in word else word
            child = node.children.get(key)
            if child is None:
                if len(node.children) >= _MAX_CHILDREN:
                    key = WILDCARD
                child = node.children.setdefault(key, _Node())
            node = child
        return node


def masked_words(message: str) -> list[str]:
    """The words of ``message``, the values in each masked (``<*>``)."""
    words = message.split()
    if len(words) > _MAX_WORDS:
        words = [*words[:_MAX_WORDS - 1], " ".join(words[_MAX_WORDS - 1:])]
    cache = _MASKED
    if len(cache) > _CACHE_WORDS:
        cache.clear()
    out = []
    for word in words:
        masked = cache.get(word)
        if masked is None:
            masked = cache[word] = _mask(word)
        out.append(masked)
    return out


_MASKED: dict[str, str] = {}  # words repeat: each is masked once (bounded)
_CACHE_WORDS = 65_536


def _mask(word: str) -> str:
    if not _MAY_HOLD_VALUE.search(word):  # most words: no regex of values to run
        return WILDCARD if word.rstrip(",") in _CALENDAR else word
    return _RUNS.sub(WILDCARD, _VALUE.sub(WILDCARD, word))


def _similarity(template: list[str], words: list[str]) -> tuple[float, int]:
    """(share of positions that agree, literal words the template keeps)."""
    if not words:
        return 1.0, 0
    same = literal = 0
    for a, b in zip(template, words, strict=True):
        if a != WILDCARD:
            literal += 1
        if a == b:
            same += 1
    return same / len(words), literal


__all__ = ["WILDCARD", "Cluster", "Drain", "masked_words"]

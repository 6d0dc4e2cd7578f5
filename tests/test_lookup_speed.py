"""The faster readings the lookup relies on give what the slower ones gave."""

from __future__ import annotations

from errdex.lookup import retrieval
from errdex.lookup.retrieval import Retrieval
from errdex.templates.analysis import _read_shape, shape_of

PATTERNS = [
    "", "(.+?)", "plain text", r"file (.+?) not found\.", r"a\\(.+?)", r"a\\\\\(.+?\)",
    r"C:\\\\tmp\\(.+?)", r"value (.+?)? is optional", r"count (-?\d+) too big",
    r"(?:x|y) opaque", r"tab\there", r"\x41 hex", r"trailing \\", "unbalanced (",
    r"braces \{(.+?)\}", r"line one\nline two (.+?)", "a[bc] class", "(.+?)(.+?)",
]


def test_the_quick_shape_reading_matches_the_full_one():
    for pattern in PATTERNS:
        assert shape_of(pattern) == _read_shape(pattern), pattern
    assert shape_of(r"file (.+?) not found\.").fragments == ("file ", " not found.")
    assert shape_of(r"a\\(.+?)").fragments == ("a\\", "")


def test_only_postings_a_query_can_read_are_kept(monkeypatch):
    monkeypatch.setattr(retrieval, "_MAX_POSTINGS", 2)
    built = Retrieval.build([(1, "shared rare one"), (2, "shared rare two"),
                             (3, "shared three"), (4, "nothing alike")])
    postings, frequency, _, size = built.dump()
    assert size == 4 and frequency["w:shared"] == 3
    assert "w:shared" not in postings  # in more templates than one query reads
    assert "w:rare" in postings and "w:nothing" in postings
    assert built.search("rare one", 2)[0] == 1


def test_a_snapshot_of_the_older_layout_is_not_read():
    assert Retrieval.load((b"sqlite bytes", {}, b"", 0)) is None
    built = Retrieval.build([(1, "no handler registered for ")])
    again = Retrieval.load(built.dump())
    assert again is not None and again.search("no handler registerd", 1) == [1]

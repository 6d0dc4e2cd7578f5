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


def _mined(make_repo, store):
    """A store with two raise sites of different templates, and a fresh index over it."""
    import errdex

    repo = make_repo()
    repo.write("m.py", "def f(n):\n    raise ValueError(f'bad count {n} given')\n\n"
                       "def g(p):\n    raise KeyError(f'no such key {p} here')\n")
    repo.commit()
    errdex.mine(repo.root, db=store)
    return errdex.open_index(store)


def test_a_hit_verifies_its_candidates_without_reading_patterns(make_repo, store, monkeypatch):
    index = _mined(make_repo, store)

    def no_read(_pids):
        raise AssertionError("the patterns' details are held by the index")

    monkeypatch.setattr(store, "pattern_details", no_read)
    (found,) = index.explain("ValueError: bad count 7 given")
    assert found.record.line_number == 2
    (found,) = index.explain("KeyError: no such key 'x' here")
    assert found.record.line_number == 5


def test_a_snapshot_without_details_reads_them_from_the_store(make_repo, store):
    import marshal

    import errdex
    from errdex.lookup.index import SNAPSHOT_FORMAT

    _mined(make_repo, store)
    generation = store.generation()
    tables = marshal.loads(store.load_snapshot(generation, SNAPSHOT_FORMAT))[:5]
    store.save_snapshot(generation, SNAPSHOT_FORMAT, marshal.dumps(tuple(tables)))
    index = errdex.open_index(store)
    assert index._held is None
    (found,) = index.explain("ValueError: bad count 7 given")
    assert found.record.line_number == 2


def test_held_details_answer_only_the_ids_they_hold():
    from array import array

    from errdex.lookup.tables import Details

    held = Details("a (.+?)é".encode(), array("q", [0, 0, 9, 9]), array("l", [0, 2, 0]))
    assert held.get(1) == ("a (.+?)é", 2)
    assert held.get(0) is None and held.get(2) is None and held.get(3) is None
    assert held.get(-4) is None
    again = Details.load(held.dump())
    assert again is not None and again.get(1) == ("a (.+?)é", 2)
    assert Details.load(None) is None
    assert Details.load((["a"], b"")) is None  # an older layout of the details


def test_details_are_collected_by_id_whatever_the_order_and_dropped_when_sparse():
    from errdex.lookup.tables import _Collected

    collected = _Collected()
    rows = [(2, "b (.+?)", "b", 2), (5, "e", "e", 1), (3, "c", "c", 1)]
    assert list(collected.rows(iter(rows))) == [(2, "b (.+?)"), (5, "e"), (3, "c")]
    held = collected.details()
    assert held is not None
    assert [held.get(pid) for pid in range(7)] == [
        None, None, ("b (.+?)", 2), ("c", 1), None, ("e", 1), None]
    sparse = _Collected()
    assert len(list(sparse.rows(iter([(1, "a", "a", 1), (10**9, "z", "z", 1)])))) == 2
    assert sparse.details() is None


def _sites(make_repo, store, shared: int):
    """A store of one template raised at ``shared`` sites, and one raised at a single site."""
    import errdex

    repo = make_repo()
    body = "".join(f"def f{k}(n):\n    raise ValueError(f'bad count {{n}} given')\n\n"
                   for k in range(shared))
    repo.write("m.py", body + "def g(p):\n    raise OSError(f'no such key {p} here')\n")
    repo.commit()
    errdex.mine(repo.root, db=store)
    return errdex.open_index(store)


def test_candidate_records_are_the_candidate_rows_and_their_records(make_repo, backend_store):
    store = backend_store  # each backend: the one statement is the shared SQL's
    _sites(make_repo, store, 3)
    pids = [pid for pid, _, _, _ in store.pattern_rows()]
    found = store.candidate_records(pids, None, 8)
    assert found is not None
    rows, texts = found
    assert sorted(rows, key=str) == sorted(store.candidate_rows(pids), key=str) and len(rows) == 4
    from errdex.store.rows import stored_record

    records = store.get_many(row.id for row in rows)
    assert {rid: stored_record(*text) for rid, text in texts.items()} == records
    assert store.candidate_records(pids, None, 3) is None  # more records than it reads
    assert store.candidate_records(pids, "no/such", 8) == ([], {})
    assert store.candidate_records([], None, 8) == ([], {})


def test_a_hit_reads_its_records_with_its_candidates(make_repo, store, monkeypatch):
    """A hit's few records come with its candidate rows: no second read by id. The answer
    is the one the rows and a read by id give (as when a template has more sites)."""
    index = _sites(make_repo, store, 1)
    both = index.explain("OSError: no such key x here") + index.explain("bad count 3 given")

    def no_read(_ids):
        raise AssertionError("the records were read with the candidates")

    monkeypatch.setattr(store, "get_many", no_read)
    again = index.explain("OSError: no such key x here") + index.explain("bad count 3 given")
    assert [m.to_json() for m in again] == [m.to_json() for m in both] and len(both) == 2
    monkeypatch.undo()
    monkeypatch.setattr(store, "candidate_records", lambda *_: None)  # rows, then ids
    read_apart = index.explain("OSError: no such key x here") + index.explain(
        "bad count 3 given")
    assert [m.to_json() for m in read_apart] == [m.to_json() for m in both]


def test_records_of_a_template_with_many_sites_are_read_by_id(make_repo, store, monkeypatch):
    import errdex.lookup.index as lookup_index

    index = _sites(make_repo, store, lookup_index._READ_WITH_ROWS + 1)
    read: list[list[str]] = []
    get_many = store.get_many
    monkeypatch.setattr(store, "get_many", lambda ids: read.append(list(ids)) or get_many(read[-1]))
    found = index.explain("bad count 3 given", top=20)
    assert len(found) == lookup_index._READ_WITH_ROWS + 1
    assert read and len(read[-1]) == len(found)

"""Explain: pasted text → the record that raised it, with bound values, ranked."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import errdex
from errdex.datasets.lines import import_dataset
from errdex.errors import UsageError
from errdex.interfaces.cli import main
from errdex.lookup.index import _MAX_VARIANTS
from errdex.lookup.similarity import FUZZY_CHARS, similarity
from errdex.records.model import Record
from tests.conftest import SEED_RECORD
from tests.steps import counting_lookup_work

RUST_LIB = """\
pub fn load(path: &str, dtype: DType) -> Tensor {
    match dtype {
        DType::F32 => read_f32(path),
        other => panic!("load: unsupported dtype {:?} for {}", other, path),
    }
}

pub fn check(n: usize) {
    if n == 0 {
        panic!("empty batch");
    }
}
"""

PY_A = """\
def parse_size(text):
    if not text.isdigit():
        raise ValueError(f"invalid size {text!r}")
    return int(text)
"""

PY_B = """\
import logging

logger = logging.getLogger(__name__)


def parse_width(text):
    if not text.isdigit():
        raise ValueError(f"invalid size {text!r}")
    return int(text)


def parse_weight(text):
    raise TypeError(f"invalid size {text!r}")
"""


@pytest.fixture
def index(make_repo, store):
    repo = make_repo("git@github.com:acme/tensors.git")
    repo.write("src/io.rs", RUST_LIB)
    repo.write("shapes/a.py", PY_A)
    repo.write("shapes/b.py", PY_B)
    repo.commit()
    errdex.mine(repo.root, db=store)
    return errdex.open_index(store)


def test_seed_message_binds_its_hole(store):
    import_dataset(store, SEED_RECORD)
    matches = errdex.open_index(store).explain("deform_conv2d_backward: unsupported dtype I8")
    assert len(matches) == 1
    assert matches[0].record.id == "d59d5538758c7e08"
    assert list(matches[0].bound.values()) == ["I8"]


def test_bare_message(index):
    (best, *_) = index.explain("load: unsupported dtype I8 for weights.bin")
    assert best.record.file_path == "src/io.rs" and best.record.line_number == 4
    assert best.bound == {"other": "I8", "path": "weights.bin"}


def test_rust_panic_current_format(index):
    text = (
        "thread 'main' panicked at src/io.rs:10:9:\nempty batch\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )
    (best, *_) = index.explain(text)
    assert best.record.line_number == 10 and best.record.error_message == "empty batch"
    assert "frame" in best.reason


def test_rust_panic_old_format(index):
    text = "thread 'main' panicked at 'load: unsupported dtype U8 for a.bin', src/io.rs:4:18"
    (best, *_) = index.explain(text)
    assert best.record.line_number == 4 and best.bound["other"] == "U8"


def test_class_decides_between_same_message(index):
    matches = index.explain("TypeError: invalid size 'x'")
    assert matches[0].record.error_class == "TypeError"
    assert {m.record.error_class for m in matches[1:]} == {"ValueError"}
    assert matches[0].score > matches[1].score


def test_same_template_at_several_sites_returned_together_frames_decide(index):
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/app/main.py", line 3, in <module>\n'
        "    parse_width(sys.argv[1])\n"
        '  File "/usr/lib/python3/site-packages/shapes/b.py", line 8, in parse_width\n'
        '    raise ValueError(f"invalid size {text!r}")\n'
        "ValueError: invalid size 'abc'\n"
    )
    matches = index.explain(traceback)
    sites = [(m.record.file_path, m.record.line_number) for m in matches]
    assert sites[:2] == [("shapes/b.py", 8), ("shapes/a.py", 3)]
    assert matches[0].bound == {"text": "'abc'"}
    assert "frame shapes/b.py:8" in matches[0].reason


def test_chained_traceback_explains_last_exception(index):
    text = (
        "Traceback (most recent call last):\n"
        '  File "x.py", line 1, in <module>\n'
        "KeyError: 'w'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        '  File "x.py", line 3, in <module>\n'
        "TypeError: invalid size 'w'\n"
    )
    assert index.explain(text)[0].record.error_class == "TypeError"


def test_location_only_match_is_flagged_approximate(index):
    text = "thread 'main' panicked at src/io.rs:10:9:\nbatch was empty\n"
    (best,) = index.explain(text)
    assert best.approximate and best.record.line_number == 10
    assert best.reason.startswith("location only")


def test_near_miss_is_never_a_full_match(index):
    reworded = index.explain("load: unsupported dtypes I8 for a.bin")
    assert reworded and all(m.approximate for m in reworded)
    assert reworded[0].record.line_number == 4
    assert "approximate" in reworded[0].reason and reworded[0].bound == {}
    assert all(m.approximate for m in index.explain("empty batches"))
    assert index.explain("nothing like any template here") == []


def test_repo_filter_and_top(index, store):
    import_dataset(store, SEED_RECORD)
    index = errdex.open_index(store)
    assert index.explain("invalid size 'q'", repo="tracel-ai/burn") == []
    assert len(index.explain("invalid size 'q'", top=2)) == 2


def test_empty_input_is_a_usage_error(index):
    with pytest.raises(UsageError):
        index.explain("   \n ")


def test_all_hole_template_is_found_by_its_frame_not_its_text(make_repo, store):
    repo = make_repo()
    repo.write("src/lib.rs", 'pub fn f(msg: &str) {\n    panic!("{}", msg);\n}\n\n'
               'pub fn g(n: u32) {\n    panic!("bad count {}", n);\n}\n')
    repo.commit()
    errdex.mine(repo.root, db=store)
    index = errdex.open_index(store)
    assert [m.record.line_number for m in index.explain("bad count 3")] == [6]
    assert index.explain("anything at all") == []
    panic = "thread 'main' panicked at src/lib.rs:2:5:\nanything at all\n"
    (found,) = index.explain(panic)
    assert found.record.line_number == 2 and found.approximate


def test_index_snapshot_is_reused_and_refreshed_after_writes(make_repo, store, monkeypatch):
    import errdex.lookup.index as index_module
    import errdex.lookup.tables as tables_module

    import_dataset(store, SEED_RECORD)
    first = errdex.open_index(store)
    assert store.load_snapshot(store.generation(), index_module.SNAPSHOT_FORMAT)

    def no_rebuild(_store):
        raise AssertionError("the saved index should have been used")

    monkeypatch.setattr(tables_module, "build_tables", no_rebuild)
    second = errdex.open_index(store)
    assert len(second) == len(first) == 1
    assert second.explain("deform_conv2d_backward: unsupported dtype I8")
    monkeypatch.undo()
    repo = make_repo()
    repo.write("m.py", "raise ValueError('brand new message here')\n")
    repo.commit()
    errdex.mine(repo.root, db=store)
    third = errdex.open_index(store)
    assert len(third) == 2
    assert third.explain("brand new message here")


def test_a_megabyte_adversarial_paste_costs_a_bounded_number_of_linear_checks(make_repo, store):
    """Adjacent holes, typed and not, against a 1 MB paste that almost matches them: each
    reading of the paste checks each candidate once, typed ones on RE2 (linear in the text;
    a short message's integer holes are placed by a bounded search instead), and Python's
    backtracking engine never sees a stored pattern."""
    repo = make_repo()
    repo.write("m.py", "def f(a, b, n):\n"
               "    raise ValueError(f'bad {a}{b} value')\n"
               "def g(a, n):\n"
               "    raise ValueError(f'bad {a}{n:d}{n:d} count')\n"
               "def h(a):\n"
               "    raise ValueError('bad %s%s%s value' % (a, a, a))\n")
    repo.commit()
    errdex.mine(repo.root, db=store)
    index = errdex.open_index(store)
    stored = {s.record.message_pattern for s in store.records()}
    for paste in ("bad " + "a" * 999_000 + " valu", "bad " + "1" * 999_000 + " coun",
                  "bad " + "a1" * 499_000 + " value count"):
        with counting_lookup_work() as work:
            index.explain(paste)
        assert work.verified <= _MAX_VARIANTS * len(stored)
        assert work.re2_bytes <= work.re2_runs * len(paste)
        assert not stored & set(work.python_regexes)
    with counting_lookup_work() as work:
        assert index.explain("bad 1x4 count")[0].record.line_number == 4
    assert work.re2_runs == 0  # the typed template was placed without compiling it
    assert not stored & set(work.python_regexes)
    assert index.explain("bad xy value")[0].record.line_number == 2


HOSTILE_TEMPLATES = {
    "src/lib.rs": 'fn f(a: u8, b: u8, c: u8, d: u32) {\n'
                  '    panic!("adjacent {}{}{}{:x} quux", a, b, c, d);\n}\n',
    "m.py": 'def g(a, b, c, d):\n    raise ValueError(f"{a}{b}{c}{d:d} qqzz")\n',
}


@pytest.mark.parametrize("length", [400, 800, 100_000])
def test_adjacent_typed_holes_run_on_re2_whatever_the_paste_length(make_repo, store, length):
    """Reproductions: a mined ``panic!("adjacent {}{}{}{:x} quux")`` with a 400-character
    paste took 9.5 s (800: over 100 s), Python's ``f"{a}{b}{c}{d:d} qqzz"`` grew cubically.
    Now each near miss is one RE2 run per reading of the paste."""
    repo = make_repo()
    repo.commit_files(HOSTILE_TEMPLATES)
    errdex.mine(repo.root, db=store)
    index = errdex.open_index(store)
    stored = {s.record.message_pattern for s in store.records()}
    near_misses = [
        "adjacent " + "g" * length + " quux",
        "thread 'main' panicked at src/lib.rs:2:5:\nadjacent " + "1" * length + "g quux",
        "ValueError: " + "1" * length + "x qqzz",
    ]
    for paste in near_misses:
        with counting_lookup_work() as work:
            matches = index.explain(paste)
        assert all(m.approximate for m in matches), paste[:40]
        assert 1 <= work.re2_runs <= _MAX_VARIANTS
        assert not stored & set(work.python_regexes)
    rust = index.explain("adjacent abc1f quux")[0]
    assert not rust.approximate and list(rust.bound.values()) == ["a", "b", "c", "1f"]
    python = index.explain("ValueError: xyz12 qqzz")[0]
    assert not python.approximate and list(python.bound.values()) == ["x", "y", "z", "12"]


def _stored_record(store, **changes):
    """A record written straight to the store, as an import of any pattern would."""
    seed = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
    record = Record.model_validate(dict(seed, **changes))
    store.upsert([(record, None)])
    return record


def test_an_exponential_pattern_in_the_store_runs_in_linear_time(store):
    """Reproduction: an imported ``hello ((a+)+)b`` made 28 characters take 9 s in Python's
    engine. Lookup runs it on RE2: the near miss of any length is one linear run."""
    _stored_record(store, id="0123456789abcdef", slug="hello-b", errorMessage="hello {}b",
                   messagePattern="hello ((a+)+)b")
    index = errdex.open_index(store)
    for paste in ("hello " + "a" * 28 + "c", "hello " + "a" * 200_000 + "c"):
        with counting_lookup_work() as work:
            assert not [m for m in index.explain(paste) if not m.approximate]
        assert 1 <= work.re2_runs <= _MAX_VARIANTS
        assert "hello ((a+)+)b" not in work.python_regexes
    found = index.explain("hello aaab")[0]
    assert not found.approximate and found.record.id == "0123456789abcdef"


def test_a_pattern_re2_cannot_run_never_matches_and_never_fails_a_lookup(store):
    _stored_record(store, id="0123456789abcdef", slug="look-ahead", errorMessage="look {}",
                   messagePattern="look (?=ahead)(.+?)")
    index = errdex.open_index(store)
    assert not [m for m in index.explain("look ahead") if not m.approximate]


def test_similarity_of_long_texts_is_scored_on_capped_lengths(make_repo, store):
    """Reproduction: difflib took 43 s on a 20,000-character message and paste. The
    reworded message is still found, approximately, scored on at most FUZZY_CHARS each."""
    words = " ".join(f"part{n} of the long message" for n in range(800))
    assert len(words) > 20_000
    repo = make_repo()
    repo.commit_files({"long.py": f"def f(x):\n    raise ValueError(f'{words} {{x}}')\n"})
    errdex.mine(repo.root, db=store)
    index = errdex.open_index(store)
    reworded = words.replace("part7 of", "piece7 in").replace("part90 of", "piece90 in")
    with counting_lookup_work() as work:
        found = index.explain("ValueError: " + reworded + " 42")
    assert found and found[0].approximate and found[0].record.file_path == "long.py"
    assert work.scored and all(max(a, b) <= FUZZY_CHARS for a, b in work.scored)


def test_similarity_agrees_with_the_ratio_it_replaces():
    """RapidFuzz's Indel similarity is difflib's ratio where difflib finds the longest
    common subsequence: the 0.6 threshold keeps its meaning."""
    import difflib

    for a, b in [("invalid size", "invalid sizes"), ("cannot open file", "could not open file"),
                 ("connection refused by peer", "connection reset by peer"),
                 ("unsupported dtype", "dtype unsupported here")]:
        expected = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
        assert similarity(a, b) == pytest.approx(expected)
    assert similarity("abc", "x" * 100) == 0.0  # lengths alone rule it out


def test_a_deeply_nested_json_paste_is_read_as_text(make_repo, store):
    """Reproduction: a 6 KB paste of ``{"a":`` × 1000 was a RecursionError (internal error)."""
    repo = make_repo()
    repo.commit_files({"m.py": "def f():\n    raise ValueError('nested input')\n"})
    errdex.mine(repo.root, db=store)
    index = errdex.open_index(store)
    for paste in ('{"a":' * 1000, '{"a":' * 1000 + "1" + "}" * 1000,
                  '{"level":"error","msg":' + "[" * 5000 + "]" * 5000 + "}"):
        assert index.explain(paste) == []
    result = CliRunner().invoke(main, ["--db", str(store.path), "explain", '{"a":' * 1000 + "1"
                                       + "}" * 1000])
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output


JAVA_MAPPER = """\
class Mapper {
    static RuntimeException unknown(JsonParser p, String name, Object bean) {
        String msg = String.format(
                "Unrecognized field \\"%s\\" (class %s), not marked as ignorable", name, bean);
        return new UnrecognizedPropertyException(p, msg);
    }
}
"""


def test_details_a_library_appends_in_parentheses_do_not_hide_the_site(make_repo, store):
    """Jackson prints ``… not marked as ignorable (3 known properties: …])`` and a
    ``(through reference chain: …)`` line: the site is found without them."""
    repo = make_repo("git@github.com:acme/mapper.git")
    repo.write("src/Mapper.java", JAVA_MAPPER)
    repo.commit()
    errdex.mine(repo.root, db=store)
    index = errdex.open_index(store)
    pasted = ('Exception in thread "main" com.fasterxml.jackson.databind.exc.'
              'UnrecognizedPropertyException: Unrecognized field "version" (class '
              'io.x.RoomItem), not marked as ignorable (3 known properties: "links", "id"])\n'
              ' at [Source: N/A; line: -1, column: -1] (through reference chain: '
              'io.x.RoomItem["version"])')
    best, *_ = index.explain(pasted)
    assert best.record.file_path == "src/Mapper.java" and not best.approximate
    assert sorted(best.bound.values()) == ["io.x.RoomItem", "version"]
    # a message whose own last words are parenthesized is still matched whole first
    assert not index.explain('Unrecognized field "a" (class B), not marked as ignorable')[
        0].approximate


def test_an_error_printed_with_debug_is_read_for_the_message_it_quotes(make_repo, store):
    """``.unwrap()`` on serde_json's error prints ``Error("invalid type: …", line: 1,
    column: 13)``: the message inside the Debug form is what the site wrote."""
    repo = make_repo("git@github.com:acme/de.git")
    repo.write("src/de.rs", 'pub fn invalid_type(unexp: U, exp: E) -> Error {\n'
                            '    Error::custom(format_args!("invalid type: {}, expected {}",'
                            ' unexp, exp))\n}\n')
    repo.commit()
    errdex.mine(repo.root, db=store)
    pasted = ("thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: "
              'Error("invalid type: integer `234`, expected \\"unit\\"", line: 1, column: 13)\'')
    best, *_ = errdex.open_index(store).explain(pasted)
    assert best.record.file_path == "src/de.rs" and not best.approximate
    assert sorted(best.bound.values()) == ['"unit"', "integer `234`"]


def test_probing_the_index_stops_at_its_budget(store):
    """A paste holding the words of every template looks at a bounded number of patterns,
    whatever the size of the index; an ordinary message is far below the bound."""
    _store_many(store, 300)
    index = errdex.open_index(store)
    every_word = " ".join(f"zork{n} value" for n in range(300))
    assert len(index.candidates(every_word)) == 300
    budget = [120]
    found = index.candidates(every_word + " again", budget)
    assert 0 < len(found) <= 120 and budget == [0]
    assert index.candidates("zork7 value x", budget) == []  # nothing left for this lookup
    assert index.candidates("zork7 value x") and index.explain("zork7 value x")


def _store_many(store, count):
    seed = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
    store.upsert([(Record.model_validate(dict(
        seed, id=f"{n:016x}", slug=f"zork-{n}", errorMessage=f"zork{n} value {{}}",
        messagePattern=f"zork{n} value (.+?)")), None) for n in range(count)])


def test_a_jvm_frame_naming_the_file_alone_decides_between_sites_of_one_template(
    make_repo, tmp_path
):
    repo = make_repo()
    body = ('package shop\n\n'
            'fun get(key: String): Nothing = throw IllegalStateException("no such item: $key")\n')
    repo.commit_files({"src/main/kotlin/shop/Cache.kt": body,
                       "src/main/kotlin/shop/Store.kt": body})
    db = tmp_path / "jvm.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    paste = ("java.lang.IllegalStateException: no such item: abc\n"
             "\tat shop.StoreKt.get(Store.kt:3)\n\tat shop.MainKt.main(Main.kt:9)\n")
    for first in ("Store.kt", "Cache.kt"):
        matches = errdex.explain(paste.replace("Store.kt", first), db=db)
        assert matches[0].record.file_path == f"src/main/kotlin/shop/{first}"
        assert f"frame src/main/kotlin/shop/{first}:3" in matches[0].reason


def test_a_record_printing_the_level_prefix_itself_matches_the_line_as_printed(
    make_repo, tmp_path
):
    db = _mined(make_repo, tmp_path, {"app/store.py": (
        "def lock(path):\n    raise SystemExit(f'fatal: the store at {path} is locked')\n")})
    [match] = errdex.explain("fatal: the store at /srv/db is locked", db=db)[:1]
    assert (match.record.file_path, match.approximate) == ("app/store.py", False)
    assert match.bound == {"path": "/srv/db"}


def _mined(make_repo, tmp_path, files):
    """A store holding one committed fixture repository, mined."""
    repo = make_repo()
    repo.commit_files(files)
    db = tmp_path / "mined.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    return db


@pytest.mark.parametrize(("thin", "long_paste", "short_paste"), [
    # holes around a short word
    ("raise RuntimeError(f'{error} in {location}')",
     "fatal: unable to open the configuration file in the current directory", "x in y"),
    # one word of literal text
    ("raise SystemExit(f'fatal: {error}')",
     "fatal: Could not read from remote repository, please check the access rights",
     "fatal: oops"),
], ids=["short-word", "one-word"])
def test_a_thin_template_explains_a_short_paste_but_no_long_one(
    make_repo, tmp_path, thin, long_paste, short_paste
):
    db = _mined(make_repo, tmp_path, {"app/report.py": (
        f"def fail(error, location):\n    {thin}\n\n\n"
        "def owner(path):\n    raise RuntimeError(f'fatal: detected dubious ownership in "
        "repository at {path!r}')\n")})
    assert all(m.record.line_number != 2 for m in errdex.explain(long_paste, db=db))
    found = errdex.explain("fatal: detected dubious ownership in repository at '/w'", db=db)
    assert found[0].record.line_number == 6
    assert errdex.explain(short_paste, db=db)[0].record.line_number == 2  # short: matched


def test_a_compiled_javascript_frame_decides_between_sites_of_one_template(make_repo, tmp_path):
    body = "export function close(): never {\n  throw new Error('Connection is closed.');\n}\n"
    db = _mined(make_repo, tmp_path, {"lib/redis/handler.ts": body, "lib/cluster/index.ts": body,
                                      "lib/Redis.ts": body})
    for built, source in (("built/redis/handler.js", "lib/redis/handler.ts"),
                          ("built/cluster/index.js", "lib/cluster/index.ts")):
        paste = ("Error: Connection is closed.\n"
                 f"    at close (/app/node_modules/pkg/{built}:99:21)\n"
                 "    at Socket.emit (node:events:513:28)\n")
        best = errdex.explain(paste, db=db)[0]
        assert (best.record.file_path, best.approximate) == (source, False)
        assert "is built from" in best.reason


def test_the_innermost_frame_in_a_mined_file_finds_a_site_its_message_does_not(
    make_repo, tmp_path
):
    db = _mined(make_repo, tmp_path, {"index.js": (
        "const codes = require('./codes')\n\nfunction check (file) {\n"
        "  throw new UploadError('LIMIT_UNEXPECTED_FILE', file)\n}\n")})
    paste = ("Error: Unexpected field\n"
             "    at makeError (/srv/node_modules/up/lib/make-error.js:12:13)\n"
             "    at check (/srv/node_modules/up/index.js:4:19)\n")
    best = errdex.explain(paste, db=db)[0]
    where = (best.record.file_path, best.record.line_number, best.approximate)
    assert where == ("index.js", 4, True)
    assert best.reason.startswith("location only")


def test_of_one_templates_sites_the_raise_comes_before_the_error_classs_own_file(
    make_repo, tmp_path
):
    db = _mined(make_repo, tmp_path, {
        "src/error/DataTypeError.ts": (
            "export class DataTypeError extends Error {\n"
            "  constructor(type: string) {\n    super()\n"
            "    this.message = `Data type ${type} is not supported by this database.`\n"
            "  }\n}\n"),
        "src/validate/Validator.ts": (
            "import { DataTypeError } from '../error/DataTypeError'\n\n"
            "export function validate(type: string) {\n"
            "  throw new DataTypeError(type)\n}\n"),
    })
    paste = "DataTypeError: Data type jsonb is not supported by this database."
    found = [(m.record.file_path, m.record.line_number) for m in errdex.explain(paste, db=db)]
    assert found[:2] == [("src/validate/Validator.ts", 4), ("src/error/DataTypeError.ts", 3)]
    # the constructor's frame does not undo it: every raise passes through the class file
    framed = paste + ("\n    at new DataTypeError (/app/node_modules/orm/error/DataTypeError.js:9)"
                      "\n    at main (/app/index.js:3:1)\n")
    assert errdex.explain(framed, db=db)[0].record.file_path == "src/validate/Validator.ts"


def test_a_sentence_pasted_without_its_final_period_is_a_full_match(make_repo, tmp_path):
    db = _mined(make_repo, tmp_path, {"app/store.py": (
        "def lock(path):\n    raise RuntimeError(f'The store at {path} is locked by another "
        "process.')\n")})
    [match] = errdex.explain("RuntimeError: The store at /srv/db is locked by another process",
                             db=db)[:1]
    assert (match.record.line_number, match.approximate) == (2, False)
    assert match.bound == {"path": "/srv/db"}


@pytest.mark.parametrize("line", [
    "[3683] 13 Nov 11:42:52.767 # WARNING overcommit is off: background saves may fail",
    "3683:M 13 Nov 2019 11:42:52.767 # overcommit is off: background saves may fail",
    "12:00:01 ERROR overcommit is off: background saves may fail",
])
def test_a_log_lines_text_after_its_time_and_level_mark_is_matched(make_repo, tmp_path, line):
    db = _mined(make_repo, tmp_path, {"server/memory.py": (
        "def check(mode):\n    raise RuntimeError(f'overcommit is {mode}: background saves "
        "may fail')\n")})
    [match] = errdex.explain(line, db=db)[:1]
    assert (match.record.line_number, match.approximate, match.bound) == (2, False, {"mode": "off"})


@pytest.mark.parametrize("paste", [
    'FAILURE: Error Domain=com.acme.error Code=-6003 "Response status code was unacceptable: '
    '401" UserInfo={NSLocalizedFailureReason=Response status code was unacceptable: 401}',
    "    at new Promise (<anonymous>)\n  name: 'StatusError',\n"
    "  message: 'Response status code was unacceptable: 401.' }",
])
def test_the_message_an_nserror_or_a_logged_error_object_quotes_is_read(
    make_repo, tmp_path, paste
):
    db = _mined(make_repo, tmp_path, {"acme/validate.py": (
        "def check(code):\n    raise ValueError(f'Response status code was unacceptable: "
        "{code}.')\n")})
    [match] = errdex.explain(paste, db=db)[:1]
    assert (match.record.line_number, match.approximate, match.bound) == (2, False, {"code": "401"})



def test_a_reworded_message_is_compared_first_with_the_templates_requiring_most_of_its_words(
    store
):
    """Past the few templates compared letter by letter, which ones are compared does not
    depend on the order of a set (it changes from run to run): the most specific first."""
    seed = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
    long = "the pool of {} connections is exhausted, waiting for a free connection timed out"
    words = ["pool", "connections", "exhausted", "waiting", "free", "connection", "timed"]
    # each holds two of its words in the other order: every word there, the regex fails
    reversed_pairs = [f"{{}} {b} {{}} {a} {{}}" for i, a in enumerate(words)
                      for b in words[i + 1:]]
    templates = [*reversed_pairs, long]
    assert len(reversed_pairs) > 16
    store.upsert([(Record.model_validate(dict(
        seed, id=f"{n:016x}", slug=f"pool-{n}", errorMessage=text,
        messagePattern=text.replace("{}", "(.+?)"))), None) for n, text in enumerate(templates)])
    paste = "the pool of 8 connections is exhausted; waiting for a free connection timed out"
    [best] = errdex.open_index(store).explain(paste)[:1]
    assert (best.record.error_message, best.approximate) == (long, True)


def test_a_factory_method_in_the_error_classs_file_is_not_taken_for_its_constructor():
    from errdex.lookup.ranking import is_constructor

    assert is_constructor("DataTypeError.constructor", "DataTypeError")
    assert is_constructor("StreamReset.<init>", "okhttp3.StreamReset")
    assert is_constructor("Acme\\Errors\\Missing::__construct", "Acme\\Errors\\Missing")
    assert not is_constructor("MissingKey.forKey", "MissingKey")  # a named factory raises
    assert not is_constructor(None, "MissingKey")

"""Mining end to end: the seed fixture, stable ids, slugs, change times, skips."""

from __future__ import annotations

import gc
import json
import pickle
from pathlib import Path

import pytest

import errdex
from errdex.datasets.lines import export_dataset, import_dataset
from errdex.errors import RepositoryError
from errdex.languages import language_for_path
from errdex.mining.extract import extract, miner_version
from errdex.repo.git import load_tree, skip_reason
from errdex.store.protocol import Store
from errdex.store.sqlite import SQLiteStore
from errdex.templates.template import compile_pattern
from tests.conftest import SEED_RECORD

SEED = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]

# Real code in front of the seed's window so that line 225 continues the function.
_PREFIX = """\
impl ModuleOps<Flex> for Flex {
    fn deform_conv2d_backward(
        x: FloatTensor<Flex>,
        offset: FloatTensor<Flex>,
        weight: FloatTensor<Flex>,
        mask: Option<FloatTensor<Flex>>,
        bias: Option<FloatTensor<Flex>>,
        output_grad: FloatTensor<Flex>,
        options: DeformConvOptions<2>,
    ) -> DeformConv2dBackward<Flex> {
        let (x_grad, offset_grad, weight_grad, mask_grad, bias_grad) = match x.dtype() {
            DType::F32 => deform_conv2d_backward_f32(x, offset, weight, mask, bias, output_grad),
            from @ (DType::F16 | DType::BF16) => {
                let to = DType::F32;
                let (xg, og, wg, mg, bg) = deform_conv2d_backward_f32(
                    cast_to_f32(x, to),
                    cast_to_f32(offset, to),
"""


def burn_module_source() -> str:
    prefix = _PREFIX.splitlines()
    filler = [f"// {n}: kernels for the flex backend live below." for n in range(224 - len(prefix))]
    return "\n".join([*filler, *prefix, SEED["sourceCode"], "}", ""])


def test_seed_fixture_reproduces_the_seed(make_repo, store):
    repo = make_repo("https://github.com/tracel-ai/burn")
    repo.write("crates/burn-flex/src/ops/module.rs", burn_module_source())
    sha = repo.commit("flex backend")
    errdex.mine(repo.root, db=store)
    records = {r.record.error_message: r.record for r in store.records()}
    record = records[SEED["errorMessage"]]
    for field in ("repo", "errorMessage", "slug", "lineNumber", "sourceCode", "sourceCodeStart",
                  "sourceCodeEnd", "errorType", "errorClass", "severity", "filePath",
                  "schemaVersion", "messagePattern"):
        assert record.model_dump()[field] == SEED[field], field
    assert record.github_url == SEED["githubUrl"].replace(SEED["analyzedSha"], sha)
    assert record.analyzed_sha == sha
    regex = compile_pattern(record.message_pattern)
    assert regex.fullmatch("deform_conv2d_backward: unsupported dtype I8")
    assert not regex.fullmatch("deform_conv2d_forward: unsupported dtype I8")
    # the neighbouring conv3d panic is its own record with its own slug
    assert records["conv3d: unsupported dtype {:?}"].slug == "conv3d-unsupported-dtype"


PY_MODULE = '''\
"""Widgets."""


class Registry:
    def lookup(self, name):
        if name not in self.items:
            raise KeyError(f"unknown widget {name!r}")
        return self.items[name]

    def add(self, name, size):
        if size < 0:
            raise ValueError("size must be >= 0, got %d" % size)
        self.items[name] = size
'''


def _by_message(store: SQLiteStore) -> dict[str, errdex.Record]:
    return {s.record.error_message: s.record for s in store.records()}


def test_moving_code_keeps_ids_and_change_times(make_repo, store):
    repo = make_repo()
    repo.write("widgets/registry.py", PY_MODULE)
    repo.commit()
    errdex.mine(repo.root, db=store)
    before = _by_message(store)
    repo.write("widgets/registry.py", "\n" * 40 + PY_MODULE)
    repo.commit("move code down")
    summary = errdex.mine(repo.root, db=store)
    after = _by_message(store)
    assert set(after) == set(before)
    for message, record in after.items():
        assert record.id == before[message].id
        assert record.line_number == before[message].line_number + 40
        assert record.slug == before[message].slug
        assert record.analyzed_sha != before[message].analyzed_sha
    assert summary.new == 0 and summary.removed == 0


def test_rerun_with_no_change_keeps_content_changed_at(make_repo, store):
    repo = make_repo()
    repo.write("widgets/registry.py", PY_MODULE)
    repo.commit()
    errdex.mine(repo.root, db=store)
    first = _by_message(store)
    summary = errdex.mine(repo.root, db=store)
    second = _by_message(store)
    for message, record in second.items():
        assert record.content_changed_at == first[message].content_changed_at
        assert record.analyzed_at >= first[message].analyzed_at
    assert (summary.new, summary.changed, summary.removed) == (0, 0, 0)


def test_changed_message_is_a_new_record_and_old_one_goes(make_repo, store):
    repo = make_repo()
    repo.write("widgets/registry.py", PY_MODULE)
    repo.commit()
    errdex.mine(repo.root, db=store)
    repo.write("widgets/registry.py", PY_MODULE.replace("unknown widget", "no such widget"))
    repo.commit()
    summary = errdex.mine(repo.root, db=store)
    messages = set(_by_message(store))
    assert "no such widget {name!r}" in messages
    assert "unknown widget {name!r}" not in messages
    assert (summary.new, summary.removed) == (1, 1)


def test_duplicate_messages_get_distinct_ids_and_numbered_slugs(make_repo, store):
    repo = make_repo()
    body = "def check(x):\n    if x:\n        raise ValueError('bad input')\n"
    repo.write("a.py", body + "\n\ndef other(y):\n    raise ValueError('bad input')\n")
    repo.write("b.py", body)
    repo.commit()
    errdex.mine(repo.root, db=store)
    records = [s.record for s in store.records()]
    assert len(records) == 3
    assert len({r.id for r in records}) == 3
    assert sorted(r.slug for r in records) == ["bad-input", "bad-input-2", "bad-input-3"]


def test_failed_write_keeps_previous_records(make_repo, store, monkeypatch):
    repo = make_repo()
    repo.write("widgets/registry.py", PY_MODULE)
    repo.commit()
    errdex.mine(repo.root, db=store)
    before = _by_message(store)

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr("errdex.store.sql.record_row", explode)
    repo.write("widgets/registry.py", PY_MODULE.replace("unknown", "missing"))
    repo.commit()
    with pytest.raises(RuntimeError):
        errdex.mine(repo.root, db=store)
    assert _by_message(store) == before


def test_skips_are_counted_not_silent(make_repo, store):
    repo = make_repo()
    repo.write("pkg/ok.py", "def f():\n    raise ValueError('fine')\n")
    repo.write("pkg/latin1.py", "# caf\xe9\nraise ValueError('x')\n".encode("latin-1"))
    repo.write("pkg/blob.py", b"\x00\x01binary")
    repo.write("vendor/lib.py", "raise ValueError('vendored')\n")
    repo.write("tests/test_ok.py", "raise ValueError('in a test')\n")
    repo.write("pkg/huge.py", "raise ValueError('huge')\n" + "x = 1\n" * 400_000)
    repo.write(
        "pkg/broken.py", "def f(:\n    pass\n\ndef g():\n    raise ValueError('still found')\n"
    )
    repo.commit()
    summary = errdex.mine(repo.root, db=store)
    assert summary.skipped["not UTF-8"] == 1
    assert summary.skipped["binary"] == 1
    assert summary.skipped["vendored"] == 1
    assert summary.skipped["test code"] == 1
    assert summary.skipped["huge"] == 1
    assert summary.partially_parsed == 1
    assert set(_by_message(store)) == {"fine", "still found"}


def test_mines_a_subfolder_and_names_repo_without_remote(make_repo, store):
    repo = make_repo(remote=None)
    repo.write("app/core.py", "raise ValueError('core failure')\n")
    repo.write("other/x.py", "raise ValueError('elsewhere')\n")
    repo.commit()
    summary = errdex.mine(repo.root / "app", db=store)
    records = [s.record for s in store.records()]
    assert [r.file_path for r in records] == ["app/core.py"]
    assert records[0].github_url is None
    assert summary.repo == repo.root.name


def test_mine_at_an_older_sha(make_repo, store):
    repo = make_repo()
    repo.write("m.py", "raise ValueError('first version')\n")
    first = repo.commit()
    repo.write("m.py", "raise ValueError('second version')\n")
    repo.commit()
    errdex.mine(repo.root, db=store, sha=first)
    records = [s.record for s in store.records()]
    assert [r.error_message for r in records] == ["first version"]
    assert records[0].analyzed_sha == first


@pytest.mark.parametrize("problem", ["missing", "not-a-repo", "no-commit"])
def test_bad_paths_raise_one_line_repository_errors(tmp_path, store, problem):
    target = tmp_path / "x"
    if problem != "missing":
        target.mkdir()
    if problem == "no-commit":
        import subprocess

        subprocess.run(["git", "-C", str(target), "init", "-q"], check=True)
    with pytest.raises(RepositoryError) as info:
        errdex.mine(target, db=store)
    assert "\n" not in str(info.value)
    assert str(target) in str(info.value)


def test_killed_mine_leaves_previous_records_whole(make_repo, tmp_path):
    """SIGKILL a real mine at some point: the store holds all-old or all-new, never a mix."""
    import os
    import signal
    import subprocess
    import sys
    import time

    repo = make_repo()
    for n in range(200):
        repo.write(f"pkg/m{n}.py", f"def f{n}(x):\n    raise ValueError('old {n} ' + str(x))\n")
    repo.commit()
    db = tmp_path / "killed.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    for n in range(200):
        repo.write(f"pkg/m{n}.py", f"def f{n}(x):\n    raise ValueError('new {n} ' + str(x))\n")
    repo.commit()
    script = Path(sys.executable).parent / "errdex"
    for delay in (0.05, 0.3, 0.6):
        proc = subprocess.Popen([str(script), "--db", str(db), "mine", "--jobs", "1",
                                 str(repo.root)], stdout=subprocess.DEVNULL)
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        with SQLiteStore(db) as store:
            words = {s.record.error_message.split()[0] for s in store.records()}
            assert store.count() == 200
        assert words in ({"old"}, {"new"})


def test_parallel_mine_equals_serial_mine(make_repo, tmp_path):
    """Worker processes give the same records as one process (and the pool shuts down)."""
    repo = make_repo()
    for n in range(90):
        repo.write(f"pkg/m{n}.py", f"def f{n}(x):\n    raise ValueError(f'bad {n} {{x}}')\n")
        repo.write(f"src/m{n}.rs", f'fn g{n}(x: u8) {{\n    panic!("bad {n} {{}}", x);\n}}\n')
    repo.commit()
    serial, parallel = SQLiteStore(tmp_path / "1.sqlite"), SQLiteStore(tmp_path / "2.sqlite")
    errdex.mine(repo.root, db=serial, jobs=1)
    summary = errdex.mine(repo.root, db=parallel, jobs=2)
    assert summary.records == 180 and summary.files_mined == 180
    strip = lambda store: [  # noqa: E731
        s.record.model_copy(update={"analyzed_at": "", "content_changed_at": ""})
        for s in store.records()
    ]
    assert strip(serial) == strip(parallel)


def test_extraction_defers_full_collections_and_restores_thresholds(make_repo):
    """While a mine extracts, only young objects are collected (each full pass would walk
    every record kept so far); the collector's thresholds are as they were after, even when
    the extraction fails."""
    repo = make_repo()
    repo.write("pkg/a.py", "def f(x):\n    raise ValueError(f'bad {x}')\n")
    repo.commit()
    tree = load_tree(repo.root, classify=language_for_path)
    before = gc.get_threshold()
    during: list[tuple[int, ...]] = []
    extraction = extract(tree, {}, jobs=1, progress=lambda *_: during.append(gc.get_threshold()))
    assert [r.error_message for r, _, _ in extraction.rows] == ["bad {x}"]
    assert during and all(t[:2] == before[:2] and t[2] > 1_000_000 for t in during)
    assert gc.get_threshold() == before

    def fail(*_: object) -> None:
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        extract(tree, {}, jobs=1, progress=fail)
    assert gc.get_threshold() == before


def test_the_store_write_of_a_mine_defers_full_collections_too(make_repo, store, monkeypatch):
    """The write walks every record of the extraction again: no full collection meanwhile."""
    repo = make_repo()
    repo.write("pkg/a.py", "def f(x):\n    raise ValueError(f'bad {x}')\n")
    repo.commit()
    before = gc.get_threshold()
    seen: list[tuple[int, ...]] = []
    write = store.write
    monkeypatch.setattr(store, "write", lambda mine: (seen.append(gc.get_threshold()),
                                                      write(mine))[1])
    assert errdex.mine(repo.root, db=store).records == 1
    assert seen and seen[0][:2] == before[:2] and seen[0][2] > 1_000_000
    assert gc.get_threshold() == before


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("okhttp/src/main/kotlin/okhttp3/ConnectionSpec.kt", None),  # product code named Spec
        ("src/test/kotlin/app/ParserSpec.kt", "test code"),
        ("lib/parser_spec.rb", "test code"),
        ("src/parser.spec.ts", "test code"),
        ("src/main/java/app/ParserTest.java", "test code"),
        ("pkg/test_parser.py", "test code"),
        ("src/google/protobuf/io/tokenizer_unittest.cc", "test code"),
        ("src/google/protobuf/io/tokenizer.cc", None),
        ("third_party/lib.c", "vendored"),
        ("dist/app.min.js", "vendored"),
    ],
)
def test_which_paths_are_test_or_vendored_code(path: str, reason: str | None) -> None:
    assert skip_reason(path) == reason


def test_an_extractor_failure_skips_the_file_not_the_mine(make_repo, store, monkeypatch):
    from errdex.languages import LANGUAGES

    repo = make_repo()
    repo.write("ok.py", "raise ValueError('still mined')\n")
    repo.write("lib.rs", 'fn f() { panic!("boom {}", 1); }\n')
    repo.commit()
    rust = LANGUAGES["rust"]

    def broken(source: bytes):
        raise IndexError("child index out of range")

    monkeypatch.setitem(LANGUAGES, "rust", rust.__class__(rust.name, rust.grammar,
                                                          rust.extensions, broken))
    summary = errdex.mine(repo.root, db=store, jobs=1)
    assert summary.skipped["extractor error (IndexError)"] == 1
    assert [s.record.error_message for s in store.records()] == ["still mined"]


def test_implicit_concatenation_with_a_comment_between_parts(make_repo, store):
    repo = make_repo()
    repo.write("m.py", 'def f():\n    raise ValueError(\n        "first part, "  # noqa: Q000\n'
               '        "second part"\n    )\n')
    repo.commit()
    errdex.mine(repo.root, db=store)
    assert [s.record.error_message for s in store.records()] == ["first part, second part"]


def test_a_lone_surrogate_escape_in_a_literal_is_mined_and_round_trips(make_repo, store, tmp_path):
    """Python's ``"\\udc80"`` decodes to a lone surrogate, which no UTF-8 text can carry:
    the file used to be skipped as an extractor error. The record keeps the escape as the
    source spells it, and its export imports again."""
    repo = make_repo("https://github.com/example/surrogates")
    repo.write("pkg/codec.py", 'def f():\n    raise ValueError("bad \\udc80 byte in name")\n')
    repo.commit("codec")
    summary = errdex.mine(repo.root, db=store)
    assert not summary.skipped
    (stored,) = store.records()
    assert stored.record.error_message == "bad \\udc80 byte in name"
    assert compile_pattern(stored.record.message_pattern).fullmatch("bad \udc80 byte in name")
    out = tmp_path / "out.jsonl"
    export_dataset(store, out, schema=3)
    with SQLiteStore(tmp_path / "again.sqlite") as again:
        import_dataset(again, out)
        assert [s.record for s in again.records()] == [stored.record]


def test_extract_writes_nothing_and_store_write_writes_it(make_repo, backend_store: Store):
    """Extraction reads git and the snapshot it is given, never the store; the one write is
    ``Store.write``, on either backend, and what it writes survives pickling (mine-many)."""
    repo = make_repo()
    repo.write("widgets/registry.py", PY_MODULE)
    repo.write("widgets/other.py", "def f():\n    raise OSError('disk full')\n")
    repo.commit()
    errdex.mine(repo.root, db=backend_store)
    before = {s.record.id: s.record for s in backend_store.records()}
    generation = backend_store.generation()
    repo.write("widgets/registry.py", PY_MODULE.replace("unknown widget", "no widget"))
    repo.commit("reword one message")

    tree = load_tree(repo.root, classify=language_for_path)
    previous = backend_store.previous_records(tree.repo)
    extraction = extract(tree, previous, changed={"widgets/registry.py"})
    assert backend_store.generation() == generation  # nothing written
    assert {s.record.id: s.record for s in backend_store.records()} == before
    assert (extraction.repo, extraction.sha) == (tree.repo, tree.sha)
    assert extraction.files == {"widgets/registry.py"}
    assert extraction.miner_version == miner_version("static")
    assert sorted(r.error_message for r, _, _ in extraction.rows) == [
        "no widget {name!r}", "size must be >= 0, got %d"]
    assert (extraction.summary.new, extraction.summary.removed) == (1, 1)

    sent = pickle.loads(pickle.dumps(extraction))  # as a worker process sends it back
    assert sent.rows == extraction.rows and sent.summary == extraction.summary
    assert backend_store.write(sent) == 3  # the repository's current records, written
    assert backend_store.generation() > generation
    after = {s.record.error_message: s.record for s in backend_store.records()}
    assert set(after) == {"no widget {name!r}", "size must be >= 0, got %d", "disk full"}
    assert after["disk full"].analyzed_sha == tree.sha  # the file not read is restamped
    removed = backend_store.count(tree.repo, include_removed=True) - 3
    assert removed == 1  # the reworded site's old record is kept, marked removed


def test_a_record_composition_leaves_as_it_was_keeps_its_workers_enrichment(
        make_repo, monkeypatch):
    """``throw new AppException("disk is full")`` composes through its class to the text it
    had: what enrichment reads of it is unchanged, so the mine keeps the enrichment its
    worker wrote (the same as enriching it again); a record composition gave its text is
    enriched with that text."""
    import errdex.mining.extract as extraction
    from errdex.enrich import enrich_pairs

    repo = make_repo()
    repo.write("src/AppException.java", "package app;\n\npublic class AppException extends "
               "RuntimeException {\n    public AppException(String message) {\n"
               "        super(message);\n    }\n}\n")
    repo.write("src/ConfigException.java", "package app;\n\npublic class ConfigException "
               "extends AppException {\n    public ConfigException(String key) {\n"
               "        super(\"bad config key \" + key);\n    }\n}\n")
    repo.write("src/Main.java", "package app;\n\nclass Main {\n    void save() {\n"
               "        throw new AppException(\"disk is full\");\n    }\n\n"
               "    void load(String key) {\n        throw new ConfigException(key);\n"
               "    }\n}\n")
    repo.commit()
    again: list[str] = []

    def counted(pairs):
        pairs = list(pairs)
        again.extend(f"{r.file_path}:{r.line_number}" for r, _ in pairs)
        return enrich_pairs(pairs)

    monkeypatch.setattr(extraction, "enrich_pairs", counted)
    tree = load_tree(repo.root, classify=language_for_path)
    rows = {f"{r.file_path}:{r.line_number}": (r, e) for r, e, _ in extract(tree, {}, jobs=1).rows}
    assert again == ["src/Main.java:9"]  # composed from its class: enriched with that text
    load, _ = rows["src/Main.java:9"]
    assert load.error_message == "bad config key {key}" and "bad config key" in (
        load.documentation or "")
    save, extras = rows["src/Main.java:5"]
    assert save.error_message == "disk is full" and "disk is full" in (save.documentation or "")
    record, fresh = save.model_copy(deep=True), extras.model_copy(deep=True)
    enrich_pairs([(record, fresh)])
    assert (record, fresh) == (save, extras)  # what enriching it again would give

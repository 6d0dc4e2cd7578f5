"""Hostile imports: each reproduction is refused with one line per problem, nothing written.

Every refusal is checked through the CLI (exit 2, the exact message) and by reading the
store back unchanged; a hypothesis suite mutates a valid line at random and requires
either a valid stored record or a DatasetError, never another exception.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.datasets.lines import import_dataset, read_dataset_lines
from errdex.errors import DatasetError
from errdex.interfaces.cli import main
from errdex.records.model import Record, RecordExtras, json_keys, record_json
from errdex.records.validate import MAX_PROBLEMS_SHOWN
from errdex.store.protocol import open_store
from tests.conftest import SEED_RECORD

SEED_LINE: dict[str, Any] = json.loads(SEED_RECORD.read_text(encoding="utf-8"))
SEED = SEED_LINE["record"]
FIX = "fix or drop this line"


def line(**changes: Any) -> str:
    """The seed's dataset line with some record fields changed, as one JSONL line."""
    return json.dumps({"record": {**SEED, **changes}, "datasetVersion": "v"})


def write(tmp_path: Path, name: str, *lines: str) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


def snapshot(db: str) -> list[str]:
    """Every stored record (removed ones too) with its extras, as JSON text."""
    with open_store(db) as store:
        return [
            record_json(s.record) + s.extras.model_dump_json()
            for s in store.records(include_removed=True)
        ]


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A database holding the seed record."""
    path = str(tmp_path / "errdex.sqlite")
    assert run(path, "import", str(SEED_RECORD)).exit_code == 0
    return path


def refused(db: str, path: Path) -> list[str]:
    """Import ``path``; it must fail with exit 2, change nothing, and say why (the lines)."""
    before = snapshot(db)
    result = run(db, "import", str(path))
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.stderr and "Traceback" not in result.output
    assert snapshot(db) == before
    assert result.stderr.startswith("errdex: ")
    return result.stderr.removeprefix("errdex: ").rstrip("\n").split("\n")


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"lineNumber": 10**20},
         "lineNumber 100000000000000000000 is out of range (1..10000000)"),
        ({"schemaVersion": 999}, "schemaVersion 999 is not a version errdex knows (2 or 3)"),
        ({"httpStatus": -5}, "httpStatus -5 is out of range (100..599) or null"),
        ({"githubUrl": "javascript:alert(document.cookie)"},
         "githubUrl 'javascript:alert(document.cookie)' is not an https:// link "
         "(pages link only https)"),
        ({"githubUrl": "data:text/html,<script>x</script>"},
         "githubUrl 'data:text/html,<script>x</script>' is not an https:// link "
         "(pages link only https)"),
        ({"githubUrl": "http://github.com/a/b"},
         "githubUrl 'http://github.com/a/b' is not an https:// link (pages link only https)"),
        ({"sourceCode": "x\n" * 1_500_000}, "sourceCode is 1,500,001 lines (at most 1,000)"),
        ({"lineNumber": 5},
         "lineNumber 5 is outside its source window (sourceCodeStart 225..sourceCodeEnd 261)"),
        ({"lineNumber": "243"}, "lineNumber must be an integer, not a string"),
        ({"lineNumber": 243.0}, "lineNumber must be an integer, not a floating-point number"),
        ({"id": "D59D5538758C7E08"},
         "id 'D59D5538758C7E08' is not 16 lowercase hexadecimal characters"),
        ({"filePath": "../../etc/passwd"},
         "filePath '../../etc/passwd' is not a path inside the repository "
         "(absolute, or a part is empty, '.' or '..')"),
        ({"errorMessage": "bad\x00byte"}, "errorMessage contains a NUL character"),
        ({"errorMessage": "half \ud800"},
         "errorMessage contains a lone surrogate (\\ud800), which is not Unicode text"),
        ({"documentation": "x" * 20_001},
         "documentation is 20,001 characters (at most 20,000)"),
    ],
)
def test_each_bad_field_is_one_line_and_nothing_is_written(db, tmp_path, changes, problem):
    fresh = {"id": "0123456789abcdef", "slug": "new", **changes}
    path = write(tmp_path, "dataset.jsonl", line(**fresh))
    assert refused(db, path) == [f"{path}:1: {problem}; {FIX}"]


def test_empty_repo_and_slug_are_two_problems_of_one_line(db, tmp_path):
    path = write(tmp_path, "dataset.jsonl", line(id="0123456789abcdef", repo="", slug=""))
    assert refused(db, path) == [
        f"{path}:1: repo is empty; {FIX}",
        f"{path}:1: slug is empty; {FIX}",
    ]


@pytest.mark.parametrize("pattern", [r"\xZZ", r"(a)\1 again", r"(?<=a)b"])
def test_pattern_the_matcher_cannot_run_is_refused(db, tmp_path, pattern):
    path = write(tmp_path, "dataset.jsonl", line(id="0123456789abcdef", slug="new",
                                                messagePattern=pattern))
    (message,) = refused(db, path)
    shown = re.escape(repr(pattern))
    assert re.fullmatch(
        rf"{re.escape(str(path))}:1: messagePattern {shown} is not a pattern errdex can "
        rf"match in linear time \([^\n]+\); {FIX}", message,
    ), message


def test_nested_quantifier_pattern_imports_and_never_backtracks(db, tmp_path):
    from errdex.templates.template import compile_pattern

    # the engine lookup uses must not be a backtracking one, else the paste below never ends
    assert not isinstance(compile_pattern(r"hello ((a+)+)b"), re.Pattern)
    path = write(tmp_path, "dataset.jsonl", line(
        id="0123456789abcdef", slug="hello", errorMessage="hello {}b",
        messagePattern=r"hello ((a+)+)b",
    ))
    assert run(db, "import", str(path)).exit_code == 0
    for paste in ("hello " + "a" * 5_000 + "c", "hello " + "a" * 5_000 + "b"):
        result = run(db, "explain", "--json", paste)
        assert result.exit_code in (0, 1), result.output
        assert "internal error" not in result.stderr


def test_duplicate_ids_name_both_lines(db, tmp_path):
    path = write(tmp_path, "dataset.jsonl",
                 line(id="0123456789abcdef", slug="one"), line(id="fedcba9876543210", slug="two"),
                 line(id="0123456789abcdef", slug="three"))
    assert refused(db, path) == [
        f"{path}:3: id '0123456789abcdef' is also on line 1; an import holds each id once; "
        "drop one of the two lines",
    ]


def test_duplicate_slug_of_one_repository_names_both_lines(db, tmp_path):
    path = write(tmp_path, "dataset.jsonl",
                 line(id="0123456789abcdef", slug="same"), line(id="fedcba9876543210", slug="same"))
    assert refused(db, path) == [
        f"{path}:2: slug 'same' of tracel-ai/burn is also on line 1 (id 0123456789abcdef); "
        "slugs are unique within a repository; fix or drop one of the two lines",
    ]


def test_id_of_another_repository_is_not_replaced(db, tmp_path):
    path = write(tmp_path, "evil.jsonl", line(repo="evil/x", documentation="pwned"))
    assert refused(db, path) == [
        f"{path}:1: id d59d5538758c7e08 belongs to a record of tracel-ai/burn in this index, "
        "not evil/x; an import may not replace another repository's record; drop this line",
    ]
    with open_store(db) as store:
        assert store.show("d59d5538758c7e08").record.documentation == SEED["documentation"]


def test_slug_another_record_of_the_repository_holds_is_refused(db, tmp_path):
    path = write(tmp_path, "dataset.jsonl", line(id="0123456789abcdef"))
    assert refused(db, path) == [
        f"{path}:1: slug 'deform-conv2d-backward-unsupported-dtype' is taken by record "
        "d59d5538758c7e08 of tracel-ai/burn in this index; give this record another slug "
        "or drop this line",
    ]


def test_same_repository_may_replace_its_records_and_move_slugs(db, tmp_path):
    """A newer dataset of the same repository replaces by id, even swapping slugs."""
    path = write(tmp_path, "dataset.jsonl",
                 line(slug="renamed", documentation="newer"),
                 line(id="0123456789abcdef", slug="deform-conv2d-backward-unsupported-dtype"))
    result = run(db, "import", str(path))
    assert result.exit_code == 0, result.output
    with open_store(db) as store:
        assert store.show("d59d5538758c7e08").record.documentation == "newer"
        assert store.show("deform-conv2d-backward-unsupported-dtype").record.id == (
            "0123456789abcdef"
        )


def test_every_problem_of_the_file_is_reported_up_to_a_cap(db, tmp_path):
    lines = [line(id=f"{n:016x}", slug=f"s{n}", httpStatus=-n) for n in range(1, 31)]
    path = write(tmp_path, "dataset.jsonl", line(id="00000000000000ff", slug="ok"), *lines)
    messages = refused(db, path)
    assert len(messages) == MAX_PROBLEMS_SHOWN + 1
    assert messages[0] == f"{path}:2: httpStatus -1 is out of range (100..599) or null; {FIX}"
    assert messages[MAX_PROBLEMS_SHOWN - 1].startswith(f"{path}:21: httpStatus -20 ")
    assert messages[-1] == f"{path}: and 10 more problem(s) (30 in all); nothing was imported"


def test_broken_json_lines_and_bad_records_are_reported_together(db, tmp_path):
    path = write(tmp_path, "dataset.jsonl", "{not json", "[1, 2]",
                 line(id="0123456789abcdef", slug="x", schemaVersion=1),
                 '{"record": {"lineNumber": ' + "9" * 5000 + "}}", "[" * 50_000 + "]" * 50_000)
    assert refused(db, path) == [
        f"{path}:1: not valid JSON (Expecting property name enclosed in double quotes at "
        "column 2); each line must be one dataset line",
        f"{path}:2: expected a JSON object (a dataset line or a record), not a list; {FIX}",
        f"{path}:3: schemaVersion 1 is not a version errdex knows (2 or 3); {FIX}",
        f"{path}:4: not usable JSON (Exceeds the limit (4300 digits) for integer string "
        f"conversion: value has 5000 digits); {FIX}",
        f"{path}:5: JSON nested too deeply; each line must be one dataset line",
    ]


def test_unknown_keys_and_wrong_types_are_named(db, tmp_path):
    bad = {"record": {**SEED, "id": "0123456789abcdef", "slug": "x", "owner": "me",
                      "tags": "burn", "language": 3, "evidence": {"guards": [{"kind": "if"}]}},
           "datasetVersion": 5, "extra": True}
    path = write(tmp_path, "dataset.jsonl", json.dumps(bad))
    assert refused(db, path) == [
        f"{path}:1: 'extra' is not a key of a dataset line (only 'record' and "
        f"'datasetVersion'); {FIX}",
        f"{path}:1: datasetVersion must be a string, not an integer; {FIX}",
        f"{path}:1: tags must be a list, not a string; {FIX}",
        f"{path}:1: owner is not a field of a record; {FIX}",
        f"{path}:1: language must be a string or null, not an integer; {FIX}",
        f"{path}:1: evidence.guards[0].condition is missing; {FIX}",
    ]


def test_stdin_import_is_checked_too(db):
    before = snapshot(db)
    result = CliRunner().invoke(main, ["--db", db, "import", "-"],
                                input=line(repo="evil/x") + "\n")
    assert result.exit_code == 2
    assert result.stderr.startswith("errdex: stdin:1: id d59d5538758c7e08 belongs to ")
    assert snapshot(db) == before


def test_parquet_and_dataset_folder_imports_are_checked(db, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "published"
    assert run(db, "export", "--dataset", str(folder)).exit_code == 0
    table = pq.read_table(folder / "records.parquet")
    rows = table.to_pylist()
    rows[0].update(repo="evil/x", githubUrl="javascript:alert(1)", lineNumber=10**15)
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), folder / "records.parquet")
    (folder / "records.jsonl").unlink()
    where = f"{folder / 'records.parquet'}: row 1"
    expected = [
        f"{where}: lineNumber 1000000000000000 is out of range (1..10000000); {FIX}",
        f"{where}: githubUrl 'javascript:alert(1)' is not an https:// link "
        f"(pages link only https); {FIX}",
    ]
    assert refused(db, folder) == expected
    assert refused(db, folder / "records.parquet") == expected
    (folder / "records.jsonl").write_text(line(repo="evil/x") + "\n")
    assert refused(db, folder) == [
        f"{folder / 'records.jsonl'}:1: id d59d5538758c7e08 belongs to a record of "
        "tracel-ai/burn in this index, not evil/x; an import may not replace another "
        "repository's record; drop this line",
    ]


def test_mined_links_are_https_whatever_the_remote(make_repo, tmp_path):
    remotes = ("http://gitlab.example.com/group/sub/widgets.git",
               "git@github.com:acme/widgets.git", "ssh://git@codeberg.org/acme/w.git")
    for number, remote in enumerate(remotes):
        repo = make_repo(remote=remote)
        repo.write("m.py", "def f(x):\n    raise ValueError(f'bad {x}')\n")
        repo.commit()
        db = str(tmp_path / f"mined{number}.sqlite")
        assert run(db, "mine", str(repo.root)).exit_code == 0
        with open_store(db) as store:
            (stored,) = store.records()
        assert stored.record.github_url is not None
        assert stored.record.github_url.startswith("https://"), stored.record.github_url


# --- adversarial: random damage to a valid line -------------------------------------------

_ODD_STRINGS = [
    "", " ", "\x00", "\ud800", "\u202e", "\x1b[31m", "javascript:alert(1)", "http://x",
    "https://example.com/x", r"\xZZ", r"(a)\1", "((a+)+)b", "[/]", "../x", "/abs", "a//b",
    "owner/name", "group/sub/name", "x" * 70_000, "é" * 100, "line\n" * 1_200, "0" * 16,
    "D59D5538758C7E08", "panic", "2", "null",
]
_HUGE_INTS = [0, -1, 1, 99, 100, 599, 600, 2, 3, 999, 10_000_000, 10_000_001, 2**63, 10**20,
              -(10**20)]


def _values() -> st.SearchStrategy[Any]:
    scalar = st.one_of(
        st.none(), st.booleans(), st.sampled_from(_HUGE_INTS), st.integers(),
        st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(_ODD_STRINGS),
        st.text(max_size=40),
    )
    return st.recursive(
        scalar,
        lambda inner: st.one_of(st.lists(inner, max_size=4),
                                st.dictionaries(st.text(max_size=8), inner, max_size=4)),
        max_leaves=8,
    )


_FIELDS = [*SEED, *json_keys(RecordExtras), "unknown"]
_mutation = st.tuples(
    st.sampled_from(["set", "delete"]), st.sampled_from(_FIELDS), _values()
)


def _mutated(mutations: list[tuple[str, str, Any]]) -> dict[str, Any]:
    record = dict(SEED, id="0123456789abcdef", slug="mutated")
    for action, name, value in mutations:
        if action == "delete":
            record.pop(name, None)
        else:
            record[name] = value
    return record


def _assert_stored_records_are_valid(path: Path) -> None:
    with open_store(str(path)) as store:
        for stored in store.records(include_removed=True):
            data = json.loads(record_json(stored.record))
            Record.model_validate(data, strict=True)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A closed database holding the seed, copied for each example (creating one is slow)."""
    path = tmp_path_factory.mktemp("seeded") / "errdex.sqlite"
    with open_store(str(path)) as store:
        import_dataset(store, SEED_RECORD)
    return path


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutations=st.lists(_mutation, min_size=1, max_size=4), wrap=st.booleans())
def test_random_damage_is_imported_valid_or_refused_in_lines(seeded, mutations, wrap):
    record = _mutated(mutations)
    obj: Any = {"record": record, "datasetVersion": "v"} if wrap else record
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "errdex.sqlite"
        shutil.copyfile(seeded, db)
        before = snapshot(str(db))
        data = Path(folder) / "dataset.jsonl"
        data.write_text(json.dumps(SEED_LINE) + "\n" + json.dumps(obj) + "\n", encoding="utf-8")
        with open_store(str(db)) as store:
            try:
                count = import_dataset(store, data)
            except DatasetError as exc:
                lines = str(exc).split("\n")
                assert all(x.startswith(f"{data}:") for x in lines), lines
                assert snapshot(str(db)) == before
                return
        assert count == 2
        _assert_stored_records_are_valid(db)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations=st.lists(
    st.tuples(st.just("set"), st.sampled_from(_FIELDS),
              st.one_of(_values(), st.binary(max_size=8), st.tuples(st.integers()),
                        st.sampled_from([float("nan"), b"\xff", object()]))),
    min_size=1, max_size=3,
))
def test_random_values_as_parquet_gives_them_are_checked_not_crashed(mutations):
    """Parquet rows are Python values (bytes, tuples …), not JSON: same outcome."""
    record = _mutated(mutations)
    try:
        ((checked, _),) = read_dataset_lines([{"record": record}], "x.parquet", unit="row")
    except DatasetError as exc:
        assert all(x.startswith("x.parquet: row 1: ") for x in str(exc).split("\n"))
        return
    Record.model_validate(json.loads(record_json(checked)), strict=True)

"""Hostile templates × hostile pastes, through the real explain and scan paths.

Templates put holes of every kind next to each other, repeat characters and
carry long or odd literals; pastes repeat, nearly match, nest brackets and
JSON, run to a megabyte on one line, and hold control characters and lone
surrogates. Whatever hypothesis draws, a lookup never fails with an internal
error, and its work is bounded by counting it: each reading of the paste checks
each candidate once, typed patterns on RE2 (linear in what it is given, never
more than the paste), Python's backtracking engine never sees a stored pattern,
and similarity is scored on capped texts. The deadline is a generous backstop.
"""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import errdex
from errdex.errors import ErrdexError
from errdex.interfaces.cli import main
from errdex.lookup.index import _MAX_VARIANTS, Index
from errdex.lookup.parse import MAX_INPUT_CHARS
from errdex.lookup.scan import ScanSummary, scan
from errdex.lookup.similarity import FUZZY_CHARS
from errdex.records.model import Record
from errdex.store.protocol import open_store
from errdex.templates.template import Hole, Literal, Template, merge_literals
from tests.conftest import SEED_RECORD
from tests.steps import LookupWork, counting_lookup_work

SEED = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]

_KINDS = ["any", "int", "uint", "hex", "HEX", "octal", "binary", "float", "word"]
_HOSTILE_CHARS = [*"a1f :.-_()[]{}\"'\\/\n\t*+?x", "\x00", "\x1b", "\u202e", "\udc80", "é",
                  "\U0001f600", "\u2003"]
_CHAR = st.sampled_from(_HOSTILE_CHARS)
_UNIT = st.text(_CHAR, min_size=1, max_size=5)

_HOLE = st.builds(
    lambda kind, precision, pad, prefix: Hole.of(None, "{}", kind, precision=precision,
                                                 pad=pad, prefix=prefix),
    st.sampled_from(_KINDS), st.none() | st.integers(0, 3), st.booleans(),
    st.sampled_from(["", "0x"]),
)
_PART = st.one_of(
    st.text(_CHAR, min_size=1, max_size=10).map(Literal),  # odd literals
    st.builds(lambda ch, n: Literal(ch * n), _CHAR, st.integers(10, 300)),  # repeated chars
    st.text("abcdefgh ", min_size=200, max_size=2_000).map(Literal),  # long literals
    st.lists(_HOLE, min_size=1, max_size=4),  # adjacent holes
    st.builds(lambda hole, lead: replace(hole, optional_lead=lead), _HOLE,
              st.sampled_from([": ", " (", "x"])),
)


def _template(parts: list[Literal | Hole | list[Hole]]) -> Template:
    flat: list[Literal | Hole] = []
    for part in parts:
        flat.extend(part if isinstance(part, list) else [part])
    # a word the prefilter can file the template under, as every real message has one
    return Template("t", merge_literals([Literal("zork "), *flat]))


TEMPLATES = st.lists(_PART, min_size=1, max_size=5).map(_template)


@st.composite
def hostile_pastes(draw: st.DrawFn, template: Template) -> str:
    """A paste aimed at ``template``: rendered with hostile values, then mangled."""
    values: list[str | None] = []
    for hole in template.holes:
        if hole.optional_lead is not None and draw(st.booleans()):
            values.append(None)  # left out, its lead with it
            continue
        unit = draw(_UNIT | st.sampled_from(["1", "f", "0x1", "-", "a1", "1.5", " "]))
        values.append(unit * draw(st.integers(1, 3_000)))
    message = template.render(values)
    shape = draw(st.sampled_from(
        ["plain", "near-miss", "nested-json", "nested-brackets", "huge-line", "wrapped",
         "controls"]))
    event(shape)
    if shape == "near-miss" and message:
        at = draw(st.integers(0, len(message) - 1))
        message = message[:at] + draw(st.sampled_from(["", "g", "\n", "\udc80"])) + (
            message[at + 1 :])
    elif shape == "nested-json":
        depth = draw(st.integers(1, 5_000))
        message = '{"a":' * depth + json.dumps(message) + "}" * draw(st.integers(0, depth))
    elif shape == "nested-brackets":
        depth = draw(st.integers(1, 50_000))
        message = "(" * depth + message + ")" * depth
    elif shape == "huge-line":
        message = draw(_UNIT) * draw(st.integers(100_000, 400_000)) + message
    elif shape == "wrapped":
        message = draw(st.sampled_from([
            "ValueError: {}", "thread 'main' panicked at src/lib.rs:1:5:\n{}",
            "2026-01-02 10:00:00 ERROR app.db: {}", "E   {}", "Error: {}\n    at f (a.js:1:1)",
            '{{"level":"error","msg":{}}}',
        ])).format(json.dumps(message) if '"msg"' in message else message)
    elif shape == "controls":
        message = "".join(ch + draw(st.sampled_from(["", "\x1b[31m", "\u202e", "\udc80", "\r"]))
                          for ch in message[:2_000])
    return message[:MAX_INPUT_CHARS]


def _index_of(folder: Path, templates: list[Template]) -> tuple[Index, set[str]]:
    """A fresh store holding one record per template, as an import would write them."""
    store = open_store(folder / "hostile.sqlite")
    rows = []
    for number, template in enumerate(templates, 1):
        # the message as stored text (a lone surrogate has no UTF-8); the pattern as written
        written = template.normalized().encode("utf-8", "backslashreplace").decode("utf-8")
        record = Record.model_validate(dict(
            SEED, id=f"{number:016x}", slug=f"hostile-{number}", errorMessage=written,
            messagePattern=template.pattern(), lineNumber=number, filePath="src/lib.rs",
        ))
        rows.append((record, None))
    store.upsert(rows)
    return errdex.open_index(store), {template.pattern() for template in templates}


def _check_work(work: LookupWork, readings: int, stored: set[str], paste_chars: int) -> None:
    # each stored pattern, per reading of each message: once, and once more read with a lost
    # final period (replay.check); then once folded by the approximate search; a check runs
    # RE2 twice at most (a template ending in a blank: once more on the line read trimmed)
    assert work.verified <= readings * (2 * _MAX_VARIANTS + 1) * len(stored)
    assert work.re2_runs <= 2 * work.verified
    assert work.re2_bytes <= work.re2_runs * 4 * paste_chars  # never more than the paste
    assert not stored & set(work.python_regexes)
    assert all(max(a, b) <= FUZZY_CHARS for a, b in work.scored)


# No deadline: the bound is asserted on counted work (_check_work), not on seconds, which
# fail under load.
_SETTINGS = settings(
    max_examples=30, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.large_base_example],
)


@_SETTINGS
@given(templates=st.lists(TEMPLATES, min_size=1, max_size=3), data=st.data())
def test_explain_of_hostile_pastes_is_bounded_and_never_an_internal_error(
    tmp_path_factory, templates, data
):
    index, stored = _index_of(tmp_path_factory.mktemp("explain"), templates)
    paste = data.draw(hostile_pastes(data.draw(st.sampled_from(templates))))
    with counting_lookup_work() as work:
        try:
            matches = index.explain(paste)
        except ErrdexError:  # blank text: a usage error, one line
            assert not paste.strip()
            return
    assert len(matches) <= 5
    event("full match" if any(not m.approximate for m in matches) else
          "approximate" if matches else "no match")
    event("RE2 ran" if work.re2_runs else "no regex")
    _check_work(work, 1, stored, len(paste))


@_SETTINGS
@given(templates=st.lists(TEMPLATES, min_size=1, max_size=3), data=st.data())
def test_scan_of_hostile_logs_is_bounded_and_never_an_internal_error(
    tmp_path_factory, templates, data
):
    index, stored = _index_of(tmp_path_factory.mktemp("scan"), templates)
    pastes = [data.draw(hostile_pastes(t)) for t in data.draw(
        st.lists(st.sampled_from(templates), min_size=1, max_size=3))]
    lines = ["2026-01-02 10:00:00 INFO app: start"]
    for paste in pastes:
        lines += [paste, "2026-01-02 10:00:01 INFO app: next"]
    if data.draw(st.booleans()):
        lines.insert(1, "x" * (MAX_INPUT_CHARS + 1))  # one line over the limit
    log = "\n".join(lines) + "\n"
    summary = ScanSummary()
    with counting_lookup_work() as work:
        events = list(scan(index, io.StringIO(log), summary=summary))
    assert summary.lines == log.count("\n")
    assert summary.events == len(events)
    assert [e.line for e in events] == sorted(e.line for e in events)
    _check_work(work, max(1, len(events)), stored, min(len(log), MAX_INPUT_CHARS))


@settings(_SETTINGS, max_examples=10)
@given(template=TEMPLATES, data=st.data())
def test_the_explain_command_answers_hostile_pastes_in_one_line(tmp_path_factory, template, data):
    folder = tmp_path_factory.mktemp("cli")
    _index_of(folder, [template])
    paste = data.draw(hostile_pastes(template))
    result = CliRunner().invoke(main, ["--db", str(folder / "hostile.sqlite"), "explain", "--json",
                                       paste])
    assert result.exit_code in (0, 1, 2), result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    if result.exit_code == 0:
        assert json.loads(result.stdout)["matches"]

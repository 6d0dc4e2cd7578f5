"""Go messages composed across error types, their ``Error()`` and the functions that build
them: golden records. No Go toolchain runs here, so each pattern is checked against the
text Go's fmt rules print for a sample call (``%s``/``%d``/``%w`` of the values given)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import (
    any_fullmatch,
    classes,
    fullmatches,
    line_starting,
    messages,
    mine_changed,
    mine_fixture,
    source_lines,
    with_message,
)
from tests.conftest import GitRepo

ERRORS = '''\
package store

import (
	"errors"
	"fmt"
)

const opPrefix = "store "

type NotFoundError struct {
	Key string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no such item: %s", e.Key)
}

type OpError struct {
	Op  string
	Err error
}

func (e *OpError) Error() string {
	return opPrefix + e.Op + ": " + e.Err.Error()
}

type LockedError struct {
	Path string
	PID  int
}

func (e LockedError) Error() string {
	if e.PID == 0 {
		return e.Path + " is locked"
	}
	return fmt.Sprintf("%s is locked by process %d", e.Path, e.PID)
}

type ConfigTypeError string

func (e ConfigTypeError) Error() string {
	return fmt.Sprintf("unsupported config type %q", string(e))
}

type SearchError struct {
	name      string
	locations []string
}

func (e SearchError) Error() string {
	message := fmt.Sprintf("file %q not found", e.name)
	if len(e.locations) > 0 {
		message += fmt.Sprintf(" in %v", e.locations)
	}
	return message
}

type LegacySearchError struct {
	name      string
	locations []string
}

func (e LegacySearchError) Error() string {
	return e.Unwrap().Error()
}

func (e LegacySearchError) Unwrap() error {
	return SearchError(e)
}

type OldSearchError SearchError

func (e OldSearchError) Error() string {
	return SearchError(e).Error()
}

func newErr(op string, err error) error {
	return fmt.Errorf("%s failed: %w", op, err)
}

func notFound(key string) error {
	return &NotFoundError{Key: key}
}

func wrap(op string, err error) error {
	return &OpError{Op: op, Err: err}
}

func parseError(id int, what string) error {
	return errors.New(fmt.Sprintf("[parse_error.%d] %s", id, what))
}

func fail(msg string) {
	panic("config: " + msg)
}

func note(s string) {
	fmt.Println(s)
}

func ping(x string) error {
	return pong(x)
}

func pong(x string) error {
	return ping(x)
}
'''

STORE = '''\
package store

import (
	"fmt"
	"os"

	"example.com/other/thing"
)

type Store struct {
	dir string
}

func (s *Store) Get(key string) (string, error) {
	return "", &NotFoundError{Key: key}
}

func (s *Store) Lock(path string) error {
	return LockedError{path, 42}
}

func (s *Store) Open(name string) error {
	if _, err := os.Stat(name); err != nil {
		return newErr("open", err)
	}
	return nil
}

func (s *Store) Write(key string, err error) error {
	return wrap("write", err)
}

func (s *Store) Parse(tok string) error {
	return parseError(101, "unexpected token "+tok)
}

func (s *Store) Sync() error {
	return s.fail("sync")
}

func (s *Store) fail(op string) error {
	return fmt.Errorf("store %s: failed", op)
}

func (s *Store) Retry(n int) error {
	msg := "gave up"
	if n > 0 {
		msg = fmt.Sprintf("gave up after %d retries", n)
	}
	return &OpError{Op: msg, Err: os.ErrClosed}
}

func (s *Store) Has(key string) error {
	return notFound(key)
}

func (s *Store) Delete(key string) error {
	return notFound(key)
}

func (s *Store) Unknown(x string) error {
	return thing.New("x: " + x)
}

func (s *Store) Local(x string) error {
	return makeIt(x)
}

func (s *Store) Cycle() error {
	return ping("x")
}

func (s *Store) Load(ext string) error {
	return ConfigTypeError(ext)
}

func (s *Store) save(key string) error {
	if key == "" {
		return fmt.Errorf("empty key in %s", s.dir)
	}
	return nil
}

func (s *Store) Save(key string) error {
	return s.save(key)
}

func (s *Store) Find(name string) error {
	return LegacySearchError{name: name, locations: []string{s.dir}}
}

func (s *Store) Seek(name string) error {
	return OldSearchError{name: name, locations: []string{s.dir}}
}

func (s *Store) Abort() {
	fail("no store configured")
}

func (s *Store) Note() {
	note("not a helper of ours")
}

func (s *Store) MustParse(tok string) {
	panic(parseError(7, "bad token "+tok))
}
'''

# (method, errorMessage, errorClass, the producers that write some of its text, by file and
# line start (``wrap`` passes its parameters on as they are: none), a message Go prints)
EXPECTED = [
    ("Get", "no such item: %s", "NotFoundError", [("errors.go", "func (e *NotFoundError) Error")],
     "no such item: k1"),
    ("Open", "open failed: %w", None, [("errors.go", "func newErr(")],
     "open failed: stat x: no such file or directory"),
    ("Write", "store write: {err.Error()}", "OpError",
     [("errors.go", "func (e *OpError) Error")], "store write: disk full"),
    ("Parse", "[parse_error.101] unexpected token {tok}", None,
     [("errors.go", "func parseError(")],
     "[parse_error.101] unexpected token @"),
    ("Sync", "store sync: failed", None, [("store.go", "func (s *Store) fail(")],
     "store sync: failed"),
    ("Load", "unsupported config type %q", "ConfigTypeError",
     [("errors.go", "func (e ConfigTypeError) Error")], 'unsupported config type "yml"'),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_go", "composed-go", {
        "go.mod": "module example.com/store\n\ngo 1.22\n", "errors.go": ERRORS, "store.go": STORE,
    })[1]


def _at(records: list[errdex.StoredRecord], method: str) -> list[errdex.StoredRecord]:
    line = line_starting(STORE, f"func (s *Store) {method}(")
    end = next(i for i, text in enumerate(STORE.splitlines(), 1) if i > line and text == "}")
    return [r for r in records if r.record.file_path == "store.go"
            and line < r.record.line_number < end]


@pytest.mark.parametrize("case", EXPECTED, ids=[c[0] for c in EXPECTED])
def test_every_composition_form_gives_the_return_site_the_printed_message(
    records: list[errdex.StoredRecord],
    case: tuple[str, str, str | None, list[tuple[str, str]], str],
) -> None:
    method, message, error_class, sources, sample = case
    [found] = _at(records, method)
    assert found.record.error_message == message
    assert found.record.error_class == error_class
    expected = [(path, line_starting(ERRORS if path == "errors.go" else STORE, start))
                for path, start in sources]
    assert source_lines(found.extras) == expected
    assert fullmatches(found, sample)


def test_an_error_that_returns_another_types_prints_each_of_its_messages(
    records: list[errdex.StoredRecord],
) -> None:
    # LegacySearchError's Error() is SearchError's (its Unwrap converts the receiver), as is
    # OldSearchError's (SearchError(e).Error()); the message may have " in <locations>"
    # appended in an if
    for method, error_class in (("Find", "LegacySearchError"), ("Seek", "OldSearchError")):
        found = _at(records, method)
        assert messages(found) == ["file %q not found", "file %q not found in %v"]
        assert classes(found) == {error_class}
        assert any_fullmatch(found, 'file "app" not found in [/etc /home/u]')
        assert any_fullmatch(found, 'file "app" not found')


def test_each_return_of_error_is_an_alternative_and_unkeyed_fields_go_in_order(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "Lock")
    assert messages(found) == [
        "%s is locked by process 42", "{path} is locked"]
    assert classes(found) == {"LockedError"}
    patterns = [r.record.message_pattern for r in found]
    assert any(re.fullmatch(p, "/var/db is locked by process 42") for p in patterns)


def test_a_variable_assigned_in_a_branch_gives_each_value(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "Retry")
    assert messages(found) == [
        "store gave up after %d retries: {os.ErrClosed.Error()}",
        "store gave up: {os.ErrClosed.Error()}"]
    for printed in ("store gave up: file already closed",
                    "store gave up after 3 retries: file already closed"):
        assert any_fullmatch(found, printed)


def test_a_type_built_in_three_places_gives_three_records_sharing_the_template(
    records: list[errdex.StoredRecord],
) -> None:
    same = [r for r in with_message(records, "no such item: %s")
            if r.record.file_path == "store.go"]
    assert len(same) == 3
    assert len({r.record.id for r in same}) == 3
    assert {(s.file_path, s.line_number) for r in same for s in r.extras.template_sources} == {
        ("errors.go", line_starting(ERRORS, "func (e *NotFoundError) Error"))}


def test_calls_that_reach_no_producer_and_a_cycle_make_no_record(
    records: list[errdex.StoredRecord],
) -> None:
    assert _at(records, "Unknown") == []
    assert _at(records, "Local") == []
    assert _at(records, "Cycle") == []


def test_a_function_that_reports_an_error_it_may_return_nil_instead_is_no_factory(
    records: list[errdex.StoredRecord],
) -> None:
    assert _at(records, "Save") == []  # its error is save's own site, not built for Save
    [own] = _at(records, "save")
    assert own.record.error_message == "empty key in %s"
    assert own.extras.template_sources == []


def test_the_error_methods_are_still_sites_of_their_own(
    records: list[errdex.StoredRecord],
) -> None:
    own = {(r.record.error_class, r.record.error_message) for r in records
           if r.record.file_path == "errors.go"}
    assert ("NotFoundError", "no such item: %s") in own


def test_a_helper_that_panics_with_its_argument_makes_its_call_a_panic_site(
    records: list[errdex.StoredRecord],
) -> None:
    [found] = _at(records, "Abort")
    assert found.record.error_type == "panic"
    assert found.record.error_message == "config: no store configured"
    assert [(s.line_number, s.role) for s in found.extras.template_sources] == [
        (line_starting(ERRORS, "func fail("), "helper")]
    assert _at(records, "Note") == []


def test_a_panic_with_a_factory_error_is_a_panic_site(
    records: list[errdex.StoredRecord],
) -> None:
    [found] = _at(records, "MustParse")
    assert found.record.error_type == "panic"
    assert found.record.error_message == "[parse_error.7] bad token {tok}"
    assert re.fullmatch(found.record.message_pattern, "[parse_error.7] bad token @")


def test_an_incremental_mine_recomposes_the_returns_of_a_changed_error_type(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    changed = mine_changed(make_repo, tmp_path, {
        "go.mod": "module example.com/store\n", "errors.go": ERRORS, "store.go": STORE,
    }, {"errors.go": ERRORS.replace("no such item: %s", "nothing under %s")})
    found = [r.record.error_message for r in changed
             if r.record.file_path == "store.go"]
    assert found.count("nothing under %s") == 3  # Get, Has, Delete
    assert "no such item: %s" not in found

"""Error codes are keys: mined into ``errorCode`` from what the raise spells, and a paste
that carries one (or is one) finds the records raising it first."""

from __future__ import annotations

import pytest

import errdex
from errdex.languages._engine.pastes.common import ErrorEvent
from errdex.lookup.codes import paste_codes, spellings
from errdex.lookup.parse import main_event
from errdex.mining.codes import code_in_statement, statement_text

REQUEST_JS = """\
class AxiosError extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}
AxiosError.ERR_BAD_RESPONSE = 'ERR_BAD_RESPONSE';
AxiosError.ERR_BAD_REQUEST = 'ERR_BAD_REQUEST';

function settle(status) {
  if (status >= 500) {
    throw new AxiosError('Request failed with status code ' + status, AxiosError.ERR_BAD_RESPONSE);
  }
  throw new AxiosError('Request failed with status code ' + status, AxiosError.ERR_BAD_REQUEST);
}

function open(path) {
  const err = new Error('no such file or directory, open ' + path);
  err.code = 'ENOENT';
  throw err;
}

function stat(path) {
  throw Object.assign(new Error('permission denied, stat ' + path), { code: 'EACCES' });
}

function read(path) {
  throw new Error('cannot read ' + path);
}
module.exports = { settle, open, stat, read };
"""

FILES_PY = """\
import errno


def load(path):
    raise OSError(errno.ENOENT, "no such settings file")


def validate(value):
    raise ValidationError("Enter a valid value.", code="invalid")
"""

USERS_GO = """\
package users

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func Get(id string) error {
	return status.Errorf(codes.NotFound, "user %s not found", id)
}

func Put(id string) error {
	return status.Errorf(codes.AlreadyExists, "user %s not found", id)
}
"""

TOKEN_RS = """\
use std::fmt;

#[derive(Debug)]
pub enum Error {
    InvalidToken(String),
    Expired,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidToken(t) => write!(f, "invalid token {}", t),
            Error::Expired => write!(f, "token expired"),
        }
    }
}

pub fn check(token: &str) -> Result<(), Error> {
    if token.is_empty() {
        return Err(Error::InvalidToken(token.to_string()));
    }
    if token == "old" {
        return Err(Error::Expired);
    }
    Ok(())
}
"""


@pytest.fixture
def mined(make_repo, store):
    repo = make_repo("https://github.com/acme/client.git")
    repo.commit_files({"lib/request.js": REQUEST_JS, "db/files.py": FILES_PY,
                       "pkg/users.go": USERS_GO, "src/token.rs": TOKEN_RS})
    errdex.mine(repo.root, db=store)
    return store


def _codes(store):
    return {(s.record.file_path, s.record.line_number): s.record.error_code
            for s in store.records()}


# --- mining -------------------------------------------------------------------------------


def test_mining_reads_each_code_form(mined):
    codes = _codes(mined)
    assert codes[("lib/request.js", 12)] == "ERR_BAD_RESPONSE"  # a code constant passed
    assert codes[("lib/request.js", 14)] == "ERR_BAD_REQUEST"
    assert codes[("lib/request.js", 18)] == "ENOENT"  # err.code = '…' before the throw
    assert codes[("lib/request.js", 24)] == "EACCES"  # a { code: … } property
    assert codes[("lib/request.js", 28)] is None  # no code spelled: none invented
    assert codes[("db/files.py", 5)] == "ENOENT"  # an errno name
    assert codes[("db/files.py", 9)] == "invalid"  # a code= keyword
    assert codes[("src/token.rs", 20)] == "InvalidToken"  # an enum variant
    assert codes[("src/token.rs", 23)] == "Expired"


def test_language_codes_are_kept(mined):
    """What a language reads itself (Go's gRPC ``codes.X``) stays the record's code."""
    assert _codes(mined)[("pkg/users.go", 9)] == "NotFound"
    assert _codes(mined)[("pkg/users.go", 13)] == "AlreadyExists"


@pytest.mark.parametrize(("statement", "code"), [
    ("context.abort(grpc.StatusCode.NOT_FOUND, f'key {key} not found')", "NOT_FOUND"),
    ("throw Status.Code.PERMISSION_DENIED.toStatus().asException();", "PERMISSION_DENIED"),
    ('ereport(ERROR, (errcode(ERRCODE_UNIQUE_VIOLATION), errmsg("duplicate key")));',
     "ERRCODE_UNIQUE_VIOLATION"),
    ("raise DatabaseError(msg, sqlstate='23505')", "23505"),
    ('struct_span_code_err!(self.dcx(), sp, E0308, "mismatched types")', "E0308"),
    ("return Err(io::Error::new(ErrorKind::NotFound, \"no entry\"))", "NotFound"),
    ("throw new ApiError(ErrorCode.BAD_TOKEN, `bad token ${t}`);", "BAD_TOKEN"),
    ("return -EINVAL;", "EINVAL"),
    ("reject(new AxiosError(msg, [AxiosError.ERR_BAD_REQUEST, AxiosError.ERR_BAD_RESPONSE][i]))",
     None),  # one code or the other: which is not known
    ('raise ValueError("error code: EINVAL in the message")', None),
    ('raise ValueError(f"bad {code}")', None),
    ("throw new HttpException(HttpStatus.NOT_FOUND, 'gone');", None),
])
def test_statement_forms(statement, code):
    assert code_in_statement(statement) == code


def test_statement_ends_where_its_brackets_close():
    lines = ["throw new X(", "  'a message',", "  { code: 'E_FIRST' })",
             "other({ code: 'E_SECOND' })"]
    statement, after = statement_text(lines, 1)
    assert statement.endswith("'E_FIRST' })") and "E_SECOND" in after
    assert code_in_statement(statement, after) == "E_FIRST"


# --- lookup -------------------------------------------------------------------------------


@pytest.mark.parametrize(("paste", "codes"), [
    ("AxiosError [ERR_BAD_RESPONSE]: Request failed", ("ERR_BAD_RESPONSE",)),
    ("Error: boom\n    at f (/a.js:1:1) {\n  code: 'ERR_X'\n}", ("ERR_X",)),
    ("error[E0308]: mismatched types", ("E0308",)),
    ('ERROR: duplicate key value (SQLSTATE 23505)', ("23505",)),
    ("ENOENT: no such file or directory, open 'a.txt'", ("ENOENT",)),
    ("rpc error: code = NotFound desc = user 7 not found", ("NotFound",)),
    ('{"level":"error","code":"E_QUOTA","msg":"over quota"}', ("E_QUOTA",)),
    ("[ERROR] request failed", ()),  # a level in brackets is no code
])
def test_paste_code_forms(paste, codes):
    assert paste_codes(main_event(paste), paste).codes[:len(codes) or None] == codes


@pytest.mark.parametrize("paste", ["ERR_BAD_RESPONSE", "[ERR_BAD_RESPONSE]",
                                   "code: 'ERR_BAD_RESPONSE'", "error[E0308]", "SQLSTATE 23505",
                                   "ENOENT", "code = NotFound"])
def test_a_code_alone_is_alone(paste):
    assert paste_codes(main_event(paste), paste).alone


def test_a_code_with_a_message_is_not_alone():
    paste = "ENOENT: no such file or directory"
    assert not paste_codes(main_event(paste), paste).alone


def test_spellings_cover_grpc_and_sqlstate():
    assert spellings("NotFound") == ["NotFound", "NOT_FOUND"]
    assert "NotFound" in spellings("NOT_FOUND")
    assert {"ERRCODE_UNIQUE_VIOLATION", "unique_violation", "UniqueViolation"} <= set(
        spellings("23505"))


def test_bracketed_code_decides_between_same_wording(mined):
    index = errdex.open_index(mined)
    for code, line in (("ERR_BAD_REQUEST", 14), ("ERR_BAD_RESPONSE", 12)):
        (best, *_) = index.explain(f"AxiosError [{code}]: Request failed with status code 404")
        assert best.record.line_number == line
        assert f"error code {code} matches" in best.reason


def test_property_code_decides(mined):
    paste = "Error: no such file or directory, open /etc/app.json\n  code: 'ENOENT'"
    (best, *_) = errdex.open_index(mined).explain(paste)
    assert best.record.file_path == "lib/request.js" and best.record.line_number == 18


def test_grpc_code_decides(mined):
    index = errdex.open_index(mined)
    for code, line in (("AlreadyExists", 13), ("NotFound", 9)):
        (best, *_) = index.explain(f"rpc error: code = {code} desc = user 7 not found")
        assert best.record.line_number == line, code


@pytest.mark.parametrize(("paste", "expected"), [
    ("ERR_BAD_RESPONSE", {("lib/request.js", 12)}),
    ("EACCES", {("lib/request.js", 24)}),
    ("ENOENT", {("lib/request.js", 18), ("db/files.py", 5)}),
    ("code = NotFound", {("pkg/users.go", 9)}),
    ("code: 'EACCES'", {("lib/request.js", 24)}),
    ("[ERR_BAD_REQUEST]", {("lib/request.js", 14)}),
    ("InvalidToken", set()),  # a CamelCase word alone is a class (found as one), not a code
])
def test_a_code_alone_lists_its_records(mined, paste, expected):
    matches = errdex.open_index(mined).explain(paste, top=10)
    coded = {(m.record.file_path, m.record.line_number) for m in matches
             if "error code" in m.reason}
    assert coded == expected
    assert all(m.reason.startswith("raises error code") for m in matches if expected)


def test_codes_of_other_forms_are_found(mined):
    """``error[E0308]`` and ``SQLSTATE 23505`` find records carrying them (and the spelling
    the server's source uses for the SQLSTATE)."""
    (base, *_) = [s.record for s in mined.records() if s.record.line_number == 28]
    mined.upsert([
        (base.model_copy(update={"id": "0000000000000e38", "error_code": "E0308",
                                 "slug": "mismatched", "line_number": 40}), None),
        (base.model_copy(update={"id": "0000000000023505", "line_number": 50, "slug": "dup",
                                 "error_code": "ERRCODE_UNIQUE_VIOLATION"}), None),
    ])
    index = errdex.open_index(mined)
    assert [m.record.line_number for m in index.explain("error[E0308]")] == [40]
    assert [m.record.line_number for m in index.explain("SQLSTATE 23505")] == [50]


def test_cli_explains_a_code_alone(mined, tmp_path):
    from click.testing import CliRunner

    from errdex.interfaces.cli import main

    result = CliRunner().invoke(main, ["--db", str(mined.path), "explain", "ERR_BAD_REQUEST"])
    assert result.exit_code == 0, result.output
    assert "lib/request.js:14" in result.output


def test_event_code_is_read():
    event = ErrorEvent("Request failed", "AxiosError", "node", (), "x", code="ERR_CANCELED")
    assert paste_codes(event).codes == ("ERR_CANCELED",)


def test_both_stores_find_records_by_code(backend_store):
    """Migration 9's index on ``errorCode``, on SQLite and PostgreSQL alike."""
    from errdex.datasets.lines import import_dataset
    from tests.conftest import SEED_RECORD

    import_dataset(backend_store, SEED_RECORD)
    (seed,) = [s.record for s in backend_store.records()]
    backend_store.upsert([(seed.model_copy(update={
        "id": "00000000000c0de5", "slug": "coded", "error_code": "ERR_SEED"}), None)])
    assert [r.id for r in backend_store.rows_with_codes(["ERR_SEED", "OTHER"])] == [
        "00000000000c0de5"]
    assert backend_store.rows_with_codes(["ERR_SEED"], repo="someone/else") == []
    assert backend_store.rows_with_codes([]) == []

"""Python messages composed across classes, factories and helpers: golden records, each
pattern checked against what the interpreter really prints for the fixture's raises."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import (
    any_fullmatch,
    fullmatches,
    line_starting,
    line_with,
    messages,
    mine_changed,
    mine_fixture,
    mine_once,
    source_lines,
    with_message,
)
from tests.conftest import GitRepo

ERRORS = '''\
class StoreError(Exception):
    pass


class NotFound(StoreError):
    def __init__(self, key):
        self.key = key
        super().__init__(f"no such item: {key}")


class ParseError(ValueError):
    def __init__(self, what, line=0):
        super().__init__("[mylib.parse_error.101] " + what)
        self.line = line


class Located(Exception):
    def __init__(self, msg, path):
        self.msg = msg
        self.path = path

    def __str__(self):
        return f"{self.msg} at {self.path}"


class Gone(NotFound):
    pass


class Legacy(StoreError):
    def __init__(self, name):
        StoreError.__init__(self, "legacy option %s" % name)


class Retry(StoreError):
    def __init__(self, n):
        msg = "gave up after %d retries" % n if n else "gave up"
        super().__init__(msg)


class Ping(Exception):
    def __init__(self, x):
        super().__init__(Pong(x))


class Pong(Exception):
    def __init__(self, x):
        super().__init__(Ping(x))


def config_error(option):
    return ParseError(f"option {option} needs a value")


def fail(msg):
    raise StoreError("config: " + msg)
'''

STORE = '''\
from pkg.errors import Gone, Legacy, Located, NotFound, ParseError, Retry, config_error, fail


def missing(key):
    raise NotFound(key)


def token(tok):
    raise ParseError("unexpected token " + tok)


def header(path):
    raise Located("bad header", path)


def gone(key):
    raise Gone(key)


def option():
    raise config_error("--name")


def unconfigured():
    fail("no store configured")


def legacy(name):
    raise Legacy(name)


def retry(n):
    raise Retry(n)


class Store:
    def bad(self, key):
        raise self._bad(key)

    def _bad(self, key):
        return ParseError(f"bad key {key}")


def again(key):
    raise NotFound(key)


def once_more(key):
    raise NotFound(key)


def unknown(x):
    raise make_it(x)
'''

# (function, arguments, the record's errorMessage, its errorClass, where the producers
# are written in pkg/errors.py, by the line's start)
EXPECTED = [
    ("missing", ("k1",), "no such item: {key}", "NotFound", ["class NotFound("]),
    ("token", ("';'",), "[mylib.parse_error.101] unexpected token {tok}", "ParseError",
     ["class ParseError("]),
    ("header", ("/etc/x",), "bad header at {path}", "Located", ["class Located("]),
    ("gone", ("k2",), "no such item: {key}", "Gone", ["class NotFound("]),
    ("option", (), "[mylib.parse_error.101] option --name needs a value", "ParseError",
     ["class ParseError(", "def config_error("]),
    ("unconfigured", (), "config: no store configured", "StoreError",
     ["def fail("]),
    ("legacy", ("x",), "legacy option %s", "Legacy", ["class Legacy("]),
]


FILES = {"pkg/__init__.py": "", "pkg/errors.py": ERRORS, "pkg/store.py": STORE}


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "compose", "composed", FILES)


def _at(records: list[errdex.StoredRecord], function: str) -> list[errdex.StoredRecord]:
    line = next(i for i, text in enumerate(STORE.splitlines(), 1)
                if text.startswith(f"def {function}(") or text.strip().startswith(
                    f"def {function}("))
    return [r for r in records if r.record.file_path == "pkg/store.py"
            and line < r.record.line_number <= line + 2]


def _printed(root: Path, function: str, args: tuple[str, ...]) -> tuple[str, str]:
    """What the interpreter prints for the fixture function's exception: class, str()."""
    code = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(root)!r})\n"
        "import pkg.store as s\n"
        "try:\n"
        f"    getattr(s, {function!r})(*{args!r})\n"
        "except Exception as e:\n"
        "    print(json.dumps([type(e).__name__, str(e)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    name, message = json.loads(done.stdout)
    return name, message


@pytest.mark.parametrize("case", EXPECTED, ids=[c[0] for c in EXPECTED])
def test_every_composition_form_gives_the_raise_site_the_printed_message(
    mined: tuple[Path, list[errdex.StoredRecord]],
    case: tuple[str, tuple[str, ...], str, str, list[str]],
) -> None:
    root, records = mined
    function, args, message, error_class, sources = case
    [found] = _at(records, function)
    assert found.record.error_message == message
    assert found.record.error_class == error_class
    assert source_lines(found.extras) == [
        ("pkg/errors.py", line_starting(ERRORS, start)) for start in sources]
    printed_class, printed = _printed(root, function, args)
    assert printed_class == error_class
    assert fullmatches(found, printed), printed


def test_a_message_chosen_by_a_ternary_in_the_class_gives_one_record_per_branch(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, records = mined
    found = _at(records, "retry")
    assert messages(found) == [
        "gave up", "gave up after %d retries"]
    for n in ("3", "0"):
        _, printed = _printed(root, "retry", (int(n),))  # type: ignore[arg-type]
        assert any_fullmatch(found, printed), printed


def test_a_factory_method_found_through_self(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = mined
    [found] = [r for r in records if r.record.error_message.endswith("bad key {key}")]
    assert found.record.error_message == "[mylib.parse_error.101] bad key {key}"
    roles = [s.role for s in found.extras.template_sources]
    assert roles == ["class message", "factory"]


def test_a_class_raised_from_three_places_gives_three_records_sharing_the_template(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = mined
    same = with_message(records, "no such item: {key}", "NotFound")
    assert len(same) == 3
    assert len({r.record.id for r in same}) == 3


def test_a_call_that_reaches_no_producer_and_a_cycle_make_no_record(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = mined
    assert _at(records, "unknown") == []
    assert not any("Ping" in (r.record.error_class or "") for r in records)


def test_an_incremental_mine_recomposes_callers_of_a_changed_class(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    messages = [r.record.error_message for r in mine_changed(make_repo, tmp_path, FILES, {
        "pkg/errors.py": ERRORS.replace("no such item", "nothing stored under")})]
    assert messages.count("nothing stored under: {key}") == 4  # missing, gone, again, once_more
    assert not any("no such item" in m for m in messages)


def test_a_ternary_message_passed_to_a_class_of_another_package_gives_both_branches(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    _, stored = mine_once(make_repo, tmp_path, {"retry.py": (
        "def retry(n):\n"
        "    msg = 'gave up after ' + str(n) + ' retries' if n else 'gave up'\n"
        "    raise RuntimeError(msg)\n")})
    found = messages(stored)
    assert found == ["gave up", "gave up after {n} retries"]


def test_the_record_page_and_the_mine_summary_say_where_the_message_is_written(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from errdex.interfaces.cli import main
    from errdex.interfaces.web.app import create_app

    repo = make_repo()
    repo.commit_files(FILES)
    db = tmp_path / "page.sqlite"
    mined = CliRunner().invoke(main, ["--db", str(db), "mine", str(repo.root), "--jobs", "1"])
    assert mined.exit_code == 0, mined.output
    assert "composed from messages written in exception classes" in mined.output
    with errdex.open_store(db) as store:
        [record] = [r.record for r in store.records(repo="acme/widgets")
                    if r.record.error_message.startswith("[mylib.parse_error.101] option")]
    client = TestClient(create_app(db), base_url="http://localhost")
    page = client.get(f"/acme/widgets/{record.slug}")
    assert page.status_code == 200
    assert "Message written in" in page.text
    assert f"pkg/errors.py:{line_starting(ERRORS, 'class ParseError(')}" in page.text
    assert f"pkg/errors.py:{line_starting(ERRORS, 'def config_error(')}</span> " \
           "<span class=\"muted\">(factory)" in page.text


def test_a_constant_of_another_module_is_printed_as_its_text(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    _, stored = mine_once(make_repo, tmp_path, {
        "app/messages.py": 'NOT_READY = "the pool is not ready yet"\n\n\n'
                           'class Texts:\n    GAVE_UP = "gave up waiting"\n',
        "app/pool.py": "from app import messages\nfrom app.messages import Texts\n\n\n"
                       "def get(n):\n"
                       "    if n:\n"
                       "        raise RuntimeError(messages.NOT_READY)\n"
                       "    raise TimeoutError(f'{Texts.GAVE_UP} after {n}s')\n",
    })
    found = {r.record.line_number: r.record for r in stored}
    assert found[7].error_message == "the pool is not ready yet"
    assert found[8].error_message == "gave up waiting after {n}s"
    assert re.fullmatch(found[8].message_pattern, "gave up waiting after 3s")


def test_an_incremental_mine_reads_constants_and_classes_from_files_it_did_not_read(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    repo = make_repo()
    repo.commit_files({
        "app/messages.py": 'NOT_READY = "the pool is not ready yet"\n',
        "app/errors.py": ERRORS,
        "app/pool.py": "def get(n):\n    return n\n",
    })
    db = tmp_path / "i.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    repo.commit_files({"app/pool.py": (
        "from app import messages\nfrom app.errors import NotFound\n\n\n"
        "def get(n):\n"
        "    if n:\n"
        "        raise RuntimeError(messages.NOT_READY)\n"
        "    raise NotFound(n)\n")})
    assert errdex.mine(repo.root, db=db, jobs=1).incremental
    with errdex.open_store(db) as store:
        found = {r.record.line_number: r.record for r in store.records(repo="acme/widgets")
                 if r.record.file_path == "app/pool.py"}
    assert found[7].error_message == "the pool is not ready yet"
    assert found[8].error_message == "no such item: {n}"


def test_a_message_property_of_the_class_gives_a_record_per_return(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, stored = mine_once(make_repo, tmp_path, {"tpl/runtime.py": (
        "class UndefinedError(Exception):\n    pass\n\n\n"
        "class Undefined:\n"
        "    def __init__(self, name, obj=None, exc=UndefinedError):\n"
        "        self._name = name\n        self._obj = obj\n        self._exc = exc\n\n"
        "    @property\n"
        "    def _message(self):\n"
        "        if self._obj is None:\n"
        "            return f'{self._name!r} is undefined'\n"
        "        return f'{type(self._obj).__name__!r} object has no attribute {self._name!r}'\n\n"
        "    def fail(self):\n"
        "        raise self._exc(self._message)\n")})
    found = [r for r in stored if r.record.line_number == 18]
    assert messages(found) == [
        "{self._name!r} is undefined",
        "{type(self._obj).__name__!r} object has no attribute {self._name!r}"]
    code = (f"import sys; sys.path.insert(0, {str(root)!r})\n"
            "from tpl.runtime import Undefined\n"
            "for u in (Undefined('x'), Undefined('get', {})):\n"
            "    try:\n        u.fail()\n    except Exception as e:\n        print(str(e))\n")
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.splitlines()
    assert printed == ["'x' is undefined", "'dict' object has no attribute 'get'"]
    for line in printed:
        assert any_fullmatch(found, line), line
    assert all(s.role == "message" for r in found for s in r.extras.template_sources)


def test_a_factory_given_the_class_and_its_arguments_to_pass_on(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, stored = mine_once(make_repo, tmp_path, {"toml/errors.py": (
        "class ParseError(ValueError):\n"
        "    def __init__(self, line, col, message=None):\n"
        "        self.line = line\n        self.col = col\n"
        "        if message is None:\n            message = 'TOML parse error'\n"
        "        super().__init__(f'{message} at line {self.line} col {self.col}')\n\n\n"
        "class UnexpectedCharError(ParseError):\n"
        "    def __init__(self, line, col, char):\n"
        "        message = f'Unexpected character: {char!r}'\n"
        "        super().__init__(line, col, message=message)\n"),
        "toml/parser.py": (
        "from toml.errors import ParseError, UnexpectedCharError\n\n\n"
        "class Parser:\n"
        "    def parse_error(self, exception=ParseError, *args, **kwargs):\n"
        "        line, col = 1, 4\n"
        "        return exception(line, col, *args, **kwargs)\n\n"
        "    def value(self, c):\n"
        "        raise self.parse_error(UnexpectedCharError, char=c)\n"),
    })
    [found] = [r.record for r in stored
               if r.record.file_path == "toml/parser.py"]
    assert found.error_class == "UnexpectedCharError"
    code = (f"import sys; sys.path.insert(0, {str(root)!r})\n"
            "from toml.parser import Parser\n"
            "try:\n    Parser().value('-')\nexcept Exception as e:\n    print(str(e))\n")
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.strip()
    assert printed == "Unexpected character: '-' at line 1 col 4"
    assert re.fullmatch(found.message_pattern, printed), found.message_pattern


def test_a_raise_inside_a_helper_that_passes_its_parameter_on_prints_what_callers_pass(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    _, stored = mine_once(make_repo, tmp_path, {"app/check.py": (
        "class ValidationError(Exception):\n    pass\n\n\n"
        "def fail(message):\n"
        "    raise ValidationError(message)\n\n\n"
        "def check(value):\n"
        "    if value is None:\n"
        "        fail('Field may not be null.')\n"
        "    if not value:\n"
        "        fail(f'Length must be at least {len(value)}.')\n")})
    inside = sorted(r.record.error_message for r in stored
                    if r.record.line_number == 6)
    sources = {s.role for r in stored
               if r.record.line_number == 6 for s in r.extras.template_sources}
    assert inside == ["Field may not be null.", "Length must be at least {len(value)}."]
    assert sources == {"callers"}


def test_a_message_looked_up_by_key_in_the_class_table(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, stored = mine_once(make_repo, tmp_path, {"forms/fields.py": (
        "class ValidationError(Exception):\n    pass\n\n\n"
        "class Field:\n"
        "    default_error_messages = {'required': 'Missing data for required field.',\n"
        "                              'null': 'Field may not be null.'}\n\n"
        "    def __init__(self):\n"
        "        self.error_messages = {}\n"
        "        for cls in reversed(type(self).__mro__):\n"
        "            self.error_messages.update(getattr(cls, 'default_error_messages', {}))\n\n"
        "    def make_error(self, key, **kwargs):\n"
        "        msg = self.error_messages[key]\n"
        "        return ValidationError(msg.format(**kwargs))\n\n"
        "    def need(self, value):\n"
        "        if value is None:\n"
        "            raise self.make_error('null')\n\n\n"
        "class Date(Field):\n"
        "    default_error_messages = {'invalid': 'Not a valid {kind}.'}\n\n"
        "    def parse(self, value):\n"
        "        raise self.make_error('invalid', kind='date')\n")})
    found = {r.record.line_number: r.record for r in stored}
    assert found[20].error_message == "Field may not be null."
    assert found[27].error_message == "Not a valid {kind}."
    code = (f"import sys; sys.path.insert(0, {str(root)!r})\n"
            "from forms.fields import Date, Field\n"
            "for call in (lambda: Field().need(None), lambda: Date().parse('x')):\n"
            "    try:\n        call()\n    except Exception as e:\n        print(str(e))\n")
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.splitlines()
    assert printed == ["Field may not be null.", "Not a valid date."]
    assert re.fullmatch(found[20].message_pattern, printed[0])
    assert re.fullmatch(found[27].message_pattern, printed[1])


def test_a_factory_delegating_to_another_objects_method_of_that_name(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, stored = mine_once(make_repo, tmp_path, {
        "toml/errors.py": (
            "class ParseError(ValueError):\n"
            "    def __init__(self, line: int, col: int, message: str = 'TOML parse error'):\n"
            "        super().__init__(f'{message} at line {line} col {col}')\n\n\n"
            "class InvalidNumberError(ParseError):\n"
            "    def __init__(self, line: int, col: int) -> None:\n"
            "        super().__init__(line, col, message='Invalid number')\n"),
        "toml/source.py": (
            "from toml.errors import ParseError\n\n\n"
            "class Source:\n"
            "    def parse_error(self, exception: type = ParseError, *args: object,\n"
            "                    **kwargs: object) -> ParseError:\n"
            "        line, col = 1, 14\n"
            "        return exception(line, col, *args, **kwargs)\n"),
        "toml/parser.py": (
            "from toml.errors import InvalidNumberError\nfrom toml.source import Source\n\n\n"
            "class Parser:\n"
            "    def __init__(self) -> None:\n        self._src = Source()\n\n"
            "    def parse_error(self, exception, *args, **kwargs):\n"
            "        return self._src.parse_error(exception, *args, **kwargs)\n\n"
            "    def number(self):\n"
            "        raise self.parse_error(InvalidNumberError)\n"),
    })
    [found] = [r.record for r in stored
               if r.record.file_path == "toml/parser.py"]
    code = (f"import sys; sys.path.insert(0, {str(root)!r})\n"
            "from toml.parser import Parser\n"
            "try:\n    Parser().number()\nexcept Exception as e:\n    print(str(e))\n")
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.strip()
    assert printed == "Invalid number at line 1 col 14"
    assert found.error_class == "InvalidNumberError"
    assert re.fullmatch(found.message_pattern, printed), found.message_pattern


def test_a_str_override_with_an_optional_context_gives_both_readings(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    repo = make_repo()
    repo.commit_files({"lock/errors.py": (
        "class LockError(Exception):\n"
        "    def __init__(self, cause, *, context=None):\n"
        "        self.context = context\n"
        "        self.message = str(cause)\n\n"
        "    def __str__(self):\n"
        "        if self.context:\n"
        "            return f'{self.message} in {self.context!r}'\n"
        "        return self.message\n\n\n"
        "def check(name, key):\n"
        "    if key:\n"
        "        raise LockError('Missing required value', context=key)\n"
        "    raise LockError(f'Name {name!r} is not normalized')\n")})
    db = tmp_path / "s.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    with errdex.open_store(db) as store:
        by_line: dict[int, list[str]] = {}
        for r in store.records(repo="acme/widgets"):
            by_line.setdefault(r.record.line_number, []).append(r.record.message_pattern)
    code = (f"import sys; sys.path.insert(0, {str(repo.root)!r})\n"
            "from lock.errors import check\n"
            "for args in (('x', 'packages[0]'), ('Example', None)):\n"
            "    try:\n        check(*args)\n    except Exception as e:\n        print(str(e))\n")
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.splitlines()
    assert printed == ["Missing required value in 'packages[0]'",
                       "Name 'Example' is not normalized"]
    assert any(re.fullmatch(p, printed[0]) for p in by_line[14])
    assert any(re.fullmatch(p, printed[1]) for p in by_line[15])


# Forms met in real libraries, one fixture package mined once; each case: the call that
# raises, the marker comment on the raising line, the errorMessage of the record there.
FORMS = {
    "forms/__init__.py": "",
    "forms/types.py": (
        "from typing import Generic, TypeVar\n\n"
        "T = TypeVar('T')\n\n\n"
        "class BadParameter(Exception):\n"
        "    def __init__(self, message, param=None):\n"
        "        super().__init__(message)\n"
        "        self.message = message\n\n\n"
        "class ParamType(Generic[T]):\n"
        "    def fail(self, message, param=None):\n"
        "        raise BadParameter(message, param=param)  # fail\n\n\n"
        "class BoolType(ParamType[bool]):\n"
        "    def convert(self, value):\n"
        "        self.fail(f'{value!r} is not a valid boolean.')\n"),
    "forms/lock.py": (
        "class LockError(Exception):\n"
        "    def __init__(self, cause, *, context=None):\n"
        "        if isinstance(cause, LockError):\n"
        "            self.context = f'{context}.{cause.context}' if cause.context else context\n"
        "            self.message = cause.message\n"
        "        else:\n"
        "            self.context = context\n"
        "            self.message = str(cause)\n\n"
        "    def __str__(self):\n"
        "        if self.context:\n"
        "            return f'{self.message} in {self.context!r}'\n"
        "        return self.message\n\n\n"
        "def item(key, i):\n"
        "    raise LockError('Missing required value', context=f'{key}[{i}]')  # context\n\n\n"
        "def nested(key, i):\n"
        "    try:\n"
        "        raise LockError('Missing required value', context='hashes')\n"
        "    except LockError as e:\n"
        "        raise LockError(e, context=f'{key}[{i}]')  # chained\n"),
    "forms/tokens.py": (
        "class SyntaxErr(Exception):\n"
        "    def __init__(self, message, *, source, span):\n"
        "        self.span = span\n        self.message = message\n        self.source = source\n"
        "        super().__init__()\n\n"
        "    def __str__(self):\n"
        "        marker = ' ' * self.span[0] + '~' * (self.span[1] - self.span[0]) + '^'\n"
        "        return f'{self.message}\\n    {self.source}\\n    {marker}'\n\n\n"
        "def quoted(source):\n"
        "    raise SyntaxErr('Invalid quoted string', source=source, span=(1, 3))  # layout\n"),
    "forms/meta.py": (
        "class InvalidMetadata(ValueError):\n"
        "    def __init__(self, field, message):\n"
        "        self.field = field\n        super().__init__(message)\n\n\n"
        "class Field:\n"
        "    def __init__(self, name):\n        self.raw_name = name\n\n"
        "    def _invalid(self, msg, cause=None):\n"
        "        exc = InvalidMetadata(self.raw_name, msg)\n"
        "        exc.__cause__ = cause\n"
        "        return exc\n\n"
        "    def check(self, value):\n"
        "        raise self._invalid(f'{value!r} is not a valid version')  # variable\n"),
    "forms/frozen.py": (
        "class FrozenError(AttributeError):\n"
        "    def __init__(self):\n"
        "        msg = \"can't set attribute\"\n"
        "        super().__init__(msg)\n\n\n"
        "class FrozenInstanceError(FrozenError):\n    pass\n\n\n"
        "def assign(e):\n"
        "    if e:\n        raise e\n"
        "    raise FrozenInstanceError  # bare\n"),
    "forms/validate.py": (
        "class ValidationError(Exception):\n    pass\n\n\n"
        "class Validator:\n    error = None\n\n\n"
        "class Choice(Validator):\n"
        "    default_message = 'Must be one of: {choices}.'\n\n"
        "    def __init__(self, choices, *, error=None):\n"
        "        self.choices = choices\n"
        "        self.choices_text = ', '.join(str(c) for c in choices)\n"
        "        self.error = error or self.default_message\n\n"
        "    def _format_error(self, value):\n"
        "        return self.error.format(input=value, choices=self.choices_text)\n\n"
        "    def __call__(self, value):\n"
        "        if value not in self.choices:\n"
        "            raise ValidationError(self._format_error(value))  # method\n\n\n"
        "class AllIn(Choice):\n"
        "    default_message = 'Some items are not in: {choices}.'\n\n"
        "    def _format_error(self, value):\n"
        "        listed = ', '.join(str(v) for v in value)\n"
        "        return super()._format_error(listed)\n\n"
        "    def __call__(self, value):\n"
        "        for v in value:\n"
        "            if v not in self.choices:\n"
        "                message = self._format_error(value)\n"
        "                raise ValidationError(message)  # subclass\n\n\n"
        "class Bounds(Validator):\n"
        "    below = 'Must be {op} {{low}}.'\n"
        "    at_least = 'at least'\n"
        "    more_than = 'more than'\n\n"
        "    def __init__(self, low, *, inclusive=True, error=None):\n"
        "        self.low = low\n"
        "        self.error = error\n"
        "        op = self.at_least if inclusive else self.more_than\n"
        "        self.below = self.below.format(op=op)\n\n"
        "    def _format_error(self, value, message):\n"
        "        return (self.error or message).format(input=value, low=self.low)\n\n"
        "    def __call__(self, value):\n"
        "        if value < self.low:\n"
        "            raise ValidationError(self._format_error(value, self.below))  # twice\n\n\n"
        "class Always(Validator):\n"
        "    default_error = 'Invalid value.'\n\n"
        "    def __init__(self, error=None):\n"
        "        self.error = error or self.default_error\n\n"
        "    def __call__(self, value):\n"
        "        raise ValidationError(self.error)  # field\n"),
    "forms/params.py": (
        "class ValidationError(Exception):\n    pass\n\n\n"
        "class Param:\n"
        "    kind = 'parameter'\n"
        "    default_error_messages = {'invalid': 'Not a valid value.'}\n\n"
        "    def __init__(self, name):\n"
        "        self.name = name\n"
        "        self.error_messages = {}\n"
        "        for cls in reversed(type(self).__mro__):\n"
        "            self.error_messages.update(getattr(cls, 'default_error_messages', {}))\n\n"
        "    def make_error(self, key, **kwargs):\n"
        "        return ValidationError(self.error_messages[key].format(**kwargs))\n\n"
        "    def check(self):\n"
        "        raise ValueError(f'The {self.kind} {self.name!r} is old; a {self.kind} fails')"
        "  # kind\n\n"
        "    def parse(self, value):\n"
        "        if not value.isdigit():\n"
        "            raise self.make_error('invalid')  # table\n\n\n"
        "class Argument(Param):\n"
        "    kind = 'argument'\n"
        "    default_error_messages = {'invalid': 'Not a valid integer.'}\n"),
    "forms/choice.py": (
        "from gettext import ngettext\n\n\n"
        "class BadParameter(Exception):\n    pass\n\n\n"
        "class ParamType:\n"
        "    def fail(self, message, param=None):\n"
        "        raise BadParameter(message)  # callers\n\n\n"
        "class Choice(ParamType):\n"
        "    def __init__(self, choices):\n        self.choices = choices\n\n"
        "    def invalid_message(self, value):\n"
        "        listed = ', '.join(map(repr, self.choices))\n"
        "        return ngettext('{value!r} is not {choice}.',\n"
        "                        '{value!r} is not one of {choices}.',\n"
        "                        len(self.choices)).format(value=value, choice=listed,\n"
        "                                                  choices=listed)\n\n"
        "    def convert(self, value):\n"
        "        if value not in self.choices:\n"
        "            self.fail(self.invalid_message(value))\n\n\n"
        "class Many(ParamType):\n"
        + "".join(f"    def check{i}(self):\n        self.fail('problem number {i} happened')\n\n"
                  for i in range(24))),
    "forms/toml.py": (
        "class ParseError(ValueError):\n"
        "    def __init__(self, line, col, message='parse error'):\n"
        "        super().__init__(f'{message} at line {line} col {col}')\n\n\n"
        "class BadChar(ParseError):\n"
        "    def __init__(self, line, col, char):\n"
        "        super().__init__(line, col, message=f'Unexpected character: {char!r}')\n\n\n"
        "class Source:\n"
        "    def parse_error(self, exception=ParseError, *args, **kwargs):\n"
        "        return exception(1, 4, *args, **kwargs)\n\n\n"
        "class Parser:\n"
        "    def parse_error(self, exception=ParseError, *args, **kwargs):\n"
        "        return exception(2, 7, *args, **kwargs)\n\n\n"
        "def value(raw):\n"
        "    parser = Parser()\n"
        "    raise parser.parse_error(BadChar, char=raw[0])  # made\n"),
    "forms/pager.py": (
        "from gettext import gettext as _\n\n\n"
        "class NotFound(Exception):\n"
        "    def __init__(self, detail):\n"
        "        super().__init__(f'Not found: {detail}')\n\n\n"
        "class Pager:\n"
        "    invalid_page_message = _('Invalid page.')\n\n"
        "    def page(self, n):\n"
        "        raise NotFound(self.invalid_page_message)  # translated\n"),
    "forms/context.py": (
        "from __future__ import annotations\n\n\n"
        "class UsageError(Exception):\n    pass\n\n\n"
        "class Context:\n"
        "    def fail(self, message):\n"
        "        raise UsageError(message)  # annotated\n\n\n"
        "class Param:\n"
        "    def fail(self, message):\n"
        "        raise ValueError(message)\n\n\n"
        "def parse(ctx: Context | None, args):\n"
        "    ctx.fail(f'Got unexpected extra argument ({args})')\n"),
}

# (module, call, marker, errorMessage of the record on the marked line)
FORM_CASES = [
    ("types", "BoolType().convert(None)", "# fail", "{value!r} is not a valid boolean."),
    ("lock", "item('packages', 0)", "# context", "Missing required value in '{key}[{i}]'"),
    ("lock", "nested('wheels', 0)", "# chained", "{e} in '{key}[{i}].{cause.context}'"),
    ("tokens", "quoted('ab \"c')", "# layout",
     "Invalid quoted string\n    {source}\n    {marker}"),
    ("meta", "Field('version').check('1.x')", "# variable", "{value!r} is not a valid version"),
    ("frozen", "assign(None)", "# bare", "can't set attribute"),
    ("validate", "Choice([1, 2])(3)", "# method", "Must be one of: {choices}."),
    ("validate", "AllIn([1])([1, 5])", "# subclass", "Some items are not in: {choices}."),
    ("validate", "Bounds(3)(1)", "# twice", "Must be at least {low}."),
    ("validate", "Bounds(3, inclusive=False)(1)", "# twice", "Must be more than {low}."),
    ("validate", "Always()(1)", "# field", "Invalid value."),
    ("params", "Param('p').check()", "# kind",
     "The parameter {self.name!r} is old; a parameter fails"),
    ("params", "Argument('a').check()", "# kind",
     "The argument {self.name!r} is old; a argument fails"),
    ("params", "Param('p').parse('x')", "# table", "Not a valid value."),
    ("params", "Argument('a').parse('x')", "# table", "Not a valid integer."),
    ("choice", "Choice(['a', 'b']).convert('x')", "# callers",
     "{value!r} is not one of {choices}."),
    ("choice", "Many().check23()", "# callers", "problem number 23 happened"),
    ("pager", "Pager().page(3)", "# translated", "Not found: Invalid page."),
    ("context", "parse(Context(), 'x')", "# annotated",
     "Got unexpected extra argument ({args})"),
    ("toml", "value('-')", "# made", "Unexpected character: {raw[0]!r} at line {2} col {7}"),
]


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "forms", "forms", FORMS)


def _raised(root: Path, module: str, call: str) -> str:
    """What the interpreter prints for the exception ``call`` raises in ``forms.<module>``."""
    code = (f"import sys; sys.path.insert(0, {str(root)!r})\n"
            f"from forms.{module} import *\n"
            f"try:\n    {call}\nexcept Exception as e:\n    print(repr(str(e)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    printed = done.stdout.strip()
    assert printed, done.stderr
    return str(eval(printed))  # the repr printed, read back (newlines kept)


@pytest.mark.parametrize("case", FORM_CASES, ids=[c[1] for c in FORM_CASES])
def test_a_form_met_in_real_libraries_gives_the_raise_line_the_printed_message(
    forms: tuple[Path, list[errdex.StoredRecord]], case: tuple[str, str, str, str],
) -> None:
    """A generic base class (``ParamType[bool]``), a repr'd context built of holes (a
    field set in two branches giving both), a
    ``__str__`` laying fields out on lines, a factory returning the error it put in a
    variable, a class raised without arguments; a validator's message method with
    parameters formatting a field (``self.error or self.default_message``) at run time,
    the class attribute a subclass overrides, a field formatted twice; a class attribute
    or message table entry a subclass of the site's class overrides (``self`` may be
    one of those); a helper called with what a text method of the object returns, and
    by more callers than one site has alternatives; a method of an object made from a
    class in the function (``parser = Parser(); parser.parse_error(…)``) or of a parameter
    annotated with one (``ctx: Context | None``)."""
    root, records = forms
    module, call, marker, message = case
    path = f"forms/{module}.py"
    line = line_with(FORMS[path], marker)
    found = [r for r in records if r.record.file_path == path
             and r.record.line_number == line]
    assert message in messages(found)
    assert len(set(messages(found))) == len(found)  # one record per distinct message
    printed = _raised(root, module, call)
    assert any(fullmatches(r, printed) for r in found), (printed, messages(found))


def test_the_code_and_status_a_class_or_its_base_sets_reach_its_raise_sites(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``code = "E_APP"`` / ``status_code = 404`` in a class body, ``self.code = …`` in
    its constructor: every site raising it (or a subclass) gets errorCode / httpStatus; a
    constructor keeping a parameter as its code takes the text a site passes for it."""
    _, stored = mine_once(make_repo, tmp_path, {"app/errors.py": (
        "class AppError(Exception):\n    code = 'E_APP'\n\n\n"
        "class NotFound(AppError):\n    status_code = 404\n\n"
        "    def __init__(self, key):\n        super().__init__(f'no such item: {key}')\n\n\n"
        "class Denied(Exception):\n"
        "    def __init__(self, user):\n"
        "        self.code = 'E_DENIED'\n        super().__init__(f'{user} may not do that')\n\n\n"
        "def get(key):\n    raise NotFound(key)\n\n\n"
        "def deny(user):\n    raise Denied(user)\n\n\n"
        "def fail():\n    raise AppError('the app failed')\n\n\n"
        "class Mixin:\n"
        "    def __init__(self, message, *, code):\n"
        "        self.message = message\n        self.code = code\n\n"
        "    def __str__(self):\n"
        "        return f'{self.message} (see /u/{self.code})'\n\n\n"
        "class UserError(Mixin, RuntimeError):\n    pass\n\n\n"
        "def use(name):\n"
        "    raise UserError(f'field {name!r} needs a type', code='missing-type')\n")})
    found = {r.record.error_class: r.record for r in stored}
    assert (found["UserError"].error_code, found["UserError"].error_message) == (
        "missing-type", "field {name!r} needs a type (see /u/missing-type)")
    assert (found["NotFound"].error_code, found["NotFound"].http_status) == ("E_APP", 404)
    assert (found["Denied"].error_code, found["Denied"].http_status) == ("E_DENIED", None)
    assert (found["AppError"].error_code, found["AppError"].http_status) == ("E_APP", None)
    assert len(stored) == 4  # the constructors' ``super().__init__`` calls are no sites


def test_a_message_spelled_out_from_a_class_attribute_says_where_it_is_written(
    forms: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    """The record of ``raise ValidationError(self._format_error(value))`` names the class
    attribute its text comes from (role ``attribute``), the subclass's for its override."""
    _, records = forms
    text = FORMS["forms/validate.py"]
    line = line_with(text, "# method")
    found = {r.record.error_message: source_lines(r.extras) for r in records
             if r.record.file_path == "forms/validate.py" and r.record.line_number == line}
    written = line_with(text, "default_message = 'Must be one of")
    override = line_with(text, "default_message = 'Some items")
    assert found["Must be one of: {choices}."] == [("forms/validate.py", written)]
    assert found["Some items are not in: {choices}."] == [("forms/validate.py", override)]
    [always] = [r for r in records if r.record.line_number == line_with(text, "# field")
                and r.record.file_path == "forms/validate.py"]
    assert [s.role for s in always.extras.template_sources] == ["attribute"]


TABLED = {
    "app/errors.py": (
        "MESSAGES = {\n"
        "    'locked': 'resource is locked by another user',\n"
        "    'gone': 'resource was deleted',\n"
        "}\n"
        "\n"
        "\n"
        "class AppError(Exception):\n"
        "    def __init__(self, code):\n"
        "        super().__init__(MESSAGES[code])\n"
    ),
    "app/use.py": (
        "from app.errors import AppError\n"
        "\n"
        "\n"
        "def edit(doc):\n"
        "    raise AppError('locked')  # site\n"
    ),
}


def test_a_message_looked_up_in_a_table_of_the_producers_module_is_its_entry(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``super().__init__(MESSAGES[code])`` with ``MESSAGES`` a dict of the class's module:
    ``raise AppError('locked')`` prints that entry (the table's line its source)."""
    root, records = mine_once(make_repo, tmp_path, TABLED)
    use = TABLED["app/use.py"]
    [found] = [r for r in records if r.record.file_path == "app/use.py"
               and r.record.line_number == line_with(use, "# site")]
    assert found.record.error_message == "resource is locked by another user"
    assert found.record.error_class == "AppError"
    assert ("app/errors.py", 2) in source_lines(found.extras)
    done = subprocess.run([sys.executable, "-c", "from app.use import edit; edit(None)"],
                          cwd=root, capture_output=True, text=True, check=False)
    printed = done.stderr.strip().splitlines()[-1].split(": ", 1)[1]
    assert fullmatches(found, printed)


USAGE = (
    "def usage(name):\n"
    "    raise SystemExit(\n"
    "        'usage: tool [options] FILE\\n'\n"
    "        'the input file could not be read\\n'\n"
    "        f'unknown option {name}')\n"
)


def test_the_literals_of_a_message_spanning_lines_stay_text_sites(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """A paste of a message of several lines rarely parses back whole: each of its
    literals still finds its line by its words (one-line messages' literals do not)."""
    repo = make_repo()
    repo.commit_files({"tool/cli.py": USAGE, "tool/one.py": "raise KeyError('no such key here')\n"})
    db = tmp_path / "lines.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    found = errdex.text_sites("the input file could not be read", db=db)
    assert [(t.site.file_path, t.site.line_number) for t in found] == [("tool/cli.py", 3)]
    assert errdex.text_sites("no such key here", db=db) == []

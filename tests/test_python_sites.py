"""Python sites: the golden table of the fixture store, checked against what Python prints.

``fixtures/python/store.py`` is a runnable module whose functions each raise, log,
warn or exit. The golden table pins every site errdex reads from it; the runtime
tests call each function and check that the site's pattern matches the real
message (and that a near miss does not), so the table cannot drift from Python.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import re
import string
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.languages.base import FileSites, Site
from errdex.languages.logs import severity_of
from errdex.languages.python import LANGUAGE, extract
from errdex.templates.template import Hole, Literal, Part, Template, compile_pattern

FIXTURES = Path(__file__).parent / "fixtures" / "python"
STORE = FIXTURES / "store.py"

# --- golden table ----------------------------------------------------------------------

INT = r"(-?\d+)"
F2 = r"((?:-?\d+\.\d{2}|[-+]?(?:inf|Inf|Infinity)|nan|NaN))"
F1 = r"((?:-?\d+\.\d{1}|[-+]?(?:inf|Inf|Infinity)|nan|NaN))"

# (line, written, pattern, error_type, error_class, symbol)
EXPECTED: list[tuple[int, str, str, str, str | None, str | None]] = [
    (37, "config path must not be empty", "config path must not be empty",
     "exception", "ValueError", "load_config"),
    (39, "unsupported config format {path!r}", "unsupported config format (.+?)",
     "exception", "ValueError", "load_config"),
    (45, "port must be between 1 and 65535, got %d",
     "port must be between 1 and 65535, got " + INT, "exception", "ValueError", "parse_port"),
    (51, "ratio {ratio:.2f} exceeds the limit of 1.00",
     "ratio " + F2 + r" exceeds the limit of 1\.00", "exception", "ValueError", "check_ratio"),
    (57, "invalid range [%s, %s]", r"invalid range \[(.+?), (.+?)\]",
     "exception", "ValueError", "check_range"),
    (62, "user %(name)s has a bad age %(age)d", "user (.+?) has a bad age " + INT,
     "exception", "TypeError", "check_user"),
    (66, "no table {} in schema {schema}", "no table (.+?) in schema (.+?)",
     "exception", "LookupError", "find_table"),
    (70, "cannot open {path} for writing", "cannot open (.+?) for writing",
     "exception", "RuntimeError", "open_for_writing"),
    (75, "cannot migrate from version {version} to the current layout",
     "cannot migrate from version (.+?) to the current layout",
     "exception", "RuntimeError", "migrate"),
    (80, "row %d is corrupt", "row " + INT + " is corrupt", "exception", "StoreError", "read_row"),
    (87, "bad integer {text!r} in header", "bad integer (.+?) in header",
     "exception", "StoreError", "parse_header"),
    (92, "key too long: at most 255 bytes are allowed",
     "key too long: at most 255 bytes are allowed", "exception", "ValueError", "check_key"),
    (94, r"keys must not contain \n or other control characters",
     r"keys must not contain \\n or other control characters",
     "exception", "ValueError", "check_key"),
    (99, "the store was opened read-only", "the store was opened read-only",
     "exception", "PermissionError", "check_writable"),
    (103, "unknown key {key}", "'unknown key (.+?)'", "exception", "KeyError", "lookup"),
    (107, "default", "'default'", "exception", "KeyError", "require_default"),
    (111, "bad magic number 0x{magic:08x} in {{header}} block",
     r"bad magic number 0x(-?[0-9a-f]+) in \{header\} block",
     "exception", "StoreError", "check_magic"),
    (115, "quota of {quota} bytes exceeded by {size - quota}",
     "quota of (.+?) bytes exceeded by (.+?)", "exception", "QuotaError", "reserve"),
    (119, "failed to flush %s: %d pending writes",
     "failed to flush (.+?): " + INT + " pending writes", "log", None, "flush"),
    (123, "disk full on {device}, writes are paused", "disk full on (.+?), writes are paused",
     "log", None, "report_disk"),
    (127, "compaction failed, the store keeps its old segments",
     "compaction failed, the store keeps its old segments", "log", None, "compact"),
    (131, "shutting down: %(reason)s", "shutting down: (.+?)", "log", None, "shutdown"),
    (135, "the v1 file format is deprecated", "the v1 file format is deprecated",
     "warning", "DeprecationWarning", "use_v1"),
    (139, "cache size {size} is too small to help", "cache size (.+?) is too small to help",
     "warning", "UserWarning", "set_cache"),
    (143, "store was not closed before exit", "store was not closed before exit",
     "warning", "ResourceWarning", "forget_close"),
    (147, "%s will be removed in the next release", "(.+?) will be removed in the next release",
     "warning", "FutureWarning", "use_legacy_api"),
    (151, "fatal: store at {path} is corrupt", "fatal: store at (.+?) is corrupt",
     "exit", None, "die"),
    (162, "timed out after {timeout:.1f}s on the lock", "timed out after " + F1 + "s on the lock",
     "exception", "concurrent.futures.TimeoutError", "Store.open"),
    (165, "{handles} handles still open at close", "(.+?) handles still open at close",
     "log", None, "Store.close"),
    (168, "segment %r lost", "segment (.+?) lost", "log", None, "Store.sync"),
    (172, "cursor moved past the end (position {position})",
     r"cursor moved past the end \(position (.+?)\)", "exception", "IndexError",
     "Store.Cursor.next"),
    (177, "cannot apply batch item {item}", "cannot apply batch item (.+?)",
     "exception", "StoreError", "batch.apply"),
]

SEVERITY = {"exception": "error", "log": "error", "warning": "warning", "exit": "fatal"}


@cache
def store_sites() -> FileSites:
    return extract(STORE.read_bytes())


def site_at(line: int) -> Site:
    (site,) = [s for s in store_sites().sites if s.line == line]
    return site


def row(site: Site) -> tuple[int, str, str, str, str | None, str | None]:
    t = site.template
    return (site.line, t.written, t.pattern(), site.error_type, site.error_class, site.symbol)


def test_language_registration() -> None:
    assert LANGUAGE.name == "python"
    assert LANGUAGE.extensions == (".py", ".pyi")
    assert LANGUAGE.extract is extract


def test_golden_table() -> None:
    found = store_sites()
    assert not found.parse_errors
    assert [row(s) for s in found.sites] == EXPECTED


def test_severity_follows_error_type() -> None:
    for site in store_sites().sites:
        # a log call's severity is its level's (logger.critical: fatal)
        expected = SEVERITY[site.error_type] if site.level is None else severity_of(site.level)
        assert site.severity == expected


def test_hole_names_follow_the_source() -> None:
    names = {s.line: [h.name for h in s.template.holes] for s in store_sites().sites}
    assert names[57] == ["low", "high"]
    assert names[62] == ["name", "age"]
    assert names[66] == ["table", "schema"]
    assert names[70] == ["path"]
    assert names[115] == ["quota", "size - quota"]
    assert names[119] == ["name", "pending"]
    assert names[131] == ["reason"]
    assert names[177] == ["item"]


def test_messageless_and_runtime_messages_are_not_sites() -> None:
    # logger.info/warning are log statements now (at every level), nothing else is a site
    found = extract((FIXTURES / "quiet.py").read_bytes())
    assert [(s.line, s.level) for s in found.sites] == [(63, "info"), (64, "warning")]


# --- what Python really prints ------------------------------------------------------------


@dataclass(frozen=True)
class Produced:
    """One message the fixture printed at run time, and the fixture line that printed it."""

    line: int
    message: str


def load_store() -> ModuleType:
    spec = importlib.util.spec_from_file_location("errdex_fixture_store", STORE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def produce(call: Callable[[ModuleType], Any], caplog: pytest.LogCaptureFixture) -> Produced:
    """Run one fixture call and capture the single message it raises, logs, warns or exits with."""
    module = load_store()
    caplog.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            call(module)
        except SystemExit as exc:
            return Produced(fixture_line(exc), str(exc.code))
        except BaseException as exc:
            return Produced(fixture_line(exc), str(exc))
    if caught:
        (warning,) = caught
        assert Path(warning.filename) == STORE
        return Produced(warning.lineno, str(warning.message))
    (record,) = [r for r in caplog.records if Path(r.pathname) == STORE]
    return Produced(record.lineno, record.getMessage())


def fixture_line(exc: BaseException) -> int:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == STORE]
    assert frames[-1].lineno is not None
    return frames[-1].lineno


CALLS: list[tuple[str, Callable[[ModuleType], Any]]] = [
    ("empty-config", lambda m: m.load_config("")),
    ("ini-config", lambda m: m.load_config("settings.ini")),
    ("port", lambda m: m.parse_port(70000)),
    ("ratio", lambda m: m.check_ratio(1.5)),
    ("range", lambda m: m.check_range(9, 3)),
    ("user", lambda m: m.check_user("ada", -4)),
    ("table", lambda m: m.find_table("users", "public")),
    ("writing", lambda m: m.open_for_writing("/tmp/store.db")),
    ("migrate", lambda m: m.migrate(3)),
    ("row", lambda m: m.read_row(17)),
    ("header", lambda m: m.parse_header("12a")),
    ("long-key", lambda m: m.check_key("k" * 300)),
    ("newline-key", lambda m: m.check_key("a\nb")),
    ("read-only", lambda m: m.check_writable(True)),
    ("lookup", lambda m: m.lookup("colour")),
    ("default", lambda m: m.require_default()),
    ("magic", lambda m: m.check_magic(0xCAFE)),
    ("quota", lambda m: m.reserve(150, 100)),
    ("flush", lambda m: m.flush("wal", 3)),
    ("disk", lambda m: m.report_disk("/dev/sda1")),
    ("compact", lambda m: m.compact()),
    ("shutdown", lambda m: m.shutdown("operator request")),
    ("v1", lambda m: m.use_v1()),
    ("cache", lambda m: m.set_cache(8)),
    ("unclosed", lambda m: m.forget_close()),
    ("legacy", lambda m: m.use_legacy_api("Store.get_many")),
    ("die", lambda m: m.die("/var/lib/store")),
    ("open", lambda m: m.Store().open(0.25)),
    ("close", lambda m: m.Store().close(4)),
    ("sync", lambda m: m.Store().sync("seg-0001")),
    ("cursor", lambda m: m.Store.Cursor().next(10)),
    ("batch", lambda m: m.batch(["put a", "put b"])),
]


def near_miss(site: Site, message: str) -> str:
    """The message with one literal word of the template changed (every occurrence of it)."""
    words = [
        w for part in site.template.parts if isinstance(part, Literal)
        for w in re.findall(r"[a-z]{3,}", part.text)
    ]
    word = max(words, key=len)
    assert word in message
    return message.replace(word, word.upper())


@pytest.mark.parametrize("call", [c for _, c in CALLS], ids=[name for name, _ in CALLS])
def test_pattern_matches_what_python_prints(
    call: Callable[[ModuleType], Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    produced = produce(call, caplog)
    site = site_at(produced.line)
    pattern = compile_pattern(site.template.pattern())
    assert pattern.fullmatch(produced.message), (produced.message, pattern.pattern)
    assert not pattern.fullmatch(near_miss(site, produced.message))


def test_runtime_calls_cover_every_site(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    lines = {produce(call, caplog).line for _, call in CALLS}
    assert lines == {s.line for s in store_sites().sites}


def test_keyerror_matches_its_traceback_line() -> None:
    """A traceback shows ``KeyError: 'unknown key colour'``; the pattern matches after the colon."""
    module = load_store()
    with pytest.raises(KeyError) as info:
        module.lookup("colour")
    last_line = traceback.format_exception_only(info.value)[-1].rstrip("\n")
    message = last_line.removeprefix("KeyError: ")
    assert compile_pattern(site_at(103).template.pattern()).fullmatch(message)


# --- web.py: HTTP errors and the runtime forms, checked against what the code produces -------

WEB = FIXTURES / "web.py"


def load_web() -> ModuleType:
    spec = importlib.util.spec_from_file_location("errdex_fixture_web", WEB)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def web_sites() -> FileSites:
    return extract(WEB.read_bytes())


def shown(value: Any) -> tuple[str, int | None]:
    """The message a framework shows for an error or error response, and its status if known.

    FastAPI/Starlette and DRF render ``detail`` (DRF's ValidationError a list or a dict
    of lists of it), werkzeug the ``description``, Django ``str(exc)``; a response's body
    is its content, or the message under ``error``/``detail`` of a JSON body.
    """
    status = getattr(value, "status_code", None) or getattr(value, "code", None)
    if isinstance(value, BaseException):
        detail = getattr(value, "detail", None)
        if isinstance(detail, dict):
            detail = next(iter(detail.values()))
        if isinstance(detail, list):
            detail = detail[0]
        if detail is None:
            detail = getattr(value, "description", None)
        return (str(detail) if detail is not None else str(value)), status
    body = (getattr(value, "content", None) or value.body).decode()
    try:
        data = json.loads(body)
    except ValueError:
        return body, status
    return (data.get("error") or data["detail"]), status


def produce_web(call: Callable[[ModuleType], Any], caplog: pytest.LogCaptureFixture
                ) -> tuple[Produced, int | None]:
    module = load_web()
    caplog.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            response = call(module)
        except BaseException as exc:
            frames = [f for f in traceback.extract_tb(exc.__traceback__)
                      if Path(f.filename) == WEB and f.name != "abort"]
            message, status = shown(exc)
            return Produced(frames[-1].lineno or 0, message), status
    if caught:
        (warning,) = caught
        return Produced(warning.lineno, str(warning.message)), None
    if response is not None:
        message, status = shown(response)
        line = next(s.line for s in web_sites().sites if s.symbol == call.__name__)
        return Produced(line, message), status
    (record,) = [r for r in caplog.records if Path(r.pathname) == WEB]
    return Produced(record.lineno, record.getMessage()), None


def web_call(name: str, *args: Any) -> Callable[[ModuleType], Any]:
    def call(module: ModuleType) -> Any:
        return getattr(module, name)(*args)

    call.__name__ = name
    return call


WEB_CALLS = [
    web_call("get_item", 7), web_call("create_item", "lamp"), web_call("check_quantity", 0),
    web_call("proxy_failure", 502, "billing"), web_call("bad_json", "price"),
    web_call("get_user", 42), web_call("check_page", 0), web_call("find_order", "A-17"),
    web_call("parse_form"), web_call("product_detail", "chair"),
    web_call("delete_product", "guest"), web_call("check_host", "evil.example"),
    web_call("upload", 10_000_000), web_call("search", "ab"), web_call("get_invoice", 1009),
    web_call("check_email", "nobody"), web_call("refund", "guest"),
    web_call("register", "ada@example.com"), web_call("profile", "ada"),
    web_call("open_template", "/srv/templates/home.html"), web_call("missing_asset", "logo.svg"),
    web_call("decode_upload", b"\xff\xfe"), web_call("render_failed", "home"),
    web_call("old_endpoint", "/items"),
]


@pytest.mark.parametrize("call", WEB_CALLS, ids=[c.__name__ for c in WEB_CALLS])
def test_web_patterns_match_what_the_code_produces(
    call: Callable[[ModuleType], Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    produced, status = produce_web(call, caplog)
    (site,) = [s for s in web_sites().sites if s.line == produced.line]
    pattern = compile_pattern(site.template.pattern())
    assert pattern.fullmatch(produced.message), (produced.message, pattern.pattern)
    assert not pattern.fullmatch(near_miss(site, produced.message))
    if site.error_type == "http" and status is not None:
        assert site.http_status in (status, None)


def test_web_calls_cover_every_site(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    lines = {produce_web(call, caplog)[0].line for call in WEB_CALLS}
    assert lines == {s.line for s in web_sites().sites}


def test_web_calls_without_a_message_are_not_sites() -> None:
    symbols = {s.symbol for s in web_sites().sites}
    assert not symbols & {"no_detail", "forbidden", "abort", "_"}
    assert [s.template.written for s in web_sites().sites if s.symbol == "search"] == [
        "search term {term!r} is too short"
    ]


def test_real_runtime_messages_of_the_builtin_forms() -> None:
    """Messages CPython printed for the same constructions (``str(exc)``)."""
    by_symbol = {s.symbol: s.template.pattern() for s in web_sites().sites}
    examples = {
        "profile": ["\"no owner's profile for ada\""],
        "open_template": ["[Errno 2] No such file or directory: '/srv/t.html'",
                          "[Errno 2] No such file or directory: \"it's.html\""],
        "missing_asset": ["[Errno 2] asset logo.svg is not bundled"],
        "decode_upload": ["'utf-8' codec can't decode byte 0xff in position 0: "
                          "upload is not valid UTF-8",
                          "'utf-8' codec can't decode bytes in position 0-1: "
                          "upload is not valid UTF-8"],
    }
    for symbol, messages in examples.items():
        for message in messages:
            assert compile_pattern(by_symbol[symbol]).fullmatch(message), (symbol, message)


def test_web_names_need_their_framework_import() -> None:
    source = (
        "class NotFound(Exception): pass\n"
        "def f(x):\n"
        "    raise NotFound(f'no {x}')\n"
        "    raise HTTPException(f'plain {x}')\n"
        "    raise HTTPException(404, f'shaped {x}')\n"
        "    raise Http404('always django')\n"
        "    abort(410, 'gone for good')\n"
        "    abort('not a status')\n"
        "    return HttpResponse('fine', status=200)\n"
        "    return HttpResponse('teapot', status=HTTPStatus.IM_A_TEAPOT)\n"
    )
    found = [(s.error_type, s.error_class, s.http_status, s.template.written)
             for s in sites_of(source)]
    assert found == [
        ("exception", "NotFound", None, "no {x}"),
        ("exception", "HTTPException", None, "plain {x}"),
        ("http", "HTTPException", 404, "shaped {x}"),
        ("http", "Http404", 404, "always django"),
        ("http", "Gone", 410, "gone for good"),
        ("http", "HttpResponse", 418, "teapot"),
    ]


def test_import_aliases_and_module_attributes_are_resolved() -> None:
    source = (
        "import werkzeug.exceptions as wz\n"
        "import flask\n"
        "from starlette import status as st\n"
        "from fastapi.exceptions import HTTPException as APIError\n"
        "from rest_framework.exceptions import Throttled\n"
        "def f(n):\n"
        "    raise wz.Conflict('already there')\n"
        "    flask.abort(code=404, description='gone')\n"
        "    raise APIError(st.HTTP_401_UNAUTHORIZED, 'log in first')\n"
        "    raise Throttled(wait=n, detail='slow down.')\n"
    )
    found = [(s.error_class, s.http_status, s.template.pattern()) for s in sites_of(source)]
    assert found == [
        ("wz.Conflict", 409, "already there"),
        ("NotFound", 404, "gone"),
        ("APIError", 401, "log in first"),
        ("Throttled", 429, r"slow down\.(?: Expected available in (\d+ seconds?\.))?"),
    ]
    throttled = compile_pattern(found[-1][2])
    assert throttled.fullmatch("slow down. Expected available in 3 seconds.")
    assert throttled.fullmatch("slow down. Expected available in 1 second.")


def test_gettext_wrappers_read_their_text() -> None:
    source = (
        "from django.utils.translation import gettext_lazy as _, pgettext\n"
        "def f(x):\n"
        "    raise ValueError(_('bad value %(v)s') % {'v': x})\n"
        "    raise ValueError(pgettext('form', 'field required'))\n"
    )
    assert [s.template.pattern() for s in sites_of(source)] == [
        "bad value (.+?)", "field required",
    ]


def test_plural_forms_are_a_site_each_and_print_what_python_prints() -> None:
    source = (
        "from gettext import ngettext\n"
        "def f(args):\n"
        "    raise ValueError(ngettext('Got unexpected extra argument ({args})',\n"
        "                              'Got unexpected extra arguments ({args})',\n"
        "                              len(args)).format(args=' '.join(args)))\n"
    )
    found = sites_of(source)
    assert [s.template.written for s in found] == [
        "Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"]
    namespace: dict[str, object] = {}
    exec(source, namespace)  # the fixture above, written here: Python's own printing
    for args in (["gibbs"], ["a", "b"]):
        try:
            namespace["f"](args)  # type: ignore[operator]
        except ValueError as err:
            assert any(compile_pattern(s.template.pattern()).fullmatch(str(err)) for s in found)


def test_class_attribute_messages() -> None:
    source = (
        "from rest_framework.exceptions import NotFound\n"
        "class Paginator:\n"
        "    invalid_page_message = _('Invalid page {page}.')\n"
        "    def page(self, n):\n"
        "        msg = self.invalid_page_message.format(page=n)\n"
        "        raise NotFound(msg)\n"
        "    def other(self):\n"
        "        raise ValueError(self.undefined_message)\n"
        "class Other:\n"
        "    def page(self):\n"
        "        raise ValueError(self.invalid_page_message)\n"
    )
    found = [(s.line, s.error_type, s.http_status, s.template.written) for s in sites_of(source)]
    assert found == [(6, "http", 404, "Invalid page {page}.")]


def test_keyerror_quotes_follow_repr() -> None:
    source = (
        "def f(k):\n"
        "    raise KeyError('plain')\n"
        "    raise KeyError(\"it's\")\n"
        "    raise KeyError('both \\' and \"')\n"
        "    raise KeyError('tab\\there')\n"
        "    raise KeyError(f'unknown {k!r}')\n"
    )
    patterns = [s.template.pattern() for s in sites_of(source)]
    keys = ["plain", "it's", "both ' and \"", "tab\there", f"unknown {'colour'!r}"]
    for pattern, key in zip(patterns, keys, strict=True):
        assert compile_pattern(pattern).fullmatch(str(KeyError(key))), (pattern, key)


def test_oserror_forms() -> None:
    source = (
        "import errno\n"
        "def f(n, path):\n"
        "    raise OSError(n, 'device busy')\n"
        "    raise PermissionError(errno.EACCES, 'locked', path)\n"
        "    raise OSError(1, 2, 3, 4)\n"
    )
    found = [s.template for s in sites_of(source)]
    assert [t.pattern() for t in found] == [
        r"\[Errno (-?\d+)\] device busy", r"\[Errno 13\] locked: (.+?)",
    ]
    assert compile_pattern(found[0].pattern()).fullmatch(str(OSError(16, "device busy")))
    assert compile_pattern(found[1].pattern()).fullmatch(
        str(PermissionError(13, "locked", "/var/lock"))
    )


# --- forms read from small inline sources ------------------------------------------------


def sites_of(source: str) -> list[Site]:
    return extract(source.encode()).sites


def test_message_variable_uses_the_nearest_assignment_above() -> None:
    source = (
        "def f(x):\n"
        "    msg = 'first {}'.format(x)\n"
        "    msg = 'second %s' % x\n"
        "    raise ValueError(msg)\n"
        "    msg = 'after the raise'\n"
    )
    (site,) = sites_of(source)
    assert (site.line, site.template.written, site.template.pattern()) == (
        4, "second %s", "second (.+?)",
    )


def test_message_variable_with_augmented_assignment_and_module_constant() -> None:
    source = (
        "PREFIX = 'store: '\n"
        "def f(x):\n"
        "    msg = PREFIX + 'bad'\n"
        "    msg += f' value {x}'\n"
        "    raise ValueError(msg)\n"
        "def g(PREFIX):\n"
        "    raise ValueError(PREFIX)\n"
    )
    (site,) = sites_of(source)
    assert site.template.written == "store: bad value {x}"
    assert site.template.pattern() == "store: bad value (.+?)"


def test_raise_with_message_variable_formatted_at_the_raise() -> None:
    source = "def f(n):\n    fmt = 'got %d items'\n    raise ValueError(fmt % n)\n"
    (site,) = sites_of(source)
    assert site.template.pattern() == r"got (-?\d+) items"


def test_a_message_in_parentheses_beside_a_lint_comment() -> None:
    """``msg = (f"…" "…"  # type: ignore)``: the comment does not hide the message."""
    source = (
        "def f(name):\n"
        "    msg = (\n"
        "        f'field {name!r} must be an instance, '\n"
        "        'not a class'  # type: ignore\n"
        "    )\n"
        "    raise TypeError(msg)\n"
    )
    (site,) = sites_of(source)
    assert site.template.written == "field {name!r} must be an instance, not a class"
    printed = "field 'x' must be an instance, not a class"
    assert re.fullmatch(site.template.pattern(), printed)


def test_fstring_details() -> None:
    source = (
        "def f(x, w):\n"
        "    raise ValueError(f'{x=} {x!r:>{w}} \\u00e9\\t{{ok}}')\n"
        "def g(x):\n"
        "    raise ValueError(rf'raw \\d {x}')\n"
    )
    first, second = sites_of(source)
    assert first.template.written == "{x=} {x!r:>{w}} \\u00e9\\t{{ok}}"
    assert first.template.render(["1", "2"]) == "x=1 2 é\t{ok}"
    assert second.template.pattern() == r"raw \\d (.+?)"


def test_logging_without_args_prints_percent_as_is() -> None:
    source = "import logging\nlogging.critical('100% full')\n"
    (site,) = sites_of(source)
    assert (site.template.pattern(), site.symbol, site.error_type) == ("100% full", None, "log")


def test_warn_needs_the_warnings_import() -> None:
    assert sites_of("warn('x is deprecated')\n") == []
    (site,) = sites_of("from warnings import warn\nwarn('x is deprecated', stacklevel=2)\n")
    assert (site.error_class, site.error_type) == ("UserWarning", "warning")


def test_syntax_error_keeps_the_good_sites() -> None:
    source = (
        "def good(x):\n"
        "    raise ValueError('good before')\n"
        "def broken(:\n"
        "    raise ValueError(\n"
        "class Fine:\n"
        "    def after(self):\n"
        "        raise RuntimeError(f'good after {self}')\n"
    )
    found = extract(source.encode())
    assert found.parse_errors
    written = {(s.line, s.template.written) for s in found.sites}
    assert (2, "good before") in written
    assert (7, "good after {self}") in written


def test_sites_inside_error_nodes_are_skipped() -> None:
    source = (
        "import logging\n"
        "def good():\n"
        "    raise ValueError('good before')\n"
        "items = [1,\n"
        "logging.error('lost in a broken list')\n"
    )
    found = extract(source.encode())
    assert found.parse_errors
    assert [(s.line, s.template.written) for s in found.sites] == [(3, "good before")]


# --- property: every fixture template renders to messages its pattern matches ---------------


def store_templates() -> list[Template]:
    return [s.template for s in store_sites().sites]


NUMERIC_CHARS = set(string.digits + ".-+eE")
HEX_CHARS = set("abcdefABCDEF")


def value_strategy(hole: Hole, banned: str) -> st.SearchStrategy[str]:
    """Values a hole can print; ``banned`` never appears in them."""
    kind = hole.kind
    if kind in ("int", "uint"):
        return st.integers(min_value=0 if kind == "uint" else None).map(str)
    if kind in ("hex", "HEX", "octal", "binary"):
        spec = {"hex": "x", "HEX": "X", "octal": "o", "binary": "b"}[kind]
        return st.integers(min_value=0).map(lambda n: format(n, spec))
    if kind == "float":
        floats = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False)
        if hole.precision is None:
            return floats.map(str)
        return floats.map(lambda f: f"{f:.{hole.precision}f}")
    alphabet = st.characters(blacklist_characters="\n" + banned, blacklist_categories=("Cs",))
    if kind == "word":
        alphabet = alphabet.filter(lambda c: not c.isspace())
    return st.text(alphabet, min_size=1)


def mutable_positions(template: Template) -> list[tuple[int, int]]:
    """(part index, char index) of literal characters no typed hole can print."""
    unsafe: set[str] = set()
    for hole in template.holes:
        if hole.kind not in ("any", "word"):
            unsafe |= NUMERIC_CHARS | (HEX_CHARS if hole.kind in ("hex", "HEX") else set())
    return [
        (i, j) for i, part in enumerate(template.parts) if isinstance(part, Literal)
        for j, ch in enumerate(part.text) if ch not in unsafe
    ]


@pytest.mark.parametrize("template", store_templates(), ids=lambda t: t.written[:40])
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_rendered_messages_match_and_literal_changes_do_not(
    template: Template, data: st.DataObject
) -> None:
    positions = mutable_positions(template)
    part_index, char_index = data.draw(st.sampled_from(positions))
    target = template.parts[part_index]
    assert isinstance(target, Literal)
    changed = target.text[char_index]
    values = [data.draw(value_strategy(h, changed)) for h in template.holes]
    pattern = compile_pattern(template.pattern())
    assert pattern.fullmatch(template.render(values))

    # Every literal copy of `changed` is required and no value prints it, so one fewer
    # in the message can never match.
    replacement = "\x00" if changed != "\x00" else "\x01"
    mutated = Literal(target.text[:char_index] + replacement + target.text[char_index + 1 :])
    parts: tuple[Part, ...] = (
        *template.parts[:part_index], mutated, *template.parts[part_index + 1 :]
    )
    assert not pattern.fullmatch(Template(template.written, parts).render(values))


BRANCHED = '''
class HTTPError(Exception):
    pass


class Response:
    def __init__(self, status_code, reason, url):
        self.status_code, self.reason, self.url = status_code, reason, url

    def raise_for_status(self):
        http_error_msg = ""
        if 400 <= self.status_code < 500:
            http_error_msg = f"{self.status_code} Client Error: {self.reason} for url: {self.url}"
        elif 500 <= self.status_code < 600:
            http_error_msg = f"{self.status_code} Server Error: {self.reason} for url: {self.url}"
        if http_error_msg:
            raise HTTPError(http_error_msg)


def sequential():
    message = "first"
    message = "second"
    raise ValueError(message)
'''


def test_message_variable_set_per_branch_gives_a_site_per_branch() -> None:
    """requests' ``raise_for_status``: one ``raise``, two messages; each runtime message
    fullmatches its own site's pattern. A variable simply reassigned keeps one site."""
    sites = extract(BRANCHED.encode()).sites
    by_line: dict[int, list[Site]] = {}
    for site in sites:
        by_line.setdefault(site.line, []).append(site)
    raised = [s for s in sites if s.error_class == "HTTPError"]
    assert len(raised) == 2 and len({s.line for s in raised}) == 1
    namespace: dict[str, Any] = {}
    exec(compile(BRANCHED, "branched.py", "exec"), namespace)  # the fixture, for real
    for status, reason in ((404, "Not Found"), (503, "Service Unavailable")):
        try:
            namespace["Response"](status, reason, "https://x.test/a").raise_for_status()
        except Exception as exc:
            printed = str(exc)
        matching = [s for s in raised if compile_pattern(s.template.pattern()).fullmatch(printed)]
        assert len(matching) == 1, printed
    assert [s.template.written for s in sites if s.error_class == "ValueError"] == ["second"]

"""JavaScript / TypeScript / TSX sites, checked against what Node really prints.

The golden files under ``fixtures/{javascript,typescript,tsx}`` pin every site the
fixtures yield. Here the messages Node 20 printed when ``fixtures/javascript/store.js``
was run (and what ``util.format`` printed for each conversion) are kept as data, so
the suite needs no Node: each must fullmatch the pattern of its site, and a near miss
must not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.languages import language_for_path
from errdex.languages.base import Site
from errdex.languages.javascript import LANGUAGES
from errdex.templates.template import compile_pattern

FIXTURES = Path(__file__).parent / "fixtures"
JS, TS, TSX = LANGUAGES


def _sites(source: str, language=JS) -> list[Site]:
    return language.extract(source.encode()).sites


def _only(source: str, language=JS) -> Site:
    sites = _sites(source, language)
    assert len(sites) == 1, sites
    return sites[0]


def _matches(site: Site, message: str) -> bool:
    return compile_pattern(site.template.pattern()).fullmatch(message) is not None


# --- real messages from running fixtures/javascript/store.js under Node 20 ---------------

# (line, message Node printed, err.code, err.status, constructor name)
STORE_RUNTIME = [
    (30, "store path must be given", None, None, "TypeError"),
    (33, "store path must be a string, got number", None, None, "TypeError"),
    (47, "no item with key user:7", "ERR_NOT_FOUND", 404, "NotFoundError"),
    (54, "store /var/db is read-only", "ERR_READ_ONLY", None, "ReadOnlyError"),
    (57, "store is full: 3 items (limit 3)", "ERR_STORE", None, "QuotaError"),
    (65, "cannot remove c: item is locked", "ERR_LOCKED", None, "StoreError"),
    (79, "invalid store file (expected JSON)", None, None, "SyntaxError"),
    (84, "compaction is not supported", "ERR_UNSUPPORTED", None, "Error"),
    (88, "flush of /var/db failed", None, None, "Error"),
    (93, "sync timed out after 5ms", None, None, "Error"),
    (99, "store already closed", None, None, "Error"),
    (108, "corrupt record in /var/db/items.log at offset 4096", None, None, None),
    (108, "corrupt record in /var/db/items.log at offset 12.5", None, None, None),
    (112, "slow operation: 1500ms", None, None, None),
    (116, "fatal: Error: disk gone\n    at Object.<anonymous> (/tmp/run_store.js:23:7)\n"
          "    at node:internal/main/run_main_module:28:49", None, None, None),
    # process.on('warning') gave (name, code, message)
    (121, "cache dir /var/cache/store is not writable", "STORE_CACHE_RO", None, "CacheWarning"),
    (124, "openLegacy() is deprecated, use openStore()", "DEP_STORE_0001", None,
     "DeprecationWarning"),
]


@pytest.fixture(scope="module")
def store_sites() -> dict[int, Site]:
    sites = JS.extract((FIXTURES / "javascript" / "store.js").read_bytes()).sites
    return {site.line: site for site in sites}


@pytest.mark.parametrize(("line", "message", "code", "status", "cls"), STORE_RUNTIME)
def test_store_messages_match_what_node_printed(store_sites, line, message, code, status, cls):
    site = store_sites[line]
    assert _matches(site, message)
    assert not _matches(site, message[1:])
    assert not _matches(site, "X" + message)
    assert site.error_code == code
    assert site.http_status == status
    if cls is not None:
        assert site.error_class == cls


def test_store_site_kinds(store_sites):
    assert store_sites[99].error_type == "error"  # callback(new Error(...))
    assert store_sites[112].severity == "warning"
    assert store_sites[116].severity == "fatal"  # followed by process.exit(2)
    assert {store_sites[121].error_type, store_sites[124].error_type} == {"warning"}
    assert {s.error_type for line, s in store_sites.items() if line < 99} == {"exception"}


# --- util.format, as Node 20 prints it -----------------------------------------------------

# (format, argument source, what util.format(format, value) printed)
FORMAT_RUNTIME = [
    ("%d items", "n", "1.5 items"),
    ("%d items", "n", "NaN items"),
    ("%d items", "n", "10n items"),
    ("%d items", "n", "1e+21 items"),
    ("%i items", "n", "2 items"),
    ("%i items", "n", "NaN items"),
    ("%f ratio", "r", "1000 ratio"),
    ("%f ratio", "r", "-Infinity ratio"),
    ("%cstyled %s", "css, x", "styled x"),
    ("%5d is kept", "n", "%5d is kept 3"),
    ("%% done %s", "what", "% done a"),
    ("%s and %s", "what", "one and %s"),
    ("%j body", "body", '{"a":[1,2]} body'),
]


@pytest.mark.parametrize(("fmt", "args", "printed"), FORMAT_RUNTIME)
def test_util_format_matches_node(fmt, args, printed):
    site = _only(f"function f(n, r, css, x, what, body) {{\n"
                 f"  throw new Error(util.format('{fmt}', {args}));\n}}\n")
    assert _matches(site, printed), site.template.pattern()


def test_util_format_typed_holes_reject_text():
    site = _only("function f(n) { throw new Error(util.format('%i items', n)); }")
    assert not _matches(site, "many items")


def test_console_error_appends_leftover_arguments():
    site = _only("function f(a) { console.error('extra', a, { b: 1 }); }")
    assert site.template.written == "extra ${a} ${{ b: 1 }}"
    assert _matches(site, "extra a { b: 1 }")  # what Node printed


def test_format_imported_from_util():
    source = "import { format as fmt } from 'node:util';\n" \
             "export function f(v) { throw new TypeError(fmt('bad value %d', v)); }\n"
    assert _only(source).template.pattern() == r"bad value (" + (
        r"-?(?:\d+(?:\.\d+)?(?:e[-+]\d+)?|Infinity)|NaN|-?\d+n)"
    )
    unrelated = "import { format } from 'date-fns';\nfunction f(d) { throw new Error(format(d)); }"
    assert _sites(unrelated) == []


# --- what is and is not a site ----------------------------------------------------------


@pytest.mark.parametrize("source", [
    "throw new TypeError();",  # Node prints the bare class name
    "function f(err) { throw err; }",  # the caller's error
    "try { g() } catch (e) { throw e; }",
    "function f(err) { throw new Error(err.message); }",  # only a value
    "function f(x) { throw new Error(`${x}`); }",
    "function f(x) { throw new Error(tag`bad ${x}`); }",  # a tag decides what prints
    "function f(a, b) { throw new Error(a + b); }",  # maybe arithmetic
    "const x = new Map([['a', 1]]);",  # not an error
    "res.status(200).send('ok');",  # success
    "console.error(err);",
    "process.exit(1);",
])
def test_not_a_site(source):
    assert _sites(source) == []


def test_throw_without_new_and_error_variable_with_code():
    sites = _sites(
        "function f(name) {\n"
        "  const err = new Error('unknown command ' + name);\n"
        "  err.code = 'ERR_UNKNOWN_COMMAND';\n"
        "  if (name) throw err;\n"
        "  throw Error(\"no command\");\n"
        "}\n"
    )
    assert [(s.line, s.template.written, s.error_code, s.error_class) for s in sites] == [
        (2, "unknown command ${name}", "ERR_UNKNOWN_COMMAND", "Error"),
        (5, "no command", None, "Error"),
    ]


def test_subclass_passing_code_and_message_to_parent():
    sites = _sites(
        "class AppError extends Error {\n"
        "  constructor(message, code) { super(message); this.code = code; }\n"
        "}\n"
        "class ConfigError extends AppError {\n"
        "  constructor(key) { super(`missing config key ${key}`, 'ERR_CONFIG'); }\n"
        "}\n"
        "function load(cfg) { if (!cfg.port) throw new ConfigError('port'); }\n"
    )
    # the class's own site (for throws in other files), then the throw here
    assert [(s.line, s.template.written) for s in sites] == [
        (5, "missing config key ${key}"), (7, "missing config key port"),
    ]
    site = sites[1]
    assert (site.template.written, site.error_class, site.error_code, site.symbol) == (
        "missing config key port", "ConfigError", "ERR_CONFIG", "load",
    )


def test_reject_only_inside_a_promise_executor():
    sites = _sites(
        "const a = new Promise(function (resolve, reject) { reject(new Error('a failed')); });\n"
        "function b(reject) { reject(new Error('b failed')); }\n"
    )
    assert [(s.template.written, s.error_type) for s in sites] == [
        ("a failed", "exception"), ("b failed", "error"),
    ]


def test_http_forms():
    sites = _sites(
        "app.use((req, res) => res.status(404).send(`no route ${req.path}`));\n"
        "reply.code(503).send({ message: 'maintenance' });\n"
        "throw createError.NotFound('gone');\n"
        "throw createError(400);\n"  # no message
    )
    assert [(s.template.written, s.http_status, s.error_type) for s in sites] == [
        ("no route ${req.path}", 404, "http"), ("maintenance", 503, "http"),
        ("gone", 404, "http"),
    ]


def test_logger_messages():
    sites = _sites(
        "logger.error({ err }, 'job %s failed', job.id);\n"
        "this.log.warn('retrying in ' + delay + 'ms');\n"
        "console.log('not an error');\n"
    )
    assert [(s.template.written, s.severity) for s in sites if not s.is_log_statement()] == [
        ("job %s failed", "error"), ("retrying in ${delay}ms", "warning"),
    ]
    # console.log is an info log statement now: scan-only, never a record
    assert [(s.template.written, s.level) for s in sites if s.is_log_statement()] == [
        ("not an error", "info")]


def test_string_escapes_and_line_continuations():
    site = _only("throw new Error('tab\\there \\x41\\u{1F600} \\'q\\' a\\\nb');")
    assert site.template.written == "tab\there A\U0001F600 'q' ab"


def test_typescript_wrappers_and_symbols():
    site = _only(
        "namespace Billing {\n"
        "  export class Ledger {\n"
        "    close = (): never => { throw new Error((`ledger closed` as string)!); };\n"
        "  }\n"
        "}\n",
        TS,
    )
    assert (site.template.written, site.symbol) == ("ledger closed", "Ledger.close")


def test_prototype_method_symbol():
    site = _only("Store.prototype.open = function () { throw new Error('closed'); };")
    assert site.symbol == "Store.open"


def test_parse_errors_are_reported_and_broken_code_skipped():
    result = JS.extract(b"function f( { throw new Error('x') \nthrow new Error('fine');\n")
    assert result.parse_errors
    assert all(s.template.written != "x" for s in result.sites)


@pytest.mark.parametrize(("path", "name"), [
    ("a.js", "javascript"), ("a.mjs", "javascript"), ("a.cjs", "javascript"),
    ("a.jsx", "javascript"), ("a.ts", "typescript"), ("a.mts", "typescript"),
    ("a.cts", "typescript"), ("a.tsx", "tsx"),
])
def test_extensions_are_registered(path, name):
    language = language_for_path(path)
    assert language is not None and language.name == name


def test_tsx_fixture_parses_cleanly():
    result = TSX.extract((FIXTURES / "tsx" / "InvoiceTable.tsx").read_bytes())
    assert not result.parse_errors
    fetch = next(s for s in result.sites if s.error_class == "FetchError")
    assert _matches(fetch, "request to /api/customers/c42/invoices failed with status 502")


def test_class_definition_is_a_site_for_throws_elsewhere():
    site = _only(
        "export class JwtTokenExpired extends Error {\n"
        "  constructor(token) {\n"
        "    super(`token (${token}) expired`);\n"
        "    this.name = 'JwtTokenExpired';\n"
        "  }\n"
        "}\n"
    )
    assert (site.line, site.error_class, site.symbol) == (3, "JwtTokenExpired",
                                                          "JwtTokenExpired.constructor")
    assert _matches(site, "token (abc.def) expired")


def test_foreign_class_codes_and_statuses():
    sites = _sites(
        "function f(opt) {\n"
        "  throw new AxiosError('option ' + opt + ' is unknown', AxiosError.ERR_BAD_OPTION);\n"
        "}\n"
        "function g() { throw new HTTPException(401, { message: 'no token' }); }\n"
        "function h() { throw new HttpException('gone for good', 410); }\n"
    )
    assert [(s.error_code, s.http_status, s.template.written) for s in sites] == [
        ("ERR_BAD_OPTION", None, "option ${opt} is unknown"),
        (None, 401, "no token"),
        (None, 410, "gone for good"),
    ]


def test_error_factory_and_ternary_holes():
    site = _only(
        "function f(n) { throw rangeError(`${n > 0 ? 'too many' : 'too few'} items`); }"
    )
    assert site.error_class is None
    assert _matches(site, "too many items") and _matches(site, "too few items")
    assert not _matches(site, "some items")


def test_emit_warning_with_options_object():
    site = _only(
        "process.emitWarning('legacy config format', { type: 'ConfigWarning', code: 'CFG01' });"
    )
    assert (site.error_type, site.error_class, site.error_code, site.severity) == (
        "warning", "ConfigWarning", "CFG01", "warning",
    )


def test_a_create_error_of_the_repository_is_no_http_errors_factory():
    package = _only(
        "const createError = require('http-errors');\n"
        "throw createError(404, 'no such page');\n")
    assert (package.error_type, package.http_status) == ("http", 404)
    for head in ("const createError = require('./core/createError');\n",
                 "function createError(message, code) { return new Error(message); }\n"):
        site = _sites(head + "reject(createError('the queue is closed', config, 'E_CLOSED'));\n")
        assert [(s.error_type, s.http_status, s.call is not None) for s in site] == [
            ("error", None, True)]


# ``throw converted`` throws the caught error unless the branch made a new one: the site of
# the new one's message is where it is made (where Node takes the stack: ``const err = new
# Error('gone away')`` on line 2, thrown on line 4, is ``at f (st.js:2:15)`` in Node 20).
# Node 20 printed (constructor name, message):
# ["PoolTimeoutError", "Timeout acquiring a connection. The pool is probably full."]
CONVERTED = """\
async function acquire(pool) {
  try {
    return await pool.acquire();
  } catch (error) {
    let converted = error;
    if (error instanceof TimeoutError) {
      converted = new PoolTimeoutError(
        'Timeout acquiring a connection. ' +
          'The pool is probably full.'
      );
      converted.cause = error;
    }
    throw converted;
  }
}
"""


def test_an_error_thrown_from_a_variable_is_sited_where_it_is_made():
    site = _only(CONVERTED)
    assert (site.line, site.error_class) == (7, "PoolTimeoutError")
    assert _matches(site, "Timeout acquiring a connection. The pool is probably full.")
    plain = _only("function f() {\n  const err = new Error('gone away');\n  err.code = 'E';\n"
                  "  throw err;\n}\n")
    assert plain.line == 2  # the stack's line, not the throw's


def test_a_hole_written_over_lines_is_named_on_one_line():
    site = _only("throw new Error(`no import \"${url}\" from \"${normalize(\n"
                 "  relative(root, file),\n)}\". Does it exist?`);\n")
    assert site.template.written == (
        'no import "${url}" from "${normalize( relative(root, file), )}". Does it exist?')
    assert _matches(site, 'no import "./a" from "src/b.ts". Does it exist?')


# Node 20 printed [name, code, message] for the first two asserts failing:
# ["AssertionError","ERR_ASSERTION","fn must be a function"]
# ["AssertionError","ERR_ASSERTION","expected three, got 4"]
ASSERTS = """\
const assert = require('assert');
const { strict } = require('node:assert');
const check = require('./check');

function use(fn, n) {
  assert(typeof fn === 'function', 'fn must be a function');
  assert.equal(n, 3, `expected three, got ${n}`);
  strict.ok(n, 'n is required');
  assert.ok(n);
}
"""


def test_node_assert_messages_are_assertion_errors():
    sites = _sites(ASSERTS)
    assert [(s.line, s.template.written, s.error_class, s.error_code) for s in sites] == [
        (6, "fn must be a function", "AssertionError", "ERR_ASSERTION"),
        (7, "expected three, got ${n}", "AssertionError", "ERR_ASSERTION"),
        (8, "n is required", "AssertionError", "ERR_ASSERTION"),
    ]
    assert _matches(sites[1], "expected three, got 4")
    own = _sites("const assert = require('./assert');\nassert(x, 'x is required here');\n")
    assert all(s.error_class != "AssertionError" for s in own)  # the repository's helper


def test_a_template_substitution_of_a_known_variable_is_its_text():
    # Node 20 printed the message's first three lines as "Pool: run" /
    # "$ npm install no-such-package-xyz --save" / "Cannot find module 'no-such-package-xyz'"
    site = _only(
        "function init(packageName) {\n"
        "  try {\n"
        "    require(packageName);\n"
        "  } catch (e) {\n"
        "    const message = `Pool: run\\n$ npm install ${packageName} --save`;\n"
        "    throw new Error(`${message}\\n${e.message}`);\n"
        "  }\n"
        "}\n")
    assert site.template.written == "Pool: run\n$ npm install ${packageName} --save\n${e.message}"
    assert _matches(site, "Pool: run\n$ npm install no-such-package-xyz --save\n"
                          "Cannot find module 'no-such-package-xyz'")


def test_an_error_made_by_a_maker_and_passed_on_is_a_site_one_shown_is_not():
    sites = _sites(
        "const makeError = require('./make');\n"
        "function f(cb, form) {\n"
        "  cb(makeError('the queue is closed', 'E_CLOSED'));\n"
        "  form.setError('Invalid email address');\n"
        "  render(showError('Something went wrong'));\n"
        "}\n")
    assert [(s.line, s.template.written, s.error_type) for s in sites] == [
        (3, "the queue is closed", "error")]

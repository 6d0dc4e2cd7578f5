"""Composed messages in JavaScript/TypeScript: error classes, factories, helpers and
constants written in one file, thrown in another, mined through the public API. Where
node is installed the JavaScript raises run, and the mined patterns must fullmatch what
they print."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import errdex
from errdex.records.stored import StoredRecord
from errdex.templates.template import compile_pattern
from tests.compose_steps import classes, messages, missing, source_roles
from tests.compose_steps import one_record_at as one
from tests.compose_steps import records_at as at

ERRORS_JS = """\
class StoreError extends Error {
  constructor(message) {
    super(message);
    this.name = 'StoreError';
  }
}

class NotFound extends StoreError {
  constructor(key) {
    super(`no such item: ${key}`);
    this.key = key;
  }
}

class Timeout extends StoreError {
  constructor(ms, op = 'read') {
    super(`${op} timed out after ${ms}ms`);
  }
}

class Conflict extends StoreError {
  constructor(key, version) {
    super('conflict');
    this.key = key;
    this.message = `version ${version} of ${this.key} is stale`;
  }
}

class Quiet extends NotFound {}

class ValidationError extends Error {
  constructor(field, count) {
    super();
    this.field = field;
    this.count = count;
  }
  get message() {
    if (this.count > 1) return `${this.count} problems with ${this.field}`;
    return `a problem with ${this.field}`;
  }
}

function DiskError(message) {
  Error.call(this);
  this.message = 'disk: ' + message;
}
DiskError.prototype = Object.create(Error.prototype);

class ParseError extends Error {}

const Errors = {
  create(id, what) {
    return new ParseError('[parse_error.' + id + '] ' + what);
  },
  NOT_READY: 'store is not ready yet',
};

const MSG_LOCKED = 'the store is locked';

function fail(msg) {
  throw new StoreError('[store] ' + msg);
}

function warn(msg) {
  console.warn('[WARNING] ' + msg);
}

function notFoundMessage(key) {
  return `nothing stored under ${key}`;
}

module.exports = {
  StoreError, NotFound, Timeout, Conflict, Quiet, ValidationError, DiskError, ParseError,
  Errors, MSG_LOCKED, fail, warn, notFoundMessage,
};
"""

HTTP_JS = """\
const { NotFound, StoreError } = require('./errors');

function Store() {}

Store.prototype.fail = function (what) {
  throw new StoreError(`store: ${what}`);
};

Store.prototype.get = function (key) {
  this.fail(`no key ${key}`);
};

function trimmed(key) {
  if (!key) throw new NotFound(key);
  return key.trim();
}

Store.prototype.peek = function () {
  trimmed('front shelf item');
};

module.exports = {
  Store,
  missing(key) {
    return new NotFound(`${key} (http)`);
  },
};
"""

CODES_JS = """\
const { format } = require('util');

function createError(code, message) {
  return class extends Error {
    constructor(...args) {
      super(format(message, ...args));
      this.code = code;
    }
  };
}

module.exports = {
  E_NO_ROUTE: createError('E_NO_ROUTE', "no route for '%s' with method %s"),
};
"""

SHELF_JS = """\
class Shelf {
  constructor(name) {
    this.name = name;
  }

  get label() {
    return this.full ? 'full shelf' : 'empty shelf';
  }

  describe() {
    return `shelf ${this.name}`;
  }

  open() {
    throw new Error(`cannot open ${this.describe()}`);
  }

  close() {
    throw new Error(`cannot close the ${this.label}`);
  }
}

module.exports = { Shelf };
"""

STORE_JS = """\
const {
  NotFound, Timeout, Conflict, Quiet, ValidationError, DiskError, Errors, MSG_LOCKED, fail,
  warn, notFoundMessage,
} = require('./errors');
const http = require('./http');
const codes = require('./codes');
const { Shelf } = require('./shelf');

function get(key) {
  throw new NotFound(key);
}

function getAgain(key) {
  throw new NotFound(key);
}

function getLater(key) {
  return Promise.reject(new NotFound(key));
}

function wait(ms) {
  throw new Timeout(ms);
}

function put(key, version) {
  throw new Conflict(key, version);
}

function quiet(key) {
  throw new Quiet(key);
}

function invalid(field, count) {
  throw new ValidationError(field, count);
}

function disk(what) {
  throw new DiskError(what);
}

function parse(id, tok) {
  throw Errors.create(id, `Unexpected token ${tok}`);
}

function check() {
  fail('no config found');
}

function nearlyFull() {
  warn('disk almost full');
}

function lookup(key) {
  throw new Error(notFoundMessage(key));
}

function locked() {
  throw new Error(MSG_LOCKED);
}

function notReady() {
  throw new Error(Errors.NOT_READY);
}

function many(n) {
  const msg = n ? 'too many: ' + n : 'none left';
  throw new NotFound(msg);
}

function choose(kind) {
  let what;
  if (kind === 1) {
    what = 'first shelf';
  } else {
    what = `shelf ${kind}`;
  }
  throw new NotFound(what);
}

function missing(key) {
  throw http.missing(key);
}

function viaPrototype(key) {
  new http.Store().get(key);
}

function route(path) {
  throw new codes.E_NO_ROUTE(path, 'GET');
}

function openShelf(name) {
  new Shelf(name).open();
}

function closeShelf() {
  new Shelf('b').close();
}

function mystery(x) {
  throw new Mystery(x);
}

function shout() {
  announce('hello there friend');
}

module.exports = {
  get, getAgain, getLater, wait, put, quiet, invalid, disk, parse, check, nearlyFull, lookup,
  locked, notReady, many, choose, missing, viaPrototype, route, openShelf, closeShelf,
};
"""

WEB_JS = """\
const { HttpError } = require('http-errors');

class Gone extends HttpError {
  constructor(what) {
    super(410, `${what} is gone`);
  }
}

function gone(what) {
  return new HttpError(410, `${what} was removed`);
}

function fresh(what) {
  throw new Gone(what);
}

module.exports = { Gone, gone, fresh };
"""

PAGES_JS = """\
const { Gone, gone } = require('./web');

function page(key) {
  throw new Gone(key);
}

function removed(key) {
  throw gone(key);
}
"""

CYCLE_JS = """\
class Ping extends Pong {
  constructor(x) { super('ping ' + x); }
}
class Pong extends Ping {
  constructor(x) { super('pong ' + x); }
}
function loop(x) {
  throw new Ping(x);
}
"""

ERRORS_TS = """\
export enum Messages {
  Locked = 'the vault is locked',
}

export class VaultError extends Error {
  constructor(message: string, public readonly code?: string) {
    super(message);
  }
}

export class MissingSecret extends VaultError {
  constructor(private readonly path: string) {
    super(`secret ${path} is missing`, 'E_MISSING');
  }
}

export class Sealed extends VaultError {
  constructor(public readonly reason: string) {
    super(`sealed: ${reason}`);
  }
}

export class Busy extends VaultError {
  constructor(message = 'the vault is busy, try again later') {
    super(message);
  }
}

export class ErrorFactory {
  static readonly EXPIRED = 'the lease has expired';

  static denied(user: string, action: string): VaultError {
    return new VaultError(`user ${user} may not ${action}`);
  }
}

export const raise = (what: string): never => {
  throw new VaultError(`vault: ${what}`);
};
"""

VAULT_TS = """\
import { Busy, MissingSecret, ErrorFactory, raise, Messages, Sealed } from './errors';

export class Vault {
  read(path: string): string {
    throw new MissingSecret(path);
  }

  write(user: string): void {
    throw ErrorFactory.denied(user, 'write');
  }

  seal(): void {
    raise('sealing is not supported');
  }

  lock(): void {
    throw new Error(Messages.Locked);
  }

  touch(): void {
    throw new Busy();
  }

  renew(): void {
    throw new Error(ErrorFactory.EXPIRED);
  }

  async unseal(): Promise<void> {
    await raise('unsealing needs a key');
  }

  mount(kind: string): void {
    let why: string;
    switch (kind) {
      case 'kv':
        why = 'kv engine is busy';
        break;
      default:
        why = `unknown engine ${kind}`;
    }
    throw new Sealed(why);
  }

  open(kind: number): void {
    let reason: string;
    if (kind === 1) {
      reason = 'vault already open';
    } else if (kind === 2) {
      reason = `vault opened by ${kind}`;
    } else {
      reason = 'vault cannot open';
    }
    throw new Sealed(reason);
  }
}
"""

FILES = {
    "lib/errors.js": ERRORS_JS, "lib/http.js": HTTP_JS, "lib/codes.js": CODES_JS,
    "lib/shelf.js": SHELF_JS, "lib/store.js": STORE_JS,
    "lib/cycle.js": CYCLE_JS, "lib/web.js": WEB_JS, "lib/pages.js": PAGES_JS,
    "src/errors.ts": ERRORS_TS, "src/vault.ts": VAULT_TS,
}


def line(path: str, marker: str, after: str | None = None) -> int:
    """The 1-based line of ``marker`` in a fixture file (the first after ``after``)."""
    lines = FILES[path].splitlines()
    start = next(i for i, t in enumerate(lines) if after in t) if after else 0
    return next(i for i, t in enumerate(lines) if i >= start and marker in t) + 1


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[StoredRecord]]:
    from errdex.store.sqlite import SQLiteStore
    from tests.conftest import GitRepo

    root = tmp_path_factory.mktemp("compose")
    repo = GitRepo(root / "repo", "https://github.com/acme/store.git")
    repo.commit_files(FILES)
    with SQLiteStore(root / "errdex.sqlite") as store:
        errdex.mine(repo.root, db=store, enrich="none")
        return repo.root, list(store.records())


def sources(record: StoredRecord) -> list[tuple[str, int, str]]:
    return source_roles(record.extras)


ERR = "lib/errors.js"
STORE = "lib/store.js"
NOT_FOUND = (ERR, line(ERR, "class NotFound"), "class message")


def test_class_message_through_super_from_another_file(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "throw new NotFound(key)"))
    assert record.record.error_message == "no such item: ${key}"
    assert record.record.message_pattern == "no such item: (.+?)"
    assert record.record.error_class == "NotFound"
    assert sources(record) == [NOT_FOUND]


def test_a_class_raised_from_three_places_shares_its_template(mined):
    _, records = mined
    numbers = [line(STORE, "throw new NotFound(key)"),
               line(STORE, "throw new NotFound(key)", after="function getAgain"),
               line(STORE, "Promise.reject(new NotFound(key))")]
    assert len(set(numbers)) == 3
    found = [one(records, STORE, n) for n in numbers]
    assert {r.record.message_pattern for r in found} == {"no such item: (.+?)"}
    assert classes(found) == {"NotFound"}
    assert all(sources(r) == [NOT_FOUND] for r in found)


def test_default_parameter_fills_the_template(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "throw new Timeout(ms)"))
    assert record.record.error_message == "read timed out after ${ms}ms"
    assert record.record.error_class == "Timeout"
    assert sources(record) == [(ERR, line(ERR, "class Timeout"), "class message")]


def test_this_message_over_fields_set_from_parameters(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "throw new Conflict"))
    assert record.record.error_message == "version ${version} of ${key} is stale"
    assert record.record.message_pattern == "version (.+?) of (.+?) is stale"
    assert sources(record) == [(ERR, line(ERR, "class Conflict"), "class message")]


def test_class_without_constructor_takes_its_base(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "throw new Quiet(key)"))
    assert record.record.error_message == "no such item: ${key}"
    assert record.record.error_class == "Quiet"
    assert sources(record) == [NOT_FOUND]


def test_message_getter_over_fields_set_from_parameters(mined):
    _, records = mined
    found = at(records, STORE, line(STORE, "throw new ValidationError"))
    assert messages(found) == [
        "${count} problems with ${field}", "a problem with ${field}"]
    assert classes(found) == {"ValidationError"}
    assert all(sources(r) == [(ERR, line(ERR, "class ValidationError"), "class message")]
               for r in found)


def test_function_constructor_sets_this_message(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "throw new DiskError(what)"))
    assert record.record.error_message == "disk: ${what}"
    assert record.record.error_class == "DiskError"
    assert sources(record) == [(ERR, line(ERR, "function DiskError"), "class message")]


def test_factory_on_a_module_object(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "throw Errors.create"))
    assert record.record.error_message == "[parse_error.${id}] Unexpected token ${tok}"
    assert record.record.message_pattern == r"\[parse_error\.(.+?)\] Unexpected token (.+?)"
    assert record.record.error_class == "ParseError"
    assert sources(record) == [(ERR, line(ERR, "create(id, what)"), "factory")]


def test_throwing_helper_called_as_a_statement(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "fail('no config found')"))
    assert record.record.error_message == "[store] no config found"
    assert record.record.message_pattern == r"\[store\] no config found"
    assert record.record.error_class == "StoreError"
    assert sources(record) == [(ERR, line(ERR, "function fail"), "helper")]


def test_logging_helper(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "warn('disk almost full')"))
    assert record.record.error_message == "[WARNING] disk almost full"
    assert record.record.error_type == "log"
    assert record.record.severity == "warning"
    assert sources(record) == [(ERR, line(ERR, "function warn"), "helper")]


def test_message_from_a_string_factory(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "notFoundMessage(key))"))
    assert record.record.error_message == "nothing stored under ${key}"
    assert record.record.error_class == "Error"
    assert sources(record) == [(ERR, line(ERR, "function notFoundMessage"), "factory")]


def test_factory_in_module_exports_builds_a_class_of_a_third_file(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "throw http.missing(key)"))
    assert record.record.error_message == "no such item: ${key} (http)"
    assert record.record.error_class == "NotFound"
    assert sources(record) == [NOT_FOUND,
                               ("lib/http.js", line("lib/http.js", "missing(key)"), "factory")]


def test_prototype_method_helper_through_this(mined):
    _, records = mined
    record = one(records, "lib/http.js", line("lib/http.js", "this.fail("))
    assert record.record.error_message == "store: no key ${key}"
    assert record.record.error_class == "StoreError"
    assert sources(record) == [
        ("lib/http.js", line("lib/http.js", "Store.prototype.fail"), "helper")]


def test_class_made_by_an_error_factory_formats_its_arguments(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "throw new codes.E_NO_ROUTE"))
    assert record.record.message_pattern == "no route for '(.+?)' with method GET"
    assert record.record.error_class == "codes.E_NO_ROUTE"
    assert sources(record) == [("lib/codes.js", line("lib/codes.js", "E_NO_ROUTE:"),
                                "class message")]


def test_message_methods_and_getters_of_the_class(mined):
    _, records = mined
    shelf = "lib/shelf.js"
    record = one(records, shelf, line(shelf, "cannot open"))
    assert record.record.error_message == "cannot open shelf ${this.name}"
    assert sources(record) == [(shelf, line(shelf, "describe()"), "message")]
    found = at(records, shelf, line(shelf, "cannot close"))
    assert messages(found) == [
        "cannot close the empty shelf", "cannot close the full shelf"]


def test_message_constants_from_another_file(mined):
    _, records = mined
    record = one(records, STORE, line(STORE, "new Error(MSG_LOCKED)"))
    assert record.record.error_message == "the store is locked"
    assert sources(record) == [(ERR, line(ERR, "const MSG_LOCKED"), "constant")]
    record = one(records, STORE, line(STORE, "new Error(Errors.NOT_READY)"))
    assert record.record.error_message == "store is not ready yet"
    assert sources(record) == [(ERR, line(ERR, "NOT_READY:"), "constant")]


def test_ternary_argument_gives_one_record_per_branch(mined):
    _, records = mined
    found = at(records, STORE, line(STORE, "throw new NotFound(msg)"))
    assert messages(found) == [
        "no such item: none left", "no such item: too many: ${n}"]
    assert all(sources(r) == [NOT_FOUND] for r in found)
    assert len({r.record.id for r in found}) == 2


def test_if_else_assigned_argument_gives_one_record_per_branch(mined):
    _, records = mined
    found = at(records, STORE, line(STORE, "throw new NotFound(what)"))
    assert messages(found) == [
        "no such item: first shelf", "no such item: shelf ${kind}"]


def test_unresolved_candidates_give_no_record(mined):
    _, records = mined
    assert at(records, STORE, line(STORE, "throw new Mystery(x)")) == []
    assert at(records, STORE, line(STORE, "announce(")) == []
    # trimmed() returns a value and throws only without one: no helper of its callers
    assert at(records, "lib/http.js", line("lib/http.js", "trimmed('front")) == []


def test_constructor_cycle_terminates(mined):
    _, records = mined
    found = at(records, "lib/cycle.js", line("lib/cycle.js", "throw new Ping(x)"))
    assert [r.record.error_class for r in found] == ["Ping"]
    assert found[0].record.error_message.endswith("ping ${x}")  # the cycle cut at Ping


def test_a_package_base_prints_the_argument_after_the_status(mined):
    _, records = mined
    gone = ("lib/web.js", line("lib/web.js", "class Gone"), "class message")
    record = one(records, "lib/pages.js", line("lib/pages.js", "throw new Gone(key)"))
    assert record.record.error_message == "${key} is gone"
    assert record.record.error_class == "Gone"
    assert sources(record) == [gone]
    record = one(records, "lib/pages.js", line("lib/pages.js", "throw gone(key)"))
    assert record.record.error_message == "${key} was removed"
    assert record.record.error_class == "HttpError"
    assert sources(record) == [("lib/web.js", line("lib/web.js", "function gone"), "factory")]
    record = one(records, "lib/web.js", line("lib/web.js", "throw new Gone(what)"))
    assert record.record.error_message == "${what} is gone"
    assert record.record.http_status == 410


# --- TypeScript --------------------------------------------------------------------------

TS_ERR = "src/errors.ts"
VAULT = "src/vault.ts"


def test_typescript_parameter_property_class(mined):
    _, records = mined
    record = one(records, VAULT, line(VAULT, "throw new MissingSecret(path)"))
    assert record.record.error_message == "secret ${path} is missing"
    assert record.record.error_class == "MissingSecret"
    assert sources(record) == [(TS_ERR, line(TS_ERR, "class MissingSecret"), "class message")]


def test_typescript_static_factory(mined):
    _, records = mined
    record = one(records, VAULT, line(VAULT, "throw ErrorFactory.denied"))
    assert record.record.error_message == "user ${user} may not write"
    assert record.record.message_pattern == "user (.+?) may not write"
    assert record.record.error_class == "VaultError"
    assert sources(record) == [(TS_ERR, line(TS_ERR, "static denied"), "factory")]


def test_typescript_arrow_helper(mined):
    _, records = mined
    record = one(records, VAULT, line(VAULT, "raise('sealing"))
    assert record.record.error_message == "vault: sealing is not supported"
    assert record.record.error_class == "VaultError"
    assert sources(record) == [(TS_ERR, line(TS_ERR, "export const raise"), "helper")]


def test_typescript_enum_constant(mined):
    _, records = mined
    record = one(records, VAULT, line(VAULT, "Messages.Locked"))
    assert record.record.error_message == "the vault is locked"
    assert sources(record) == [(TS_ERR, line(TS_ERR, "Locked ="), "constant")]


def test_typescript_static_field_constant_and_awaited_helper(mined):
    _, records = mined
    record = one(records, VAULT, line(VAULT, "ErrorFactory.EXPIRED"))
    assert record.record.error_message == "the lease has expired"
    assert sources(record) == [(TS_ERR, line(TS_ERR, "static readonly EXPIRED"), "constant")]
    record = one(records, VAULT, line(VAULT, "await raise("))
    assert record.record.error_message == "vault: unsealing needs a key"


def test_typescript_default_message_when_none_is_passed(mined):
    _, records = mined
    record = one(records, VAULT, line(VAULT, "throw new Busy()"))
    assert record.record.error_message == "the vault is busy, try again later"
    assert record.record.error_class == "Busy"
    assert sources(record) == [(TS_ERR, line(TS_ERR, "class Busy"), "class message")]


def test_typescript_switch_assigned_argument(mined):
    _, records = mined
    found = at(records, VAULT, line(VAULT, "throw new Sealed(why)"))
    assert messages(found) == [
        "sealed: kv engine is busy", "sealed: unknown engine ${kind}"]


def test_typescript_else_if_chain_is_three_records(mined):
    _, records = mined
    found = at(records, VAULT, line(VAULT, "throw new Sealed(reason)"))
    assert messages(found) == [
        "sealed: vault already open", "sealed: vault cannot open",
        "sealed: vault opened by ${kind}"]
    assert classes(found) == {"Sealed"}
    assert all(sources(r) == [(TS_ERR, line(TS_ERR, "class Sealed"), "class message")]
               for r in found)


# --- what node prints ----------------------------------------------------------------------

RUNNER = """\
const store = require(process.argv[2]);
const warned = [];
console.warn = (...args) => warned.push(args.join(' '));
const calls = JSON.parse(process.argv[3]);
const out = {};
(async () => {
  for (const [name, args] of calls) {
    try {
      await store[name](...args);
      out[name] = warned.pop();
    } catch (err) {
      out[name] = err.message;
    }
  }
  process.stdout.write(JSON.stringify(out));
})();
"""

# function → (arguments, the statement its message is mined at[, in which file])
RUNS: dict[str, tuple[list[object], str] | tuple[list[object], str, str]] = {
    "get": (["shelf"], "throw new NotFound(key)"),
    "getLater": (["crate"], "Promise.reject(new NotFound(key))"),
    "wait": ([250], "throw new Timeout(ms)"),
    "put": (["k1", 3], "throw new Conflict"),
    "quiet": (["q"], "throw new Quiet(key)"),
    "invalid": (["name", 3], "throw new ValidationError"),
    "disk": (["full"], "throw new DiskError(what)"),
    "parse": ([7, "}"], "throw Errors.create"),
    "check": ([], "fail('no config found')"),
    "nearlyFull": ([], "warn('disk almost full')"),
    "lookup": (["box"], "notFoundMessage(key))"),
    "locked": ([], "new Error(MSG_LOCKED)"),
    "notReady": ([], "new Error(Errors.NOT_READY)"),
    "many": ([3], "throw new NotFound(msg)"),
    "choose": ([1], "throw new NotFound(what)"),
    "missing": (["page"], "throw http.missing(key)"),
    "route": (["/users"], "throw new codes.E_NO_ROUTE"),
    "openShelf": (["a"], "cannot open", "lib/shelf.js"),
    "closeShelf": ([], "cannot close", "lib/shelf.js"),
}


@pytest.mark.skipif(missing("node"), reason="node is not installed")
def test_mined_patterns_match_what_node_prints(mined, tmp_path):
    root, records = mined
    runner = tmp_path / "run.js"
    runner.write_text(RUNNER, encoding="utf-8")
    calls = [[name, run[0]] for name, run in RUNS.items()]
    done = subprocess.run(["node", str(runner), str(root / STORE), json.dumps(calls)],
                          capture_output=True, text=True, check=True, timeout=60)
    printed = json.loads(done.stdout)
    for name, (_, marker, *where) in RUNS.items():
        path = where[0] if where else STORE
        patterns = [r.record.message_pattern for r in at(records, path, line(path, marker))]
        assert patterns, name
        assert any(compile_pattern(p).fullmatch(printed[name]) for p in patterns), (
            name, printed[name], patterns)


def test_changing_a_class_recomposes_its_callers_on_an_incremental_mine(make_repo, store):
    repo = make_repo()
    repo.commit_files({"lib/errors.js": ERRORS_JS, "lib/http.js": HTTP_JS,
                       "lib/store.js": STORE_JS})
    errdex.mine(repo.root, db=store, enrich="none")
    repo.commit_files({"lib/errors.js": ERRORS_JS.replace("no such item: ${key}",
                                                          "nothing under ${key}")})
    summary = errdex.mine(repo.root, db=store, enrich="none")
    assert summary.incremental
    records = list(store.records())
    record = one(records, STORE, line(STORE, "throw new NotFound(key)"))
    assert record.record.error_message == "nothing under ${key}"
    assert sources(record) == [NOT_FOUND]


# --- a helper that builds the error and hands it to a decorator ---------------------------

MAKE_ERROR_JS = """\
'use strict';

var decorate = require('./decorate');

module.exports = function createError(message, options, code, job) {
  var error = new Error(message);
  return decorate(error, options, code, job);
};
"""

DECORATE_JS = """\
'use strict';

module.exports = function decorate(error, options, code, job) {
  error.options = options;
  if (code) {
    error.code = code;
  }
  error.job = job;
  return error;
};
"""

QUEUE_JS = """\
'use strict';

var createError = require('./core/createError');

module.exports = function enqueue(options) {
  return new Promise(function run(resolve, rejectPromise) {
    var fail = function fail(value) {
      rejectPromise(value);
    };
    var job = { id: options.id };
    if (options.gone) {
      return fail(createError('the worker went away', options, 'E_GONE', job));
    }
    if (options.wait < 0) {
      var waitMessage = 'waited ' + options.wait + 'ms for a worker';
      if (options.waitMessage) {
        waitMessage = options.waitMessage;
      }
      rejectPromise(createError(waitMessage, options, 'E_WAIT', job));
      return;
    }
    rejectPromise(createError('queue is closed', options, 'E_CLOSED', job));
  });
};
"""

REPLICAS_JS = """\
'use strict';

function connect(retryDelay, lastError, emit) {
  let errorMsg =
    typeof retryDelay !== 'number'
      ? 'All replicas are unreachable and retry is disabled.'
      : `All replicas are unreachable. Retrying after ${retryDelay}ms.`;

  if (lastError) {
    errorMsg += ` Last error: ${lastError.message}`;
  }

  const error = new Error(errorMsg);
  if (typeof retryDelay === 'number') {
    emit('error', error);
  } else {
    throw error;
  }
}

const plugin = {
  resolveId(id) {
    return this.error(`Failed to resolve "${id}". Does the file exist?`, 12);
  },
};

module.exports = { connect, plugin };
"""

POOL_ERROR_JS = """\
class PoolFailedError extends Error {
  static defaultMessage = 'Failed to refresh the pool.';

  constructor(message, lastNodeError) {
    super(message);
    this.lastNodeError = lastNodeError;
  }
}

module.exports = PoolFailedError;
"""

POOL_JS = """\
const PoolFailedError = require('./errors/PoolFailedError');

module.exports = function refresh(nodes, done) {
  if (nodes.length === 0) {
    const error = new PoolFailedError(
      PoolFailedError.defaultMessage,
      null
    );
    return done(error);
  }
  return done(null);
};
"""

CONFIG_ERROR_JS = """\
class ConfigError extends Error {
  constructor(detail) {
    super(`invalid config: ${detail}`);
  }

  static missing(key) {
    return new this(`missing key ${key}`);
  }
}

module.exports = { ConfigError };
"""

LOAD_JS = """\
const { ConfigError } = require('./errors/config');

module.exports = function load(key) {
  throw ConfigError.missing(key);
};
"""

MESSAGES_JS = """\
module.exports = {
  notFound: (id) => `no record with id ${id}`,
};
"""

STORE_ERROR_JS = """\
class NotFound extends Error {
  constructor(msg) {
    super(`[store] ${msg}`);
  }
}

module.exports = { NotFound };
"""

GET_JS = """\
const messages = require('./messages');
const { NotFound } = require('./errors/store');

module.exports = function get(id) {
  throw new NotFound(messages.notFound(id));
};
"""

SERVICE_JS = """\
class Service {
  fail = (what) => {
    throw new Error(`service failed: ${what}`);
  };

  start() {
    this.fail('cannot bind the port');
  }
}

module.exports = { Service };
"""

DEFAULTS_JS = """\
class Defaulted extends Error {
  constructor(message) {
    super(message ?? 'the default text of defaulted');
  }
}

function quiet() {
  throw new Defaulted();
}

function loud(what) {
  throw new Defaulted(`loud ${what}`);
}

function revive(e) {
  throw new Error(e.message || 'Unknown invoke error');
}

module.exports = { quiet, loud, revive };
"""

QUEUE_FILES = {"lib/core/createError.js": MAKE_ERROR_JS, "lib/core/decorate.js": DECORATE_JS,
               "lib/queue.js": QUEUE_JS, "lib/replicas.js": REPLICAS_JS,
               "lib/errors/PoolFailedError.js": POOL_ERROR_JS, "lib/pool.js": POOL_JS,
               "lib/errors/config.js": CONFIG_ERROR_JS, "lib/load.js": LOAD_JS,
               "lib/messages.js": MESSAGES_JS, "lib/errors/store.js": STORE_ERROR_JS,
               "lib/get.js": GET_JS, "lib/service.js": SERVICE_JS, "lib/defaults.js": DEFAULTS_JS}
QUEUE = "lib/queue.js"

# options → the line of ``lib/queue.js`` whose record must match what the rejection says
QUEUE_RUNS = [
    ({"wait": -5}, "createError(waitMessage"),
    ({"wait": 1}, "createError('queue is closed'"),
    ({"gone": True}, "createError('the worker went away'"),
]

QUEUE_RUNNER = """\
const enqueue = require(process.argv[2]);
(async () => {
  const out = [];
  for (const options of JSON.parse(process.argv[3])) {
    try { await enqueue(options); out.push(null); } catch (err) { out.push(err.message); }
  }
  process.stdout.write(JSON.stringify(out));
})();
"""


@pytest.fixture(scope="module")
def queue(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[StoredRecord]]:
    from tests.compose_steps import mine_fixture

    return mine_fixture(tmp_path_factory, "queue", "queue", QUEUE_FILES)


def queue_line(marker: str) -> int:
    return next(i for i, t in enumerate(QUEUE_JS.splitlines(), 1) if marker in t)


def test_a_helper_message_is_its_parameter_passed_to_new_error(queue):
    # not 'E_WAIT', the one literal among the arguments: the helper gives its first
    # parameter to new Error(…), and the variable is the template (or a caller's text)
    _, records = queue
    found = at(records, QUEUE, queue_line("createError(waitMessage"))
    assert messages(found) == ["waited ${options.wait}ms for a worker"]
    assert classes(found) == {"Error"}
    assert not [r for r in records if r.record.error_message.startswith("E_")]


def test_a_helper_error_passed_to_a_function_is_a_site(queue):
    _, records = queue
    assert messages(at(records, QUEUE, queue_line("the worker went away"))) == [
        "the worker went away"]
    assert messages(at(records, QUEUE, queue_line("queue is closed"))) == ["queue is closed"]


@pytest.mark.skipif(missing("node"), reason="node is not installed")
def test_helper_patterns_match_what_node_rejects_with(queue, tmp_path):
    root, records = queue
    runner = tmp_path / "queue.js"
    runner.write_text(QUEUE_RUNNER, encoding="utf-8")
    options = [run[0] for run in QUEUE_RUNS]
    done = subprocess.run(["node", str(runner), str(root / QUEUE), json.dumps(options)],
                          capture_output=True, text=True, check=True, timeout=60)
    printed = json.loads(done.stdout)
    for (_, marker), message in zip(QUEUE_RUNS, printed, strict=True):
        patterns = [r.record.message_pattern for r in at(records, QUEUE, queue_line(marker))]
        assert any(compile_pattern(p).fullmatch(message) for p in patterns), (
            marker, message, patterns)


REPLICAS = "lib/replicas.js"
REPLICAS_RUNNER = """\
const { connect, plugin } = require(process.argv[2]);
const out = [];
const emitted = (name, err) => out.push(err.message);
for (const args of [[undefined, null], [undefined, new Error('refused')], [5, null],
                    [5, new Error('refused')]]) {
  try { connect(args[0], args[1], emitted); } catch (err) { out.push(err.message); }
}
// the bundler calls a hook with its context, whose error(message, pos) throws
const context = { error(message) { throw new Error(message); } };
try { plugin.resolveId.call(context, './app'); } catch (err) { out.push(err.message); }
process.stdout.write(JSON.stringify(out));
"""


def replicas_line(marker: str) -> int:
    return next(i for i, t in enumerate(REPLICAS_JS.splitlines(), 1) if marker in t)


def test_a_message_variable_of_a_ternary_and_an_append_in_a_branch_is_four_records(queue):
    _, records = queue
    found = at(records, REPLICAS, replicas_line("new Error(errorMsg)"))
    assert messages(found) == [
        "All replicas are unreachable and retry is disabled.",
        "All replicas are unreachable and retry is disabled. Last error: ${lastError.message}",
        "All replicas are unreachable. Retrying after ${retryDelay}ms.",
        "All replicas are unreachable. Retrying after ${retryDelay}ms. Last error: "
        "${lastError.message}"]
    assert classes(found) == {"Error"}


def test_this_error_of_a_context_prints_its_first_argument(queue):
    # a hook's context (given by the bundler, no producer of the repository) throws it
    _, records = queue
    assert messages(at(records, REPLICAS, replicas_line("return this.error("))) == [
        'Failed to resolve "${id}". Does the file exist?']


@pytest.mark.skipif(missing("node"), reason="node is not installed")
def test_branch_and_context_patterns_match_what_node_throws(queue, tmp_path):
    root, records = queue
    runner = tmp_path / "replicas.js"
    runner.write_text(REPLICAS_RUNNER, encoding="utf-8")
    done = subprocess.run(["node", str(runner), str(root / REPLICAS)],
                          capture_output=True, text=True, check=True, timeout=60)
    *connected, resolved = json.loads(done.stdout)
    assert len(connected) == 4
    branches = at(records, REPLICAS, replicas_line("new Error(errorMsg)"))
    for message in connected:
        assert sum(bool(compile_pattern(r.record.message_pattern).fullmatch(message))
                   for r in branches) >= 1, message
    (context,) = at(records, REPLICAS, replicas_line("return this.error("))
    assert compile_pattern(context.record.message_pattern).fullmatch(resolved)


def test_a_static_text_of_the_class_passed_at_the_site_is_spelled_out(queue, tmp_path):
    root, records = queue
    line = next(i for i, t in enumerate(POOL_JS.splitlines(), 1) if "new PoolFailedError" in t)
    (record,) = at(records, "lib/pool.js", line)
    assert (record.record.error_message, record.record.error_class) == (
        "Failed to refresh the pool.", "PoolFailedError")
    if missing("node"):
        return
    script = (f"require({json.dumps(str(root / 'lib/pool.js'))})"
              "([], (err) => process.stdout.write(err.message));")
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True,
                          timeout=60)
    assert compile_pattern(record.record.message_pattern).fullmatch(done.stdout)


def test_new_this_in_a_static_factory_is_the_class(queue):
    root, records = queue
    (record,) = at(records, "lib/load.js", 4)
    assert (record.record.error_message, record.record.error_class) == (
        "invalid config: missing key ${key}", "ConfigError")
    if missing("node"):
        return
    script = (f"try {{ require({json.dumps(str(root / 'lib/load.js'))})('port') }} "
              "catch (err) { process.stdout.write(err.message) }")
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True,
                          timeout=60)
    assert done.stdout == "invalid config: missing key port"
    assert compile_pattern(record.record.message_pattern).fullmatch(done.stdout)


def test_a_call_passed_to_a_class_and_an_arrow_field_helper_are_composed(queue):
    root, records = queue
    (got,) = at(records, "lib/get.js", 5)
    assert got.record.error_message == "[store] no record with id ${id}"
    (started,) = at(records, "lib/service.js", 7)
    assert started.record.error_message == "service failed: cannot bind the port"
    if missing("node"):
        return
    script = (f"const get = require({json.dumps(str(root / 'lib/get.js'))});"
              f"const {{ Service }} = require({json.dumps(str(root / 'lib/service.js'))});"
              "const out = [];"
              "try { get(7) } catch (err) { out.push(err.message) }"
              "try { new Service().start() } catch (err) { out.push(err.message) }"
              "process.stdout.write(JSON.stringify(out));")
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True,
                          timeout=60)
    printed = json.loads(done.stdout)
    assert printed == ["[store] no record with id 7", "service failed: cannot bind the port"]
    assert compile_pattern(got.record.message_pattern).fullmatch(printed[0])
    assert compile_pattern(started.record.message_pattern).fullmatch(printed[1])


def test_a_default_written_where_the_parameter_is_used(queue):
    root, records = queue

    def printed_at(marker: str) -> list[str]:
        number = next(i for i, t in enumerate(DEFAULTS_JS.splitlines(), 1) if marker in t)
        return messages(at(records, "lib/defaults.js", number))

    assert printed_at("throw new Defaulted();") == ["the default text of defaulted"]
    assert printed_at("throw new Defaulted(`loud") == ["loud ${what}"]
    assert printed_at("Unknown invoke error") == ["Unknown invoke error"]
    if missing("node"):
        return
    script = (f"const d = require({json.dumps(str(root / 'lib/defaults.js'))});"
              "const out = [];"
              "for (const run of [() => d.quiet(), () => d.loud('x'), () => d.revive({})]) {"
              "  try { run() } catch (err) { out.push(err.message) } }"
              "process.stdout.write(JSON.stringify(out));")
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True,
                          timeout=60)
    assert json.loads(done.stdout) == [
        "the default text of defaulted", "loud x", "Unknown invoke error"]


# --- module tables of messages: messages.notFound, messages['locked'], module.exports ----

TABLES = {
    "lib/errors.js": """\
'use strict'

const messages = {
  notFound: 'The widget was not found in the store',
  locked: 'The widget store is locked by another process',
}

function get (store, key) {
  if (!store.has(key)) {
    throw new Error(messages.notFound)
  }
  if (store.locked) {
    throw new TypeError(messages['locked'])
  }
  return store.get(key)
}

module.exports = { get }
""",
    "lib/texts.js": """\
module.exports = {
  stale: 'The widget cache is stale and must be rebuilt',
  retries: 3,
}
""",
    "lib/cache.js": """\
const texts = require('./texts')

function read (cache) {
  if (cache.stale) {
    throw new Error(texts.stale)
  }
  return cache.value
}

function fail (err) {
  throw new Error(err.message)
}

module.exports = { read, fail }
""",
}
TABLES_RUN = """\
const { get } = require('./lib/errors')
const { read } = require('./lib/cache')
const calls = [
  () => get({ has: () => false }, 'k'),
  () => get({ has: () => true, locked: true }, 'k'),
  () => read({ stale: true }),
]
for (const call of calls) {
  try { call() } catch (e) { console.log(e.message) }
}
"""
TABLES_PRINTED = [
    "The widget was not found in the store",
    "The widget store is locked by another process",
    "The widget cache is stale and must be rebuilt",
]


def test_a_message_from_a_module_table_is_spelled_out(make_repo, tmp_path):
    """``new Error(messages.notFound)``, ``messages['locked']`` (a table of the module) and
    ``texts.stale`` (``module.exports = {…}`` of another file, through ``require``) print
    the table's text; ``err.message`` is the error's own and makes no record. Where node
    is installed, the fixture runs and each pattern matches what it printed."""
    from tests.compose_steps import line_starting, mine_once

    root, records = mine_once(make_repo, tmp_path, TABLES)
    sites = [("lib/errors.js", "    throw new Error("), ("lib/errors.js", "    throw new TypeE"),
             ("lib/cache.js", "    throw new Error(texts")]
    printed = TABLES_PRINTED
    if not missing("node"):
        (root / "run.js").write_text(TABLES_RUN)
        done = subprocess.run(["node", str(root / "run.js")], capture_output=True, text=True,
                              check=True)
        printed = done.stdout.splitlines()
        assert printed == TABLES_PRINTED
    for (path, start), message in zip(sites, printed, strict=True):
        found = one(records, path, line_starting(TABLES[path], start))
        assert found.record.error_message == message
        assert compile_pattern(found.record.message_pattern).fullmatch(message)
    own = line_starting(TABLES["lib/cache.js"], "  throw new Error(err")
    assert at(records, "lib/cache.js", own) == []

"""PHP messages composed across a repository: exception classes (``parent::__construct``,
``$this->message``, a ``$message`` default, fields), factories (``new self``/``new
static``, ``throw FetchError::create(…)``), helpers, constants and branches, mined from a
small fixture repository. What ``getMessage()`` returns for each raise is written out by
hand from the fixture and must be matched by the mined pattern; where a PHP interpreter
is installed, the fixture runs and what it really throws is matched too."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import (
    any_fullmatch,
    any_thrown,
    classes,
    fullmatches,
    line_starting,
    messages,
    mine_changed,
    mine_fixture,
    missing,
    php_raises,
    php_runner,
    source_lines,
    source_roles,
    with_message,
)
from tests.conftest import GitRepo

ERRORS = '''\
<?php

namespace Acme\\Store;

class StoreException extends \\RuntimeException
{
}

class NotFound extends StoreException
{
    public function __construct(private string $key, int $code = 0)
    {
        parent::__construct(sprintf('no such item: %s', $key), $code);
    }

    public static function forKey(string $key): self
    {
        return new self($key);
    }
}

class Gone extends NotFound
{
}

class Located extends StoreException
{
    public function __construct(string $msg, string $path)
    {
        $this->path = $path;
        parent::__construct("$msg at $path");
    }
}

class Coded extends StoreException
{
    public function __construct(int $code)
    {
        $this->message = "store error code {$code}";
    }
}

class Closed extends StoreException
{
    protected $message = 'the store is closed';
}

class Expired extends StoreException
{
    public function __construct(private string $key)
    {
        parent::__construct(message: "{$this->key} expired");
    }
}

class Level extends StoreException
{
    public function __construct(int $n)
    {
        parent::__construct(match ($n) {
            1 => 'quota almost used',
            default => 'quota exceeded',
        });
    }
}

class TooLarge extends \\Symfony\\Component\\HttpKernel\\Exception\\HttpException
{
    public function __construct()
    {
        parent::__construct(413, 'The upload is too large.');
    }
}

class QuotaException extends StoreException
{
    const OVER = 'quota of %d items exceeded for %s';

    public static function over(int $n, string $who): static
    {
        return new static(sprintf(static::OVER, $n, $who));
    }
}

class ModelMissing extends \\RuntimeException
{
    protected $model;

    public function setModel($model, $ids = [])
    {
        $this->model = $model;
        $this->message = "No query results for model [{$model}]";
        if (count($ids) > 0) {
            $this->message .= ' ' . implode(', ', $ids);
        } else {
            $this->message .= '.';
        }
        return $this;
    }
}

class FetchError extends \\Exception
{
    public static function create($request, $response): static
    {
        $reason = $response ? 'bad response' : 'no response';
        return new static("{$reason} for {$request}");
    }
}

class Retry extends StoreException
{
    public function __construct(int $n)
    {
        parent::__construct($n > 0 ? "gave up after $n retries" : 'gave up');
    }
}

class Ping extends Pong
{
    public function __construct($x)
    {
        parent::__construct($x);
    }
}

class Pong extends Ping
{
    public function __construct($x)
    {
        parent::__construct($x);
    }
}

final class Messages
{
    public const NOT_CONFIGURED = 'the store is not configured';

    public static function missing(string $what): string
    {
        return 'missing ' . $what;
    }
}

function tagged(string $message): StoreException
{
    $message = '[store] ' . $message;
    return new StoreException($message);
}

function decorated(string $message): StoreException
{
    $message = decorate($message);
    return new StoreException($message);
}

function unavailable(string $extra = ''): StoreException
{
    return new StoreException('store unavailable' . $extra);
}

function fail(string $message): never
{
    throw new StoreException('config: ' . $message);
}
'''

STORE = '''\
<?php

namespace Acme\\Store;

class Store
{
    const LIMIT = 'limit of %d reached';

    public function missing(string $key)
    {
        throw new NotFound($key);
    }

    public function quota(int $n)
    {
        throw QuotaException::over($n, 'bob');
    }

    public function limit(int $n)
    {
        throw new \\OverflowException(sprintf(self::LIMIT, $n));
    }

    public function gone(string $key)
    {
        throw new Gone($key);
    }

    public function header(string $path)
    {
        throw new Located('bad header', $path);
    }

    public function coded(int $code)
    {
        throw new Coded($code);
    }

    public function closed()
    {
        throw new Closed();
    }

    public function fetch($request, $response)
    {
        throw FetchError::create($request, $response);
    }

    public function forKey(string $key)
    {
        throw NotFound::forKey($key);
    }

    public function unconfigured()
    {
        fail('no store configured');
    }

    public function retry(int $n)
    {
        throw new Retry($n);
    }

    public function what(string $what)
    {
        throw new \\LogicException(Messages::missing($what));
    }

    public function constant()
    {
        throw new \\RuntimeException(Messages::NOT_CONFIGURED);
    }

    public function branch(int $n)
    {
        if ($n > 1) {
            $msg = 'too many widgets';
        } else {
            $msg = 'no widgets';
        }
        throw new \\RuntimeException($msg);
    }

    public function again(string $key)
    {
        throw new NotFound($key);
    }

    public function onceMore(string $key)
    {
        throw new NotFound($key);
    }

    public function tagged()
    {
        throw tagged('disk full');
    }

    public function decorated()
    {
        throw decorated('disk full');
    }

    public function unavailable()
    {
        throw unavailable();
    }

    public function expired(string $key)
    {
        throw new Expired($key);
    }

    public function level(int $n)
    {
        throw new Level($n);
    }

    public function invalidKey()
    {
        throw $this->invalid('bad key');
    }

    private function invalid(string $why): StoreException
    {
        return new StoreException("invalid: $why");
    }

    public function tooLarge()
    {
        throw new TooLarge();
    }

    public function find(string $model, array $ids)
    {
        throw (new ModelMissing())->setModel($model, $ids);
    }

    public function unknown($x)
    {
        throw makeIt($x);
    }

    public function loop($x)
    {
        throw new Ping($x);
    }
}
'''

# (method in Store.php, the record's errorMessage, errorClass, where the producers are
# written in Errors.php (by a line's start), what getMessage() returns for sample arguments)
EXPECTED = [
    ("missing", "no such item: %s", "NotFound", ["class NotFound"], "no such item: k1"),
    ("gone", "no such item: %s", "Gone", ["class NotFound"], "no such item: k2"),
    ("header", "bad header at $path", "Located", ["class Located"], "bad header at /etc/x"),
    ("coded", "store error code {$code}", "Coded", ["class Coded"], "store error code 42"),
    ("closed", "the store is closed", "Closed", ["class Closed"], "the store is closed"),
    ("forKey", "no such item: %s", "NotFound", ["class NotFound"], "no such item: k3"),
    ("unconfigured", "config: no store configured", "StoreException", ["function fail("],
     "config: no store configured"),
    ("tagged", "[store] disk full", "StoreException", ["function tagged("],
     "[store] disk full"),
    ("unavailable", "store unavailable", "StoreException", ["function unavailable("],
     "store unavailable"),
    ("expired", "{$key} expired", "Expired", ["class Expired"], "k1 expired"),
    ("tooLarge", "The upload is too large.", "TooLarge", ["class TooLarge"],
     "The upload is too large."),
    ("what", "missing {$what}", "LogicException", ["public static function missing("],
     "missing widget"),
    # a class constant as sprintf's format: in a factory (static::), at the throw (self::)
    ("quota", "quota of %d items exceeded for bob", "QuotaException",
     ["public static function over("], "quota of 3 items exceeded for bob"),
    ("constant", "the store is not configured", "RuntimeException",
     ["public const NOT_CONFIGURED"], "the store is not configured"),
]


FILES = {"src/Errors.php": ERRORS, "src/Store.php": STORE}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_php", "composed", FILES)[1]


def _line(text: str, start: str) -> int:
    return line_starting(text, start, stripped=True)


def _at(records: list[errdex.StoredRecord], method: str) -> list[errdex.StoredRecord]:
    """The records of the raise in ``Store::<method>``."""
    return [r for r in records if r.record.file_path == "src/Store.php"
            and r.extras.enclosing_symbol == f"Store.{method}"]


@pytest.mark.parametrize("case", EXPECTED, ids=[c[0] for c in EXPECTED])
def test_every_composition_form_gives_the_raise_site_the_printed_message(
    records: list[errdex.StoredRecord], case: tuple[str, str, str, list[str], str],
) -> None:
    method, message, error_class, sources, printed = case
    [found] = _at(records, method)
    assert found.record.line_number == _line(STORE, f"public function {method}(") + 2
    assert found.record.error_message == message
    assert found.record.error_class == error_class
    assert source_lines(found.extras) == [
        ("src/Errors.php", _line(ERRORS, start)) for start in sources]
    assert fullmatches(found, printed), printed


def test_a_class_constant_formatted_at_the_throw_is_the_message(
    records: list[errdex.StoredRecord],
) -> None:
    [found] = _at(records, "limit")
    assert (found.record.error_message, found.record.error_class) == (
        "limit of %d reached", "OverflowException")
    assert re.fullmatch(found.record.message_pattern, "limit of 9 reached")


def test_a_static_factory_with_a_ternary_gives_one_record_per_branch(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "fetch")
    assert messages(found) == [
        "bad response for {$request}", "no response for {$request}"]
    assert classes(found) == {"FetchError"}
    assert {(s.file_path, s.line_number, s.role) for r in found
            for s in r.extras.template_sources} == {
        ("src/Errors.php", _line(ERRORS, "public static function create("), "factory")}
    for printed in ("bad response for https://x", "no response for https://x"):
        assert any_fullmatch(found, printed), printed


def test_a_ternary_passed_to_the_parent_constructor_gives_one_record_per_branch(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "retry")
    assert messages(found) == [
        "gave up", "gave up after $n retries"]
    for printed in ("gave up after 3 retries", "gave up"):
        assert any_fullmatch(found, printed), printed


def test_a_factory_method_found_through_this(records: list[errdex.StoredRecord]) -> None:
    [found] = _at(records, "invalidKey")
    assert found.record.error_message == "invalid: bad key"
    assert found.record.error_class == "StoreException"
    assert source_roles(found.extras) == [
        ("src/Store.php", _line(STORE, "private function invalid("), "factory")]


def test_a_message_setter_returning_this_gives_one_record_per_if_arm(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "find")
    assert messages(found) == [
        "No query results for model [{$model}] {implode(', ', $ids)}",
        "No query results for model [{$model}].",
    ]
    assert classes(found) == {"ModelMissing"}
    for printed in ("No query results for model [App\\User] 1, 2",
                    "No query results for model [App\\User]."):
        assert any_fullmatch(found, printed), printed


def test_a_match_passed_to_the_parent_constructor_gives_one_record_per_arm(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "level")
    assert messages(found) == [
        "quota almost used", "quota exceeded"]
    assert classes(found) == {"Level"}


def test_a_message_assigned_in_branches_gives_one_record_per_branch(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "branch")
    assert messages(found) == ["no widgets", "too many widgets"]
    assert classes(found) == {"RuntimeException"}


def test_a_class_thrown_from_three_places_gives_three_records_sharing_the_template(
    records: list[errdex.StoredRecord],
) -> None:
    same = [r for r in with_message(records, "no such item: %s", "NotFound")
            if r.extras.enclosing_symbol in ("Store.missing", "Store.again", "Store.onceMore")]
    assert len(same) == 3
    assert len({r.record.id for r in same}) == 3


def test_an_unresolved_call_and_a_constructor_cycle_make_no_record(
    records: list[errdex.StoredRecord],
) -> None:
    assert _at(records, "unknown") == []
    assert _at(records, "decorated") == []  # its parameter given a value source can't read
    assert _at(records, "loop") == []
    assert not any(r.record.error_class in ("Ping", "Pong") for r in records)


def test_an_incremental_mine_recomposes_callers_of_a_changed_class(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    changed = mine_changed(make_repo, tmp_path, FILES,
                           {"src/Errors.php": ERRORS.replace("no such item", "nothing under")})
    messages = [r.record.error_message for r in changed]
    assert messages.count("nothing under: %s") == 5  # missing, gone, forKey, again, onceMore
    assert not any("no such item" in m for m in messages)


# Every raise of the fixture run with sample arguments (JSON), for the interpreter check.
RUNS = [
    ("missing", ["k1"]), ("gone", ["k2"]), ("header", ["/etc/x"]), ("coded", [42]),
    ("closed", []), ("forKey", ["k3"]), ("unconfigured", []), ("tagged", []),
    ("unavailable", []), ("expired", ["k1"]), ("tooLarge", []), ("what", ["widget"]),
    ("constant", []), ("fetch", ["https://x", True]), ("fetch", ["https://x", False]),
    ("retry", [3]), ("retry", [0]), ("branch", [2]), ("branch", [0]), ("level", [1]),
    ("level", [5]), ("find", ["App\\User", [1, 2]]), ("find", ["App\\User", []]),
    ("invalidKey", []), ("again", ["k4"]), ("onceMore", ["k5"]), ("quota", [3]), ("limit", [9]),
]
# PHP's own loading stops at a class extending a class not declared: the cycle is left
# out of the run (mining it is checked above); Symfony's HttpException is a stub.
SYMFONY_STUB = """\
namespace Symfony\\Component\\HttpKernel\\Exception {
    class HttpException extends \\RuntimeException {
        public function __construct(int $status, string $message = '') {
            parent::__construct($message);
        }
    }
}
"""
RUNNER = php_runner(["Errors.php", "Store.php"], "\\Acme\\Store\\Store", SYMFONY_STUB)


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if missing("php"):
        pytest.skip("no PHP interpreter installed")
    root = tmp_path_factory.mktemp("php_runtime")
    cycle = re.compile(r"class Ping extends Pong.*?\n}\n\nclass Pong extends Ping.*?\n}\n",
                       re.DOTALL)
    (root / "Errors.php").write_text(cycle.sub("", ERRORS))
    (root / "Store.php").write_text(STORE)
    (root / "run.php").write_text(RUNNER)
    return root


@pytest.mark.parametrize("run", RUNS, ids=[f"{m}{a}" for m, a in RUNS])
def test_the_mined_patterns_match_what_php_throws(
    records: list[errdex.StoredRecord], runtime: Path, run: tuple[str, list[object]],
) -> None:
    method, args = run
    thrown, message = php_raises(runtime, method, args)
    found = _at(records, method)
    assert found, method
    assert any_thrown(found, thrown, message), (
        thrown, message, [r.record.message_pattern for r in found])

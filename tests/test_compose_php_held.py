"""PHP factories that hold the exception they make in a variable before returning it
(``$e = new static(rtrim("…{$reason}"), 0, $previous); $e->location = $location;
return $e;``): the raise site prints what ``new static`` was given, ``rtrim``/``trim``
read through. Mined from a small fixture repository; where a PHP interpreter is installed,
what the fixture really throws must be matched by the mined pattern too."""

from __future__ import annotations

from pathlib import Path

import pytest

import errdex
from tests.compose_steps import (
    any_thrown,
    line_starting,
    mine_fixture,
    missing,
    php_raises,
    php_runner,
    source_roles,
)

ERRORS = '''\
<?php

namespace Acme\\Files;

final class UnableToRead extends \\RuntimeException
{
    private $location = '';

    public static function fromLocation(string $location, string $reason = '',
                                        ?\\Throwable $previous = null): UnableToRead
    {
        $e = new static(rtrim("Unable to read file from location: {$location}. {$reason}"),
                        0, $previous);
        $e->location = $location;

        return $e;
    }
}

final class UnableToMove extends \\RuntimeException
{
    public static function between(string $from, string $to): self
    {
        $error = new self(trim(" Unable to move {$from} to {$to} "));
        $error->from = $from;
        return $error;
    }
}

final class UnableToCopy extends \\RuntimeException
{
    public static function sameFile(string $from, string $to): UnableToCopy
    {
        return UnableToCopy::because('source and destination are the same', $from, $to);
    }

    public static function fromLocationTo(string $from, string $to,
                                          ?\\Throwable $previous = null): UnableToCopy
    {
        $message = $previous?->getMessage() ?? "Unable to copy file from $from to $to";
        $e = new static($message, 0, $previous);
        return $e;
    }

    public static function because(string $reason, string $from, string $to): UnableToCopy
    {
        return new static("Unable to copy file from $from to $to, because $reason");
    }
}

class UnableToCheck extends \\RuntimeException
{
    public static function forLocation(string $path, ?\\Throwable $previous = null): static
    {
        return new static("Unable to check existence for: {$path}", 0, $previous);
    }
}

class UnableToCheckFile extends UnableToCheck
{
}

final class Listing extends \\RuntimeException
{
    public static function of(string $dir): self
    {
        $made = new \\ArrayObject([$dir]);
        return new self("Unable to list {$dir}");
    }

    public static function counted(string $dir): \\ArrayObject
    {
        $made = new \\ArrayObject([$dir]);
        return $made;
    }
}
'''

ADAPTER = '''\
<?php

namespace Acme\\Files;

class Adapter
{
    public function read(string $path, string $reason)
    {
        throw UnableToRead::fromLocation($path, $reason);
    }

    public function readGone(string $path)
    {
        throw UnableToRead::fromLocation($path, 'file does not exist');
    }

    public function readBare(string $path)
    {
        throw UnableToRead::fromLocation($path);
    }

    public function move(string $from, string $to)
    {
        throw UnableToMove::between($from, $to);
    }

    public function same(string $from, string $to)
    {
        throw UnableToCopy::sameFile($from, $to);
    }

    public function copy(string $from, string $to)
    {
        throw UnableToCopy::fromLocationTo($from, $to);
    }

    public function check(string $path)
    {
        throw UnableToCheckFile::forLocation($path);
    }

    public function listing(string $dir)
    {
        throw Listing::of($dir);
    }
}
'''

FILES = {"src/Errors.php": ERRORS, "src/Adapter.php": ADAPTER}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_php_held", "held", FILES)[1]


def _at(records: list[errdex.StoredRecord], method: str) -> list[errdex.StoredRecord]:
    """The records of the ``throw`` in ``Adapter::method``."""
    line = line_starting(ADAPTER, f"public function {method}(", stripped=True) + 2
    return [r for r in records
            if r.record.file_path == "src/Adapter.php" and r.record.line_number == line]


def test_a_factory_returning_the_exception_it_held_in_a_variable_is_composed(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "read")
    assert [r.record.error_message for r in found] == [
        "Unable to read file from location: {$path}. {$reason}"]
    assert found[0].record.error_class == "UnableToRead"


def test_a_last_value_given_keeps_the_blank_before_it(
    records: list[errdex.StoredRecord],
) -> None:
    assert [r.record.error_message for r in _at(records, "readGone")] == [
        "Unable to read file from location: {$path}. file does not exist"]
    assert [r.record.error_message for r in _at(records, "readBare")] == [
        "Unable to read file from location: {$path}."]


def test_a_factory_returning_another_factory_of_its_declared_class_is_composed(
    records: list[errdex.StoredRecord],
) -> None:
    assert [r.record.error_message for r in _at(records, "same")] == [
        "Unable to copy file from $from to $to, because source and destination are the same"]


def test_a_null_coalescing_message_gives_its_known_side(
    records: list[errdex.StoredRecord],
) -> None:
    assert [r.record.error_message for r in _at(records, "copy")] == [
        "Unable to copy file from $from to $to"]


def test_a_static_factory_of_a_base_called_on_a_subclass_is_composed(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "check")
    assert [r.record.error_message for r in found] == [
        "Unable to check existence for: {$path}"]


def test_trim_around_the_message_is_read_through(records: list[errdex.StoredRecord]) -> None:
    found = _at(records, "move")
    assert [r.record.error_message for r in found] == ["Unable to move {$from} to {$to}"]
    assert found[0].record.error_class == "UnableToMove"


def test_a_held_value_that_is_no_error_is_not_what_the_factory_returns(
    records: list[errdex.StoredRecord],
) -> None:
    assert [r.record.error_message for r in _at(records, "listing")] == ["Unable to list {$dir}"]
    assert not any("ArrayObject" in (r.record.error_class or "") for r in records)


# Each raise run with sample arguments, for the interpreter check.
RUNS = [("read", ["/data/a.txt", "file does not exist"]), ("readBare", ["/data/b.txt"]),
        ("readGone", ["/data/c.txt"]),
        ("move", ["a", "b"]), ("listing", ["/tmp"]), ("same", ["a", "a"]),
        ("copy", ["a", "b"]), ("check", ["/x"])]
RUNNER = php_runner(["Errors.php", "Adapter.php"], "\\Acme\\Files\\Adapter")


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if missing("php"):
        pytest.skip("no PHP interpreter installed")
    root = tmp_path_factory.mktemp("php_held_runtime")
    (root / "Errors.php").write_text(ERRORS)
    (root / "Adapter.php").write_text(ADAPTER)
    (root / "run.php").write_text(RUNNER)
    return root


@pytest.mark.parametrize("run", RUNS, ids=[m for m, _ in RUNS])
def test_the_mined_patterns_match_what_php_throws(
    records: list[errdex.StoredRecord], runtime: Path, run: tuple[str, list[object]],
) -> None:
    method, args = run
    thrown, message = php_raises(runtime, method, args)
    # ``new static`` in a base's factory called on a subclass makes the subclass; the record
    # names the class the factory is written in (late static binding is not followed)
    thrown = {"UnableToCheckFile": "UnableToCheck"}.get(thrown, thrown)
    found = _at(records, method)
    assert found, method
    assert any_thrown(found, thrown, message), (
        thrown, message, [r.record.message_pattern for r in found])


def test_the_record_says_the_factory_wrote_the_message(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "read")
    assert found
    assert source_roles(found[0].extras) == [
        ("src/Errors.php", line_starting(ERRORS, "public static function fromLocation(",
                                         stripped=True), "factory")]

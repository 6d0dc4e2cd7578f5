"""Ruby messages composed across classes, factories and helpers: golden records, each
pattern checked against what the interpreter really prints for the fixture's raises
(when a ``ruby`` is installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import ruby_raises
from tests.conftest import GitRepo

ERRORS = '''\
module MyLib
  NOT_READY = "store not ready".freeze

  class StoreError < StandardError; end

  class NotFound < StoreError
    attr_reader :key

    def initialize(key)
      @key = key
      super("no such item: #{key}")
    end
  end

  class Gone < NotFound; end

  Missing = Class.new(NotFound)

  class Timeout < StoreError
    def initialize(msg = "timed out")
      super
    end
  end

  class Located < StoreError
    def initialize(msg, path)
      @msg = msg
      @path = path
      super(msg)
    end

    def message
      "#{@msg} at #{@path}"
    end
  end

  class Limited < StoreError
    def initialize(n, msg = nil)
      super(msg || "limit #{n} reached")
    end
  end

  class Retry < StoreError
    def initialize(n)
      msg = n > 0 ? "gave up after #{n} retries" : "gave up"
      super(msg)
    end
  end

  class Invalid < StoreError
    def initialize(token, reason = "")
      super("store '#{token}' is invalid#{reason.empty? ? "." : ": #{reason}"}")
    end
  end

  class UndefinedCommand < StoreError
    def initialize(command, namespace)
      message = "Could not find command #{command.inspect}"
      message = namespace ? "#{message} in #{namespace.inspect} namespace." : "#{message}."
      super(message)
    end
  end

  class Decorated < StoreError
    def message
      "[mylib] #{super}"
    end
  end

  class ParseError < StoreError; end

  class Quota < StoreError
    attr_reader :message

    def initialize(limit)
      @message = "quota of #{limit} exceeded"
    end
  end

  module Errors
    def self.parse_error(id, what)
      ParseError.new("[parse_error.#{id}] #{what}")
    end

    def self.fail!(msg)
      raise StoreError, "config: #{msg}"
    end

    def self.fetch(url)
      Integer(url)
    rescue ArgumentError => e
      raise StoreError, "failed to read #{url}: #{e.message}"
    end

    def self.deprecate(what)
      warn "[DEPRECATION] #{what} is deprecated" unless $quiet
    end

    def self.sys_fail(call)
      raise SystemCallError.new(call, 1)
    end

    def self.undefined_message(name)
      "Don't know how to build task '#{name}'"
    end

    def self.missing_message(key)
      "nothing stored under #{key}"
    end

    def self.locate_message(file, safe)
      message = "Could not locate #{file}."
      message + if safe
                  " Symlinks are not allowed."
                else
                  " It may point outside the source."
                end
    end
  end
end
'''

STORE = '''\
require_relative "errors"

module MyLib
  class Store
    def missing(key)
      raise NotFound.new(key)
    end
    def missing_comma(key)
      raise NotFound, key
    end
    def gone(key)
      raise Gone.new(key)
    end
    def missing_class(key)
      raise Missing.new(key)
    end
    def timeout
      raise Timeout
    end
    def located(path)
      raise Located.new("bad header", path)
    end
    def limited(n)
      raise Limited.new(n)
    end
    def quota(n)
      raise Quota.new(n)
    end
    def token(tok)
      raise Errors.parse_error(101, "unexpected token #{tok}")
    end
    def unconfigured
      Errors.fail!("no store configured")
    end
    def decorated
      raise Decorated, "disk full"
    end
    def retrying(n)
      raise Retry.new(n)
    end
    def branchy(n)
      msg = n > 1 ? "bad count #{n}" : "bad count"
      raise StoreError, msg
    end
    def again(key)
      raise NotFound.new(key)
    end
    def unknown(x)
      raise make_it(x)
    end
    def not_ready
      raise StoreError, NOT_READY
    end
    def not_ready_plain
      raise NOT_READY
    end
    def bare(x)
      raise StoreError
    end
    def built(key)
      raise StoreError, Errors.missing_message(key)
    end
    def read_only
      raise StoreError, default_message
    end
    def undefined(name)
      fail Errors.undefined_message(name)
    end
    def undefined_command(name, namespace)
      raise UndefinedCommand.new(name, namespace)
    end
    def invalid(name, reason)
      raise Invalid.new(name, reason)
    end
    def locate(file, safe)
      raise IOError, Errors.locate_message(file, safe)
    end
    def no_file(path)
      raise Errno::ENOENT, "config at #{path}"
    end
    def sys_failing
      Errors.sys_fail("prctl")
    end
    def old_api
      Errors.deprecate("Store#get")
    end
    def fetching
      Errors.fetch("http://example.invalid")
    end
    def negative_message
      failure_message_helper(" not")
    end

    private

    def default_message
      "store is read-only"
    end
    def failure_message_helper(negated = "")
      "expected the store#{negated} to be open"
    end
  end
end
'''

CYCLE = '''\
module Loop
  def self.ping(x)
    raise pong(x)
  end

  def self.pong(x)
    raise ping(x)
  end

  def self.run
    raise ping("round")
  end

  class Ping < Pong; end

  class Pong < Ping; end

  def self.again(x)
    raise Ping.new(x)
  end
end
'''

# (method, arguments, the record's errorMessage, its errorClass, where the producers are
# written in lib/mylib/errors.rb, by the line's start once stripped)
EXPECTED = [
    ("missing", ["k1"], "no such item: #{key}", "NotFound", ["class NotFound "]),
    ("missing_comma", ["k1"], "no such item: #{key}", "NotFound", ["class NotFound "]),
    ("gone", ["k2"], "no such item: #{key}", "Gone", ["class NotFound "]),
    ("missing_class", ["k3"], "no such item: #{key}", "Missing", ["class NotFound "]),
    ("timeout", [], "timed out", "Timeout", ["class Timeout "]),
    ("located", ["/etc/x"], "bad header at #{path}", "Located", ["class Located "]),
    ("limited", [3], "limit #{n} reached", "Limited", ["class Limited "]),
    ("quota", [5], "quota of #{n} exceeded", "Quota", ["class Quota "]),
    ("token", [";"], "[parse_error.101] unexpected token #{tok}", "ParseError",
     ["def self.parse_error("]),
    ("unconfigured", [], "config: no store configured", "StoreError", ["def self.fail!("]),
    ("decorated", [], "[mylib] disk full", "Decorated", ["class Decorated "]),
    ("not_ready", [], "store not ready", "StoreError", []),
    ("not_ready_plain", [], "store not ready", "RuntimeError", []),
    ("undefined", ["t1"], "Don't know how to build task '#{name}'", "RuntimeError",
     ["def self.undefined_message("]),
    ("built", ["k4"], "nothing stored under #{key}", "StoreError",
     ["def self.missing_message("]),
]


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    root = tmp_path_factory.mktemp("compose_ruby")
    repo = GitRepo(root / "repo", "https://github.com/acme/composed.git")
    repo.commit_files({"lib/mylib/errors.rb": ERRORS, "lib/mylib/store.rb": STORE,
                       "lib/loop.rb": CYCLE})
    db = root / "errdex.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    with errdex.open_store(db) as store:
        return repo.root, list(store.records(repo="acme/composed"))


def _line(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.strip().startswith(start))


def _at(records: list[errdex.StoredRecord], method: str,
        path: str = "lib/mylib/store.rb", source: str = STORE) -> list[errdex.StoredRecord]:
    line = _line(source, f"def {method}(") if f"def {method}(" in source else _line(
        source, f"def {method}")
    return [r for r in records if r.record.file_path == path
            and line < r.record.line_number <= line + 2]


def _printed(root: Path, method: str, args: Sequence[object]) -> tuple[str, str]:
    """What Ruby prints for the fixture method's exception: its class, its message."""
    return ruby_raises(root / "lib/mylib/store.rb", "MyLib::Store", method, args)


_RUBY = pytest.mark.skipif(shutil.which("ruby") is None, reason="no ruby installed")


@pytest.mark.parametrize("case", EXPECTED, ids=[c[0] for c in EXPECTED])
def test_every_composition_form_gives_the_raise_site_the_composed_message(
    mined: tuple[Path, list[errdex.StoredRecord]],
    case: tuple[str, list[object], str, str, list[str]],
) -> None:
    _, records = mined
    method, _, message, error_class, sources = case
    [found] = _at(records, method)
    assert found.record.error_message == message
    assert (found.record.error_class or "").rsplit("::", 1)[-1] == error_class
    assert [(s.file_path, s.line_number) for s in found.extras.template_sources] == [
        ("lib/mylib/errors.rb", _line(ERRORS, start)) for start in sources]


@_RUBY
@pytest.mark.parametrize("case", EXPECTED, ids=[c[0] for c in EXPECTED])
def test_the_composed_pattern_matches_what_ruby_prints(
    mined: tuple[Path, list[errdex.StoredRecord]],
    case: tuple[str, list[object], str, str, list[str]],
) -> None:
    root, records = mined
    method, args, _, error_class, _ = case
    [found] = _at(records, method)
    printed_class, printed = _printed(root, method, args)
    assert printed_class == error_class
    assert re.fullmatch(found.record.message_pattern, printed, re.DOTALL), printed


def test_system_call_errors_print_the_platform_text_before_the_message(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, records = mined
    [own] = _at(records, "no_file")
    assert (own.record.error_message, own.record.error_class) == (
        "config at #{path}", "Errno::ENOENT")
    [helped] = _at(records, "sys_failing")
    assert (helped.record.error_message, helped.record.error_class) == (
        "prctl", "SystemCallError")
    assert [s.line_number for s in helped.extras.template_sources] == [
        _line(ERRORS, "def self.sys_fail(")]
    if shutil.which("ruby") is None:
        return
    for found, method, args, printed_class in ((own, "no_file", ["/etc/x"], "ENOENT"),
                                                (helped, "sys_failing", [], "EPERM")):
        name, printed = _printed(root, method, args)
        assert name == printed_class
        assert re.fullmatch(found.record.message_pattern, printed), printed


def test_a_warning_helper_gives_its_callers_a_warning(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, records = mined
    [found] = _at(records, "old_api")
    assert found.record.error_message == "[DEPRECATION] Store#get is deprecated"
    assert (found.record.error_type, found.record.severity) == ("warning", "warning")
    assert [s.line_number for s in found.extras.template_sources] == [
        _line(ERRORS, "def self.deprecate(")]
    ruby = shutil.which("ruby")
    if ruby is None:
        return
    code = f"require {str(root / 'lib/mylib/store.rb')!r}\nMyLib::Store.new.old_api\n"
    printed = subprocess.run([ruby, "-e", code], capture_output=True, text=True,
                             check=True).stderr.strip()
    assert re.fullmatch(found.record.message_pattern, printed), printed


def test_a_message_method_of_the_same_class_gives_the_text(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, records = mined
    [found] = _at(records, "read_only")
    assert found.record.error_message == "store is read-only"
    assert found.record.error_class == "StoreError"
    assert [s.line_number for s in found.extras.template_sources] == [
        _line(STORE, "def default_message")]
    if shutil.which("ruby") is not None:
        assert _printed(root, "read_only", []) == ("StoreError", "store is read-only")


def test_a_message_chosen_by_a_branch_gives_one_record_per_branch(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, records = mined
    cases: list[tuple[str, list[str], list[list[object]]]] = [
        ("retrying", ["gave up", "gave up after #{n} retries"], [[3], [0]]),
        ("branchy", ["bad count", "bad count #{n}"], [[3], [0]]),
        ("locate", ["Could not locate #{file}. It may point outside the source.",
                    "Could not locate #{file}. Symlinks are not allowed."],
         [["a.txt", True], ["b.txt", False]]),
        ("invalid", ["store '#{name}' is invalid.", "store '#{name}' is invalid: #{reason}"],
         [["s1", ""], ["s2", "bad key"]]),
        ("undefined_command", [
            "Could not find command #{command.inspect} in #{namespace.inspect} namespace.",
            "Could not find command #{command.inspect}."], [["build", "app"], ["build", None]]),
    ]
    for method, expected, calls in cases:
        found = _at(records, method)
        assert sorted(r.record.error_message for r in found) == expected
        if shutil.which("ruby") is None:
            continue
        for args in calls:
            _, printed = _printed(root, method, args)
            assert any(re.fullmatch(r.record.message_pattern, printed) for r in found), printed


def test_a_class_raised_from_three_places_gives_three_records_sharing_the_template(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = mined
    same = [r for r in records if r.record.error_message == "no such item: #{key}"
            and r.record.error_class == "NotFound"]
    assert len(same) == 3  # missing, missing_comma, again
    assert len({r.record.id for r in same}) == 3


def test_a_call_that_reaches_no_producer_and_a_cycle_make_no_record(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = mined
    assert _at(records, "unknown") == []
    assert _at(records, "bare") == []
    assert _at(records, "negative_message") == []  # a message method's value: no raise
    assert _at(records, "fetching") == []  # a method that raises in a rescue is no helper
    assert not [r for r in records if r.record.file_path == "lib/loop.rb"]


def test_an_incremental_mine_recomposes_callers_of_a_changed_class(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    repo = make_repo()
    repo.commit_files({"lib/mylib/errors.rb": ERRORS, "lib/mylib/store.rb": STORE})
    db = tmp_path / "inc.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    repo.commit_files({"lib/mylib/errors.rb": ERRORS.replace("no such item", "nothing under")})
    summary = errdex.mine(repo.root, db=db, jobs=1)
    assert summary.incremental
    with errdex.open_store(db) as store:
        messages = [r.record.error_message for r in store.records(repo="acme/widgets")]
    # missing, missing_comma, gone, missing_class, again
    assert messages.count("nothing under: #{key}") == 5
    assert not any("no such item" in m for m in messages)

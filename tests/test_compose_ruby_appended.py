"""Ruby messages built with ``<<`` onto a mutable copy of a literal (``"…".dup``,
``+"…"``, ``String.new("…")``), some parts under ``if``/``unless``: one record per way the
text can end up, mined from a small fixture repository; where a ``ruby`` is installed,
what each run really raises must be matched by one of the site's patterns."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing, ruby_raises

ERRORS = '''\
# frozen_string_literal: true

module Acme
  class Error < StandardError
  end

  class InvocationError < Error
  end
end
'''

RUNNER = '''\
# frozen_string_literal: true

require_relative "errors"

module Acme
  class Runner
    def called(name, args)
      msg = "ERROR: #{name} was called with ".dup
      msg << "no arguments"               if     args.empty?
      msg << "arguments " << args.inspect unless args.empty?
      raise InvocationError, msg
    end

    def find(file, roots)
      message = +"Could not find #{file} in your source paths. "
      message << if roots.empty?
                   "You have no source paths."
                 else
                   "Your source paths are: #{roots.join(", ")}"
                 end
      raise Error, message
    end

    def level(n)
      text = String.new("level #{n}")
      if n > 9
        text << " is too high"
      elsif n < 0
        text << " is negative"
      end
      raise Error, text
    end

    def looped(items)
      text = "items:".dup
      items.each { |i| text << " #{i}" }
      raise Error, text
    end

    def plain(key)
      text = "no such key: #{key}".dup
      raise Error, text
    end
  end
end
'''

FILES = {"lib/acme/errors.rb": ERRORS, "lib/acme/runner.rb": RUNNER}


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "compose_ruby_appended", "appended", FILES)


def _at(records: list[errdex.StoredRecord], method: str) -> list[errdex.StoredRecord]:
    """The records of the ``raise`` that ends ``Runner#method``."""
    start = line_starting(RUNNER, f"def {method}(", stripped=True)
    end = next(i for i, line in enumerate(RUNNER.splitlines(), 1)
               if i > start and line.strip().startswith("raise "))
    return [r for r in records
            if r.record.file_path == "lib/acme/runner.rb" and r.record.line_number == end]


def _messages(found: list[errdex.StoredRecord]) -> set[str]:
    return {r.record.error_message for r in found}


def test_conditional_appends_give_one_record_per_way_the_text_ends_up(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    found = _at(mined[1], "called")
    assert _messages(found) == {
        "ERROR: #{name} was called with no arguments",
        "ERROR: #{name} was called with arguments {args.inspect}",
        "ERROR: #{name} was called with no argumentsarguments {args.inspect}",
        "ERROR: #{name} was called with ",
    }
    assert {r.record.error_class for r in found} == {"InvocationError"}


def test_an_appended_if_expression_is_one_record_per_branch(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    assert _messages(_at(mined[1], "find")) == {
        "Could not find #{file} in your source paths. You have no source paths.",
        'Could not find #{file} in your source paths. Your source paths are: '
        '#{roots.join(", ")}',
    }


def test_appends_in_the_clauses_of_one_if_are_one_or_the_other_or_none(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    assert _messages(_at(mined[1], "level")) == {
        "level #{n} is too high", "level #{n} is negative", "level #{n}"}


def test_a_text_appended_in_a_block_is_no_record_of_its_first_part(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    assert _at(mined[1], "looped") == []  # "items:" alone would never match what it prints


def test_a_mutable_copy_prints_the_literal(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    assert _messages(_at(mined[1], "plain")) == {"no such key: #{key}"}


RUNS = [("called", ["deploy", []]), ("called", ["deploy", ["a", 1]]),
        ("find", ["x.tt", []]), ("find", ["x.tt", ["/a", "/b"]]), ("level", [12]),
        ("level", [-3]), ("level", [5]), ("plain", ["k"])]


@pytest.mark.parametrize("run", RUNS, ids=[f"{m}{a}" for m, a in RUNS])
def test_one_pattern_of_the_site_matches_what_ruby_raises(
    mined: tuple[Path, list[errdex.StoredRecord]], run: tuple[str, list[object]],
) -> None:
    if missing("ruby"):
        pytest.skip("no ruby installed")
    root, records = mined
    method, args = run
    name, printed = ruby_raises(root / "lib/acme/runner.rb", "Acme::Runner", method, args)
    found = _at(records, method)
    assert any((r.record.error_class or "").rsplit("::", 1)[-1] == name
               and re.fullmatch(r.record.message_pattern, printed, re.DOTALL)
               for r in found), (name, printed, [r.record.message_pattern for r in found])


ADDED = '''\
# frozen_string_literal: true

module Acme
  class TapMissing < RuntimeError
    def initialize(name)
      message = "No available tap #{name}.\\n"
      if name.start_with?("core")
        message += "Run brew tap --force #{name} to tap it!"
      else
        message += "Run brew tap-new #{name} to create it!"
      end
      super message.freeze
    end
  end

  class Usage < RuntimeError
    def initialize(reason = nil)
      super
      @reason = reason
    end

    def to_s
      s = "Invalid usage"
      s += ": #{@reason}" if @reason
      s
    end
  end

  class NoKeg < RuntimeError
    def initialize(name, tap: nil)
      message = "No such keg: #{name}"
      message += " from tap #{tap}" if tap
      super message
    end
  end

  class Tapper
    def tap!(name)
      raise TapMissing, name
    end

    def use!(reason)
      raise Usage.new(reason)
    end

    def keg!(name, owner)
      raise NoKeg.new(name, tap: owner)
    end
  end
end
'''


@pytest.fixture(scope="module")
def added(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "compose_ruby_added", "added",
                        {"lib/acme/tapper.rb": ADDED})


def _raised_in(records: list[errdex.StoredRecord], method: str) -> list[errdex.StoredRecord]:
    line = line_starting(ADDED, f"def {method}(", stripped=True) + 1
    return [r for r in records if r.record.line_number == line]


# (method, argument, class, records at the raise: one per branch; a ``+= ": #{x}" if x``
# is one record whose words before ``x`` print only with it)
ADDED_RUNS = [("tap!", "core/x", "TapMissing", 2), ("tap!", "me/x", "TapMissing", 2),
              ("use!", "no formula given", "Usage", 1), ("use!", None, "Usage", 1),
              ("keg!", ["x", "me/t"], "NoKeg", 1), ("keg!", ["x", None], "NoKeg", 1)]


@pytest.mark.parametrize("run", ADDED_RUNS, ids=[f"{m}{a}" for m, a, _, _ in ADDED_RUNS])
def test_a_text_added_to_with_plus_equals_in_a_class_is_one_record_per_branch(
    added: tuple[Path, list[errdex.StoredRecord]],
    run: tuple[str, str | list[str | None] | None, str, int],
) -> None:
    root, records = added
    method, arg, error_class, count = run
    given = arg if isinstance(arg, list) else [arg]
    found = _raised_in(records, method)
    assert {r.record.error_class for r in found} == {error_class}
    assert len(found) == count, [r.record.error_message for r in found]
    assert not any("from owner" in r.record.error_message for r in found)
    if missing("ruby"):
        return
    code = (f"require {str(root / 'lib/acme/tapper.rb')!r}\nrequire 'json'\n"
            f"begin\n  Acme::Tapper.new.{method}(*JSON.parse({json.dumps(json.dumps(given))}))\n"
            "rescue => e\n  puts JSON.dump(e.message)\nend\n")
    ruby = shutil.which("ruby")
    assert ruby is not None
    printed = json.loads(subprocess.run([ruby, "-e", code], capture_output=True, text=True,
                                        check=True).stdout)
    assert any(re.fullmatch(r.record.message_pattern, printed, re.DOTALL) for r in found), (
        printed, [r.record.message_pattern for r in found])

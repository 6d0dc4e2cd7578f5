"""A Ruby factory that returns an error class built from a local it computes
(``def unexpected_keys(keys) extra = keys - known; UnknownKeysError.new(extra) end``):
``raise unexpected_keys(hash.keys)`` prints the class's message. Mined from a small
fixture repository and, where a ``ruby`` is installed, matched against what it raises."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing, ruby_raises

SCHEMA = '''\
# frozen_string_literal: true

module Acme
  class SchemaKeyError < KeyError
  end

  class UnknownKeysError < SchemaKeyError
    def initialize(keys)
      @keys = keys
      super("unexpected keys #{keys.inspect} in Hash input")
    end
  end

  class BuildError < RuntimeError
    def initialize(cmd, args)
      super "Failed executing: #{cmd} #{args.join(" ")}".strip
    end
  end

  class Schema
    KNOWN = %i[name age].freeze

    def check(hash)
      raise unexpected_keys(hash.keys)
    end

    def build(hash)
      make_report(hash)
    end

    def run(cmd, args)
      raise BuildError.new(cmd, args)
    end

    private

    def unexpected_keys(hash_keys)
      extra_keys = hash_keys - KNOWN
      UnknownKeysError.new(extra_keys)
    end

    def make_report(hash)
      Report.new(hash.size)
    end
  end
end
'''


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "compose_ruby_factory_locals", "locals",
                        {"lib/acme/schema.rb": SCHEMA})


def _at(records: list[errdex.StoredRecord], line: int) -> list[errdex.StoredRecord]:
    return [r for r in records if r.record.line_number == line]


def test_a_factory_returning_an_error_built_from_a_local_is_composed(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, records = mined
    line = line_starting(SCHEMA, "raise unexpected_keys(", stripped=True)
    [found] = _at(records, line)
    assert found.record.error_message == "unexpected keys #{keys.inspect} in Hash input"
    assert found.record.error_class == "UnknownKeysError"
    if missing("ruby"):
        return
    _, printed = ruby_raises(root / "lib/acme/schema.rb", "Acme::Schema", "check",
                             [{"name": 1, "size": 2, "x": 3}])
    assert re.fullmatch(found.record.message_pattern, printed), printed


def test_a_method_returning_a_value_that_is_no_error_is_no_factory(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    assert not any(r.record.error_class == "Report" for r in mined[1])


def test_a_class_message_stripped_of_its_blanks_is_its_text(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, records = mined
    [found] = _at(records, line_starting(SCHEMA, "raise BuildError.new(", stripped=True))
    assert found.record.error_message == 'Failed executing: #{cmd} #{args.join(" ")}'
    if missing("ruby"):
        return
    _, printed = ruby_raises(root / "lib/acme/schema.rb", "Acme::Schema", "run",
                             ["make", ["install"]])
    assert re.fullmatch(found.record.message_pattern, printed), printed

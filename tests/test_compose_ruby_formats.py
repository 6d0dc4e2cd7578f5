"""A Ruby helper that formats the text its callers pass (``raise X, message % [name,
value]``, ``format(message, …)``): each caller's record is its format filled with the
helper's values, of the class the helper raises. Mined from a small fixture repository
and, where a ``ruby`` is installed, matched against what it raises."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing

PARSER = '''\
# frozen_string_literal: true

module Acme
  class BadValue < ArgumentError
  end

  class Parser
    def one(name, value)
      check!(name, value, "Expected '%s' to be one of %s; got %s")
    end

    def many(name, value)
      check!(name, value, "Expected all values of '%s' to be one of %s; got %s")
    end

    def sized(name, value)
      limit!(name, value, "%s is %d characters long, over the limit")
    end

    private

    def check!(name, value, message)
      raise BadValue, message % [name, "a, b", value] unless %w[a b].include?(value)
    end

    def limit!(name, value, message)
      raise BadValue.new(format(message, name, value.size)) if value.size > 3
    end
  end
end
'''


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "compose_ruby_formats", "formats",
                        {"lib/acme/parser.rb": PARSER})


def _at(records: list[errdex.StoredRecord], method: str) -> list[errdex.StoredRecord]:
    line = line_starting(PARSER, f"def {method}(", stripped=True) + 1
    return [r for r in records if r.record.line_number == line]


CASES = [("one", ["--mode", "c"], "Expected '%s' to be one of a, b; got %s"),
         ("many", ["--mode", "z"], "Expected all values of '%s' to be one of a, b; got %s"),
         ("sized", ["title", "abcdef"], "%s is %d characters long, over the limit")]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_each_caller_gets_its_format_filled_by_the_helper(
    mined: tuple[Path, list[errdex.StoredRecord]], case: tuple[str, list[str], str],
) -> None:
    root, records = mined
    method, args, message = case
    [found] = _at(records, method)
    assert (found.record.error_message, found.record.error_class) == (message, "BadValue")
    if missing("ruby"):
        return
    ruby = shutil.which("ruby")
    assert ruby is not None
    code = (f"require 'json'\nrequire {str(root / 'lib/acme/parser.rb')!r}\n"
            f"begin\n  Acme::Parser.new.{method}(*JSON.parse({json.dumps(args)!r}))\n"
            "rescue => e\n  puts JSON.dump([e.class.name, e.message])\nend\n")
    done = subprocess.run([ruby, "-e", code], capture_output=True, text=True, check=True)
    name, printed = json.loads(done.stdout)
    assert name == "Acme::BadValue"
    assert re.fullmatch(found.record.message_pattern, printed), (printed,
                                                                  found.record.message_pattern)

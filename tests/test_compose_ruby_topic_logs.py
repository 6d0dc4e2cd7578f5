"""A Ruby project logger called with a topic and a message (``Site.logger.warn "Theme:",
"…"``; Ruby's own Logger takes one argument): the record is the line it prints, the topic,
a blank, then the message (a blank topic prints the message alone). Mined from a small
fixture repository whose logger is written like such projects' and, where a ``ruby`` is
installed, matched against what it prints."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing

SITE = '''\
# frozen_string_literal: true

module Acme
  class Adapter
    def warn(topic, message = nil)
      $stderr.puts(("#{topic} ".rjust(20) + message.to_s).strip)
    end
  end

  def self.logger
    @logger ||= Adapter.new
  end

  class Site
    def theme(config)
      Acme.logger.warn "Theme:", "value of 'theme' should be a String, got #{config.class}"
    end

    def convert(error)
      Acme.logger.warn "Conversion error:", error.message
    end

    def hint
      Acme.logger.warn "", "Connect to the Internet to enable it."
    end

    def relay(error)
      Acme.logger.warn "", error.message
    end
  end
end
'''

CASES = [("theme", "[1]", "Theme: value of 'theme' should be a String, got #{config.class}"),
         ("convert", "StandardError.new('bad scss')", "Conversion error: #{error.message}"),
         ("hint", "", "Connect to the Internet to enable it.")]


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "compose_ruby_topic_logs", "topics",
                        {"lib/acme/site.rb": SITE})


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_topic_and_message_logger_prints_both(
    mined: tuple[Path, list[errdex.StoredRecord]], case: tuple[str, str, str],
) -> None:
    root, records = mined
    method, argument, message = case
    line = line_starting(SITE, f"def {method}", stripped=True) + 1
    [found] = [r for r in records if r.record.line_number == line]
    assert found.record.error_message == message
    if missing("ruby"):
        return
    ruby = shutil.which("ruby")
    assert ruby is not None
    call = f"{method}({argument})" if argument else method
    code = f"require {str(root / 'lib/acme/site.rb')!r}\nAcme::Site.new.{call}\n"
    printed = subprocess.run([ruby, "-e", code], capture_output=True, text=True,
                             check=True).stderr.strip()
    assert re.fullmatch(found.record.message_pattern, printed), (printed,
                                                                  found.record.message_pattern)


def test_a_blank_topic_with_nothing_said_is_no_record(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    line = line_starting(SITE, "def relay", stripped=True) + 1
    assert [r for r in mined[1] if r.record.line_number == line] == []

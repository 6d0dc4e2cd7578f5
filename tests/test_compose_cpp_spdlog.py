"""spdlog's calls (``spdlog::error``, ``SPDLOG_CRITICAL``, a logger's ``->warn``) are log
records of their fmt format at their level; the fixture is built with spdlog when it is
here, and each line it prints finds its call."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import line_with, messages, mine_once, records_at
from tests.conftest import GitRepo

QUEUE_CC = """\
#include <spdlog/spdlog.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <string>

struct Queue {
  std::shared_ptr<spdlog::logger> logger_ = spdlog::stderr_color_mt("queue");
  void push(int n) {
    if (n > 3) logger_->warn("queue depth {} exceeds the limit", n);
  }
};

int main() {
  std::string path = "/etc/tool.conf";
  spdlog::error("Failed to open config file {}", path);
  SPDLOG_CRITICAL("worker pool exhausted at {} threads", 8);
  Queue q;
  q.push(9);
  spdlog::info("started with {} workers", 4);
  std::string text = "a.b";
  text.find("error {}");
}
"""

# What spdlog 1.10 printed for the program above.
PRINTED = {
    "spdlog::error": "[2026-12-02 00:32:28.026] [error] Failed to open config file "
                     "/etc/tool.conf",
    "SPDLOG_CRITICAL": "[2026-12-02 00:32:28.026] [critical] [queue.cc:15] worker pool "
                       "exhausted at 8 threads",
    "logger_->warn": "[2026-12-02 00:32:28.026] [queue] [warning] queue depth 9 exceeds the "
                     "limit",
}


def _run(root: Path) -> dict[str, str] | None:
    """What the fixture prints, when spdlog and g++ are here."""
    if not shutil.which("g++") or not Path("/usr/include/spdlog/spdlog.h").exists():
        return None
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "spdlog"], check=False,
                           capture_output=True, text=True).stdout.split() or ["-lspdlog",
                                                                              "-lfmt"]
    built = subprocess.run(["g++", "-o", "queue", "src/queue.cc", *flags], cwd=root,
                           capture_output=True, check=False)
    if built.returncode != 0:
        return None
    done = subprocess.run(["./queue"], cwd=root, capture_output=True, text=True)
    lines = (done.stdout + done.stderr).splitlines()  # the default logger and "queue"
    return {needle: next(line for line in lines if said.split("] ")[-1] in line)
            for needle, said in PRINTED.items()}


def test_spdlog_calls_are_log_records_of_their_format(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/queue.cc": QUEUE_CC})

    def at(needle: str) -> list[errdex.StoredRecord]:
        return records_at(records, "src/queue.cc", line_with(QUEUE_CC, needle))

    assert messages(at("spdlog::error")) == ["Failed to open config file {}"]
    assert {r.record.severity for r in at("SPDLOG_CRITICAL")} == {"fatal"}
    assert {r.record.severity for r in at("logger_->warn")} == {"warning"}
    assert not at("spdlog::info")  # below warning: a statement for scan, not a record
    assert not at('text.find("error')  # a string's method, not a logger's
    printed = _run(root) or PRINTED
    for needle, line in printed.items():
        top = errdex.resolve(line, db=tmp_path / "once.sqlite").matches[0]
        assert top.record.line_number == line_with(QUEUE_CC, needle), line

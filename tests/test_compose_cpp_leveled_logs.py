"""A log call in C++ naming its level, as C's are read (``c.log_sites``): a severity
constant before its format (``KV_RAW_LOG(ERROR, "down cast from %s to %s failed", …)``, as
Abseil's ``ABSL_RAW_LOG(FATAL, …)``) or a macro named after its level
(``KV_LOG_WARN(logger, "fmt", …)``, as RocksDB's ``ROCKS_LOG_WARN``). Before: no record (a
C++ file, or a C header, read no level). A text of pieces (``LOG_ERROR("n ", n)``) is not a
format: the repository's macro says what it prints (``test_compose_cpp_macros``). Checked
against what g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import fullmatches, line_with, mine_once, missing, one_record_at
from tests.conftest import GitRepo

LOG_H = """\
#pragma once
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace kv {
enum Severity { INFO, WARNING, ERROR, FATAL };

inline void raw_log(Severity severity, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    std::vfprintf(stderr, format, ap);
    va_end(ap);
    std::fputc('\\n', stderr);
    if (severity == FATAL) std::abort();
}

struct Logger { int level; };

inline void logv(Logger* logger, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    std::vfprintf(stderr, format, ap);
    va_end(ap);
    std::fputc('\\n', stderr);
}
}  // namespace kv

#define KV_RAW_LOG(severity, ...) ::kv::raw_log(::kv::severity, __VA_ARGS__)
#define KV_LOG_WARN(logger, ...) ::kv::logv(logger, __VA_ARGS__)
"""

MAIN_CC = """\
#include <cinttypes>
#include <cstdint>
#include <cstring>

#include "log.h"

static void check_cast(const char* from, const char* to) {
    KV_RAW_LOG(ERROR, "down cast from %s to %s failed", from, to);  // @raw
}

static void prefetch(kv::Logger* logger, uint64_t number, const char* why) {
    KV_LOG_WARN(logger, "Failed to pre-populate blob file %" PRIu64 " into the cache: %s",  // @warn
                number, why);
}

int main(int argc, char** argv) {
    kv::Logger logger{1};
    if (std::strcmp(argv[1], "cast") == 0) {
        check_cast("Base", "Derived");
    } else {
        prefetch(&logger, 7, "cache is full");
    }
    return 0;
}
"""


def test_a_cpp_log_call_naming_its_level_is_a_log_record(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"include/log.h": LOG_H,
                                                    "src/main.cc": MAIN_CC})
    raw = one_record_at(records, "src/main.cc", line_with(MAIN_CC, "// @raw"))
    warn = one_record_at(records, "src/main.cc", line_with(MAIN_CC, "// @warn"))
    assert (raw.record.error_type, raw.record.severity, raw.record.error_message) == (
        "log", "error", "down cast from %s to %s failed")
    assert (warn.record.error_type, warn.record.severity, warn.record.error_message) == (
        "log", "warning", "Failed to pre-populate blob file %{PRIu64} into the cache: %s")
    if missing("g++"):
        return
    subprocess.run(["g++", "-Iinclude", "-o", "app", "src/main.cc"], cwd=root, check=True,
                   capture_output=True)
    printed = {}
    for arg in ("cast", "warn"):
        done = subprocess.run(["./app", arg], cwd=root, capture_output=True, text=True,
                              check=True)
        printed[arg] = done.stderr.removesuffix("\n")
    assert printed == {"cast": "down cast from Base to Derived failed",
                       "warn": "Failed to pre-populate blob file 7 into the cache: cache is full"}
    assert fullmatches(raw, printed["cast"]), raw.record.message_pattern
    assert fullmatches(warn, printed["warn"]), warn.record.message_pattern

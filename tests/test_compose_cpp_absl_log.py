"""Abseil's own logging names (``ABSL_LOG(ERROR) << …``, ``ABSL_CHECK(cond) << …``,
``ABSL_CHECK_EQ(a, b)``, ``ABSL_PCHECK``) print as glog's do (``glog``). Before: no record
for ``ABSL_LOG(level)`` (only ``LOG`` and ``google::LOG`` were read) nor for ``ABSL_CHECK``
(an error macro with no text of its own). Abseil is not installed here: the pastes are
Abseil's documented line format (``E1202 00:38:55.051795   9249 file.cc:8] message``), the
check's wording glog's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import any_fullmatch, line_with, messages, mine_once, records_at
from tests.conftest import GitRepo

FIELDS_CC = """\
#include "absl/log/check.h"
#include "absl/log/log.h"

void Describe(int type, int count, int fd) {
  if (type > 18) ABSL_LOG(ERROR) << "Couldn't find field with type: " << type;
  if (type < 0) ABSL_LOG(FATAL) << "Unknown wire type in the descriptor " << type;
  ABSL_CHECK(count >= 0) << "Expected a non-negative field count";
  ABSL_CHECK_EQ(count, 3) << "Expected three fields in the message";
  ABSL_CHECK(type != count);
  ABSL_PCHECK(fd != -1) << "Failed to open the descriptor file";
}
"""

PRINTED = {
    "ABSL_LOG(ERROR)": "E1202 00:38:55.051795    9249 fields.cc:5] Couldn't find field with "
                       "type: 19",
    "ABSL_LOG(FATAL)": "F1202 00:38:55.051795    9249 fields.cc:6] Unknown wire type in the "
                       "descriptor -1",
    "ABSL_CHECK(count": "F1202 00:38:55.051795    9249 fields.cc:7] Check failed: count >= 0 "
                        "Expected a non-negative field count",
    "ABSL_CHECK_EQ": "F1202 00:38:55.051795    9249 fields.cc:8] Check failed: count == 3 "
                     "(2 vs. 3) Expected three fields in the message",
    "ABSL_CHECK(type": "F1202 00:38:55.051795    9249 fields.cc:9] Check failed: type != count",
    "ABSL_PCHECK": "F1202 00:38:55.051795    9249 fields.cc:10] Check failed: fd != -1 Failed "
                   "to open the descriptor file: Bad file descriptor [9]",
}


def test_abseil_logs_and_checks_are_records_worded_as_glog_prints_them(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    _, records = mine_once(make_repo, tmp_path, {"src/fields.cc": FIELDS_CC})
    error = records_at(records, "src/fields.cc", line_with(FIELDS_CC, "ABSL_LOG(ERROR)"))
    assert messages(error) == ["Couldn't find field with type: {type}"]
    assert {(r.record.error_type, r.record.severity) for r in error} == {("log", "error")}
    checked = records_at(records, "src/fields.cc", line_with(FIELDS_CC, "ABSL_CHECK(count"))
    assert messages(checked) == ["Check failed: count >= 0 Expected a non-negative field count"]
    assert {r.record.error_type for r in checked} == {"panic"}
    db = tmp_path / "once.sqlite"
    for needle, paste in PRINTED.items():
        line = line_with(FIELDS_CC, needle)
        found = records_at(records, "src/fields.cc", line)
        assert len(found) == 1, (needle, messages(found))
        assert any_fullmatch(found, paste.split("] ", 1)[1]), paste
        top = errdex.resolve(paste, db=db).matches[0]
        assert top.record.line_number == line, paste

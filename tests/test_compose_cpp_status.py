"""A status returned with its message (Abseil's ``absl::NotFoundError(msg)``,
``absl::Status(code, msg)``, gRPC's ``grpc::Status(code, msg)``) is an ``error`` record of
that message; a status with no worded message is none. Abseil is not installed here: the
printed form (``NOT_FOUND: …``, ``Status::ToString``) is Abseil's documented one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import line_with, messages, mine_once, records_at
from tests.conftest import GitRepo

STORE_CC = """\
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace store {

absl::Status Open(int port, const std::string& name) {
  if (port < 0) {
    return absl::InvalidArgumentError(absl::StrCat("port ", port, " is negative"));
  }
  if (name.empty()) {
    return absl::Status(absl::StatusCode::kNotFound, "no shard named in the request");
  }
  if (port == 0) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "shard server is draining");
  if (port == 1) return absl::Status(absl::StatusCode::kOk, "");
  return absl::OkStatus();
}

}  // namespace store
"""


def test_a_status_returned_with_its_message_is_a_record(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    _, records = mine_once(make_repo, tmp_path, {"src/store.cc": STORE_CC})
    found = records_at(records, "src/store.cc", line_with(STORE_CC, "InvalidArgumentError"))
    assert messages(found) == ["port {port} is negative"]
    assert {(r.record.error_type, r.record.error_class) for r in found} == {
        ("error", "absl::InvalidArgumentError")}
    assert messages(records_at(records, "src/store.cc", line_with(STORE_CC, "kNotFound"))
                    ) == ["no shard named in the request"]
    assert messages(records_at(records, "src/store.cc", line_with(STORE_CC, "UNAVAILABLE"))
                    ) == ["shard server is draining"]
    assert not records_at(records, "src/store.cc", line_with(STORE_CC, "kOk"))
    db = tmp_path / "once.sqlite"
    top = errdex.resolve("E1202 store.cc:88] open failed: INVALID_ARGUMENT: port -1 is negative",
                         db=db).matches[0]
    assert (top.record.file_path, top.record.line_number) == (
        "src/store.cc", line_with(STORE_CC, "InvalidArgumentError"))

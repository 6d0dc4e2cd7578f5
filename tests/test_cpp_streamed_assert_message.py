"""A project's assert macro given its message as a ``<<`` chain (``DOC_ASSERT_MESSAGE(cond,
"requires an object, but found " << name(kind))``, the macro streaming it into the error it
throws): the site's message is the chain, its literals as written and its values holes,
as an error macro's would be."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_with, mine_once, missing, native_runs, records_at
from tests.conftest import GitRepo

VALUE_CPP = """\
#include <cstdio>
#include <sstream>
#include <stdexcept>

#define DOC_FAIL(message) \\
    { std::ostringstream oss; oss << message; throw std::logic_error(oss.str()); }
#define DOC_ASSERT_MESSAGE(condition, message) \\
    if (!(condition)) { DOC_FAIL(message); }

static const char* kind_name(int kind) { return kind == 1 ? "array" : "null"; }

struct Value {
    int kind;
    Value& resolve(const char* key) {
        DOC_ASSERT_MESSAGE(kind == 0, "in Value::resolve(key): requires "
                                      "objectValue, but found " << kind_name(kind));  // here
        return *this;
    }
};

int main() {
    Value value{1};
    try { value.resolve("k"); }
    catch (const std::logic_error& e) { std::fprintf(stderr, "%s\\n", e.what()); }
    return 0;
}
"""


@pytest.fixture
def mined(make_repo: Callable[..., GitRepo], tmp_path: Path
          ) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_once(make_repo, tmp_path, {"src/value.cpp": VALUE_CPP})


def test_a_streamed_assert_message_is_the_sites_template(
        mined: tuple[Path, list[errdex.StoredRecord]]) -> None:
    _, records = mined
    at = line_with(VALUE_CPP, "DOC_ASSERT_MESSAGE(kind == 0")
    found = [r.record for r in records_at(records, "src/value.cpp", at)]
    assert [r.error_message for r in found] == [
        "in Value::resolve(key): requires objectValue, but found {kind_name(kind)}"]


def test_its_pattern_matches_what_the_program_prints(
        tmp_path: Path, mined: tuple[Path, list[errdex.StoredRecord]]) -> None:
    if missing("g++"):
        pytest.skip("no C++ compiler installed")
    (tmp_path / "value.cpp").write_text(VALUE_CPP, encoding="utf-8")
    [printed] = native_runs(tmp_path, ["g++", "-o", "value", "value.cpp"], [[]])
    assert printed == "in Value::resolve(key): requires objectValue, but found array"
    _, records = mined
    at = line_with(VALUE_CPP, "DOC_ASSERT_MESSAGE(kind == 0")
    [record] = [r.record for r in records_at(records, "src/value.cpp", at)]
    assert re.fullmatch(record.message_pattern, printed)

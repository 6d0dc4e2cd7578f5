"""C++ text streamed to stderr through a function handing the stream back (LLVM's
``llvm::errs()``, Catch2's ``Catch::cerr()``), checked against what g++'s build prints: a
log site like ``std::cerr << …`` (before: no record).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import fullmatches, line_with, mine_once, missing, records_at
from tests.conftest import GitRepo

TOOL_CPP = """\
#include <iostream>

namespace llvm {
inline std::ostream& errs() { return std::cerr; }
}  // namespace llvm
namespace harness {
inline std::ostream& cerr() { return std::cerr; }
}  // namespace harness

int main(int argc, char** argv) {
    if (argc > 2) {
        llvm::errs() << "error: unable to open '" << argv[1] << "'\\n";  // @errs
        return 1;
    }
    harness::cerr() << "Warning: could not parse shard index ('" << argv[1]  // @cerr
                    << "') as unsigned int.\\n";
    return 0;
}
"""


def test_text_streamed_to_a_function_handing_back_stderr_is_a_log_site(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/tool.cpp": TOOL_CPP})
    [errs] = records_at(records, "src/tool.cpp", line_with(TOOL_CPP, "// @errs"))
    [cerr] = records_at(records, "src/tool.cpp", line_with(TOOL_CPP, "// @cerr"))
    assert (errs.record.error_type, errs.record.error_message) == (
        "log", "error: unable to open '{argv[1]}'")
    assert (cerr.record.error_type, cerr.record.error_message) == (
        "log", "Warning: could not parse shard index ('{argv[1]}') as unsigned int.")
    if missing("g++"):
        return
    subprocess.run(["g++", "-o", "tool", "src/tool.cpp"], cwd=root, check=True,
                   capture_output=True)
    printed = {}
    for args in (["in.bc", "-v"], ["x7"]):
        done = subprocess.run(["./tool", *args], cwd=root, capture_output=True, text=True,
                              check=False)
        printed[args[0]] = done.stderr.removesuffix("\n")
    assert printed == {"in.bc": "error: unable to open 'in.bc'",
                       "x7": "Warning: could not parse shard index ('x7') as unsigned int."}
    assert fullmatches(errs, printed["in.bc"]), errs.record.message_pattern
    assert fullmatches(cerr, printed["x7"]), cerr.record.message_pattern

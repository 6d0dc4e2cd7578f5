"""The class a C++ ``terminate`` line names decides between a close template of that class
and another class's generic one the message fullmatches.

An older release printed a null position before the message
(``conf: error at line 0, column 0: cannot open settings file``): the base class's
``conf: error at line {}, column {}: {msg}`` fullmatches it for every subclass raised with a
position, while the class the paste names (``conf::MissingFile``) writes a close template.
The fixture's current wording was checked with g++ (``what():  cannot open settings file:
/nonexistent``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import errdex
from tests.conftest import GitRepo

ERRS = """#include <sstream>
#include <stdexcept>
#include <string>

namespace conf {

struct Mark {
  int line = -1, column = -1;
  bool is_null() const { return line < 0; }
};

class Exception : public std::runtime_error {
 public:
  Exception(const Mark& mark, const std::string& msg)
      : std::runtime_error(build_what(mark, msg)) {}

 private:
  static std::string build_what(const Mark& mark, const std::string& msg) {
    if (mark.is_null()) return msg;
    std::stringstream output;
    output << "conf: error at line " << mark.line + 1 << ", column " << mark.column + 1
           << ": " << msg;
    return output.str();
  }
};

class ParserException : public Exception {
 public:
  ParserException(const Mark& mark, const std::string& msg) : Exception(mark, msg) {}
};

class MissingFile : public Exception {
 public:
  explicit MissingFile(const std::string& filename)
      : Exception(Mark(), std::string("cannot open settings file: ") + filename) {}
};

}  // namespace conf
"""

LOAD = """#include <fstream>
#include "errs.h"

namespace conf {

void Parse(const std::string& text, const std::string& msg) {
  if (text.empty()) {
    Mark mark;
    mark.line = 0;
    mark.column = 0;
    throw ParserException(mark, msg);
  }
}

void LoadFile(const std::string& filename) {
  std::ifstream fin(filename);
  if (!fin) {
    throw MissingFile(filename);
  }
}

}  // namespace conf
"""

OLD_PASTE = ("terminate called after throwing an instance of 'conf::MissingFile'\n"
             "  what():  conf: error at line 0, column 0: cannot open settings file\n"
             "Aborted (core dumped)\n")


def _mined(make_repo: Callable[..., GitRepo], tmp_path: Path) -> str:
    repo = make_repo()
    repo.commit_files({"include/conf/errs.h": ERRS, "src/load.cpp": LOAD})
    db = str(tmp_path / "conf.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/conf", jobs=1)
    return db


def test_the_named_class_close_template_beats_another_class_generic_full_match(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined(make_repo, tmp_path)
    found = errdex.explain(OLD_PASTE, db=db)
    first = found[0]
    assert (first.record.file_path, first.record.line_number) == ("src/load.cpp", 18)
    assert first.record.error_class is not None
    assert first.record.error_class.endswith("MissingFile")
    assert "class" in first.reason and "matches" in first.reason
    # the generic template still fullmatches, below it
    assert any(m.record.file_path == "src/load.cpp" and m.record.line_number == 11
               for m in found[1:])


def test_without_a_class_the_generic_full_match_stays_first(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined(make_repo, tmp_path)
    found = errdex.explain("conf: error at line 0, column 0: cannot open settings file\n",
                           db=db)
    assert (found[0].record.file_path, found[0].record.line_number) == ("src/load.cpp", 11)

"""A failed ``assert`` whose condition is one call (``assert(IsObject())``), written in
several member functions of a class template: glibc prints the function whole
(``prog: doc.h:12: T Doc<E>::Find(const char*) [with E = char]: Assertion `IsObject()'
failed.``). The condition's words all touch the pattern's holes, the function tells the
sites apart: the paste must reach the assert of the function it names, and the assert
line a user typed with plain quotes still reads as one."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_with, missing, native_runs
from tests.conftest import GitRepo

DOC_H = """\
#include <assert.h>
#include <string.h>

namespace store {

template <typename Ch>
class Doc {
public:
    explicit Doc(bool object) : object_(object) {}
    bool IsObject() const { return object_; }
    int Size() const { assert(IsObject()); return 1; }  // size
    const Ch* Find(const Ch* name) const {
        assert(IsObject());  // find
        return name;
    }
    int Erase(const Ch* name) {
        assert(IsObject());  // erase
        return static_cast<int>(strlen(name));
    }
private:
    bool object_;
};

}  // namespace store
"""

MAIN_CPP = """\
#include "doc.h"

int main() {
    store::Doc<char> doc(false);
    return doc.Find("key") != 0;
}
"""


@pytest.fixture
def db(make_repo: Callable[..., GitRepo], tmp_path: Path) -> Path:
    repo = make_repo()
    repo.commit_files({"include/doc.h": DOC_H, "src/main.cpp": MAIN_CPP})
    path = tmp_path / "asserts.sqlite"
    errdex.mine(repo.root, db=path, jobs=1)
    return path


def _top(db: Path, paste: str) -> tuple[str, int, str]:
    [best, *_] = errdex.resolve(paste, db=db, top=5, repo="acme/widgets").matches
    return best.record.file_path, best.record.line_number, best.record.message_pattern


def test_the_function_gcc_prints_whole_picks_its_assert(db: Path) -> None:
    # printed by an older release: its line is far from the assert's now
    paste = ("tool: include/doc.h:40: const Ch* store::Doc<Ch>::Find(const Ch*) const [with Ch = "
             "char]: Assertion `IsObject()' failed.\nAborted (core dumped)\n")
    assert _top(db, paste)[:2] == ("include/doc.h", line_with(DOC_H, "// find"))


def test_plain_quotes_and_no_space_before_assertion_still_read(db: Path) -> None:
    paste = "include/doc.h:44: store::Doc<char>::Erase:Assertion 'IsObject()' failed.\n"
    assert _top(db, paste)[:2] == ("include/doc.h", line_with(DOC_H, "// erase"))


def test_androids_bionic_wording_reads_as_glibcs(db: Path) -> None:
    paste = ('include/doc.h:40: const Ch* store::Doc<Ch>::Find(const Ch*) const [with Ch = '
             'char]: assertion "IsObject()" failed\n')
    assert _top(db, paste)[:2] == ("include/doc.h", line_with(DOC_H, "// find"))


def test_what_glibc_prints_resolves_to_the_assert_that_failed(tmp_path: Path, db: Path) -> None:
    if missing("g++"):
        pytest.skip("no C++ compiler installed")
    (tmp_path / "doc.h").write_text(DOC_H, encoding="utf-8")
    (tmp_path / "main.cpp").write_text(MAIN_CPP, encoding="utf-8")
    [printed] = native_runs(tmp_path, ["g++", "-o", "tool", "main.cpp"], [[]])
    assert "Find(const Ch*) const [with Ch = char]: Assertion `IsObject()' failed." in printed
    path, line, pattern = _top(db, printed)
    assert (path, line) == ("include/doc.h", line_with(DOC_H, "// find"))
    assert re.fullmatch(pattern, printed.splitlines()[-1])


def test_a_pattern_whose_words_all_touch_its_holes_is_a_candidate(db: Path) -> None:
    index = errdex.open_index(db)
    found = index.candidates("x.h:1: f: Assertion `IsObject()' failed.")
    patterns = {pattern for pattern, _ in index._pattern_details(found).values()}
    assert r"(.*?)Assertion(.+?)IsObject\(\)(.+?)" in patterns

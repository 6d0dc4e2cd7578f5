"""A C++ library's Python bindings raise a standard C++ exception as a Python one
(``std::invalid_argument`` as ``ValueError``, ``std::out_of_range`` as ``IndexError``, the
rest of ``std::exception`` as ``RuntimeError``: pybind11's and nanobind's documented
translation). A Python traceback of such an error names the Python class: the C++ throw's
class matches it, it does not count against the site."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.conftest import GitRepo

STORE = """\
#include <stdexcept>
#include <string>

namespace shop {

void open_store(const std::string& path) {
    if (path.empty())
        throw std::invalid_argument("store path must not be empty");
    if (path.size() > 200)
        throw std::runtime_error("store path is longer than the file system allows: " + path);
}

int count(int n) {
    if (n > 1000) throw std::out_of_range("count is beyond the store's capacity");
    return n;
}

}
"""

BINDING = '''\
def check(path):
    if not path:
        raise TypeError("store path must not be empty")
'''


@pytest.fixture
def db(make_repo: Callable[..., GitRepo], tmp_path: Path) -> str:
    repo = make_repo()
    repo.commit_files({"src/store.cpp": STORE, "python/shop/check.py": BINDING})
    path = str(tmp_path / "shop.sqlite")
    errdex.mine(repo.root, db=path, repo="acme/shop", jobs=1)
    return path


@pytest.mark.parametrize(("paste", "line", "cpp_class"), [
    ("ValueError: store path must not be empty", 8, "std::invalid_argument"),
    ("IndexError: count is beyond the store's capacity", 14, "std::out_of_range"),
    ("RuntimeError: store path is longer than the file system allows: /x", 10,
     "std::runtime_error"),
])
def test_the_python_class_a_binding_raises_matches_the_cpp_throw(
    db: str, paste: str, line: int, cpp_class: str
) -> None:
    traceback = ("Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n"
                 "    shop.run()\n" + paste + "\n")
    found = errdex.explain(traceback, db=db)
    assert (found[0].record.file_path, found[0].record.line_number) == ("src/store.cpp", line)
    assert f"class {cpp_class} matches (a Python binding raises it as" in found[0].reason


def test_the_python_sides_own_raise_of_that_class_still_comes_first(db: str) -> None:
    found = errdex.explain("TypeError: store path must not be empty", db=db)
    assert found[0].record.file_path == "python/shop/check.py"
    cpp = next(m for m in found if m.record.file_path == "src/store.cpp")
    assert "class differs (std::invalid_argument)" in cpp.reason

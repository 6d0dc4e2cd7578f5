"""An example program's generic print (its error callback) must not outrank the library site
that wrote the message it re-prints; fixtures written here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import errdex
from errdex.lookup.ranking import in_example
from tests.conftest import GitRepo

LIBRARY = '''#include <stdio.h>

int open_display(const char *name, const char *why)
{
    if (name == NULL)
        return -1;
    report(TINY_PLATFORM_ERROR, "Tiny: Failed to open display: %s", why);
    return 0;
}
'''

EXAMPLE = '''#include <stdio.h>

static void error_callback(int code, const char *description)
{
    fprintf(stderr, "Tiny Error: %s\\n", description);
}

int main(void)
{
    if (!tiny_init()) {
        fprintf(stderr, "Failed to initialize the tiny window\\n");
        return 1;
    }
    return 0;
}
'''


def _mined(make_repo: Callable[..., GitRepo], tmp_path: Path) -> str:
    repo = make_repo()
    repo.commit_files({"src/display.c": LIBRARY, "examples/window.c": EXAMPLE})
    db = str(tmp_path / "tiny.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/tiny", jobs=1)
    return db


def test_the_library_site_beats_an_examples_callback_that_reprints_it(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined(make_repo, tmp_path)
    # the app's own callback prefixed the error code: the library's template matches the rest
    paste = ("Creating window...\n"
             "Tiny Error: 65543. Tiny: Failed to open display: no such server\n"
             "Failed to create window.")
    found = errdex.resolve(paste, db=db).matches
    assert [(m.record.file_path, m.record.line_number) for m in found][:2] == [
        ("src/display.c", 7), ("examples/window.c", 5)]
    assert "generic print of example code" in found[1].reason


def test_an_examples_own_message_still_resolves_to_the_example(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined(make_repo, tmp_path)
    found = errdex.resolve("Failed to initialize the tiny window", db=db).matches
    assert (found[0].record.file_path, found[0].record.line_number) == ("examples/window.c", 11)
    assert "example code" not in found[0].reason


def test_example_folders_are_read_by_name_not_by_file() -> None:
    assert in_example("examples/window.c") and in_example("docs/Samples/app.cpp")
    assert in_example("demo/main.c")
    assert not in_example("src/examples.c") and not in_example("src/display.c")

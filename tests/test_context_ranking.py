"""Context decides between repositories: a paste's format, its frames' packages and the
program it names rank the records of that language and repository first."""

from __future__ import annotations

import pytest

import errdex
from errdex.lookup.context import family_of_path, read_context
from errdex.lookup.parse import main_event

PARSER_PY = """\
class UsageError(Exception):
    pass


class BadOptionUsage(UsageError):
    pass


def parse(name):
    if not name.startswith("-"):
        return name
    raise BadOptionUsage(f"No such option: {name}")
"""

OPTIONS_C = """\
#include <stdio.h>
#include <stdlib.h>

static void usage_error(const char *name)
{
	fprintf(stderr, "No such option: %s\\n", name);
	exit(2);
}
"""

TRACEBACK = """\
Traceback (most recent call last):
  File "/home/me/tool/cli.py", line 8, in <module>
    main()
  File "/home/me/.venv/lib/python3.12/site-packages/clicky/core.py", line 1210, in main
    return self.invoke(ctx)
clicky.exceptions.NoSuchOption: No such option: --colour
"""


HINT_PY = 'HINT = "has no attribute named"\n'
HINT_C = 'static const char *hint = "has no attribute named";\n'


@pytest.fixture
def index(make_repo, store):
    python = make_repo("https://github.com/acme/clicky.git")
    python.commit_files({"src/clicky/parser.py": PARSER_PY, "src/clicky/hints.py": HINT_PY})
    errdex.mine(python.root, db=store)
    c = make_repo("https://github.com/bigco/bigc.git")
    c.commit_files({"src/options.c": OPTIONS_C, "src/hints.c": HINT_C})
    errdex.mine(c.root, db=store)
    return errdex.open_index(store)


def _places(matches):
    return [(m.record.repo, m.record.file_path) for m in matches]


def test_both_repositories_hold_the_wording(index):
    found = {repo for repo, _ in _places(index.explain("No such option: --colour"))}
    assert found == {"acme/clicky", "bigco/bigc"}


def test_python_traceback_resolves_to_the_python_file(index):
    (best, *_) = index.explain(TRACEBACK)
    assert (best.record.repo, best.record.file_path) == ("acme/clicky", "src/clicky/parser.py")
    assert "Python traceback: preferring Python records" in best.reason
    assert "package clicky" in best.reason  # its class's module, and its frames' folder


def test_usage_line_names_the_program(index):
    paste = ("Usage: clicky [OPTIONS] COMMAND\nTry 'clicky --help' for help.\n\n"
             "Error: No such option: --colour")
    (best, *_) = index.explain(paste)
    assert best.record.repo == "acme/clicky"
    assert "usage of program clicky" in best.reason


def test_log_prefix_names_the_c_program(index):
    (best, *_) = index.explain("bigc: error: No such option: --colour")
    assert best.record.repo == "bigco/bigc"
    assert "printed by program bigc" in best.reason


def test_records_no_runtime_of_the_paste_could_raise_are_places_only(index):
    paste = ('Exception in thread "main" java.lang.IllegalStateException: No such option: -x\n'
             "\tat com.acme.Cli.main(Cli.java:12)\n")
    matches = index.explain(paste)
    assert matches and all(m.approximate for m in matches)
    assert all("Java stack: not a JVM record" in m.reason for m in matches)


def test_text_sites_of_the_named_program_first(index):
    plain = [t.repo for t in index.text_sites("has no attribute named 'x'")]
    named = [t.repo for t in index.text_sites("bigc: error: has no attribute named 'x'")]
    assert plain == ["acme/clicky", "bigco/bigc"]  # no context: as found
    assert named == ["bigco/bigc", "acme/clicky"]


def test_no_context_says_nothing(index):
    for match in index.explain("No such option: --colour"):
        assert "preferring" not in match.reason and "package" not in match.reason


@pytest.mark.parametrize(("paste", "family", "names"), [
    (TRACEBACK, "python", ("clicky",)),
    ("thread 'main' panicked at src/lib.rs:3:5:\nboom\n", "rust", ()),
    ("Exception in thread \"main\" java.lang.IllegalStateException: boom\n"
     "\tat org.apache.zookeeper.ClientCnxn.run(ClientCnxn.java:12)\n", "jvm", ("zookeeper",)),
    ("TypeError: boom\n    at f (/app/node_modules/@scope/axios/lib/core.js:1:2)\n",
     "javascript", ("axios",)),
])
def test_read_context(paste, family, names):
    context = read_context(main_event(paste), paste)
    assert context.families == {family}
    assert context.names[:len(names)] == names


def test_a_bare_class_line_names_no_runtime():
    paste = "ColumnTypeUndefinedError: Column type for User#name is not defined"
    assert not read_context(main_event(paste), paste).families


def test_families_group_languages_of_one_runtime():
    assert family_of_path("src/a.tsx") == family_of_path("lib/b.js") == "javascript"
    assert family_of_path("A.kt") == family_of_path("B.java") == "jvm"
    assert family_of_path("x.h") == family_of_path("y.c") == "c"
    assert family_of_path("README") is None

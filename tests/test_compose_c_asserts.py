"""A failed ``assert`` prints its condition as written (and the string it may hold): C and
C++ assertions are records whose patterns match what gcc's and g++'s builds print, and a
pasted assertion line finds its statement; fixtures written here."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import any_fullmatch, line_with, messages, mine_once, missing, records_at
from tests.conftest import GitRepo

STACK_C = """\
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#define STACK_ASSERT(cond, msg) do { if (!(cond)) { fputs(msg, stderr); abort(); } } while (0)

struct stack { int depth; int size; };

static void push(struct stack *s, int n)
{
    assert(n >= 0 && "push needs a non-negative count");
    assert(s->depth < 64 && "Too many nested scopes, did you forget to pop?");
    assert(s->size >= 0);
    assert(0);
    s->depth += n;
}

static void pop(struct stack *s)
{
    assert(!"pop is not written yet");
    STACK_ASSERT(s->depth > 0, "pop on an empty stack");
    _Static_assert(sizeof(int) >= 2, "int holds 16 bits");
    assert(s);
    s->depth -= 1;
}

int main(int argc, char **argv)
{
    struct stack s = {70, 0};
    int which = argc > 1 ? atoi(argv[1]) : 0;
    if (which == 0)
        push(&s, -1);
    if (which == 1)
        push(&s, 1);
    s.depth = 0;
    s.size = -1;
    if (which == 2)
        push(&s, 1);
    pop(&s);
    return 0;
}
"""

TREE_CPP = """\
#include <cassert>
#include <string>

#define TREE_ASSERT(expr) assert(expr)

namespace tree {
struct Node {
    int children = 0;
    void close(const std::string& name) {
        TREE_ASSERT(children == 0 && "closing a node that still has children");
        TREE_ASSERT(!name.empty());
        children = -1;
    }
};
}  // namespace tree

int main() {
    tree::Node n;
    n.children = 2;
    n.close("root");
    return 0;
}
"""


def test_an_assertion_holding_a_string_is_a_record_of_it_and_of_its_condition(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/stack.c": STACK_C})
    at = line_with(STACK_C, '"Too many nested')
    found = records_at(records, "src/stack.c", at)
    assert "Too many nested scopes, did you forget to pop?" in messages(found)
    assert {r.record.error_type for r in found} == {"panic"}
    assert {r.record.severity for r in found} == {"fatal"}
    # what glibc prints (checked below against gcc's build), and MSVC's, musl's, macOS's
    assert any_fullmatch(found, "stack: src/stack.c:12: push: Assertion `s->depth < 64 && "
                                '"Too many nested scopes, did you forget to pop?"\' failed.')
    assert any_fullmatch(found, 'Assertion failed: s->depth < 64 && "Too many nested scopes, '
                                'did you forget to pop?", file src/stack.c, line 12')
    assert any_fullmatch(found, 'Assertion failed: (s->depth < 64 && "Too many nested scopes, '
                                'did you forget to pop?"), function push, file stack.c, line 12.')
    assert any_fullmatch(found, 'Assertion failed: s->depth < 64 && "Too many nested scopes, '
                                'did you forget to pop?" (src/stack.c: push: 12)')
    assert "pop is not written yet" in messages(
        records_at(records, "src/stack.c", line_with(STACK_C, "pop is not written")))
    # a project macro given its message after the condition prints it its own way
    assert messages(records_at(records, "src/stack.c", line_with(STACK_C, "STACK_ASSERT(s"))
                    ) == ["pop on an empty stack"]
    if missing("gcc"):
        return
    subprocess.run(["gcc", "-o", "stack", "src/stack.c"], cwd=root, check=True,
                   capture_output=True)
    for which, needle in (("0", "non-negative count"), ("1", '"Too many nested'),
                          ("2", "assert(s->size")):
        done = subprocess.run(["./stack", which], cwd=root, capture_output=True, text=True)
        printed = done.stderr.strip().splitlines()[-1]
        assert any_fullmatch(records_at(records, "src/stack.c", line_with(STACK_C, needle)),
                             printed), printed


def test_a_plain_assertion_is_its_condition_and_a_bare_one_no_record(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    _, records = mine_once(make_repo, tmp_path, {"src/stack.c": STACK_C})
    found = records_at(records, "src/stack.c", line_with(STACK_C, "assert(s->size"))
    assert messages(found) == ["Assertion `s->size >= 0' failed."]
    assert not any_fullmatch(found, "stack: src/stack.c:13: push: Assertion `s->size' failed.")
    assert not records_at(records, "src/stack.c", line_with(STACK_C, "assert(0)"))
    # a bare name is written alike everywhere: it says nothing
    assert not records_at(records, "src/stack.c", line_with(STACK_C, "assert(s);"))
    assert not records_at(records, "src/stack.c", line_with(STACK_C, "_Static_assert"))


def test_a_pasted_assertion_finds_its_statement_in_cpp(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/tree.cpp": TREE_CPP})
    at = line_with(TREE_CPP, "children == 0 &&")
    assert "closing a node that still has children" in messages(
        records_at(records, "src/tree.cpp", at))
    # a project macro given one condition is read as the assert most such macros expand to
    assert messages(records_at(records, "src/tree.cpp", line_with(TREE_CPP, "name.empty"))
                    ) == ["Assertion `!name.empty()' failed."]
    printed = ("tree: src/tree.cpp:10: void tree::Node::close(const std::string&): Assertion "
               '`children == 0 && "closing a node that still has children"\' failed.')
    if not missing("g++"):
        subprocess.run(["g++", "-o", "tree", "src/tree.cpp"], cwd=root, check=True,
                       capture_output=True)
        done = subprocess.run(["./tree"], cwd=root, capture_output=True, text=True)
        printed = done.stderr.strip().splitlines()[-1]
    db = tmp_path / "once.sqlite"
    paste = f"Building the tree\n{printed}\nAborted (core dumped)"
    top = errdex.resolve(paste, db=db).matches[0]
    assert (top.record.file_path, top.record.line_number) == ("src/tree.cpp", at)


def _stage(name: str) -> str:
    return (f"#include <assert.h>\n\nvoid {name}_open(int fd, int mode)\n{{\n"
            f"    assert(fd >= 0 && mode > 1);\n}}\n")


def test_a_pasted_assertion_picks_the_place_it_names_among_alike_ones(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    files = {f"src/{name}.c": _stage(name) for name in ("disk", "pipe", "sock")}
    mine_once(make_repo, tmp_path, files)
    db = tmp_path / "once.sqlite"
    for paste in (
        "tool: ../src/pipe.c:5: pipe_open: Assertion `fd >= 0 && mode > 1' failed.",
        "Assertion failed: (fd >= 0 && mode > 1), function pipe_open, file pipe.c, line 5.",
        "Assertion failed: fd >= 0 && mode > 1, file C:\\build\\src\\pipe.c, line 5",
        "Assertion failed: fd >= 0 && mode > 1 (src/pipe.c: pipe_open: 5)",
    ):
        found = errdex.resolve(f"Opening the pipe\n{paste}\nAborted", db=db).matches
        assert [(m.record.file_path, m.record.line_number) for m in found][:1] == [
            ("src/pipe.c", 5)], paste
        assert len(found) == 3  # the alike ones still follow

"""A project's assert macro given a message after its condition, expanding to an
``assert`` of both (``#define MY_ASSERT(c, msg) assert((c) && msg)``), prints the expansion
when it fails: a record whose pattern holds the condition and the message as written, in
the C libraries' wordings. A macro of the same file that prints its own way has none.
Fixtures written here, their output checked with gcc and g++."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import any_fullmatch, line_with, messages, mine_once, missing, records_at
from tests.conftest import GitRepo

KIT_H = """\
#include <assert.h>
#define KIT_ASSERT(_EXPR) assert(_EXPR)
#define KIT_ASSERT_USER_ERROR(_EXPR, _MSG) KIT_ASSERT((_EXPR) && _MSG)
"""

KIT_CPP = """\
#include "kit.h"

namespace kit {
struct Stack {
  int depth = 0;
  void pop() {
    KIT_ASSERT_USER_ERROR(depth   > 0, "Calling pop() too many times!");
    depth -= 1;
  }
};
}  // namespace kit

int main() {
  kit::Stack s;
  s.pop();
  return 0;
}
"""

QUEUE_C = """\
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#define Q_ASSERT_MSG(cond, msg) assert(((cond)) && (msg))
#define Q_ASSERT_PRINT(cond, msg) do { if (!(cond)) { fputs(msg, stderr); abort(); } } while (0)

static int take(int *items, int n) {
  Q_ASSERT_PRINT(items != NULL, "take from a missing queue");
  Q_ASSERT_MSG(n > 0, "take from an empty queue");
  return items[n - 1];
}

int main(void) {
  int items[1] = {3};
  return take(items, 0);
}
"""


def test_a_macro_expanding_to_an_assert_of_its_message_prints_the_expansion(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    files = {"src/kit.h": KIT_H, "src/kit.cpp": KIT_CPP, "src/queue.c": QUEUE_C}
    root, records = mine_once(make_repo, tmp_path, files)
    kit = records_at(records, "src/kit.cpp", line_with(KIT_CPP, "KIT_ASSERT_USER_ERROR("))
    assert "Calling pop() too many times!" in messages(kit)
    queue = records_at(records, "src/queue.c", line_with(QUEUE_C, "Q_ASSERT_MSG(n"))
    assert "take from an empty queue" in messages(queue)
    # a macro of this file that prints its own way: the message alone
    assert messages(records_at(records, "src/queue.c", line_with(QUEUE_C, "Q_ASSERT_PRINT(items"))
                    ) == ["take from a missing queue"]
    printed = {
        "kit": "kit: src/kit.cpp:7: void kit::Stack::pop(): Assertion `(depth > 0) && "
               '"Calling pop() too many times!"\' failed.',
        "queue": "queue: src/queue.c:10: take: Assertion `((n > 0)) && (\"take from an empty "
                 "queue\")' failed.",
    }
    for name, source, compiler in (("kit", "src/kit.cpp", "g++"),
                                   ("queue", "src/queue.c", "gcc")):
        if missing(compiler):
            continue
        subprocess.run([compiler, "-o", name, source], cwd=root, check=True,
                       capture_output=True)
        done = subprocess.run([f"./{name}"], cwd=root, capture_output=True, text=True)
        printed[name] = done.stderr.strip().splitlines()[-1]
    assert any_fullmatch(kit, printed["kit"])
    assert any_fullmatch(queue, printed["queue"])
    assert any_fullmatch(queue, "Assertion failed: ((n > 0)) && (\"take from an empty queue\"),"
                                " file src/queue.c, line 10")
    db = tmp_path / "once.sqlite"
    for name, path, needle, source in (("kit", "src/kit.cpp", "KIT_ASSERT_USER_ERROR(", KIT_CPP),
                                       ("queue", "src/queue.c", "Q_ASSERT_MSG(n", QUEUE_C)):
        top = errdex.resolve(f"{printed[name]}\nAborted (core dumped)", db=db).matches[0]
        assert (top.record.file_path, top.record.line_number) == (
            path, line_with(source, needle)), printed[name]

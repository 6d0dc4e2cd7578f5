"""A site gone for good whose function still raises a similar message beside it (two
branches merged into the one that already existed, mine --history) resolves to that site."""

from __future__ import annotations

import errdex

NEWER = "    raise KeyError(f'Cannot index {value} with {key} (expected an int or a str)')\n"
TWO_BRANCHES = ("def index(value, key):\n"
                "    if key is None:\n"
                "        raise KeyError(f'Cannot index {value} with {key}')\n" + NEWER)
ONE_BRANCH = "def index(value, key):\n" + NEWER
PASTE = "KeyError: Cannot index object with number"
ELSEWHERE = ("def index(value, key):\n" + NEWER + "\n\n"
             "def lookup(value, key):\n"
             "    raise KeyError(f'Cannot look up {key} in {value}')\n")


def test_a_branch_merged_into_its_neighbour_resolves_to_it(two_releases, store):
    repo = two_releases({"pkg/index.py": TWO_BRANCHES}, {"pkg/index.py": ONE_BRANCH})
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.linked for r in summary.releases] == [0, 0]  # nothing new to link to
    (match, *_) = errdex.explain(PASTE, db=store)
    assert (match.record.file_path, match.record.line_number) == ("pkg/index.py", 2)
    assert match.removed is None and match.version is not None
    assert match.version.template == "Cannot index {value} with {key}"
    assert (match.version.span(), match.version.line_number) == ("v1.0.0", 3)
    assert "an older wording of this site (v1.0.0)" in match.reason


def test_a_site_gone_from_a_function_with_no_similar_raise_stays_removed(two_releases,
                                                                         store):
    old = {"pkg/index.py": TWO_BRANCHES.replace("def index", "def fetch", 1)
           .replace(NEWER, "")}
    repo = two_releases(old, {"pkg/index.py": ELSEWHERE})
    errdex.mine_history(repo.root, db=store)
    (match, *_) = errdex.explain(PASTE, db=store)
    assert match.record.file_path == "pkg/index.py" and match.record.line_number == 3
    assert match.removed is not None  # another function's raise is not its successor


def test_a_merged_branch_resolves_on_either_backend(two_releases, backend_store):
    repo = two_releases({"pkg/index.py": TWO_BRANCHES}, {"pkg/index.py": ONE_BRANCH})
    errdex.mine_history(repo.root, db=backend_store)
    (match, *_) = errdex.explain(PASTE, db=backend_store)
    assert (match.record.line_number, match.removed) == (2, None)
    assert match.version is not None and match.version.line_number == 3


HINTED_RAISE = (
    "    raise RuntimeError(f\"Don't know how to build task '{name}' (See the list of \"\n"
    "                       f\"available tasks with `{tool_name} --tasks`)\"\n"
    "                       f\"{did_you_mean_suggestions(name)}\")\n")
HINTED = ("def task(name, tool_name):\n"
          "    if tool_name is None:\n"
          "        raise RuntimeError(f\"Don't know how to build task '{name}' (see --tasks)\")\n"
          + HINTED_RAISE)
HINTED_ONLY = "def task(name, tool_name):\n" + HINTED_RAISE


def test_a_branch_merged_into_one_spelling_its_hint_out_resolves_to_it(two_releases, store):
    """The current wording holds the old one's words and more (a hint spelled out, a
    suggestion appended): too unlike it as a whole, held by it in part."""
    repo = two_releases({"pkg/tasks.py": HINTED}, {"pkg/tasks.py": HINTED_ONLY})
    errdex.mine_history(repo.root, db=store)
    (match, *_) = errdex.explain(
        "RuntimeError: Don't know how to build task 'cases' (see --tasks)", db=store)
    assert (match.record.file_path, match.record.line_number) == ("pkg/tasks.py", 2)
    assert match.removed is None and not match.approximate
    assert match.version is not None and match.version.template.endswith("(see --tasks)")

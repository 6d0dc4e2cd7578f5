"""A site gone for good whose message lives on, reworded, in a helper of its file, and the
file moved since (requests' header check, mine --history): the paste of the oldest
wording resolves to the helper's raise where it is today."""

from __future__ import annotations

from collections.abc import Callable

import errdex
from tests.conftest import GitRepo, git

SIBLING = ("def parse_url(url):\n"
           "    raise InvalidURL(f'Invalid URL {url!r}: no scheme supplied')\n\n\n")
OLD = SIBLING + (
    "def check_header(header):\n"
    "    name, value = header\n"
    "    if not valid(value):\n"
    "        raise InvalidHeader('Invalid return character or leading space in header: %s'"
    " % name)\n")
HELPER = (
    "def check_header(header):\n"
    "    name, value = header\n"
    "    _validate_part(value, KINDS[1])\n\n\n"
    "def _validate_part(part, kind):\n"
    "    if not valid(part):\n"
    "        raise InvalidHeader(f'Invalid leading whitespace, reserved character(s), or '\n"
    "                            f'return character(s) in header {kind}: {part!r}')\n")
PASTE = ("requests.exceptions.InvalidHeader: Invalid return character or leading space in "
         "header: Value1")


def releases(make_repo: Callable[..., GitRepo], *versions: dict[str, str]) -> GitRepo:
    repo = make_repo()
    for number, files in enumerate(versions, 1):
        for path in repo.root.rglob("*.py"):
            if str(path.relative_to(repo.root)) not in files:
                path.unlink()
        repo.commit_files(files, f"v{number}.0.0")
        git(repo.root, "tag", f"v{number}.0.0")
    return repo


def test_a_wording_moved_into_a_helper_of_a_moved_file_resolves_to_it(make_repo,
                                                                      backend_store):
    repo = releases(make_repo, {"pkg/utils.py": OLD}, {"pkg/utils.py": SIBLING + HELPER},
                    {"src/pkg/utils.py": SIBLING + HELPER})
    errdex.mine_history(repo.root, db=backend_store)
    (match, *_) = errdex.explain(PASTE, db=backend_store)
    assert (match.record.file_path, match.record.line_number) == ("src/pkg/utils.py", 12)
    assert match.removed is None and not match.approximate
    assert match.version is not None and match.version.file_path == "pkg/utils.py"
    assert match.version.span() == "v1.0.0"
    assert "an older wording of this site (v1.0.0)" in match.reason


def test_a_similar_raise_printed_beside_it_all_along_is_not_its_successor(make_repo, store):
    """The helper existed while the old wording was printed: another message, not the
    one that took over; the gone wording stays removed."""
    beside = OLD + "\n\n" + HELPER.replace("def check_header(header):\n    name, value = "
                                            "header\n    _validate_part(value, KINDS[1])\n\n\n",
                                            "")
    repo = releases(make_repo, {"pkg/utils.py": beside},
                    {"pkg/utils.py": SIBLING + HELPER})
    errdex.mine_history(repo.root, db=store)
    (match, *_) = errdex.explain(PASTE, db=store)
    assert (match.record.file_path, match.removed is not None) == ("pkg/utils.py", True)

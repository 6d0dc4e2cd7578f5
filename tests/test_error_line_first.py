"""A record matching the paste's error line whole is not outranked by a hint printed under it.

A tool prints its error, then a list of possible causes written as one long literal
elsewhere. The hint says more words of the paste than the error's template, but none of
the error line: the record is the answer, as it is for the error line pasted alone.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import errdex
from tests.conftest import GitRepo

INSTALLER = '''<?php

namespace Shop;

class Installer
{
    public function run(bool $solved): void
    {
        if (!$solved) {
            throw new \\RuntimeException('Cart requirements could not be resolved to packages.');
        }
    }
}
'''
HINTS = '''<?php

namespace Shop;

class Problems
{
    public function hints(): array
    {
        $hints = [];
        $hints[] = "Potential causes:\\n - A typo in the cart package name\\n - No stable version";
        return $hints;
    }
}
'''
PASTE = """Updating dependencies
Cart requirements could not be resolved to packages.

  Problem 1
    - The requested package acme/cart could not be found.

Potential causes:
 - A typo in the cart package name
 - No stable version

Installation failed, reverting ./composer.json to its original content.
"""


def _mined(make_repo: Callable[..., GitRepo], tmp_path: Path) -> str:
    repo = make_repo()
    repo.commit_files({"src/Installer.php": INSTALLER, "src/Problems.php": HINTS})
    db = str(tmp_path / "shop.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/shop", jobs=1)
    return db


def test_the_error_lines_record_stays_first_over_a_longer_hint(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined(make_repo, tmp_path)
    texts = errdex.text_sites(PASTE, db=db)
    assert texts and texts[0].site.file_path == "src/Problems.php"  # the hint is found
    found = errdex.resolve(PASTE, db=db)
    assert [(m.record.file_path, m.record.line_number, m.approximate)
            for m in found.matches][:1] == [("src/Installer.php", 10, False)]
    assert found.text_sites == []


def test_a_line_saying_more_of_the_error_line_itself_still_wins(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"src/Reader.php": '''<?php

const WHY = "Could not read from the remote cart repository";

function read(string $what): void
{
    throw new \\RuntimeException("Could not read $what");
}
'''})
    db = str(tmp_path / "reader.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/shop", jobs=1)
    found = errdex.resolve("Could not read from the remote cart repository\n\nPlease make "
                           "sure you have the correct access rights.\n", db=db)
    assert [(t.site.file_path, t.site.line_number) for t in found.text_sites][:1] == [
        ("src/Reader.php", 3)]

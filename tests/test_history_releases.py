"""Which tags ``mine --history`` reads as releases: a build or channel tag of a version is
not a later version of its own."""

from __future__ import annotations

import errdex
from errdex.repo.releases import Release, family, main_family, version_key
from tests.conftest import git


def test_a_tag_naming_a_build_of_a_version_is_not_a_release():
    for tag in ("v0.7.3-eap-13", "v2.1.0_build_7", "release-1.4.2-hotfix-3"):
        assert version_key(tag) is None


def test_named_releases_still_read_as_versions():
    for tag, numbers in (("release-1.2", (1, 2)), ("ktor-3.3.0", (3, 3, 0)),
                         ("lib2-4.0.1", (4, 0, 1)), ("v1.10.0", (1, 10, 0))):
        read = version_key(tag)
        assert read is not None and read[0][0] == numbers


def test_tags_of_another_product_are_left_out_of_the_history(make_repo, store):
    """``ktor-1.5.0`` numbers another product: ordered among 1.x it would be mined out of
    place, its files' sites removed and revived."""
    repo = make_repo()
    for number, tag in enumerate(("1.0.0", "ktor-1.5.0", "2.0.0", "ktor-1.6.0", "3.0.0")):
        repo.commit_files({"app.py": f"def f():\n    raise ValueError('step {number} failed')\n"},
                          tag)
        git(repo.root, "tag", tag)
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.name for r in summary.releases] == ["1.0.0", "2.0.0", "3.0.0"]
    assert summary.skipped_tags["another tag family"] == 2


def test_a_generic_release_word_is_the_plain_family():
    plain = [Release(tag, str(n), version_key(tag)[0], False)  # type: ignore[index]
             for n, tag in enumerate(("release-1.0", "v1.1", "1.2", "gitgui-0.9"))]
    assert [family(r) for r in plain] == ["", "", "", "gitgui"]
    assert [r.name for r in main_family(plain)] == ["release-1.0", "v1.1", "1.2"]


def _commit(repo, monkeypatch, day: int, text: str, tag: str | None = None) -> None:
    monkeypatch.setenv("GIT_COMMITTER_DATE", f"2024-01-{day:02d}T12:00:00")
    repo.commit_files({"app.py": f"def f():\n    raise ValueError('{text}')\n"}, text)
    if tag:
        git(repo.root, "tag", tag)


def test_a_release_tagged_on_its_release_branch_is_in_the_history(make_repo, store,
                                                                   monkeypatch):
    """redis tags ``7.4.0`` on its ``7.4`` branch, never merged back into the mined line."""
    repo = make_repo()
    _commit(repo, monkeypatch, 1, "the first wording", "1.0.0")
    git(repo.root, "checkout", "--quiet", "-b", "1.1")
    _commit(repo, monkeypatch, 2, "the branch wording", "1.1.0")
    git(repo.root, "checkout", "--quiet", "main")
    _commit(repo, monkeypatch, 3, "the wording now")
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.name for r in summary.releases][:2] == ["1.0.0", "1.1.0"]
    assert len(summary.releases) == 3


def test_a_tag_of_an_abandoned_line_is_not(make_repo, store, monkeypatch):
    """``3.0.0`` on a rewrite branch, then ``2.5.0`` on the mined line: not a release of it."""
    repo = make_repo()
    _commit(repo, monkeypatch, 1, "the first wording", "1.0.0")
    git(repo.root, "checkout", "--quiet", "-b", "rewrite")
    _commit(repo, monkeypatch, 2, "the rewrite's wording", "3.0.0")
    git(repo.root, "checkout", "--quiet", "main")
    _commit(repo, monkeypatch, 3, "the second wording", "2.5.0")
    _commit(repo, monkeypatch, 4, "the wording now")
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.name for r in summary.releases][:2] == ["1.0.0", "2.5.0"]
    assert summary.skipped_tags["not in the mined revision's history"] == 1

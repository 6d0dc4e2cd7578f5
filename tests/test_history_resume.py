"""An interrupted ``mine --history`` leaves a store that the same command resumes: wherever
the run is killed, running it again gives the store an uninterrupted run writes."""

from __future__ import annotations

import subprocess

import pytest

import errdex
from errdex.mining import history, lineage
from errdex.store import lineage as table
from errdex.store.sqlite import SQLiteStore

W1 = "cannot open the cache directory {path}"
W2 = "could not open the cache directory {path}"
W3 = "could not open the cache folder {path}"


class Killed(BaseException):
    """Stands for a kill: not an ``Exception``, so nothing on the way catches it."""


def _three_releases(make_repo):
    """v1.0.0 W1, v1.1.0 reworded (W2), v1.2.0 reworded again (W3); one stable site."""
    repo = make_repo()
    stable = "def parse(text):\n    raise TypeError(f'expected text, got {text!r}')\n"
    for tag, wording in (("v1.0.0", W1), ("v1.1.0", W2), ("v1.2.0", W3)):
        repo.commit_files({"pkg/parse.py": stable,
                           "pkg/cache.py": f"def open_cache(path):\n"
                                           f"    raise OSError(f'{wording}')\n"}, tag)
        subprocess.run(["git", "-C", str(repo.root), "tag", tag], check=True)
    return repo


def _state(store: SQLiteStore) -> tuple[object, ...]:
    """What a history run leaves: releases, each record (wording, removed), and each
    wording's site and release range."""
    releases = [name for name, _ in table.releases(store, "acme/widgets")]
    ids = [row[0] for row in store._execute("SELECT id FROM records WHERE repo = ?",
                                            ("acme/widgets",))]
    stored = store.get_many(ids)
    records = sorted((s.record.error_message, s.removed is not None) for s in stored.values())
    wordings = sorted(
        (stored[w.id].record.error_message, stored[w.site_id].record.error_message,
         w.first_seen, w.last_seen) for w in table.wordings(store, ids).values())
    return releases, records, wordings


def _kill_once(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, at: int) -> None:
    """Make ``owner.name`` raise ``Killed`` on its ``at``-th call (counted from 1)."""
    real = getattr(owner, name)
    calls = iter(range(1, 1000))

    def killing(*args: object, **kwargs: object) -> object:
        if next(calls) == at:
            raise Killed
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, killing)


# where a run can be killed while mining v1.1.0 (the release that relinks W1 to W2)
KILL_POINTS = {
    "in the release's mine": (history, "mine", 2),
    "after its mine, before its stamp": (history, "link_release", 2),
    "after its stamp, before its links": (table, "link_wordings", 2),
}


@pytest.mark.parametrize("where", list(KILL_POINTS))
def test_a_killed_history_run_resumes_to_the_uninterrupted_store(make_repo, store, tmp_path,
                                                                 monkeypatch, where):
    repo = _three_releases(make_repo)
    with SQLiteStore(tmp_path / "whole.sqlite") as whole:
        errdex.mine_history(repo.root, db=whole)
        expected = _state(whole)
    assert expected[0] == ["v1.0.0", "v1.1.0", "v1.2.0"]
    assert (W1, W3, "v1.0.0", "v1.0.0") in expected[2]  # linked twice, to the newest

    owner, name, at = KILL_POINTS[where]
    with monkeypatch.context() as patch:
        _kill_once(patch, owner, name, at)
        with pytest.raises(Killed):
            errdex.mine_history(repo.root, db=store)
    assert _state(store)[0] == ["v1.0.0"]  # v1.1.0 is not stamped: the resumed run mines it
    resumed = errdex.mine_history(repo.root, db=store)
    assert [r.name for r in resumed.mined] == ["v1.1.0", "v1.2.0"]
    assert _state(store) == expected
    (match, *_) = errdex.explain("OSError: cannot open the cache directory /tmp/c", db=store)
    assert match.record.error_message == W3 and match.removed is None
    assert match.version is not None and match.version.span() == "v1.0.0"


def test_the_stamp_and_links_of_a_release_are_one_write(make_repo, store, monkeypatch):
    """Killed while linking, the release's stamp is rolled back with the links."""
    repo = _three_releases(make_repo)
    _kill_once(monkeypatch, lineage, "pair_wordings", 2)  # v1.1.0, inside its write
    with pytest.raises(Killed):
        errdex.mine_history(repo.root, db=store)
    assert [name for name, _ in table.releases(store, "acme/widgets")] == ["v1.0.0"]


def test_releases_another_miner_version_stamped_are_all_mined_again(make_repo, store,
                                                                    tmp_path, monkeypatch):
    """An upgrade that changes what extraction produces (another ``EXTRACTION_REVISION``)
    mines the whole history again, from its first release: the store then equals a fresh
    run's, with no record of the older extractor left (one was planted to show it)."""
    repo = _three_releases(make_repo)
    with SQLiteStore(tmp_path / "fresh.sqlite") as fresh:
        errdex.mine_history(repo.root, db=fresh)
        expected = _state(fresh)
    with monkeypatch.context() as patch:
        patch.setattr("errdex.mining.extract.EXTRACTION_REVISION", -1)
        errdex.mine_history(repo.root, db=store)
    store._execute("UPDATE records SET record_json = replace(record_json, ?, ?) WHERE repo = ?",
                   ("expected text", "expected a text", "acme/widgets"))
    again = errdex.mine_history(repo.root, db=store)
    assert again.restarted
    assert [r.name for r in again.mined] == ["v1.0.0", "v1.1.0", "v1.2.0"]
    assert _state(store) == expected
    unchanged = errdex.mine_history(repo.root, db=store)  # the same version: nothing to do
    assert not unchanged.restarted and unchanged.mined == []


def test_a_history_another_version_stamped_is_mined_again_on_either_backend(
        make_repo, backend_store, monkeypatch):
    repo = _three_releases(make_repo)
    with monkeypatch.context() as patch:
        patch.setattr("errdex.mining.extract.EXTRACTION_REVISION", -1)
        errdex.mine_history(repo.root, db=backend_store)
    again = errdex.mine_history(repo.root, db=backend_store)
    assert again.restarted
    assert [r.name for r in again.mined] == ["v1.0.0", "v1.1.0", "v1.2.0"]
    assert [name for name, _ in table.releases(backend_store, "acme/widgets")] == [
        "v1.0.0", "v1.1.0", "v1.2.0"]
    (match, *_) = errdex.explain("OSError: cannot open the cache directory /tmp/c",
                                 db=backend_store)
    assert match.record.error_message == W3 and match.removed is None
    assert match.version is not None and match.version.span() == "v1.0.0"

"""Mining every release (mine --history) and following a site's wordings across them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

import errdex
from errdex.interfaces.cli import main
from errdex.repo.git import MISSING_BLOB
from errdex.repo.releases import release_tags, version_key
from errdex.store import lineage as table

W1 = "cannot read config file {path}"
W2 = "could not read the config file {path}"
W3 = "could not read the configuration file {path}"
STABLE = "def parse(text):\n    raise TypeError(f'expected text, got {type(text).__name__}')\n"
WRAPPER = "def fail(msg):\n    raise RuntimeError(f'error: {msg}')\n"


def _load(message: str) -> str:
    return f"def load(path):\n    raise ValueError(f'{message}')\n"


def _five_releases(make_repo) -> tuple[object, dict[str, str]]:
    """v1.0.0 W1 in config.py; v1.1.0 reworded (W2); v1.2.0 moved to settings.py;
    v1.3.0 reworded again (W3); v1.4.0 removed. Tags made out of order (1.10 before 1.9
    would sort wrong by name; here: an annotated tag and a pre-release too)."""
    repo = make_repo()
    shas: dict[str, str] = {}
    repo.write("pkg/parse.py", STABLE)
    repo.write("pkg/fail.py", WRAPPER)
    repo.write("pkg/config.py", _load(W1))
    shas["v1.0.0"] = repo.commit("v1.0.0")
    repo.write("pkg/config.py", "\n" + _load(W2))
    shas["v1.1.0"] = repo.commit("v1.1.0")
    (repo.root / "pkg" / "config.py").unlink()
    repo.write("pkg/settings.py", "import os\n\n\n" + _load(W2))
    shas["v1.2.0"] = repo.commit("v1.2.0")
    repo.write("pkg/settings.py", "import os\n\n\n" + _load(W3))
    shas["v1.3.0"] = repo.commit("v1.3.0")
    repo.write("pkg/settings.py", "import os\n\n\ndef load(path):\n    return open(path)\n")
    shas["v1.4.0"] = repo.commit("v1.4.0")
    for name, sha in shas.items():
        args = ["tag", "-a", name, "-m", name, sha] if name == "v1.2.0" else ["tag", name, sha]
        subprocess.run(["git", "-C", str(repo.root), *args], check=True)
    subprocess.run(["git", "-C", str(repo.root), "tag", "v1.3.0rc1", shas["v1.2.0"]], check=True)
    subprocess.run(["git", "-C", str(repo.root), "tag", "nightly", shas["v1.1.0"]], check=True)
    return repo, shas


def test_version_order_not_name_order():
    names = ["v1.10.0", "v1.9.0", "release-1.2", "V_6_6_P1", "V_6_6", "2.0.0rc1", "2.0.0"]
    ordered = sorted(names, key=lambda n: version_key(n)[0])  # type: ignore[index]
    assert ordered == ["release-1.2", "v1.9.0", "v1.10.0", "2.0.0rc1", "2.0.0", "V_6_6",
                       "V_6_6_P1"]
    assert version_key("nightly") is None and version_key("2fa-fix") is None
    assert version_key("v2.0.0-beta.2")[1] is True  # type: ignore[index]


def test_each_wording_resolves_to_the_site_with_its_release_range(make_repo, store):
    repo, shas = _five_releases(make_repo)
    found = release_tags(repo.root)
    assert [t.name for t in found.tags] == ["v1.0.0", "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0"]
    assert found.skipped["pre-release"] == 1 and found.skipped["not a version"] == 1
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.name for r in summary.releases] == ["v1.0.0", "v1.1.0", "v1.2.0", "v1.3.0",
                                                  "v1.4.0"]  # HEAD is v1.4.0: not twice
    assert summary.releases[0].summary is not None
    assert all(r.summary and r.summary.incremental for r in summary.releases[1:])
    # reworded (v1.1.0), moved (v1.2.0), reworded (v1.3.0): each linked once
    assert [r.linked for r in summary.releases] == [0, 1, 1, 1, 0]
    index = errdex.open_index(store)
    ranges = {W1: ("v1.0.0", "v1.0.0", "pkg/config.py"),
              W2: ("v1.1.0", "v1.2.0", "pkg/settings.py"),
              W3: ("v1.3.0", "v1.3.0", "pkg/settings.py")}
    site_ids = set()
    for wording, (first, last, where) in ranges.items():
        paste = "ValueError: " + wording.replace("{path}", "/etc/app.toml")
        best = index.explain(paste)[0]
        site_ids.add(best.record.id)
        assert best.record.error_message == W3  # the site's last wording
        assert best.removed is not None and best.removed.sha == shas["v1.4.0"]
        assert best.version is not None
        assert (best.version.template, best.version.first_seen, best.version.last_seen) == (
            wording, first, last)
        assert best.version.file_path == where
        assert best.bound == {"path": "/etc/app.toml"}
        as_json = best.to_json()
        assert as_json["version"] == {"template": wording, "filePath": where,
                                      "lineNumber": best.version.line_number,
                                      "firstSeen": first, "lastSeen": last}
        assert as_json["removed"]["sha"] == shas["v1.4.0"]
    assert len(site_ids) == 1  # one site, whatever its wording


def test_old_wording_resolves_to_the_current_site_and_says_so(make_repo, store):
    repo = make_repo()
    repo.write("pkg/fail.py", WRAPPER)
    repo.write("pkg/config.py", _load(W1))
    repo.commit("one")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v2.12.0"], check=True)
    repo.write("pkg/config.py", "# moved down\n" + _load(W2))
    repo.commit("two")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v2.27.0"], check=True)
    repo.write("pkg/other.py", "X = 1\n")
    head = repo.commit("after the last release")
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.name for r in summary.releases] == ["v2.12.0", "v2.27.0", head[:12]]
    (best, *rest) = errdex.explain("error: cannot read config file /x", db=store)
    # the exact old wording outranks the wrapper that fullmatches any "error: …"
    assert best.record.error_message == W2 and best.removed is None
    assert best.record.line_number == 3 and best.record.analyzed_sha == head
    assert best.version is not None and best.version.span() == "v2.12.0"
    assert best.version.current_since == "v2.27.0"
    assert "removed in" not in best.reason and "older wording" in best.reason
    assert all(m.record.id != best.record.id for m in rest)  # one site, listed once
    # the current wording: no version object
    (now, *_) = errdex.explain("could not read the config file /x", db=store)
    assert now.version is None and "version" not in now.to_json()
    # in words, on the command line
    result = CliRunner().invoke(main, ["--db", str(store.path), "explain",
                                       "cannot read config file /x"])
    assert result.exit_code == 0
    assert "this wording is from v2.12.0; since v2.27.0 it reads" in " ".join(
        result.stdout.split())
    as_json = json.loads(CliRunner().invoke(main, ["--db", str(store.path), "explain",
                                                   "--json", "cannot read config file /x"]
                                            ).stdout)
    assert as_json["matches"][0]["version"]["firstSeen"] == "v2.12.0"


def test_resumed_history_mines_only_new_releases_and_tags_glob(make_repo, store):
    repo = make_repo()
    repo.write("pkg/config.py", _load(W1))
    repo.commit("one")
    subprocess.run(["git", "-C", str(repo.root), "tag", "lib-1.0"], check=True)
    repo.write("pkg/config.py", _load(W2))
    repo.commit("two")
    subprocess.run(["git", "-C", str(repo.root), "tag", "lib-1.1"], check=True)
    subprocess.run(["git", "-C", str(repo.root), "tag", "other-9.0"], check=True)
    first = errdex.mine_history(repo.root, db=store, tags="lib-*")
    assert [r.name for r in first.mined] == ["lib-1.0", "lib-1.1"]
    again = errdex.mine_history(repo.root, db=store, tags="lib-*")
    assert again.mined == [] and [r.name for r in again.releases] == ["lib-1.0", "lib-1.1"]
    assert table.releases(store, "acme/widgets") == [
        ("lib-1.0", first.releases[0].sha), ("lib-1.1", first.releases[1].sha)]
    result = CliRunner().invoke(main, ["--db", str(store.path), "mine", "--history",
                                       "--tags", "nothing-*", str(repo.root)])
    assert result.exit_code == 2 and "no release tag" in result.output


def test_missing_blobs_are_skipped_and_counted(make_repo, store, tmp_path):
    repo = make_repo()
    repo.write("pkg/config.py", _load(W1))
    repo.write("pkg/parse.py", STABLE)
    repo.commit("one")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v1.0"], check=True)
    repo.write("pkg/parse.py", STABLE.replace("expected text", "expected a text"))
    repo.commit("two")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v1.1"], check=True)
    # a clone that lacks one blob (as a partial clone does): its loose object is gone
    clone = tmp_path / "partial"
    subprocess.run(["git", "clone", "--quiet", "--no-local", str(repo.root), str(clone)],
                   check=True)
    blob = subprocess.run(["git", "-C", str(clone), "rev-parse", "v1.0:pkg/config.py"],
                          capture_output=True, text=True, check=True).stdout.strip()
    _drop_object(clone, blob)
    summary = errdex.mine_history(clone, db=store, repo="acme/partial")
    assert [r.name for r in summary.releases] == ["v1.0", "v1.1"]
    # counted at each release whose tree holds the file, and never fatal
    assert [r.summary.skipped[MISSING_BLOB] for r in summary.releases if r.summary] == [1, 1]
    assert summary.missing_blobs == 2 and summary.linked == 1
    current = {s.record.error_message for s in store.records("acme/partial")}
    assert any("expected a text" in m for m in current)


def _drop_object(clone: Path, sha: str) -> None:
    """Remove one object from a clone: unpack its pack to loose objects, drop the one."""
    git_dir = clone / ".git"
    packs = list((git_dir / "objects" / "pack").glob("*.pack"))
    for pack in packs:
        moved = pack.with_suffix(".moved")
        pack.rename(moved)
        pack.with_suffix(".idx").unlink()
        with moved.open("rb") as data:
            subprocess.run(["git", "-C", str(clone), "unpack-objects", "-q"], stdin=data,
                           check=True)
        moved.unlink()
    (git_dir / "objects" / sha[:2] / sha[2:]).unlink()


def test_lineage_on_either_backend(make_repo, backend_store):
    """The same history on SQLite and PostgreSQL: same links, same ranges, same answers."""
    repo, _ = _five_releases(make_repo)
    summary = errdex.mine_history(repo.root, db=backend_store, enrich="none")
    assert summary.linked == 3
    assert table.wording_count(backend_store, "acme/widgets") == 6  # 4 of the site, 2 others
    best = errdex.explain("could not read the config file /x", db=backend_store)[0]
    assert best.record.error_message == W3 and best.version is not None
    assert (best.version.first_seen, best.version.last_seen) == ("v1.1.0", "v1.2.0")


def test_mine_many_history_mines_each_local_clone_by_release(make_repo, store, tmp_path):
    repo, _ = _five_releases(make_repo)
    listing = tmp_path / "repos.txt"
    listing.write_text(f"{repo.root}\n{tmp_path / 'nowhere'}\n")
    result = CliRunner().invoke(main, ["--db", str(store.path), "mine-many", "--history",
                                       "--jobs", "1", str(listing)])
    assert result.exit_code == 1  # the second line fails, the first is stored
    assert [name for name, _ in table.releases(store, "acme/widgets")] == [
        "v1.0.0", "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0"]
    best = errdex.explain("cannot read config file /x", db=store)[0]
    assert best.version is not None and best.version.span() == "v1.0.0"


def test_last_keeps_the_newest_releases(make_repo, store):
    repo, _ = _five_releases(make_repo)
    summary = errdex.mine_history(repo.root, db=store, last=2, enrich="none")
    assert [r.name for r in summary.releases] == ["v1.3.0", "v1.4.0"]
    assert summary.skipped_tags["older than the last releases asked for"] == 3


def test_stride_keeps_the_first_release_of_each_version_and_the_newest(make_repo, store):
    repo, _ = _five_releases(make_repo)
    summary = errdex.mine_history(repo.root, db=store, stride="major", enrich="none")
    assert [r.name for r in summary.releases] == ["v1.0.0", "v1.4.0"]
    assert summary.skipped_tags["not the first of its major version"] == 3


def test_web_page_says_which_releases_printed_the_wording(make_repo, tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from errdex.interfaces.web.app import create_app

    repo, _ = _five_releases(make_repo)
    db = tmp_path / "web.sqlite"
    errdex.mine_history(repo.root, db=db, enrich="none")
    client = TestClient(create_app(db), base_url="http://localhost",
                        raise_server_exceptions=False)
    page = client.post("/explain", data={"text": "cannot read config file /etc/x"})
    assert page.status_code == 200
    assert "this wording is from v1.0.0; the site was removed later" in page.text
    api = client.post("/api/explain", json={"text": "cannot read config file /etc/x"})
    assert api.status_code == 200
    assert api.json()["matches"][0]["version"]["firstSeen"] == "v1.0.0"


def test_a_site_missing_from_a_release_or_moved_into_a_class_keeps_its_lineage(make_repo,
                                                                               store):
    """v1: a function ``check``; v2: gone; v3: back reworded, now a method of a class in
    another file. The old wording still resolves to it."""
    repo = make_repo()
    repo.write("pkg/a.py", "def check(n):\n    raise ValueError(f'bad size {n} given')\n")
    repo.commit("v1")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v1"], check=True)
    repo.write("pkg/a.py", "def check(n):\n    return n\n")
    repo.commit("v2")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v2"], check=True)
    repo.write("pkg/b.py", "class Sizes:\n    def check(self, n):\n"
                           "        raise ValueError(f'bad size {n} was given')\n")
    repo.commit("v3")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v3"], check=True)
    summary = errdex.mine_history(repo.root, db=store, enrich="none")
    assert [r.linked for r in summary.releases] == [0, 0, 1]
    best = errdex.explain("ValueError: bad size 3 given", db=store)[0]
    assert best.record.file_path == "pkg/b.py" and best.removed is None
    assert best.version is not None and best.version.span() == "v1"
    assert best.version.current_since == "v3"


def test_a_class_narrowed_in_place_keeps_the_lineage(make_repo, store):
    repo = make_repo()
    repo.write("pkg/opts.py", "def match(opt):\n    raise ValueError(f'no such option: {opt}')\n")
    repo.commit("v1")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v1"], check=True)
    repo.write("pkg/opts.py", "class NoSuchOption(ValueError):\n    pass\n\n\n"
                              "def match(opt):\n    raise NoSuchOption(f'no such option: {opt}')\n")
    repo.commit("v2")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v2"], check=True)
    repo.write("pkg/opts.py", "class NoSuchOption(ValueError):\n    pass\n\n\n"
                              "def match(opt):\n"
                              "    raise NoSuchOption(f'No such option {opt!r}.')\n")
    repo.commit("v3")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v3"], check=True)
    summary = errdex.mine_history(repo.root, db=store, enrich="none")
    assert [r.linked for r in summary.releases] == [0, 1, 1]
    best = errdex.explain("Error: no such option: -d", db=store)[0]
    assert best.record.error_message == "No such option {opt!r}." and best.removed is None
    assert best.version is not None and best.version.span() == "v1–v2"


def _patch_releases(make_repo) -> tuple[object, str]:
    """v1.0.0, v1.0.1, v1.1.0, v1.1.1, v2.0.0 (a new wording each), then an untagged HEAD."""
    repo = make_repo()
    for number, name in enumerate(["v1.0.0", "v1.0.1", "v1.1.0", "v1.1.1", "v2.0.0"]):
        repo.write("pkg/config.py", _load(f"cannot read config file number {number} {{path}}"))
        repo.commit(name)
        subprocess.run(["git", "-C", str(repo.root), "tag", name], check=True)
    repo.write("pkg/parse.py", STABLE)
    head = repo.commit("after the last release")
    return repo, head


def test_cli_history_last_mines_the_newest_releases_then_head(make_repo, store):
    repo, head = _patch_releases(make_repo)
    result = CliRunner().invoke(main, ["--db", str(store.path), "mine", "--history",
                                       "--history-last", "2", "--enrich", "none",
                                       str(repo.root)])
    assert result.exit_code == 0, result.output
    assert table.releases(store, "acme/widgets")[-1] == (head[:12], head)
    assert [name for name, _ in table.releases(store, "acme/widgets")] == [
        "v1.1.1", "v2.0.0", head[:12]]
    assert "3 of 3 release(s) (v1.1.1 … " in result.output
    assert "3 older than the last releases asked for" in result.output


def test_cli_history_stride_minor_mines_the_first_of_each_minor_version(make_repo, store):
    repo, head = _patch_releases(make_repo)
    result = CliRunner().invoke(main, ["--db", str(store.path), "mine", "--history",
                                       "--history-stride", "minor", "--enrich", "none",
                                       str(repo.root)])
    assert result.exit_code == 0, result.output
    assert [name for name, _ in table.releases(store, "acme/widgets")] == [
        "v1.0.0", "v1.1.0", "v2.0.0", head[:12]]
    assert "2 not the first of its minor version" in result.output


@pytest.mark.parametrize("option", [["--history-last", "2"], ["--history-stride", "major"]])
def test_cli_history_options_without_history_are_a_usage_error(make_repo, store, option):
    repo, _ = _patch_releases(make_repo)
    result = CliRunner().invoke(main, ["--db", str(store.path), "mine", *option,
                                       str(repo.root)])
    assert result.exit_code == 2
    assert "--history-last and --history-stride go with --history" in result.output
    assert table.releases(store, "acme/widgets") == []  # nothing was mined


def test_cli_mine_many_history_passes_last_and_stride(make_repo, store, tmp_path):
    repo, head = _patch_releases(make_repo)
    listing = tmp_path / "repos.txt"
    listing.write_text(f"{repo.root}\n")
    result = CliRunner().invoke(main, ["--db", str(store.path), "mine-many", "--history",
                                       "--history-stride", "minor", "--history-last", "2",
                                       "--jobs", "1", str(listing)])
    assert result.exit_code == 0, result.output
    assert [name for name, _ in table.releases(store, "acme/widgets")] == [
        "v1.1.0", "v2.0.0", head[:12]]  # of v1.0.0, v1.1.0, v2.0.0: the newest two
    misuse = CliRunner().invoke(main, ["--db", str(store.path), "mine-many",
                                       "--history-last", "2", str(listing)])
    assert misuse.exit_code == 2
    assert "--history-last and --history-stride go with --history" in misuse.output


def test_scan_resolves_an_old_wording_in_a_log_to_the_current_site(make_repo, store, tmp_path):
    """A log line printed by an old release, scanned after mine --history: the site as it
    is now, with the releases that printed the wording, as explain answers it."""
    repo = make_repo()
    repo.write("pkg/config.py", _load(W1))
    repo.commit("one")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v1.0.0"], check=True)
    repo.write("pkg/config.py", "# moved down\n" + _load(W2))
    repo.commit("two")
    subprocess.run(["git", "-C", str(repo.root), "tag", "v1.1.0"], check=True)
    errdex.mine_history(repo.root, db=store, enrich="none")
    log = tmp_path / "app.log"
    log.write_text("2026-01-02 10:00:00 INFO app: starting\n"
                   "2026-01-02 10:00:01 ERROR app: cannot read config file /etc/app.toml\n")
    result = CliRunner().invoke(main, ["--db", str(store.path), "scan", "--json", str(log)])
    assert result.exit_code == 0, result.output
    (event,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert event["line"] == 2 and event["layout"]["level"] == "error"
    best = event["matches"][0]
    assert best["record"]["errorMessage"] == W2 and "removed" not in best
    assert best["record"]["lineNumber"] == 3
    assert best["version"] == {"template": W1, "filePath": "pkg/config.py", "lineNumber": 2,
                               "firstSeen": "v1.0.0", "lastSeen": "v1.0.0"}
    assert "older wording" in best["reason"] and "removed in" not in best["reason"]

"""git never runs a program a mined repository's configuration names.

The hostile repository below has a textconv driver, smudge/clean and long-running
filters, an external diff, an fsmonitor, a pager, credential and ssh commands and every
hook, each of which would ``touch`` a marker file. Every errdex command that reads a
repository (full and incremental mines with blame and workers, enrich --root, mine-many
of a path and of a clone) runs on it; no marker may appear.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

import errdex
from errdex.batch.many import mine_many, parse_list
from errdex.interfaces.cli import main
from errdex.repo import git as git_repo
from errdex.store.sqlite import SQLiteStore as Store
from tests.conftest import GitRepo, git

HOOKS = (
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "prepare-commit-msg",
    "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push",
    "pre-receive", "update", "post-receive", "post-update", "reference-transaction",
    "push-to-checkout", "pre-auto-gc", "post-rewrite", "post-index-change", "fsmonitor-watchman",
)
FILES = 70  # over mining's threshold for worker processes


def _touch(markers: Path, name: str, then: str = "") -> str:
    return f"touch {markers / name}" + (f"; {then}" if then else "")


def hostile_repo(make_repo: Callable[..., GitRepo], markers: Path) -> GitRepo:
    """A repository whose .git/config and hooks name a marker-touching command each."""
    markers.mkdir()
    repo = make_repo()
    for n in range(FILES):
        repo.write(f"pkg/m{n}.py", f"def f{n}(x):\n    raise ValueError(f'bad value {n} {{x}}')\n")
    repo.write("tests/test_m.py", "import pytest\n\ndef test_f0():\n"
                                  "    with pytest.raises(ValueError, match='bad value 0'):\n"
                                  "        f0(1)\n")
    repo.write("src/msg.rs", 'pub const MSG: &str = "the widget broke";\n')
    repo.write("src/lib.rs", 'pub fn go() {\n    panic!("{}", crate::msg::MSG);\n}\n')
    repo.write(".gitattributes", "*.py diff=evil filter=evil\n*.rs diff=evil filter=longrun\n")
    repo.commit("hostile")
    settings = {
        "diff.evil.textconv": _touch(markers, "textconv", "cat"),
        "diff.evil.command": _touch(markers, "diff-command"),
        "filter.evil.smudge": _touch(markers, "smudge", "cat"),
        "filter.evil.clean": _touch(markers, "clean", "cat"),
        "filter.longrun.process": _touch(markers, "filter-process"),
        "diff.external": _touch(markers, "external-diff"),
        "core.fsmonitor": _touch(markers, "fsmonitor"),
        "core.pager": _touch(markers, "pager", "cat"),
        "pager.blame": _touch(markers, "pager-blame", "cat"),
        "core.sshCommand": _touch(markers, "ssh"),
        "core.askPass": _touch(markers, "askpass"),
        "credential.helper": "!" + _touch(markers, "credential"),
        "core.alternateRefsCommand": _touch(markers, "alternate-refs"),
        "remote.origin.uploadpack": _touch(markers, "upload-pack"),
        "gpg.program": _touch(markers, "gpg"),
        "log.showSignature": "true",
    }
    for key, value in settings.items():
        git(repo.root, "config", key, value)
    hooks = repo.root / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for name in HOOKS:
        hook = hooks / name
        hook.write_text(f"#!/bin/sh\n{_touch(markers, 'hook-' + name)}\n")
        hook.chmod(0o755)
    return repo


def commit_unguarded(repo: GitRepo, message: str) -> None:
    """The test's own commit, with the hostile config and hooks out of the way."""
    config = repo.root / ".git" / "config"
    hostile = config.read_text()
    config.write_text("[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
                      '[remote "origin"]\n\turl = https://github.com/acme/widgets.git\n')
    try:
        git(repo.root, "-c", f"core.hooksPath={os.devnull}", "add", "--all")
        git(repo.root, "-c", f"core.hooksPath={os.devnull}", "commit", "--quiet", "-m", message)
    finally:
        config.write_text(hostile)


def _fired(markers: Path) -> list[str]:
    return sorted(p.name for p in markers.iterdir())


def _cli(db: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def hostile(make_repo: Callable[..., GitRepo], tmp_path: Path) -> tuple[GitRepo, Path]:
    markers = tmp_path / "markers"
    repo = hostile_repo(make_repo, markers)
    # the fixture is armed: plain git runs the repository's commands where errdex must not
    subprocess.run(["git", "-C", str(repo.root), "blame", "HEAD", "--", "pkg/m0.py"],
                   capture_output=True, check=False)
    assert {"textconv", "smudge"} <= set(_fired(markers))
    for marker in markers.iterdir():
        marker.unlink()
    return repo, markers


def test_mining_a_hostile_repository_runs_none_of_its_commands(
    hostile: tuple[GitRepo, Path], tmp_path: Path
) -> None:
    repo, markers = hostile
    db = tmp_path / "errdex.sqlite"
    out = _cli(db, "mine", "--blame", "--jobs", "2", str(repo.root))
    assert f"{FILES + 1} records from {FILES + 2} files" in out  # 70 .py, 2 .rs
    with Store(db) as store:
        records = {s.record.file_path: s for s in store.records()}
        blamed = records["pkg/m0.py"].extras.evidence
        assert blamed is not None and blamed.blame is not None  # blame ran, without textconv
        assert records["src/lib.rs"].record.error_message == "the widget broke"
    assert _fired(markers) == []

    # history: an incremental re-mine (git diff), a constant read from an unchanged file
    # (git grep + cat-file), blame again, then single-process reading (the parent's reader)
    repo.write("src/lib.rs", '\n\npub fn go() {\n    panic!("{}", crate::msg::MSG);\n}\n')
    repo.write("pkg/m1.py", "def f1(x):\n    raise KeyError(f'no key {x}')\n")
    commit_unguarded(repo, "move and reword")
    out = _cli(db, "mine", "--blame", str(repo.root))
    assert "only files changed since the last mine were read" in out
    with Store(db) as store:
        lib = next(s for s in store.records() if s.record.file_path == "src/lib.rs")
        assert lib.record.error_message == "the widget broke" and lib.record.line_number == 4
    summary = errdex.mine(repo.root, db=db, full=True, jobs=1, blame=True)
    assert summary.files_mined == FILES + 2
    _cli(db, "enrich", "--root", str(repo.root))
    assert _fired(markers) == []


def test_mine_many_of_a_hostile_path_and_its_clone_runs_none_of_its_commands(
    hostile: tuple[GitRepo, Path], tmp_path: Path
) -> None:
    repo, markers = hostile
    listing = tmp_path / "list.txt"
    listing.write_text(f"{repo.root}\nfile://{repo.root}\n")
    db = tmp_path / "many.sqlite"
    result = CliRunner().invoke(main, ["--db", str(db), "mine-many", "--jobs", "2",
                                       "--cache", str(tmp_path / "cache"), str(listing)])
    assert result.exit_code == 0, result.output
    with Store(db) as store:
        assert store.count() >= 2 * FILES  # the path and the clone, each filed on its own
    assert _fired(markers) == []


def test_inherited_git_variables_do_not_redirect_or_run_anything(
    make_repo: Callable[..., GitRepo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    markers = tmp_path / "markers"
    markers.mkdir()
    wanted = make_repo()
    wanted.commit_files({"a.py": "def f(x):\n    raise ValueError(f'wanted {x}')\n"})
    other = make_repo("https://github.com/acme/other.git")
    other.commit_files({"b.py": "def g(x):\n    raise ValueError(f'other {x}')\n"})
    wanted.commit_files({"a.py": "def f(x):\n    raise ValueError(f'wanted again {x}')\n"})
    # what a git hook that runs errdex would hand it, and worse
    monkeypatch.setenv("GIT_DIR", str(other.root / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other.root))
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", _touch(markers, "external-diff"))
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS",
                       f"'diff.python.textconv'='{_touch(markers, 'textconv', 'cat')}'")
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "core.fsmonitor")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", _touch(markers, "fsmonitor"))
    (wanted.root / ".gitattributes").write_text("*.py diff=python\n")
    db = tmp_path / "errdex.sqlite"
    errdex.mine(wanted.root, db=db, blame=True)
    with Store(db) as store:
        mined = [(s.record.repo, s.record.error_message) for s in store.records()]
    assert mined == [("acme/widgets", "wanted again {x}")]
    assert _fired(markers) == []


@pytest.mark.parametrize("revision", ["--output=leak", "-h", "--all"])
def test_a_revision_that_looks_like_an_option_is_a_clear_error(
    make_repo: Callable[..., GitRepo], tmp_path: Path, revision: str
) -> None:
    repo = make_repo()
    repo.commit_files({"a.py": "def f(x):\n    raise ValueError(f'bad {x}')\n"})
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "e.sqlite"), "mine",
                                       f"--sha={revision}", str(repo.root)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"errdex: {repo.root}: no commit {revision!r}; check the revision name"
    ]
    assert not (repo.root / "leak").exists() and not Path("leak").exists()


def test_a_ref_that_looks_like_an_option_reaches_no_git_option(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    markers = tmp_path / "markers"
    markers.mkdir()
    repo = make_repo()
    repo.commit_files({"a.py": "def f(x):\n    raise ValueError(f'bad {x}')\n"})
    entries = parse_list(f"file://{repo.root}@--upload-pack={_touch(markers, 'upload-pack')}\n")
    assert entries[0].ref is not None and entries[0].ref.startswith("--upload-pack=")
    summary = mine_many(entries, tmp_path / "e.sqlite", jobs=1, cache_dir=tmp_path / "cache")
    (outcome,) = summary.outcomes
    assert outcome.status == "failed" and "no ref '--upload-pack=" in (outcome.reason or "")
    assert _fired(markers) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="needs root to give a repository to another user")
def test_a_checkout_of_another_user_needs_the_users_own_safe_directory(
    make_repo: Callable[..., GitRepo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit_files({"a.py": "def f(x):\n    raise ValueError(f'bad {x}')\n"})
    for folder, dirs, files in os.walk(repo.root):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(folder, name), 65534, 65534)
    os.lchown(repo.root, 65534, 65534)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("SUDO_UID", raising=False)
    git_repo._safe_directories.cache_clear()
    db = tmp_path / "e.sqlite"
    refused = CliRunner().invoke(main, ["--db", str(db), "mine", str(repo.root)])
    assert refused.exit_code == 2
    assert refused.output.strip().splitlines() == [
        f"errdex: {repo.root}: git refuses a repository owned by another user; if you trust "
        f"it, run 'git config --global --add safe.directory {repo.root.resolve()}'"
    ]
    (home / ".gitconfig").write_text(f"[safe]\n\tdirectory = {repo.root.resolve()}\n")
    git_repo._safe_directories.cache_clear()
    try:
        _cli(db, "mine", str(repo.root))
    finally:
        git_repo._safe_directories.cache_clear()
    with Store(db) as store:
        assert store.count() == 1


def test_the_environment_of_git_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_EXTERNAL_DIFF",
                 "GIT_SSH_COMMAND", "GIT_CONFIG_PARAMETERS", "GIT_PAGER"):
        monkeypatch.setenv(name, "x")
    local = git_repo.git_env()
    network = git_repo.git_env(network=True)
    assert not {k for k in local if k.startswith("GIT_")} - {
        "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_TERMINAL_PROMPT", "GIT_NO_REPLACE_OBJECTS"}
    assert local["GIT_CONFIG_GLOBAL"] == os.devnull and local["GIT_CONFIG_NOSYSTEM"] == "1"
    # a clone keeps the user's own ssh setup and config, and nothing that redirects git
    assert network["GIT_SSH_COMMAND"] == "x" and "GIT_CONFIG_GLOBAL" not in network
    assert not {"GIT_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_EXTERNAL_DIFF",
                "GIT_CONFIG_PARAMETERS", "GIT_PAGER"} & set(network)
    argv = git_repo.git_argv(["blame", "x"], "/repo")
    assert argv[:2] == ["git", "--no-pager"] and argv[-4:] == ["-C", "/repo", "blame", "x"]
    assert {"core.fsmonitor=false", f"core.hooksPath={os.devnull}"} <= set(argv)


def test_git_missing_is_one_clear_line(
    make_repo: Callable[..., GitRepo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit_files({"a.py": "def f(x):\n    raise ValueError(f'bad {x}')\n"})
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert shutil.which("git") is None
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "e.sqlite"), "mine",
                                       str(repo.root)])
    assert result.exit_code == 2
    assert result.output.strip() == "errdex: git is not installed: install git and try again"


def test_the_repository_errdex_is_run_from_lends_no_config_to_clones(
    make_repo: Callable[..., GitRepo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ls-remote and clone run outside any repository: the folder errdex was started in
    (a stranger's checkout, say) cannot rewrite URLs or run programs for them."""
    markers = tmp_path / "markers"
    markers.mkdir()
    wanted = make_repo()
    wanted.commit_files({"a.py": "def f(x):\n    raise ValueError(f'wanted {x}')\n"})
    here = make_repo("https://github.com/acme/here.git")
    git(here.root, "config", "url.file:///nowhere/.insteadOf", "file:///")
    git(here.root, "config", "core.fsmonitor", _touch(markers, "fsmonitor"))
    git(here.root, "config", "uploadpack.packObjectsHook", _touch(markers, "pack-hook"))
    monkeypatch.chdir(here.root)
    summary = mine_many(parse_list(f"file://{wanted.root}\n"), tmp_path / "e.sqlite", jobs=1,
                        cache_dir=tmp_path / "cache")
    (outcome,) = summary.outcomes
    assert outcome.status == "mined", outcome.reason
    assert outcome.records == 1
    assert _fired(markers) == []

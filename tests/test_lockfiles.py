"""Lockfile reading: each format's pinned releases and its bad entries, from small golden
lockfiles in tests/fixtures/lockfiles (written for these tests)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from errdex.errors import UsageError
from errdex.packages.lockfiles import find_lockfiles, read_lockfiles

FIXTURES = Path(__file__).parent / "fixtures" / "lockfiles"


def read(relative: str) -> tuple[list[str], list[str]]:
    pins = read_lockfiles(FIXTURES / relative)
    return [str(spec) for spec in pins.specs], [str(problem) for problem in pins.problems]


def reasons(problems: list[str]) -> dict[str, str]:
    """'text' → reason, from 'file:line: 'text' reason' lines."""
    out = {}
    for problem in problems:
        _, _, rest = problem.partition(": '")
        text, _, reason = rest.partition("' ")
        out[text] = reason
    return out


def test_requirements_pins_includes_hashes_markers_and_normalised_names():
    specs, problems = read("python/requirements.txt")
    assert specs == [
        "pypi:urllib3==1.26.7",  # -r requirements-base.txt, read where the line stands
        "pypi:certifi==2021.10.8",
        "pypi:flask==2.0.1",  # PEP 503 names
        "pypi:requests==2.26.0",  # extras dropped, continued --hash lines skipped
        "pypi:importlib-metadata==4.8.1",  # a marker does not drop a pin
        "pypi:flask-sqlalchemy==2.5.1",  # === is a pin too
    ]
    # the base file includes requirements.txt back: read once; -c constraints pin nothing
    assert "pypi:six==1.16.0" not in specs
    why = reasons(problems)
    assert why == {
        "Jinja2 >= 3.0": "not pinned (no ==VERSION)",
        "click": "not pinned (no ==VERSION)",
        "numpy==1.*": "not pinned (no ==VERSION)",
        "-e ./local-package": "editable install: not a registry release",
        "pkg @ https://example.com/pkg-1.0.tar.gz": "a direct URL, not a registry release",
        "git+https://github.com/org/thing.git#egg=thing": "a URL or path, not a registry release",
        "this is not a requirement": "not a requirement errdex can read",
        "-r missing.txt": "included file not found",
    }
    assert problems[0].endswith("requirements.txt:9: 'Jinja2 >= 3.0' not pinned (no ==VERSION)")


def test_uv_lock_keeps_registry_packages_only():
    specs, problems = read("uv/uv.lock")
    assert specs == ["pypi:requests==2.26.0", "pypi:charset-normalizer==2.0.7"]
    assert reasons(problems) == {"forked": "a git source, not a registry release",
                                 "broken": "no version"}


def test_poetry_lock_reads_legacy_indexes_not_directories():
    specs, problems = read("poetry/poetry.lock")
    assert specs == ["pypi:attrs==21.2.0", "pypi:pygments==2.10.0"]
    assert reasons(problems) == {"mylib": "a directory source, not a registry release"}


def test_pipfile_lock_reads_default_and_develop():
    specs, problems = read("pipenv/Pipfile.lock")
    assert specs == ["pypi:idna==3.3", "pypi:django==3.2.9", "pypi:pytest==6.2.5"]
    assert reasons(problems) == {
        "mything": "a git/path/file entry, not a registry release",
        "loose": "not pinned (no ==VERSION)",
    }


def test_package_lock_v1_nested_dependencies_and_aliases():
    specs, problems = read("npm-v1/package-lock.json")
    assert specs == ["npm:axios@0.21.1", "npm:follow-redirects@1.14.1",
                     "npm:@babel/code-frame@7.12.13", "npm:chalk@2.4.2", "npm:strip-ansi@6.0.1"]
    assert set(reasons(problems)) == {"my-local@file:../my-local",
                                      "forked@github:org/forked#abcdef"}


def test_package_lock_v3_packages_nested_versions_links_and_aliases():
    specs, problems = read("npm-v3/package-lock.json")
    assert specs == ["npm:axios@0.21.1", "npm:follow-redirects@1.14.1", "npm:@types/node@20.1.0",
                     "npm:follow-redirects@1.15.0", "npm:string-width@4.2.3"]
    assert reasons(problems) == {
        "local@1.0.0": "a file, link or git dependency, not a registry release",
        "noversion": "no version",
    }


@pytest.mark.parametrize("folder,scoped", [("pnpm6", "npm:@testing-library/react@12.1.2"),
                                           ("pnpm9", "npm:@babel/core@7.22.5")])
def test_pnpm_lock_v6_and_v9_keys(folder, scoped):
    specs, problems = read(f"{folder}/pnpm-lock.yaml")
    assert specs == ["npm:axios@0.21.1", "npm:follow-redirects@1.14.1", scoped]
    assert len(problems) == 1 and ("local-thing" in problems[0] or "forked" in problems[0])


def test_pnpm_lock_v5_keys(tmp_path):
    lock = tmp_path / "pnpm-lock.yaml"
    lock.write_text("lockfileVersion: 5.4\npackages:\n  /axios/0.21.1:\n    resolution: "
                    "{integrity: sha512-00}\n  /@types/react-dom/17.0.2_react@17.0.2:\n"
                    "    resolution: {integrity: sha512-00}\n")
    assert [str(s) for s in read_lockfiles(lock).specs] == ["npm:axios@0.21.1",
                                                            "npm:@types/react-dom@17.0.2"]


def test_yarn_classic():
    specs, problems = read("yarn-classic/yarn.lock")
    assert specs == ["npm:@babel/code-frame@7.12.13", "npm:axios@0.21.1",
                     "npm:follow-redirects@1.14.1", "npm:string-width@4.2.3"]
    why = reasons(problems)
    assert why == {"my-local@file:../my-local": "a file, link or git dependency, "
                                                "not a registry release",
                   "garbage line without colon": "not a yarn.lock entry"}
    assert any(":25: " in p for p in problems)  # line numbers for a line-based format


def test_yarn_berry_skips_workspaces_and_patches():
    specs, problems = read("yarn-berry/yarn.lock")
    assert specs == ["npm:axios@0.21.1", "npm:follow-redirects@1.14.1"]
    assert len(problems) == 1 and "forked@https" in problems[0]


def test_a_project_folder_finds_every_lockfile_but_not_node_modules(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", project)
    (project / "node_modules" / "x").mkdir(parents=True)
    (project / "node_modules" / "x" / "requirements.txt").write_text("ignored==1.0\n")
    assert [p.relative_to(project).as_posix() for p in find_lockfiles(project)] == [
        "requirements.txt", "requirements/dev.txt", "web/package-lock.json"]
    pins = read_lockfiles(project)
    specs = [str(s) for s in pins.specs]
    assert specs[:2] == ["pypi:requests==2.26.0", "pypi:pytest==6.2.5"]  # deduplicated
    assert "npm:axios@0.21.1" in specs and "pypi:ignored==1.0" not in specs
    assert any("web/package-lock.json" in str(p) for p in pins.problems)


def test_broken_files_are_problems_not_errors(tmp_path):
    (tmp_path / "package-lock.json").write_text("{not json")
    (tmp_path / "uv.lock").write_text("[[package]\n")
    (tmp_path / "pnpm-lock.yaml").write_text("packages: [unclosed\n")
    pins = read_lockfiles(tmp_path)
    assert pins.specs == []
    assert sorted(p.reason.split(" (")[0] for p in pins.problems) == [
        "not valid JSON", "not valid TOML", "not valid YAML"]


def test_bad_paths_are_usage_errors(tmp_path):
    with pytest.raises(UsageError, match="no such file"):
        read_lockfiles(tmp_path / "missing.txt")
    with pytest.raises(UsageError, match="no lockfile found"):
        read_lockfiles(tmp_path)
    (tmp_path / "Cargo.lock").write_text("")
    with pytest.raises(UsageError, match="not a lockfile errdex reads"):
        read_lockfiles(tmp_path / "Cargo.lock")


def test_bad_versions_and_names_are_problems(tmp_path):
    lock = tmp_path / "yarn.lock"
    lock.write_text('"ok@^1.0.0":\n  version "1.0.0"\n\n"bad@^2":\n  version "latest"\n')
    pins = read_lockfiles(lock)
    assert [str(s) for s in pins.specs] == ["npm:ok@1.0.0"]
    assert [p.reason for p in pins.problems] == ["not a registry version"]

"""Explain: records found from a paste's lines, multi-line templates and bare classes."""

from __future__ import annotations

import pytest

import errdex
from errdex.lookup.lines import MAX_LINES, message_lines
from errdex.lookup.ranking import class_signal


def test_a_nested_classs_binary_name_matches_its_simple_name():
    reasons: list[str] = []
    assert class_signal("com.acme.Store$MissingKey", "MissingKey", reasons) > 0
    assert class_signal("com.acme.Store$MissingKey", "Other", []) < 0


ARCHIVE = {"app/archive.py": (
    "def open_archive(path):\n"
    "    raise OSError(f'could not open the archive {path} for reading')\n"
    "\n\n"
    "def run():\n"
    "    raise RuntimeError('the release job stopped')\n")}


def _mined(make_repo, tmp_path, files):
    repo = make_repo()
    repo.commit_files(files)
    db = tmp_path / "mined.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    return db


@pytest.mark.parametrize("paste", [
    # bare text: the whole paste is the event's message, its third line the record's
    "build failed\nstep 3 of 5 aborted\ncould not open the archive /tmp/a.zip for reading\n",
    # a log line chosen as the event, the line the record raises printed under it
    "2024-01-02 10:11:12 ERROR deploy: step 3 aborted\n"
    "  could not open the archive /tmp/a.zip for reading\n",
], ids=["bare-lines", "under-a-log-line"])
def test_a_line_of_the_paste_matches_when_its_event_does_not(make_repo, tmp_path, paste):
    db = _mined(make_repo, tmp_path, ARCHIVE)
    best = errdex.explain(paste, db=db)[0]
    assert (best.record.line_number, best.approximate) == (2, False)
    assert best.bound == {"path": "/tmp/a.zip"}


def test_lines_are_read_only_when_the_event_matches_nothing(make_repo, tmp_path):
    db = _mined(make_repo, tmp_path, ARCHIVE)
    paste = ("RuntimeError: the release job stopped\n"
             "could not open the archive /tmp/a.zip for reading\n")
    assert errdex.explain(paste, db=db)[0].record.line_number == 6


RECOVERY = {"src/Recovery.cs": (
    "using System;\n"
    "namespace Acme\n"
    "{\n"
    "    public class SetupException : Exception\n"
    "    {\n"
    "        public SetupException(string message, Exception cause) : base(message, cause) { }\n"
    "    }\n"
    "    public class Recovery\n"
    "    {\n"
    "        public void Start(Action recover)\n"
    "        {\n"
    "            try { recover(); }\n"
    "            catch (Exception e)\n"
    "            {\n"
    "                throw new SetupException(\"Failure occurred during job recovery.\", e);\n"
    "            }\n"
    "        }\n"
    "    }\n"
    "}\n")}


def test_an_error_wrapping_another_librarys_cause_is_found_by_its_own_event(
        make_repo, tmp_path):
    """The main event is the deepest cause (a database driver's): when nothing of the
    repository raises it, the wrapper above it, read as the parser read it (the class
    and a debugger's quotes apart), finds the throw."""
    db = _mined(make_repo, tmp_path, RECOVERY)
    paste = ("Acme.SetupException: 'Failure occurred during job recovery.'\n\n"
             "Exception: You need to call Driver.Init() before opening a connection.")
    best = errdex.explain(paste, db=db)[0]
    assert (best.record.file_path, best.record.line_number) == ("src/Recovery.cs", 15)
    assert not best.approximate


def test_the_lines_read_are_bounded():
    lines = "\n".join(f"message number {n} of many" for n in range(10_000))
    found = message_lines(lines, "")
    assert len(found) == MAX_LINES
    assert message_lines("  at com.acme.Store.load(Store.java:12)\nreal message here", "") == [
        "real message here"]


def test_a_line_that_only_wraps_another_error_is_not_its_explanation(make_repo, tmp_path):
    db = _mined(make_repo, tmp_path, {"app/report.py": (
        "def report(error):\n"
        "    raise RuntimeError(f'[queue] Unhandled error event: {error}')\n")})
    paste = ("something went wrong\n"
             "[queue] Unhandled error event: Error: Failed to refresh slots cache.\n")
    (wrapper,) = errdex.explain(paste, db=db)
    assert wrapper.record.line_number == 2 and wrapper.approximate  # a place, not the raise


LOCKS = {"app/locks.py": (
    "class ArchiveLockedError(Exception):\n"
    "    pass\n"
    "\n\n"
    "def lock(path):\n"
    "    raise ArchiveLockedError(f'the archive {path} is held by another process')\n"
    "\n\n"
    "def fail():\n"
    + "".join(f"    raise RuntimeError('stopped at stage number {n} of the run')\n"
              for n in range(6)))}


@pytest.mark.parametrize("paste", [
    "Acme.Storage.ArchiveLockedError\n   at Acme.Storage.Locks.Take() in /src/Locks.cs:line 3\n",
    'open failed: &locks.ArchiveLockedError{path:"/tmp/a.zip", owner:412}',
], ids=["bare-class", "go-struct-dump"])
def test_a_specific_class_alone_finds_the_few_records_raising_it(make_repo, tmp_path, paste):
    db = _mined(make_repo, tmp_path, LOCKS)
    (found,) = errdex.explain(paste, db=db)
    assert (found.record.line_number, found.approximate) == (6, True)


def test_a_generic_class_or_one_raised_at_many_sites_alone_finds_nothing():
    from errdex.lookup.classes import specific

    assert specific("System.Data.DataException") and specific("pkg.ConfigFileNotFoundError")
    assert not specific("RuntimeError") and not specific("java.lang.RuntimeException")
    assert not specific("Error") and not specific("System.Exception")


MANIFEST = {"app/manifest.py": (
    "def check(path):\n"
    "    raise ValueError(\n"
    "        f'the manifest at {path} could not be read\\n'\n"
    "        'Run the setup command again to rebuild the manifest\\n'\n"
    "        'See the troubleshooting guide for the details')\n"
    "\n\n"
    "def load(path):\n"
    "    raise OSError(f'the manifest at {path} could not be read')\n")}
WHOLE = ("ValueError: the manifest at /srv/m.json could not be read\n"
         "Run the setup command again to rebuild the manifest\n"
         "See the troubleshooting guide for the details")


def test_a_multi_line_template_matches_its_whole_message(make_repo, tmp_path):
    db = _mined(make_repo, tmp_path, MANIFEST)
    best = errdex.explain(WHOLE, db=db)[0]
    assert (best.record.line_number, best.approximate) == (2, False)
    assert best.bound == {"path": "/srv/m.json"}


@pytest.mark.parametrize("paste", [
    "ValueError: the manifest at /srv/m.json could not be read\n"
    "    Run the setup command again to rebuild the manifest\n"
    "    See the troubleshooting guide for the details",
    "ValueError: the manifest at /srv/m.json could not be read\n"
    "Run the setup command again to rebuild the manifest",
    "ValueError: See the troubleshooting guide for the details",
    "ValueError: Run the setup command again to rebuild the manifest",
], ids=["indented-continuation", "first-two-lines", "last-line", "middle-line"])
def test_a_paste_holding_part_of_a_multi_line_template_finds_it(make_repo, tmp_path, paste):
    db = _mined(make_repo, tmp_path, MANIFEST)
    best = errdex.explain(paste, db=db)[0]
    assert (best.record.line_number, best.approximate) == (2, False)


def test_a_whole_match_of_the_first_line_ranks_above_the_multi_line_template(
        make_repo, tmp_path):
    db = _mined(make_repo, tmp_path, MANIFEST)
    found = errdex.explain("the manifest at /srv/m.json could not be read", db=db)
    assert [m.record.line_number for m in found] == [9, 2]
    assert not found[1].approximate and found[1].score < found[0].score


APPENDED = {"app/reader.py": (
    "def unexpected(expected, token, line, column, path, guide):\n"
    "    raise ValueError(\n"
    "        f'Expected {expected} but was {token} at line {line} column {column} path {path}'\n"
    "        f'\\nSee {guide}#unexpected-token')\n\n\n"
    "def tree_unexpected(expected, token, path):\n"
    "    raise ValueError(f'Expected {expected} but was {token} at path {path}')\n")}


def test_a_line_of_a_template_is_as_specific_as_its_own_literal_text(make_repo, tmp_path):
    # a release appended a troubleshooting line: the paste, from before, holds the first
    # line whole. That match is as specific as the line's literal text, so close templates
    # are not looked for beside it (the line read as a wrapper, its literal text counted as
    # none, and gson's JsonTreeReader wordings, 61% similar, were lifted above it)
    db = _mined(make_repo, tmp_path, APPENDED)
    found = errdex.explain(
        "ValueError: Expected a string but was BEGIN_OBJECT at line 1 column 2 path $", db=db)
    assert [(m.record.line_number, m.approximate) for m in found] == [(2, False)]
    assert "line 1 of the multi-line template" in found[0].reason


SHARED = {"app/jobs.py": "".join(
    f"def {name}(path):\n"
    f"    raise ValueError(\n"
    f"        f'the {name} job at {{path}} stopped early\\n'\n"
    f"        'Run the setup command again to rebuild the manifest')\n\n\n"
    for name in ("build", "deploy", "publish"))}


def test_a_line_several_templates_share_is_filed_once_and_finds_each(make_repo, tmp_path):
    from errdex.lookup.index import Index
    from errdex.store.sqlite import SQLiteStore

    db = _mined(make_repo, tmp_path, SHARED)
    with SQLiteStore(db) as store:
        index = Index(store)
        assert [len(lines) for lines in index._shared.values()] == [3]
    found = errdex.explain("ValueError: Run the setup command again to rebuild the manifest",
                           db=db)
    assert sorted(m.record.line_number for m in found) == [2, 8, 14]
    assert all("line 2 of the multi-line template" in m.reason for m in found)
    # the whole message still names its own template first
    best = errdex.explain("ValueError: the deploy job at /srv stopped early\n"
                          "Run the setup command again to rebuild the manifest", db=db)[0]
    assert (best.record.line_number, best.approximate) == (8, False)


def test_shared_lines_group_identical_template_lines_under_the_first():
    from errdex.lookup.tables import shared_lines

    parts = {-1: ("same line here", 14), -65: ("other line", 10), -129: ("same line here", 14)}
    assert shared_lines(parts) == {-1: (-1, -129)}
    assert parts[-129] is parts[-1]


def test_one_resolve_parses_its_paste_once(make_repo, tmp_path, monkeypatch):
    from errdex.api import resolve
    from errdex.lookup import parse

    db = _mined(make_repo, tmp_path, ARCHIVE)
    calls: list[str] = []
    real = parse.parse_events
    monkeypatch.setattr(parse, "parse_events", lambda text: calls.append(text) or real(text))
    paste = "ValueError: the release job stopped twice\n  at deploy (app/run.js:3:9)"
    resolve(paste, db=db)  # the ranking, then the text sites and their order
    resolve(paste, db=db)
    assert calls == [paste]

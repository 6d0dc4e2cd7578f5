"""``scan --group``: one row per statement (level, count, first and last line, an example),
entries no statement explains grouped by a template learnt from the log; golden output on a
small mined repository and a log in ZooKeeper's log4j layout."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import errdex
from errdex.interfaces.cli import main

JAVA = """\
package org.acme.quorum;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class Election {
    private static final Logger LOG = LoggerFactory.getLogger(Election.class);

    void notifyPeers(long timeout) {
        LOG.info("Notification time out: " + timeout);
    }

    void connect(long sid, String address) {
        LOG.warn("Cannot open channel to " + sid + " at election address " + address);
    }

    void broken(long sid) {
        LOG.error("Connection broken for id " + sid + ", error = ");
    }

    void contact() {
        LOG.error("ERROR IN CONTACTING RM. ");
    }

    void other(String cls, String what) {
        LOG.warn(cls + " not " + what);
    }

    void changed(long sid, String state) {
        LOG.warn("Peer " + sid + " changed its state to " + state);
    }
}
"""

LOG = """\
2015-07-29 17:41:44,747 - INFO  [QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181:Election@10] - \
Notification time out: 3200
2015-07-29 17:41:45,001 - WARN  [WorkerSender[myid=1]:Election@14] - Cannot open channel to 2 \
at election address /10.10.34.12:3888
2015-07-29 17:41:46,002 - ERROR [RecvWorker:188978561024:Election@18] - Connection broken for \
id 188978561024, error =\x20
2015-07-29 17:41:47,003 - ERROR [main:Election@22] - ERROR IN CONTACTING RM.
2015-07-29 17:41:48,004 - WARN  [main:Leader@99] - Leader not elected
2015-07-29 17:41:49,005 - INFO  [main:Election@10] - Notification time out: 6400
2015-07-29 17:41:50,006 - WARN  [WorkerSender[myid=1]:Election@14] - Cannot open channel to 3 \
at election address /10.10.34.13:3888
2015-07-29 17:41:51,007 - WARN  [SendWorker:188978561024:QuorumCnxManager$SendWorker@679] - \
Interrupted while waiting for message on queue
2015-07-29 17:41:52,008 - WARN  [SendWorker:188978561025:QuorumCnxManager$SendWorker@679] - \
Interrupted while waiting for message on queue
2015-07-29 17:41:53,009 - WARN  [main:Election@26] - Peer not ready
2015-07-29 17:41:54,001 - WARN  [main:Election@30] - Peer 1 changed its state to LOOKING
2015-07-29 17:41:54,002 - WARN  [main:Election@30] - Peer 2 changed its state to FOLLOWING
2015-07-29 17:41:54,003 - WARN  [main:Election@30] - Peer 3 changed its state to LOOKING
2015-07-29 17:41:54,004 - WARN  [main:Election@30] - Peer 1 changed its state to OBSERVING
2015-07-29 17:41:54,005 - WARN  [main:Election@30] - Peer 2 changed its state to FOLLOWING
2015-07-29 17:41:54,006 - WARN  [main:Election@30] - Peer 3 changed its state to LOOKING
"""

ELECTION = "acme/widgets src/main/java/org/acme/quorum/Election.java"
GOLDEN = f"""\
      6  warning  lines 11-16  {ELECTION}:30  peer-changed-its-state-to
         e.g. 2015-07-29 17:41:54,001 - WARN  [main:Election@30] - Peer 1 changed its state \
to LOOKING
         3 variants:
               3  lines 11-16  Peer <*> changed its state to LOOKING
               2  lines 12-15  Peer <*> changed its state to FOLLOWING
               1  lines 14-14  Peer <*> changed its state to <*>
      2  warning  lines 2-7  {ELECTION}:14  cannot-open-channel-to-at-election-address
         e.g. 2015-07-29 17:41:45,001 - WARN  [WorkerSender[myid=1]:Election@14] - Cannot \
open channel to 2 at election address /10.10.34.12:3888
      2  warning  lines 8-9  log template, no statement found
         template: Interrupted while waiting for message on queue
         e.g. 2015-07-29 17:41:51,007 - WARN  [SendWorker:188978561024:QuorumCnxManager$Send\
Worker@679] - Interrupted while waiting for message on queue
      1  error    lines 3-3  {ELECTION}:18  connection-broken-for-id-error
         e.g. 2015-07-29 17:41:46,002 - ERROR [RecvWorker:188978561024:Election@18] - \
Connection broken for id 188978561024, error =
      1  error    lines 4-4  {ELECTION}:22  error-in-contacting-rm
         e.g. 2015-07-29 17:41:47,003 - ERROR [main:Election@22] - ERROR IN CONTACTING RM.
      1  warning  lines 5-5  log template, no statement found
         template: Leader not elected
         e.g. 2015-07-29 17:41:48,004 - WARN  [main:Leader@99] - Leader not elected
      1  warning  lines 10-10  {ELECTION}:26  not
         e.g. 2015-07-29 17:41:53,009 - WARN  [main:Election@26] - Peer not ready
"""


@pytest.fixture
def files(make_repo, tmp_path):
    repo = make_repo()
    repo.write("src/main/java/org/acme/quorum/Election.java", JAVA)
    repo.commit()
    db = tmp_path / "group.sqlite"
    errdex.mine(repo.root, db=db)
    log = tmp_path / "zk.log"
    log.write_text(LOG)
    return db, log


def _rows(output: str) -> str:
    """The rows, before the summary line."""
    return output.split("\n\n", 1)[0] + "\n"


def test_scan_group_golden(files):
    db, log = files
    result = CliRunner().invoke(main, ["--db", str(db), "scan", "--group", str(log)],
                                terminal_width=200)
    assert result.exit_code == 0, result.output
    assert _rows(result.stdout) == GOLDEN
    assert "16 lines, 14 error events, 11 explained by 5 records" in result.stdout


def test_scan_group_all_levels_maps_info_lines_to_their_statements(files):
    db, log = files
    result = CliRunner().invoke(main, ["--db", str(db), "scan", "--group", "--all-levels",
                                       "--json", str(log)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    info = [row for row in rows if row["level"] == "info"]
    assert info == [{"kind": "statement", "statement": f"{ELECTION}:10",
                     "name": "Notification time out: {timeout}", "level": "info",
                     "count": 2, "firstLine": 1, "lastLine": 6,
                     "example": LOG.splitlines()[0], "approximate": False,
                     "variants": [{"values": {"timeout": "<*>"}, "count": 2, "firstLine": 1,
                                   "lastLine": 6, "example": LOG.splitlines()[0],
                                   "template": "Notification time out: <*>"}]}]
    assert sum(row["count"] for row in rows) == 16
    state = next(row for row in rows if row["statement"] == f"{ELECTION}:30")
    assert [(v["values"]["state"], v["count"]) for v in state["variants"]] == [
        ("LOOKING", 3), ("FOLLOWING", 2), ("<*>", 1)]
    assert state["variants"][0]["template"] == "Peer <*> changed its state to LOOKING"
    assert sum(v["count"] for v in state["variants"]) == state["count"]


def test_scan_json_lines_of_entries_carry_layout_and_group(files):
    db, log = files
    events = list(errdex.scan(str(log), db=db, group=True, jobs=1))
    by_line = {event.line: event for event in events}
    assert sorted(by_line) == [2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    leader = by_line[5].to_json()
    assert leader["matches"] == [] and leader["group"]["template"] == "Leader not elected"
    assert leader["layout"] == {"name": "log4j-location", "class": "Leader", "level": "warning",
                                "line": "99", "thread": "main",
                                "time": "2015-07-29 17:41:48,004"}
    assert by_line[8].group == by_line[9].group
    contact = by_line[4].matches[0]
    assert contact.record.error_message == "ERROR IN CONTACTING RM. "
    assert "frame src/main/java/org/acme/quorum/Election.java:22" in contact.reason


def test_all_levels_names_the_statement_of_an_info_line(files, tmp_path):
    db, _ = files
    log = tmp_path / "info.log"
    log.write_text(LOG.splitlines()[0] + "\n")
    quiet = CliRunner().invoke(main, ["--db", str(db), "scan", str(log)])
    assert quiet.exit_code == 1  # by default an INFO line is no event
    every = CliRunner().invoke(main, ["--db", str(db), "scan", "--all-levels", str(log)],
                               terminal_width=200)
    assert every.exit_code == 0, every.output
    assert f"→ info statement  {ELECTION}:10" in every.stdout


def test_group_of_tells_a_statement_s_variants_apart(files):
    db, log = files
    events = list(errdex.scan(str(log), db=db, group=True, jobs=1))
    rows = errdex.ScanGroups()
    for event in events:
        rows.add(event)
    by_line = {event.line: rows.group_of(event) for event in events}
    assert by_line[11] == by_line[13] == by_line[16] != by_line[12] == by_line[15]
    assert by_line[14] not in (by_line[11], by_line[12])
    assert by_line[11][0] == by_line[14][0]  # one statement, one row
    assert by_line[8] == by_line[9] and by_line[8][1] is None  # a learnt template


def test_the_text_lists_ten_variants_then_says_how_many_more(capsys):
    from errdex.interfaces.cli.lookup import _print_variants
    from errdex.lookup.variants_log import Variants, shape_of_values

    variants = Variants()
    line = 0
    for a in ("UP", "DOWN", "LEFT", "RIGHT"):
        for b in ("RED", "GREEN", "BLUE"):
            for _ in range(2):
                line += 1
                variants.add(shape_of_values({"a": a, "b": b}), line, f"e.g. {line}")
    row = errdex.GroupRow("k", "statement", "acme/x f.c:1", "{a} {b}", "info", line, 1,
                          line, "e.g. 1", variants=variants)
    _print_variants(row)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "         12 variants:"
    assert out[1] == "               2  lines 1-2  a=UP, b=RED"
    assert len(out) == 12 and out[-1] == "         … 2 more (--json lists them)"


AUTH = """\
package org.acme;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class Auth {
    private static final Logger LOG = LoggerFactory.getLogger(Auth.class);

    void record(boolean ok, String method, String user, boolean invalid, String host, int port) {
        String verdict = ok ? "Accepted" : "Failed";
        String who = invalid ? "invalid user " + user : user;
        LOG.info(verdict + " " + method + " for " + who + " from " + host + " port " + port);
    }
}
"""
AUTH_LOG = "".join(
    f"2026-03-03 10:00:{2 * i + 1:02d},001 INFO  [main] org.acme.Auth: {text}\n"
    for i, text in enumerate([
        "Failed password for invalid user oracle from 198.51.100.7 port 50122",
        "Failed password for root from 198.51.100.7 port 50131",
        "Failed password for invalid user test from 198.51.100.9 port 50140",
        "Accepted publickey for deploy from 203.0.113.4 port 40022",
        "Failed password for root from 198.51.100.9 port 50150",
        "Failed password for invalid user admin from 198.51.100.7 port 50161",
        "Accepted publickey for deploy from 203.0.113.4 port 40031",
        "Failed password for root from 198.51.100.12 port 50170"]))
AUTH_GOLDEN = """\
      8  info     lines 1-8  acme/widgets src/main/java/org/acme/Auth.java:12  info statement
         e.g. 2026-03-03 10:00:01,001 INFO  [main] org.acme.Auth: Failed password for invalid \
user oracle from 198.51.100.7 port 50122
         3 variants:
               3  lines 1-6  Failed password for invalid user <*> from <*> port <*>
               3  lines 2-8  Failed password for root from <*> port <*>
               2  lines 4-7  Accepted publickey for deploy from <*> port <*>
"""


@pytest.fixture
def auth_db(make_repo, tmp_path):
    """A store of the repository whose one info statement prints AUTH_LOG's lines."""
    repo = make_repo()
    repo.write("src/main/java/org/acme/Auth.java", AUTH)
    repo.commit()
    db = tmp_path / "auth.sqlite"
    errdex.mine(repo.root, db=db)
    return db


def test_one_statement_s_lines_split_into_the_variants_an_operator_tells_apart(
        auth_db, tmp_path):
    db = auth_db
    log = tmp_path / "auth.log"
    log.write_text(AUTH_LOG)
    result = CliRunner().invoke(main, ["--db", str(db), "scan", "--group", "--all-levels",
                                       str(log)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert _rows(result.stdout) == AUTH_GOLDEN


def test_every_event_of_a_row_is_in_one_of_its_variants():
    from types import SimpleNamespace as NS

    record = NS(id="r1", slug="state", repo="acme/x", file_path="f.java", line_number=3,
                message_pattern="state (.+?)")
    events = [errdex.ScannedEvent(i, f"state {v}", [NS(record=record, approximate=approx,
                                                       bound={"s": v})])
              for i, (v, approx) in enumerate([("UP", False), ("UP", False), ("DOWN", True),
                                               ("UP", False)], 1)]
    rows = errdex.ScanGroups()
    for event in events:
        rows.add(event)
    (row,) = rows.ordered()
    variants = row.ordered_variants()
    assert sum(v.count for v in variants) == row.count == 4
    assert [(v.label, v.count) for v in variants] == [("s=UP", 3), ("(no values read)", 1)]
    assert rows.group_of(events[2]) != rows.group_of(events[0]) == rows.group_of(events[3])


def test_a_log_that_gives_no_level_shows_the_level_of_the_statement_that_wrote_it(
        auth_db, tmp_path):
    db = auth_db
    log = tmp_path / "auth.log"
    log.write_text("".join(  # syslog: a program and a pid, no level
        f"Mar  3 10:00:{i:02d} gate auth[4{i}]: Failed password for root from 198.51.100.7 "
        f"port 501{i}\n" for i in range(3)))
    result = CliRunner().invoke(main, ["--db", str(db), "scan", "--group", "--all-levels",
                                       str(log)], terminal_width=200)
    assert result.exit_code == 0, result.output
    first = _rows(result.stdout).splitlines()[0]
    assert first.split()[:2] == ["3", "info"]
    assert first.endswith("Auth.java:12  info statement")
    grouped = CliRunner().invoke(main, ["--db", str(db), "scan", "--group", "--all-levels",
                                        "--json", str(log)])
    assert json.loads(grouped.stdout.splitlines()[0])["level"] == "info"

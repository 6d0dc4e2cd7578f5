"""Log layouts: each family recognised from a log's first lines, each entry split into its
metadata and message; a log4j-style pattern named with --layout; the scan details that
layouts fix (trimmed trailing blanks, INFO-only logs, thin templates)."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

import errdex
from errdex.errors import UsageError
from errdex.interfaces.cli import main
from errdex.lookup.drain import Drain
from errdex.lookup.layout_patterns import compile_layout
from errdex.lookup.layouts import Entry, detect, entries, layout_named, locations, named_sources
from errdex.lookup.scan import scan
from errdex.templates.matching import verify


def _read(text: str) -> tuple[str, list[Entry]]:
    lines = text.splitlines(keepends=True)
    layout = detect(lines)
    assert layout is not None, text
    return layout.name, list(entries(layout, enumerate(lines, 1)))


FAMILIES = {
    "log4j-location": (
        "2015-07-29 17:41:44,747 - INFO  [QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181:"
        "FastLeaderElection@774] - Notification time out: 3200\n"
        "2015-07-29 19:04:12,394 - WARN  [/10.10.34.11:3888:QuorumCnxManager$Listener@493] "
        "- Received connection request /10.10.34.11:45307\n",
        {"level": "INFO", "class": "FastLeaderElection", "line": "774",
         "thread": "QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181"},
        "Notification time out: 3200"),
    "log4j-thread": (
        "2015-10-18 18:01:47,978 INFO [main] org.apache.hadoop.mapreduce.v2.app.MRAppMaster: "
        "Created MRAppMaster for application appattempt_1\n"
        "2015-10-18 18:01:48,963 WARN [main] org.apache.hadoop.conf.Configuration: "
        "job.xml:an attempt to override final parameter\n",
        {"level": "INFO", "thread": "main",
         "logger": "org.apache.hadoop.mapreduce.v2.app.MRAppMaster"},
        "Created MRAppMaster for application appattempt_1"),
    "oslo": (
        "nova-api.log.1.2017-05-16_13:53:08 2017-05-16 00:00:00.008 25746 INFO "
        "nova.osapi_compute.wsgi.server [req-38101a0b 113d - - -] 10.11.10.1 \"GET /v2\" "
        "status: 200\n"
        "2017-05-16 00:00:04.500 2931 WARNING nova.compute.manager [req-1 - - - - -] [instance: "
        "b9000564-fe1a-409b-b8cc-1e88b294cd1d] Instance shutdown by itself.\n",
        {"level": "INFO", "pid": "25746", "logger": "nova.osapi_compute.wsgi.server"},
        '10.11.10.1 "GET /v2" status: 200'),
    "log4j": (
        "2026-01-02 10:00:00,001 INFO app.main: starting\n"
        "2026-01-02 10:00:01,002 WARNING app.store: disk almost full\n",
        {"level": "INFO", "logger": "app.main"}, "starting"),
    "log4j-short-date": (
        "17/06/09 20:10:40 INFO executor.CoarseGrainedExecutorBackend: Registered signal "
        "handlers\n17/06/09 20:10:41 WARN spark.SecurityManager: acls off\n",
        {"level": "INFO", "logger": "executor.CoarseGrainedExecutorBackend"},
        "Registered signal handlers"),
    "hdfs": (
        "081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 terminating\n"
        "081109 203807 222 WARN dfs.FSNamesystem: BLOCK* NameSystem.addStoredBlock: odd\n",
        {"level": "INFO", "thread": "148", "logger": "dfs.DataNode$PacketResponder"},
        "PacketResponder 1 terminating"),
    "log4j-class-line": (
        "2026-01-02 10:00:00 ERROR Store:42 - cannot open inventory\n"
        "2026-01-02 10:00:01 INFO  Store:50 - retrying\n",
        {"level": "ERROR", "class": "Store", "line": "42"}, "cannot open inventory"),
    "logback": (
        "10:00:00.123 [main] WARN  c.a.Store - disk almost full\n"
        "10:00:00.456 [pool-1-thread-2] INFO  c.a.Main - started\n",
        {"level": "WARN", "thread": "main", "logger": "c.a.Store"}, "disk almost full"),
    "spring-boot": (
        "2023-11-23T10:00:00.000+01:00  WARN 12345 --- [myapp] [           main] "
        "c.e.Store                : disk almost full\n"
        "2023-11-23T10:00:01.000+01:00  INFO 12345 --- [myapp] [           main] "
        "c.e.Main                 : started\n",
        {"level": "WARN", "pid": "12345", "thread": "main", "logger": "c.e.Store"},
        "disk almost full"),
    "rust": (
        "[2026-01-02T10:00:00Z ERROR my_crate::store] cannot open inventory\n"
        "2026-01-02T10:00:00.123456Z  INFO my_crate::main: started\n",
        {"level": "ERROR", "logger": "my_crate::store"}, "cannot open inventory"),
    "python-default": (
        "WARNING:root:disk almost full\nERROR:app.store:cannot open inventory\n",
        {"level": "WARNING", "logger": "root"}, "disk almost full"),
    "python-dashes": (
        "2026-01-02 10:00:00,001 - app.store - ERROR - cannot open inventory\n"
        "2026-01-02 10:00:01,001 - app.store - INFO - retrying\n",
        {"level": "ERROR", "logger": "app.store"}, "cannot open inventory"),
    "glog": (
        "E0102 15:04:05.123456   12345 server.go:42] failed to bind: address in use\n"
        "I0102 15:04:06.000001   12345 server.go:50] listening\n",
        {"level": "E", "file": "server.go", "line": "42", "thread": "12345"},
        "failed to bind: address in use"),
    "android": (
        "03-17 16:13:38.811  1702  2395 D WindowManager: printFreezingDisplayLogs\n"
        "03-17 16:13:38.819  1702  8671 W PowerManagerService: acquire lock=233570404\n",
        {"level": "D", "pid": "1702", "thread": "2395", "logger": "WindowManager"},
        "printFreezingDisplayLogs"),
    "nginx-error": (
        "2019/01/01 12:00:00 [error] 1234#5678: *9 open() \"/srv/x\" failed (2: No such file)\n"
        "2019/01/01 12:00:01 [warn] 1234#5678: conflicting server name\n",
        {"level": "error", "pid": "1234", "thread": "5678"},
        'open() "/srv/x" failed (2: No such file)'),
    "apache-error": (
        "[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok /etc/httpd/workers2\n"
        "[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6\n",
        {"level": "notice", "time": "Sun Dec 04 04:47:44 2005"},
        "workerEnv.init() ok /etc/httpd/workers2"),
    "go-log": (
        "2009/11/10 23:00:00 main.go:12: cannot load config: open app.toml: no such file\n"
        "2009/11/10 23:00:01 main.go:20: serving\n",
        {"file": "main.go", "line": "12"}, "cannot load config: open app.toml: no such file"),
    "syslog-5424": (
        "<165>1 2003-10-11T22:14:15.003Z host1 evntslog 8710 ID47 - disk failure on sda\n"
        "<165>1 2003-10-11T22:14:16.003Z host1 evntslog 8710 ID47 - disk ok\n",
        {"host": "host1", "program": "evntslog", "pid": "8710"}, "disk failure on sda"),
    "syslog": (
        "Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user webmaster from 173.234.31.186\n"
        "Jun 14 15:16:01 combo sshd(pam_unix)[19939]: authentication failure; uid=0\n",
        {"host": "LabSZ", "program": "sshd", "pid": "24200"},
        "Invalid user webmaster from 173.234.31.186"),
    "json": (
        '{"level":"error","ts":"2026-01-02T10:00:00Z","logger":"store","caller":"store/db.go:'
        '88","msg":"cannot open db"}\n{"level":"info","msg":"ok","logger":"store"}\n',
        {"level": "error", "logger": "store", "file": "store/db.go", "line": "88"},
        "cannot open db"),
    "logfmt": (
        'time=2026-01-02T10:00:00Z level=warn logger=store msg="disk almost full" pct=93\n'
        "time=2026-01-02T10:00:01Z level=info msg=ok\n",
        {"level": "warn", "logger": "store"}, "disk almost full"),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_layout_family_is_recognised_and_split(family):
    text, fields, message = FAMILIES[family]
    name, found = _read(text)
    assert name == family
    assert len(found) == 2
    first = found[0]
    assert first.message == message
    for key, value in fields.items():
        assert first.fields.get(key) == value, (key, first.fields)


def test_oslo_instance_prefix_is_metadata():
    _, found = _read(FAMILIES["oslo"][0])
    assert found[1].message == "Instance shutdown by itself."
    assert found[1].fields["instance"] == "b9000564-fe1a-409b-b8cc-1e88b294cd1d"


def test_levels_are_one_vocabulary():
    levels = [_read(FAMILIES[f][0])[1][1].level for f in
              ("log4j-thread", "glog", "android", "nginx-error", "apache-error", "json")]
    assert levels == ["warning", "info", "warning", "warning", "error", "info"]


def test_a_level_the_program_wrote_in_front_of_its_message():
    text = ("Dec 10 06:55:46 LabSZ sshd[24200]: error: Received disconnect from 1.2.3.4: 3\n"
            "Dec 10 06:55:47 LabSZ sshd[24200]: Accepted password for root\n")
    _, found = _read(text)
    assert [(e.level, e.message[:6]) for e in found] == [("error", "error:"), (None, "Accept")]


def test_journald_export_entries():
    text = ("__CURSOR=s=1\n__REALTIME_TIMESTAMP=1\nPRIORITY=3\nSYSLOG_IDENTIFIER=sshd\n"
            "_PID=42\nCODE_FILE=auth.c\nCODE_LINE=310\nMESSAGE=Failed password for root\n\n"
            "__CURSOR=s=2\n__REALTIME_TIMESTAMP=2\nPRIORITY=6\nSYSLOG_IDENTIFIER=sshd\n"
            "MESSAGE=Accepted publickey\n")
    name, found = _read(text)
    assert name == "journal"
    assert [(e.line, e.message, e.level) for e in found] == [
        (1, "Failed password for root", "error"), (10, "Accepted publickey", "info")]
    assert found[0].fields["program"] == "sshd"
    assert locations(found[0].fields) == [("auth.c", 310)]


@pytest.mark.parametrize("prefix", [
    '{"log":"%s\\n","stream":"stderr","time":"2026-01-02T10:00:00Z"}',
    "2016-10-06T00:17:09.669794202Z stderr F %s",
    "[pod/web-1/app] %s",
    "web_1  | %s",
])
def test_container_prefixes_are_peeled(prefix):
    inner = ["2026-01-02 10:00:00,001 ERROR app.store: cannot open inventory",
             "2026-01-02 10:00:01,002 INFO app.main: retrying"]
    name, found = _read("".join(prefix % line + "\n" for line in inner))
    assert name == "log4j"
    assert [e.message for e in found] == ["cannot open inventory", "retrying"]
    assert found[0].fields["logger"] == "app.store" and found[0].fields["container"]


def test_terminal_colours_are_not_part_of_an_entry():
    text = ("\x1b[2m2026-01-02 10:00:00,001\x1b[0m \x1b[31mERROR\x1b[0m app.store: cannot open\n"
            "\x1b[2m2026-01-02 10:00:01,002\x1b[0m \x1b[32mINFO\x1b[0m app.main: retrying\n")
    name, found = _read(text)
    assert name == "log4j"
    assert [(e.level, e.message) for e in found] == [("error", "cannot open"),
                                                     ("info", "retrying")]


def test_continuation_lines_stay_with_their_entry():
    text = ("2026-01-02 10:00:00,001 ERROR app.store: cannot open inventory\n"
            "Traceback (most recent call last):\n"
            '  File "app/store.py", line 3, in load\n'
            "OSError: disk gone\n"
            "2026-01-02 10:00:01,002 INFO app.main: retrying\n")
    _, found = _read(text)
    assert [e.line for e in found] == [1, 5]
    assert found[0].continuation.endswith("OSError: disk gone\n")


def test_unknown_layouts_fall_back():
    assert detect(["just some words\n", "and more words\n"]) is None
    assert detect([]) is None


def test_metadata_names_locations_and_sources():
    assert locations({"class": "QuorumCnxManager$Listener", "line": "493"})[0] == (
        "QuorumCnxManager.java", 493)
    assert locations({"location": "org.a.B.run(B.java:12)"}) == [("B.java", 12)]
    assert named_sources({"logger": "org.apache.hadoop.mapreduce.v2.app.MRAppMaster"}) == [
        "MRAppMaster"]
    assert "nova/compute/manager" in named_sources({"logger": "nova.compute.manager"})
    assert named_sources({"program": "/usr/sbin/sshd"}) == ["sshd"]
    assert named_sources({"logger": "my_crate::io::store"}) == ["store", "io/store"]


# --- --layout: a log4j-style pattern --------------------------------------------------


def test_a_log4j_pattern_compiles_to_a_parser():
    layout = layout_named("%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n")
    fields = layout.read("2026-01-02 10:00:00.123 [pool-1-thread-2] WARN  c.a.Store - "
                         "disk almost full")
    assert fields == {"time": "2026-01-02 10:00:00.123", "thread": "pool-1-thread-2",
                      "level": "WARN", "logger": "c.a.Store", "message": "disk almost full"}
    assert layout.read("something else") is None


def test_a_pattern_parses_in_linear_time():
    """A hostile line (a thread of 200,000 colons) does not make the parser backtrack."""
    layout = layout_named("%d{ISO8601} - %-5p [%t:%C{1}@%L] - %m%n")
    line = "2015-07-29 17:41:44,747 - INFO  [" + ":" * 200_000 + "x"
    assert layout.read(line) is None


def test_a_long_line_with_a_lone_surrogate_is_read():
    """Past the fast path, lines go to RE2, which reads UTF-8 only (found by the
    adversarial scan test)."""
    layout = layout_named("log4j")
    line = "2026-01-02 10:00:00,001 ERROR app.x: " + "(" * 5000 + "zork \udc80" + ")" * 5000
    fields = layout.read(line)
    assert fields is not None and fields["logger"] == "app.x"


@pytest.mark.parametrize("bad, says", [
    ("%d %p %c", "no %m"), ("%d %q %m", "unknown conversion %q"), ("  ", "empty"),
    ("%m %", "names no conversion"),
])
def test_a_bad_pattern_is_one_clear_line(bad, says):
    with pytest.raises(UsageError, match=says):
        compile_layout(bad)


def test_a_layout_is_named_by_its_family():
    assert layout_named("syslog").read("Dec 10 06:55:46 h sshd[1]: x") is not None
    with pytest.raises(UsageError, match=r"no such layout.*log4j-location"):
        layout_named("sysl0g")


def test_a_bad_layout_through_the_cli_exits_2(tmp_path):
    log = tmp_path / "a.log"
    log.write_text("x\n")
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "db.sqlite"), "scan",
                                       "--layout", "%d %p", str(log)])
    assert result.exit_code == 2
    assert "no %m" in result.stderr and "Traceback" not in result.output


# --- the details ----------------------------------------------------------------------


def test_a_trailing_blank_matches_a_trimmed_line():
    assert verify("ERROR IN CONTACTING RM\\. ", "ERROR IN CONTACTING RM.") == ()
    assert verify("cannot (.+?) now  ", "cannot x now") == ("x",)
    assert verify("cannot (.+?) now ", "cannot x later") is None


PY = '''\
import logging

log = logging.getLogger(__name__)


def load(path):
    log.info("loading inventory from %s", path)
    if not path:
        log.error("inventory file %s is missing", path)
'''


@pytest.fixture
def db(make_repo, tmp_path):
    repo = make_repo()
    repo.write("app/store.py", PY)
    repo.commit()
    path = tmp_path / "layouts.sqlite"
    errdex.mine(repo.root, db=path)
    return path


@pytest.mark.parametrize("text", [
    "2026-01-02 10:00:00,001 INFO app.main: starting\n"
    "2026-01-02 10:00:01,002 INFO app.main: listening\n",
    "starting up\nlistening on 8080\n",
])
def test_an_info_only_log_has_no_events(db, text):
    assert list(scan(errdex.open_index(db), io.StringIO(text))) == []


def test_layout_entries_map_with_metadata_in_json(db, tmp_path):
    log = tmp_path / "app.log"
    log.write_text("2026-01-02 10:00:00,001 - app.store - INFO - loading inventory from x\n"
                   "2026-01-02 10:00:01,002 - app.store - ERROR - inventory file  is missing\n"
                   "2026-01-02 10:00:02,003 - app.store - ERROR - inventory file y is missing\n")
    result = CliRunner().invoke(main, ["--db", str(db), "scan", "--json", str(log)])
    assert result.exit_code == 0, result.output
    found = [json.loads(line) for line in result.stdout.splitlines()]
    assert [e["line"] for e in found] == [2, 3]
    assert found[1]["layout"]["name"] == "python-dashes"
    assert found[1]["layout"]["logger"] == "app.store" and found[1]["layout"]["level"] == "error"
    match = found[1]["matches"][0]
    assert match["record"]["errorMessage"] == "inventory file %s is missing"
    assert match["bound"] == {"path": "y"} or list(match["bound"].values()) == ["y"]
    assert "the log names" in match["reason"]


def test_drain_groups_messages_by_their_own_template():
    drain = Drain()
    ids = [drain.add(m).id for m in ("Connection broken for id 1, my id = 3",
                                     "Connection broken for id 2, my id = 3",
                                     "Interrupted while waiting", "Interrupted while waiting")]
    assert ids == [1, 1, 2, 2]
    assert drain.add("Connection broken for id 9, my id = 4").template == (
        "Connection broken for id <*>, my id = <*>")  # a value masked inside its word


# --- metadata as evidence --------------------------------------------------------------


def _mine(make_repo, tmp_path, files: dict[str, str]):
    repo = make_repo()
    for path, text in files.items():
        repo.write(path, text)
    repo.commit()
    db = tmp_path / "evidence.sqlite"
    errdex.mine(repo.root, db=db)
    return db


def _scan_json(db, tmp_path, text: str) -> list[dict[str, object]]:
    log = tmp_path / "evidence.log"
    log.write_text(text)
    result = CliRunner().invoke(main, ["--db", str(db), "scan", "--json", "--top", "2",
                                       str(log)])
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_logger_name_ranks_the_file_it_names(make_repo, tmp_path):
    same = 'import logging\n\nlog = logging.getLogger(__name__)\n\n\ndef f(p):\n' \
           '    log.error("cannot open the inventory at %s", p)\n'
    db = _mine(make_repo, tmp_path, {"app/store.py": same, "app/cache.py": same})
    for logger in ("app.cache", "app.store"):
        found = _scan_json(db, tmp_path, f"2026-01-02 10:00:00,001 - {logger} - ERROR - "
                                         "cannot open the inventory at /srv/x\n")
        files = [m["record"]["filePath"] for m in found[0]["matches"]]
        assert files[0] == logger.replace(".", "/") + ".py", files


def test_a_class_at_line_ranks_the_statement_at_that_line(make_repo, tmp_path):
    java = ("package a;\n\npublic class {name} {{\n    void f(String p) {{\n"
            '        LOG.warn("Cannot read snapshot " + p);\n    }}\n}}\n')
    db = _mine(make_repo, tmp_path, {"src/a/Reader.java": java.format(name="Reader"),
                                     "src/a/Loader.java": java.format(name="Loader")})
    for name in ("Reader", "Loader"):
        found = _scan_json(db, tmp_path, f"2015-07-29 17:41:44,747 - WARN  [main:{name}@5] - "
                                         "Cannot read snapshot /var/zk/snap.1\n")
        best = found[0]["matches"][0]
        assert best["record"]["filePath"] == f"src/a/{name}.java"
        assert "frame" in best["reason"]


def test_a_template_mostly_holes_needs_corroboration(make_repo, tmp_path):
    py = ('import logging\n\nlog = logging.getLogger(__name__)\n\n\ndef f(a, b):\n'
          '    log.warning("%s not %s", a, b)\n')
    db = _mine(make_repo, tmp_path, {"app/peers.py": py})
    found = _scan_json(db, tmp_path,
                       "2026-01-02 10:00:00,001 - other.mod - ERROR - Leader not elected\n"
                       "2026-01-02 10:00:01,001 - other.mod - WARNING - Leader not elected\n"
                       "2026-01-02 10:00:02,001 - app.peers - ERROR - Leader not elected\n")
    assert [bool(e["matches"]) for e in found] == [False, True, True]


def test_a_layout_without_levels_maps_records_and_statements(db):
    """syslog writes no level: with every level mapped, a line is looked up among the
    records first, then among the info statements."""
    text = ("Dec 10 06:55:46 host1 app[42]: inventory file /srv/x is missing\n"
            "Dec 10 06:55:47 host1 app[42]: loading inventory from /srv/y\n"
            "Dec 10 06:55:48 host1 app[42]: nothing to see here\n")
    events = list(scan(errdex.open_index(db), io.StringIO(text), all_levels=True))
    assert [e.line for e in events] == [1, 2, 3]
    assert events[0].matches[0].record.error_message == "inventory file %s is missing"
    assert events[1].statement is not None and events[1].statement.statement.line_number == 7
    assert not events[2].matches and events[2].statement is None
    default = list(scan(errdex.open_index(db), io.StringIO(text)))
    assert [e.line for e in default] == [1]  # by default: the line with an error's words

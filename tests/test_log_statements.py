"""Every log statement is indexed: warning and above are records, trace … notice a table.

A log call below warning is what ``scan`` needs to name the line that wrote an INFO
entry, but the dataset stays about errors: those statements live in their own table,
replaced per file with each mine, never exported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import errdex
from errdex.records.log_statements import LogStatement
from errdex.store.protocol import Store
from tests.conftest import GitRepo


def _statement(path: str, line: int, text: str, level: str = "info") -> LogStatement:
    return LogStatement("acme/app", path, line, level, text, text, "App.run",  # type: ignore[arg-type]
                        "java", "App")


def test_store_replaces_log_statements_per_file(backend_store: Store) -> None:
    store = backend_store
    first = [_statement("a.java", 3, "starting"), _statement("b.java", 9, "ready", "debug")]
    store.replace_repo("acme/app", [], analyzed_sha="1" * 40, logs=first)
    assert store.log_statements() == first and store.log_statement_count("acme/app") == 2
    # an incremental mine of b.java only: a.java's statement stays, b.java's is replaced
    store.replace_repo("acme/app", [], analyzed_sha="2" * 40, files={"b.java"},
                       logs=[_statement("b.java", 11, "ready now", "trace")])
    got = store.log_statements("acme/app")
    assert [(s.file_path, s.line_number, s.level, s.template) for s in got] == [
        ("a.java", 3, "info", "starting"), ("b.java", 11, "trace", "ready now")]
    assert store.log_statements("other/repo") == [] and store.count("acme/app") == 0
    # a write without logs (an import) leaves them; a full mine with none clears them
    store.replace_repo("acme/app", [], analyzed_sha="3" * 40)
    assert store.log_statement_count() == 2
    store.replace_repo("acme/app", [], analyzed_sha="4" * 40, logs=[])
    assert store.log_statement_count() == 0


JAVA = """package acme;

public class Server {
    private static final Logger LOG = LoggerFactory.getLogger(Server.class);

    void serve(Thread t, Throwable e, long sid, Socket sock) {
        LOG.error("Thread " + t + " threw an Exception.", e);
        LOG.warn("Exception causing close of session 0x" + Long.toHexString(sid));
        LOG.info("Accepted socket connection from " + sock.getRemoteSocketAddress());
        LOG.debug("Reading snapshot {}", sid);
        LOG.trace("Processing request {} of session {}", t, sid);
        julLogger.fine("fine detail " + sid);
        julLogger.log(Level.WARNING, "queue is full for " + sid);
    }
}
"""


def _levels_and_records(make_repo: Callable[..., GitRepo], db: str, files: dict[str, str],
                        name: str = "acme/app") -> tuple[list[tuple[int, str, str]],
                                                         list[tuple[int, str, str]]]:
    repo = make_repo()
    repo.commit_files(files)
    errdex.mine(repo.root, db=db, repo=name, jobs=1)
    with errdex.open_store(db) as store:
        logs = [(s.line_number, s.level, s.template) for s in store.log_statements(name)]
        records = [(r.record.line_number, r.record.severity, r.record.error_message)
                   for r in store.records(name) if r.record.error_type == "log"]
    return sorted(logs), sorted(records)


def test_java_log_calls_at_every_level_are_routed_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"src/Server.java": JAVA})
    assert records == [
        (7, "error", "Thread {t} threw an Exception."),
        (8, "warning", "Exception causing close of session 0x{Long.toHexString(sid)}"),
        (13, "warning", "queue is full for {sid}"),
    ]
    assert logs == [
        (9, "info", "Accepted socket connection from {sock.getRemoteSocketAddress()}"),
        (10, "debug", "Reading snapshot {}"),
        (11, "trace", "Processing request {} of session {}"),
        (12, "debug", "fine detail {sid}"),
    ]


PYTHON = """import logging

LOG = logging.getLogger(__name__)


def boot(instance, host):
    LOG.info(_LI("Compute_service record updated for %(host)s"), {"host": host})
    LOG.debug("Lock released by %s", host)
    LOG.warning(_LW("Instance %s is gone"), instance.uuid, instance=instance)
    LOG.exception("unexpected failure in boot")
    LOG.critical("disk is full on %s", host)
    LOG.log(logging.INFO, "took %d seconds", 3)
"""


def test_python_log_calls_at_every_level_are_routed_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"nova/boot.py": PYTHON})
    assert records == [(9, "warning", "Instance %s is gone"),
                       (10, "error", "unexpected failure in boot"),
                       (11, "fatal", "disk is full on %s")]
    assert logs == [(7, "info", "Compute_service record updated for %(host)s"),
                    (8, "debug", "Lock released by %s"), (12, "info", "took %d seconds")]


# A project's own logging functions, as a C code base writes them: one-line variadic
# wrappers around a dispatcher whose switch picks the text printed before each level.
LOG_C = """#include <stdarg.h>

typedef enum { LVL_FATAL, LVL_ERROR, LVL_INFO, LVL_DEBUG2 } LogLevel;

void emit(LogLevel level, const char *fmt, va_list args);

void
complain(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	emit(LVL_ERROR, fmt, args);
	va_end(args);
}

void
say(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	emit(LVL_INFO, fmt, args);
	va_end(args);
}

void
chatter(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	emit(LVL_DEBUG2, fmt, args);
	va_end(args);
}

void
emit(LogLevel level, const char *fmt, va_list args)
{
	char msgbuf[1024], fmtbuf[1024];
	char *txt = NULL;

	switch (level) {
	case LVL_FATAL:
		txt = "fatal";
		break;
	case LVL_ERROR:
		txt = "error";
		break;
	case LVL_INFO:
		break;
	case LVL_DEBUG2:
		txt = "debug2";
		break;
	}
	if (txt != NULL) {
		snprintf(fmtbuf, sizeof(fmtbuf), "%s: %s", txt, fmt);
		vsnprintf(msgbuf, sizeof(msgbuf), fmtbuf, args);
	} else {
		vsnprintf(msgbuf, sizeof(msgbuf), fmt, args);
	}
	write_out(msgbuf);
}

void
emit2(LogLevel level, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	emit(level, fmt, args);
	va_end(args);
}
"""
# In another file than the dispatcher: its prefix still applies (``emit:LVL_FATAL``).
DIE_C = """#include <stdarg.h>

void
croak(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	emit(LVL_FATAL, fmt, args);
	va_end(args);
	exit(255);
}
"""
AUTH_C = """void
auth_report(const char *method, const char *user, const char *host, int port, int ok)
{
	say("%s %s for %s from %.200s port %d ssh2", ok ? "Accepted" : "Failed", method, user,
		host, port);
	complain("Received disconnect from %s: %u", host, port);
	chatter("userauth_request: try method %s", method);
	croak("Write failed: %s", "reset");
	emit2(quiet ? LVL_INFO : LVL_ERROR, "Received disconnect from %s", host);
	syslog(LOG_NOTICE, "session opened for %s", user);
}
"""


def test_c_logging_functions_print_their_prefix_and_route_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(
        make_repo, str(tmp_path / "db.sqlite"),
        {"log.c": LOG_C, "die.c": DIE_C, "auth.c": AUTH_C})
    assert records == [(6, "error", "error: Received disconnect from %s: %u"),
                       (8, "fatal", "fatal: Write failed: %s"),
                       (9, "error", "error: Received disconnect from %s")]
    assert logs == [(4, "info", "Accepted %s for %s from %.200s port %d ssh2"),
                    (4, "info", "Failed %s for %s from %.200s port %d ssh2"),
                    (7, "debug", "debug2: userauth_request: try method %s"),
                    (9, "info", "Received disconnect from %s"),
                    (10, "notice", "session opened for %s")]


def test_an_incremental_mine_keeps_the_table_right(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    repo = make_repo()
    repo.commit_files({"src/Server.java": JAVA, "nova/boot.py": PYTHON})
    errdex.mine(repo.root, db=db, repo="acme/app", jobs=1)
    with errdex.open_store(db) as store:
        before = store.log_statements("acme/app")
    assert {s.file_path for s in before} == {"src/Server.java", "nova/boot.py"}
    repo.commit_files({"nova/boot.py": PYTHON.replace("Lock released by", "Lock freed by")})
    summary = errdex.mine(repo.root, db=db, repo="acme/app", jobs=1)
    assert summary.incremental
    with errdex.open_store(db) as store:
        after = store.log_statements("acme/app")
        exported = [r.record.error_message for r in store.records("acme/app")]
    assert len(after) == len(before)
    assert [s for s in after if s.file_path == "src/Server.java"] == [
        s for s in before if s.file_path == "src/Server.java"]
    assert "Lock freed by %s" in {s.template for s in after}
    assert "Lock released by %s" not in {s.template for s in after}
    assert not {s.template for s in after} & set(exported)  # never records


GO = """package main

func run(log *logrus.Logger, logger *zap.SugaredLogger, n int, err error) {
	log.Infof("listening on port %d", n)
	log.Warnf("slow request took %dms", n)
	logger.Infow("started worker", "id", n)
	slog.Info("cache warmed", "entries", n)
	klog.InfoS("Pod status updated", "pod", n)
	klog.V(2).Infof("syncing node %s", name)
	glog.Warningf("cannot reach %s", host)
	log.Debug("tick of the clock")
	log.Printf("served %d requests", n)
	log.Errorf("failed to dial: %v", err)
}
"""


def test_go_log_calls_at_every_level_are_routed_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"cmd/main.go": GO})
    assert records == [(5, "warning", "slow request took %dms"),
                       (10, "warning", "cannot reach %s"), (13, "error", "failed to dial: %v")]
    assert logs == [(4, "info", "listening on port %d"), (6, "info", "started worker"),
                    (7, "info", "cache warmed"), (8, "info", "Pod status updated"),
                    (9, "info", "syncing node %s"), (11, "debug", "tick of the clock"),
                    (12, "info", "served %d requests")]


RUST = """fn serve(port: u16, peer: &str) {
    log::info!("listening on port {}", port);
    tracing::debug!(peer = %peer, "accepted connection from {}", peer);
    warn!("slow client {peer}");
    trace!(target: "net", "read {} bytes", 3);
    error!("failed to bind {}: {}", port, e);
}
"""


def test_rust_log_and_tracing_macros_are_routed_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"src/net.rs": RUST})
    assert records == [(4, "warning", "slow client {peer}"),
                       (6, "error", "failed to bind {}: {}")]
    assert logs == [(2, "info", "listening on port {}"),
                    (3, "debug", "accepted connection from {}"), (5, "trace", "read {} bytes")]


JAVASCRIPT = """function serve(port, logger, req) {
  console.log("listening on port %d", port);
  console.info(`server ready at ${port}`);
  logger.debug({ req }, "request received");
  logger.info("user %s logged in", req.user);
  logger.warn("slow response from upstream");
  console.error("cannot bind port " + port);
  logger.fatal("out of memory in worker");
}
"""


def test_javascript_console_and_logger_calls_are_routed_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"src/server.js": JAVASCRIPT})
    assert records == [(6, "warning", "slow response from upstream"),
                       (7, "error", "cannot bind port ${port}"),
                       (8, "fatal", "out of memory in worker")]
    assert logs == [(2, "info", "listening on port %d"), (3, "info", "server ready at ${port}"),
                    (4, "debug", "request received"), (5, "info", "user %s logged in")]


PHP = """<?php
class Job {
    public function run($id) {
        $this->logger->info("Job {id} started", ['id' => $id]);
        $this->logger->debug("Loaded the configuration");
        $this->logger->warning("Job {id} is slow", ['id' => $id]);
        Log::notice("Cache cleared for tenant");
        $this->logger->error("Job {id} failed", ['id' => $id]);
        $this->logger->critical("Database is gone");
    }
}
"""
RUBY = """class Job
  def run(id)
    logger.info("Job #{id} started")
    Rails.logger.debug { "loaded #{id} rows" }
    @logger.warn("Job #{id} is slow")
    logger.error("Job #{id} failed")
    LOG.fatal("out of disk space")
  end
end
"""


def test_psr3_and_ruby_logger_calls_are_routed_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"src/Job.php": PHP, "app/job.rb": RUBY})
    assert sorted(records) == [
        (5, "warning", "Job #{id} is slow"), (6, "error", "Job #{id} failed"),
        (6, "warning", "Job {id} is slow"), (7, "fatal", "out of disk space"),
        (8, "error", "Job {id} failed"), (9, "fatal", "Database is gone")]
    assert sorted(logs) == [
        (3, "info", "Job #{id} started"), (4, "debug", "loaded #{id} rows"),
        (4, "info", "Job {id} started"), (5, "debug", "Loaded the configuration"),
        (7, "notice", "Cache cleared for tenant")]


SWIFT = """func sync(count: Int) {
    logger.info("Synced \\\\(count) items")
    logger.debug("Cache hit for key")
    log.warning("Slow network response")
    logger.notice("User signed in")
    logger.error("Sync failed for \\\\(count) items")
}
"""


def test_swift_logger_calls_are_routed_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"Sources/Sync.swift": SWIFT})
    assert [(line, severity) for line, severity, _ in records] == [(4, "warning"), (6, "error")]
    assert [(line, level) for line, level, _ in logs] == [(2, "info"), (3, "debug"),
                                                         (5, "notice")]


KOTLIN = """class Job(private val logger: Logger) {
    fun run(id: Int) {
        logger.info("Job {} started", id)
        logger.debug { "loaded $id rows" }
        logger.warn("Job $id is slow")
        logger.error("Job {} failed", id, e)
        LOG.trace("tick of the clock")
    }
}
"""


def test_kotlin_logger_calls_are_routed_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"src/Job.kt": KOTLIN})
    assert records == [(5, "warning", "Job $id is slow"), (6, "error", "Job {} failed")]
    assert logs == [(3, "info", "Job {} started"), (4, "debug", "loaded $id rows"),
                    (7, "trace", "tick of the clock")]


CSHARP = """class Job {
    void Run(int id) {
        _logger.LogInformation("Job {JobId} started", id);
        _logger.LogDebug("Loaded {Count} rows", 3);
        _logger.LogWarning("Job {JobId} is slow", id);
        Log.Verbose("tick of the clock");
        log.InfoFormat("Processed {0} items", id);
        _logger.LogError(ex, "Job {JobId} failed", id);
        _logger.LogCritical("Database is gone");
    }
}
"""


def test_dotnet_ilogger_serilog_and_log4net_calls_are_routed_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"src/Job.cs": CSHARP})
    assert records == [(5, "warning", "Job {JobId} is slow"), (8, "error", "Job {JobId} failed"),
                       (9, "fatal", "Database is gone")]
    assert logs == [(3, "info", "Job {JobId} started"), (4, "debug", "Loaded {Count} rows"),
                    (6, "trace", "tick of the clock"), (7, "info", "Processed {0} items")]


def test_a_statement_names_the_logger_its_source_declares(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    repo = make_repo()
    repo.commit_files({"src/Server.java": JAVA, "nova/compute/boot.py": PYTHON})
    errdex.mine(repo.root, db=db, repo="acme/app", jobs=1)
    with errdex.open_store(db) as store:
        loggers = {(s.file_path, s.line_number): s.logger
                   for s in store.log_statements("acme/app")}
    assert loggers[("src/Server.java", 9)] == "Server"  # LoggerFactory.getLogger(Server.class)
    assert loggers[("src/Server.java", 12)] is None  # julLogger: declared nowhere here
    assert loggers[("nova/compute/boot.py", 8)] == "nova.compute.boot"  # getLogger(__name__)


def test_an_oslo_instance_keyword_prints_its_prefix(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    _logs, _ = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"), {"nova/claims.py": (
        "def claim(instance):\n"
        "    LOG.info(_LI('Claim successful'), instance=instance)\n")})
    with errdex.open_store(str(tmp_path / "db.sqlite")) as store:
        [statement] = store.log_statements()
    assert re.fullmatch(statement.pattern, "[instance: 5c9b-42] Claim successful")



AUDIT = """package acme;

public class Audit {
    private static final Logger LOG = LoggerFactory.getLogger(Audit.class);

    static void note(String what) {
        LOG.info("audit: " + what);
    }

    static void alarm(String what) {
        LOG.warn("ALARM " + what);
    }

    void run(String user) {
        note("user " + user + " logged in");
        alarm("disk is almost full");
    }
}
"""


def test_a_java_logging_helper_gives_its_callers_its_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"src/Audit.java": AUDIT})
    assert (16, "warning", "ALARM disk is almost full") in records
    assert (15, "info", "audit: user {user} logged in") in logs
    assert not any(line == 15 for line, _, _ in records)


CPP = """void load(int n) {
  LOG(INFO) << "Loaded " << n << " shards";
  LOG(WARNING) << "Slow shard " << n;
  LOG(ERROR) << "Shard " << n << " failed";
  std::cerr << "bad input " << n << std::endl;
}
"""


def test_glog_streams_are_routed_by_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    logs, records = _levels_and_records(make_repo, str(tmp_path / "db.sqlite"),
                                        {"src/load.cpp": CPP})
    assert records == [(3, "warning", "Slow shard {n}"), (4, "error", "Shard {n} failed"),
                       (5, "error", "bad input {n}")]
    assert logs == [(2, "info", "Loaded {n} shards")]


def test_log_statements_are_never_exported(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    repo = make_repo()
    repo.commit_files({"src/Server.java": JAVA})
    errdex.mine(repo.root, db=db, repo="acme/app", jobs=1)
    out = tmp_path / "records.jsonl"
    count = errdex.export_dataset(out, db=db)
    messages = {json.loads(line)["record"]["errorMessage"]
                for line in out.read_text(encoding="utf-8").splitlines()}
    assert count == 3 and "Thread {t} threw an Exception." in messages
    assert not any(m.startswith(("Accepted socket", "Reading snapshot", "Processing request",
                                 "fine detail")) for m in messages)

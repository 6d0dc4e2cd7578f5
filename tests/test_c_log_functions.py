"""A C project's own logging functions, every form a code base writes them in.

Each form is a small fixture written for this test: the level a call logs at (named by a
constant anywhere before the format, by the logging macro's name, or by the function a
pointer holds), the text printed (a dispatcher's prefix included), and that a line as the
program prints it matches the mined statement.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import errdex
from errdex.languages.c.log_sites import level_constant, logging_macro
from tests.conftest import GitRepo

Mined = tuple[list[tuple[int, str, str]], list[tuple[int, str, str]]]


def _mine(make_repo: Callable[..., GitRepo], db: str, files: dict[str, str],
          only: str | None = None) -> Mined:
    """(log statements, log records) as (line, level or severity, template)."""
    repo = make_repo()
    repo.commit_files(files)
    errdex.mine(repo.root, db=db, repo="acme/app", jobs=1)
    with errdex.open_store(db) as store:
        logs = [(s.line_number, s.level, s.template) for s in store.log_statements("acme/app")
                if only is None or s.file_path == only]
        records = [(r.record.line_number, r.record.severity, r.record.error_message)
                   for r in store.records("acme/app")
                   if r.record.error_type == "log" and (only is None or r.record.file_path == only)]
    return sorted(logs), sorted(records)


def _patterns(db: str) -> list[str]:
    with errdex.open_store(db) as store:
        return [r.record.message_pattern or "" for r in store.records("acme/app")] + [
            s.pattern for s in store.log_statements("acme/app")]


# The level is an argument, not the first one, and the format is not the first parameter:
# httpd's ``ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, fmt, …)`` (APLOG_MARK is a macro for
# file and line), flags or'ed with the level, redis's ``serverLog(LL_WARNING, fmt, …)``,
# nginx's ``ngx_log_error(NGX_LOG_EMERG, log, 0, fmt, …)``. No definition is needed.
LEVELED_C = """#define APLOG_MARK __FILE__,__LINE__

static int
serve(request_rec *r, server_rec *s, int pid, const char *sig, ngx_log_t *log)
{
    ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r,
                  "Directory index forbidden by rule: %s", r->filename);
    ap_log_error(APLOG_MARK, APLOG_NOERRNO|APLOG_WARNING, 0, s,
                 "child pid %d exit signal %s", pid, sig);
    ap_log_perror(APLOG_MARK, APLOG_INFO, 0, s->process->pool, "module %s loaded", r->uri);
    serverLog(LL_WARNING, "Background saving terminated with success");
    serverLog(LL_NOTICE, "Ready to accept connections %s", "tcp");
    serverLog(LL_VERBOSE, "Client closed connection id=%d", pid);
    serverLog(LL_WARNING|LL_RAW, "Redis is starting");
    ngx_log_error(NGX_LOG_EMERG, log, 0, "bind() to %s failed", sig);
    elog(ERROR, "cache lookup failed for relation %u", pid);
    return 0;
}
"""


def test_a_level_constant_anywhere_before_the_format_is_the_calls_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"src/serve.c": LEVELED_C})
    assert records == [(6, "error", "Directory index forbidden by rule: %s"),
                       (8, "warning", "child pid %d exit signal %s"),
                       (11, "warning", "Background saving terminated with success"),
                       (14, "warning", "Redis is starting"),
                       (15, "fatal", "bind() to %s failed"),
                       (16, "error", "cache lookup failed for relation %u")]
    assert logs == [(10, "info", "module %s loaded"),
                    (12, "notice", "Ready to accept connections %s"),
                    (13, "trace", "Client closed connection id=%d")]
    patterns = _patterns(db)
    for line in ("Directory index forbidden by rule: /srv/www/private",
                 "child pid 4711 exit signal Segmentation fault (11)",
                 "Ready to accept connections tcp", "Client closed connection id=7"):
        assert any(re.fullmatch(p, line) for p in patterns), line
    best = errdex.explain("Directory index forbidden by rule: /srv/www/private", db=db)[0]
    assert best.record.line_number == 6 and not best.approximate


# Logging macros named after their level (ZooKeeper's C client): the format in one
# parenthesized list (older releases) or after a callback argument (newer ones). A macro
# whose name only ends in a level word (an option, a message of its own) logs nothing.
MACROS_C = """#include "zookeeper_log.h"

static int
resolve(zhandle_t *zh, const char *host, int time_left)
{
    LOG_ERROR(("no port in %s", host));
    LOG_WARN(("Exceeded deadline by %dms", time_left));
    LOG_INFO((LOGCALLBACK(zh), "Initiating client connection, host=%s", host));
    LOG_DEBUG(("Got ping response in %d ms", time_left));
    LOG_ERROR(LOGCALLBACK(zh), "Socket %s zk retcode=%d", host, time_left);
    LOG_WARN(LOGCALLBACK(zh), "Unable to set TCP_NODELAY, latency may be effected");
    LOG_INFO(LOGCALLBACK(zh), "session establishment complete on server %s", host);
    OPT__VERBOSE(&verbose, "be more verbose");
    MERGE_WARNING(host, "not checked out");
    return 0;
}
"""


def test_logging_macros_named_after_their_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"src/zookeeper.c": MACROS_C})
    assert records == [(6, "error", "no port in %s"), (7, "warning", "Exceeded deadline by %dms"),
                       (10, "error", "Socket %s zk retcode=%d"),
                       (11, "warning", "Unable to set TCP_NODELAY, latency may be effected")]
    assert logs == [(8, "info", "Initiating client connection, host=%s"),
                    (9, "debug", "Got ping response in %d ms"),
                    (12, "info", "session establishment complete on server %s")]
    patterns = _patterns(db)
    for line in ("Exceeded deadline by 12ms", "Socket 10.0.0.1:2181 zk retcode=-4",
                 "Initiating client connection, host=localhost:2181"):
        assert any(re.fullmatch(p, line) for p in patterns), line


# One-line wrappers around a dispatcher that prints a prefix per level, and a file that
# picks the wrapper at run time through a pointer to a variadic function.
DISPATCH_C = """#include <stdarg.h>

void emit(int level, const char *fmt, va_list args);

void
note(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	emit(LEVEL_INFO, fmt, args);
	va_end(args);
}

void
chatter(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	emit(LEVEL_VERBOSE, fmt, args);
	va_end(args);
}

void
complain(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	emit(LEVEL_ERROR, fmt, args);
	va_end(args);
}

void
emit(int level, const char *fmt, va_list args)
{
	char line[1024], fmtbuf[1024];
	const char *txt = NULL;

	switch (level) {
	case LEVEL_ERROR:
		txt = "error";
		break;
	case LEVEL_INFO:
	case LEVEL_VERBOSE:
		break;
	}
	if (txt != NULL) {
		snprintf(fmtbuf, sizeof(fmtbuf), "%s: %s", txt, fmt);
		vsnprintf(line, sizeof(line), fmtbuf, args);
	} else {
		vsnprintf(line, sizeof(line), fmt, args);
	}
	write_line(line);
}
"""
LOGIN_C = """void
login_report(const char *user, int failures, int ok)
{
	void (*report)(const char *fmt, ...) = chatter;

	if (failures > 3)
		report = note;
	report("Login %s for %s", ok ? "accepted" : "refused", user);
}

void
session_report(const char *user, int quiet)
{
	void (*tell)(const char *, ...);

	tell = quiet ? note : complain;
	tell("session closed for %s", user);
}
"""


def test_a_pointer_to_a_chosen_logging_function_is_a_statement_per_choice(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"log.c": DISPATCH_C, "login.c": LOGIN_C},
                          only="login.c")
    assert records == [(17, "error", "error: session closed for %s")]
    assert logs == [(8, "info", "Login accepted for %s"), (8, "info", "Login refused for %s"),
                    (8, "trace", "Login accepted for %s"), (8, "trace", "Login refused for %s"),
                    (17, "info", "session closed for %s")]
    best = errdex.explain("error: session closed for root", db=db)[0]
    assert best.record.line_number == 17 and not best.approximate


# A choice of formats, or of texts an argument passes, through the project's own wrappers
# and a leveled call: a statement per text the call may print.
CHOICES_C = """void
close_report(const char *host, int reset, int ok, const char *user)
{
	note(reset ? "Connection reset by %s" : "Connection closed by %s", host);
	complain("%s publickey for %s%s", ok ? "Accepted" : "Failed", user,
		reset ? " (reset)" : "");
	serverLog(LL_WARNING, "Replica %s %s", host, ok ? "is online" : "is lost");
}
"""


def test_a_choice_of_texts_is_a_statement_per_branch(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"log.c": DISPATCH_C, "close.c": CHOICES_C},
                          only="close.c")
    assert logs == [(4, "info", "Connection closed by %s"), (4, "info", "Connection reset by %s")]
    assert records == [(5, "error", "error: Accepted publickey for %s"),
                       (5, "error", "error: Accepted publickey for %s (reset)"),
                       (5, "error", "error: Failed publickey for %s"),
                       (5, "error", "error: Failed publickey for %s (reset)"),
                       (7, "warning", "Replica %s is lost"), (7, "warning", "Replica %s is online")]
    best = errdex.explain("error: Failed publickey for root (reset)", db=db)[0]
    assert best.record.error_message == "error: Failed publickey for %s (reset)"


# A variadic function that formats into a buffer and hands the buffer to a logger with text
# of its own around it: its callers' formats are printed inside that text, at its level.
PEER_C = """#include <stdarg.h>

void
drop_peer(const char *fmt, ...)
{
	char msg[512];
	va_list args;

	va_start(args, fmt);
	vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	note("Dropping peer: %.100s", msg);
	send_reason(msg);
	shutdown_now(255);
}

void
handshake(const char *peer, int version)
{
	if (version < 2)
		drop_peer("protocol %d from %s is too old", version, peer);
}
"""


def test_a_function_logging_the_buffer_it_formatted_prints_its_callers_formats(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"log.c": DISPATCH_C, "peer.c": PEER_C},
                          only="peer.c")
    assert records == []
    # the logger call itself stays a statement (what any other caller's text prints as)
    assert logs == [(12, "info", "Dropping peer: %.100s"),
                    (21, "info", "Dropping peer: protocol %d from %s is too old")]
    assert any(re.fullmatch(p, "Dropping peer: protocol 1 from 10.0.0.7 is too old")
               for p in _patterns(db))


# Macros handing their format to a call naming a level constant (OpenSSH's newer
# ``#define error(...) sshlog(..., SYSLOG_LEVEL_ERROR, NULL, __VA_ARGS__)``), and a debug
# category constant with the level word inside it (``NGX_LOG_DEBUG_HTTP``).
MACRO_C = """#include <stdarg.h>

#define say_warn(...) record(__FILE__, __LINE__, LOG_LEVEL_WARNING, NULL, __VA_ARGS__)
#define say_info(fmt, ...) record(__FILE__, __LINE__, LOG_LEVEL_INFO, NULL, fmt, ##__VA_ARGS__)

void
fetch(const char *url, int code, ngx_log_t *log)
{
	say_warn("slow response from %s", url);
	say_info("fetched %s with status %d", url, code);
	ngx_log_debug1(NGX_LOG_DEBUG_HTTP, log, 0, "http cleanup add: %p", url);
}
"""


def test_a_macro_naming_a_level_constant_logs_at_that_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"fetch.c": MACRO_C})
    assert records == [(9, "warning", "slow response from %s")]
    assert logs == [(10, "info", "fetched %s with status %d"),
                    (11, "debug", "http cleanup add: %p")]


# The level in a variable the function sets from level constants: a statement per level.
RESOLVE_C = """static int
resolve(const char *host, int strict, int err)
{
	int loglevel = LOG_LEVEL_DEBUG1;

	if (strict)
		loglevel = LOG_LEVEL_ERROR;
	do_log2(loglevel, "%s: Could not resolve hostname %.100s", prog, host);
	return err;
}
"""


def test_a_level_variable_set_from_constants_logs_at_each(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"resolve.c": RESOLVE_C})
    assert records == [(8, "error", "%s: Could not resolve hostname %.100s")]
    assert logs == [(8, "debug", "%s: Could not resolve hostname %.100s")]


# The same macros in a header (read with the C++ grammar), as OpenSSH's log.h has them.
LOG_H = """#ifndef LOG_H
#define LOG_H
void record(const char *, const char *, int, int, const char *, const char *, ...);
#define say_debug(...) record(__FILE__, __func__, __LINE__, LOG_LEVEL_DEBUG1, NULL, __VA_ARGS__)
#define say_error(...) record(__FILE__, __func__, __LINE__, LOG_LEVEL_ERROR, NULL, __VA_ARGS__)
#endif
"""
SESSION_C = """#include "log.h"

void
session_close(const char *user, int fd)
{
	say_debug("closing session of %s on fd %d", user, fd);
	say_error("session of %s lost its channel", user);
}
"""


def test_a_header_macro_naming_a_level_constant_logs_at_that_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"log.h": LOG_H, "session.c": SESSION_C})
    assert records == [(7, "error", "session of %s lost its channel")]
    assert logs == [(6, "debug", "closing session of %s on fd %d")]


# A daemon's own reporter formatting into a buffer it hands to syslog at a level.
DAEMON_C = """#include <stdarg.h>
#include <syslog.h>

void
log_warnx(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	syslog(LOG_WARNING, "%s", buf);
}

void
reload(const char *file)
{
	log_warnx("could not reload %s, keeping the old configuration", file);
}
"""


def test_a_function_handing_its_formatted_buffer_to_syslog_logs_at_its_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"daemon.c": DAEMON_C})
    assert records == [(19, "warning", "could not reload %s, keeping the old configuration")]
    assert logs == []


# A function named after its level whose definition names none (it writes a file of its
# own): its callers log at the level its name says, printing their format.
TMUXLIKE_C = """#include <stdarg.h>

void
log_debug(const char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	log_vwrite(msg, ap, "");
	va_end(ap);
}

void
window_resize(int id, int sx, int sy)
{
	log_debug("window @%d resized to %dx%d", id, sx, sy);
	log_warn("window @%d is too small", id);
	info("resize done");
}
"""


def test_a_function_named_after_its_level_logs_at_it(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"window.c": TMUXLIKE_C})
    assert records == [(17, "warning", "window @%d is too small")]
    assert logs == [(16, "debug", "window @%d resized to %dx%d"), (18, "info", "resize done")]


# Wrappers naming a level for a reporter of the same file that prints no prefix (to syslog
# or stderr): their callers log at that level, their format as it is.
SERVE_C = """#include <stdarg.h>
#include <syslog.h>

static void
report(int prio, const char *fmt, va_list ap)
{
	if (use_syslog) {
		char buf[512];
		vsnprintf(buf, sizeof(buf), fmt, ap);
		syslog(prio, "%s", buf);
	} else {
		vfprintf(stderr, fmt, ap);
		fputc('\\n', stderr);
	}
}

static void
shout(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(LOG_ERR, fmt, ap);
	va_end(ap);
}

static void
whisper(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(LOG_INFO, fmt, ap);
	va_end(ap);
}

void
serve(int port)
{
	shout("cannot bind port %d", port);
	whisper("listening on port %d", port);
}
"""


def test_wrappers_of_a_reporter_in_their_file_log_at_their_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"serve.c": SERVE_C})
    assert records == [(38, "error", "cannot bind port %d")]
    assert logs == [(39, "info", "listening on port %d")]


# The level named by the enclosing call when that call has no text of its own
# (PostgreSQL's ereport); a text inside a call that has its own format is not a statement.
EREPORT_C = """void
open_relation(const char *name, int oid, server_rec *s, apr_pool_t *p)
{
	ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE),
		errmsg("relation \\"%s\\" does not exist", name)));
	ereport(DEBUG1, (errmsg_internal("opening relation %u", oid)));
	ap_log_error(APLOG_MARK, APLOG_ERR, 0, s, "%s", apr_psprintf(p, "bad oid %d", oid));
}
"""


def test_a_level_named_by_the_enclosing_call(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"relation.c": EREPORT_C})
    assert records == [(4, "error", 'relation "%s" does not exist')]
    assert logs == [(6, "debug", "opening relation %u")]


def test_the_level_a_constant_or_a_macro_name_says() -> None:
    assert [level_constant(n) for n in (
        "APLOG_ERR", "APLOG_CRIT", "LL_WARNING", "LL_VERBOSE", "NGX_LOG_DEBUG_HTTP",
        "SYSLOG_LEVEL_DEBUG2", "ZOO_LOG_LEVEL_WARN", "APLOG_MARK", "SSL_ERROR_SYSCALL",
        "EXIT_FAILURE", "ll_warning")] == [
        "error", "fatal", "warning", "trace", "debug", "debug", "warning", None, None, None,
        None]
    assert [logging_macro(n) for n in ("LOG_ERROR", "ZLOG_WARN", "WARN", "OPT__VERBOSE",
                                        "MERGE_WARNING", "PRINT_ERROR")] == [
        "error", "warning", "warning", None, None, None]


# Macros handing a code first (``fatal_r(r, ...)`` passes ``ssh_err(r)`` on) also read as
# reporters returning that call; the leveled macro is what prints, and must win the name.
CODED_H = """#ifndef CODED_H
#define CODED_H
void rec(const char *, int, int, const char *, const char *, ...);
void rec_exit(const char *, int, int, const char *, const char *, ...);
#define error_r(r, ...) rec(__FILE__, __LINE__, LOG_LEVEL_ERROR, code_err(r), __VA_ARGS__)
#define fatal_r(r, ...) rec_exit(__FILE__, __LINE__, LOG_LEVEL_FATAL, code_err(r), __VA_ARGS__)
#define fatal_f(...) rec_exit(__FILE__, __LINE__, LOG_LEVEL_FATAL, NULL, __VA_ARGS__)
#endif
"""
CODED_C = """#include "coded.h"

void
channel_write(int r, const char *name)
{
	error_r(r, "write to %s failed", name);
	fatal_r(r, "channel %s is gone", name);
	fatal_f("no channel named %s", name);
}
"""


def test_a_header_macro_handing_a_code_first_logs_its_format_at_its_level(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite")
    logs, records = _mine(make_repo, db, {"coded.h": CODED_H, "channel.c": CODED_C})
    # the code's text (``code_err(r)``) is printed after the format (``test_c_log_suffix``)
    assert records == [(6, "error", "write to %s failed: %s"),
                       (7, "fatal", "channel %s is gone: %s"), (8, "fatal", "no channel named %s")]
    assert logs == []

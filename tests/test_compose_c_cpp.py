"""C and C++ messages composed across reporters, macros, exception classes and factories:
golden records, each pattern checked against what the fixture prints when gcc/g++ build it."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import (
    classes,
    fullmatches,
    line_starting,
    messages,
    mine_changed,
    mine_fixture,
    mine_once,
    missing,
    records_at,
    source_lines,
    with_message,
)
from tests.conftest import GitRepo

USAGE_H = """\
#ifndef USAGE_H
#define USAGE_H
#include <stdio.h>
typedef void (*error_fn)(int, const char *);
void die(const char *err, ...);
int error(const char *err, ...);
void yyerror(const char *s);
void set_error_callback(error_fn callback);
void input_error(int code, const char *format, ...);
void warning(const char *warn, ...);
int xsnprintf(char *dst, size_t max, const char *fmt, ...);
void BUG_fl(const char *file, int line, const char *fmt, ...);
#define BUG(...) BUG_fl(__FILE__, __LINE__, __VA_ARGS__)
#define DIE_BUG(fmt, ...) die("BUG: " fmt, ##__VA_ARGS__)
#define LOG_ERR(fmt, ...) \\
    fprintf(stderr, "[ERR] %s:%d: " fmt "\\n", __FILE__, __LINE__, ##__VA_ARGS__)
#define INVALID_ENUM 0x10003
#define ERR_NOMEM "out of memory"
#define FAIL(msg) do { fprintf(stderr, "fail: %s\\n", msg); exit(3); } while (0)
#endif
"""

USAGE_C = """\
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "usage.h"

typedef void (*report_fn)(const char *, va_list);

static void vfreportf(FILE *f, const char *prefix, const char *err, va_list params)
{
\tchar msg[4096];
\tchar *p, *pend = msg + sizeof(msg);
\tsize_t prefix_len = strlen(prefix);

\tif (sizeof(msg) <= prefix_len) {
\t\tfprintf(stderr, "BUG!!! too long a prefix '%s'\\n", prefix);
\t\tabort();
\t}
\tmemcpy(msg, prefix, prefix_len);
\tp = msg + prefix_len;
\tif (vsnprintf(p, pend - p, err, params) < 0)
\t\t*p = '\\0';
\tp += strlen(p);
\t*(p++) = '\\n';
\tfflush(f);
\tif (write(fileno(f), msg, p - msg) < 0)
\t\texit(2);
}

static void vreportf(const char *prefix, const char *err, va_list params)
{
\tvfreportf(stderr, prefix, err, params);
}

static void die_message_builtin(const char *err, va_list params)
{
\tvreportf("fatal: ", err, params);
}

static report_fn die_message_routine = die_message_builtin;

static report_fn get_die_message_routine(void)
{
\treturn die_message_routine;
}

static void die_builtin(const char *err, va_list params)
{
\treport_fn die_message_fn = get_die_message_routine();
\tdie_message_fn(err, params);
\texit(128);
}

static report_fn die_routine = die_builtin;

void die(const char *err, ...)
{
\tva_list params;
\tva_start(params, err);
\tdie_routine(err, params);
\tva_end(params);
}

int error(const char *err, ...)
{
\tva_list params;
\tva_start(params, err);
\tvreportf("error: ", err, params);
\tva_end(params);
\treturn -1;
}

void warning(const char *warn, ...)
{
\tva_list params;
\tva_start(params, warn);
\tvreportf("warning: ", warn, params);
\tva_end(params);
}

void BUG_fl(const char *file, int line, const char *fmt, ...)
{
\tva_list params;
\tfprintf(stderr, "BUG: %s:%d: ", file, line);
\tva_start(params, fmt);
\tvfprintf(stderr, fmt, params);
\tva_end(params);
\tfputc('\\n', stderr);
\texit(99);
}

int xsnprintf(char *dst, size_t max, const char *fmt, ...)
{
\tva_list ap;
\tint len;
\tva_start(ap, fmt);
\tlen = vsnprintf(dst, max, fmt, ap);
\tva_end(ap);
\tif (len < 0)
\t\tdie("unable to format message: %s", fmt);
\treturn len;
}

int yylineno = 3;

void yyerror(const char *s)
{
\tfprintf(stderr, "line %d: %s\\n", yylineno, s);
}

static error_fn input_callback;

void set_error_callback(error_fn callback)
{
\tinput_callback = callback;
}

void input_error(int code, const char *format, ...)
{
\tchar description[1024];
\tva_list vl;
\tif (format) {
\t\tva_start(vl, format);
\t\tvsnprintf(description, sizeof(description), format, vl);
\t\tva_end(vl);
\t} else {
\t\tstrcpy(description, "Unknown error");
\t}
\tif (input_callback)
\t\tinput_callback(code, description);
}
"""

MAIN_C = """\
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "usage.h"

static void print_error(int code, const char *description)
{
\t(void)code;
\tfprintf(stderr, "%s\\n", description);
}

static void report_nothing(const char *s)
{
\t(void)s;
}

#define OPTION_HELP(s, h) ((void)(s), (void)(h))

#define ERR_BUSY "device is busy"
#define NOT_DEFINED_HERE getenv("REASON")

typedef struct { int ok; const char *msg; } value;
static char text[256];
static char last_error[256];

static value invalid_with_msg(const char *msg)
{
\tvalue v = {0, msg};
\treturn v;
}

static const char *string_fmt(const char *fmt, ...)
{
\tva_list ap;
\tva_start(ap, fmt);
\tvsnprintf(text, sizeof(text), fmt, ap);
\tva_end(ap);
\treturn text;
}

static int set_error(const char *fmt, ...)
{
\tva_list ap;
\tva_start(ap, fmt);
\tvsnprintf(last_error, sizeof(last_error), fmt, ap);
\tva_end(ap);
\treturn -1;
}

static int shown(value v)
{
\tfprintf(stderr, "%s\\n", v.msg);
\treturn 1;
}

int main(int argc, char **argv)
{
\tconst char *what = argc > 1 ? argv[1] : "";
\tchar slot[16];
\tset_error_callback(print_error);
\tif (!strcmp(what, "die"))
\t\tdie("cannot open %s", "/etc/x.conf");
\tif (!strcmp(what, "error"))
\t\treturn error("bad count %d", 7) ? 1 : 0;
\tif (!strcmp(what, "yyerror"))
\t\tyyerror("syntax error");
\tif (!strcmp(what, "bug"))
\t\tBUG("impossible state %s", "idle");
\tif (!strcmp(what, "die_bug"))
\t\tDIE_BUG("lost track of %s", "HEAD");
\tif (!strcmp(what, "warning"))
\t\twarning("ignoring %s", "ref");
\tif (!strcmp(what, "log"))
\t\tLOG_ERR("lost %d packets", 3);
\tif (!strcmp(what, "input"))
\t\tinput_error(INVALID_ENUM, "Invalid window hint 0x%08X", 0x2100);
\tif (!strcmp(what, "unknown"))
\t\treport_nothing("no reporter here");
\tif (!strcmp(what, "format"))
\t\treturn xsnprintf(slot, sizeof(slot), "slot %d", 3) < 0;
\tif (!strcmp(what, "option"))
\t\tOPTION_HELP("verbose", "be more verbose");
\tif (!strcmp(what, "fail"))
\t\tFAIL("disk is full");
\tif (!strcmp(what, "value"))
\t\treturn shown(invalid_with_msg(string_fmt("cannot index %s with %s", "array", "name")));
\tif (!strcmp(what, "nomem"))
\t\tdie(ERR_NOMEM);
\tif (!strcmp(what, "busy"))
\t\treturn fprintf(stderr, "%s\\n", ERR_BUSY) < 0;
\tif (!strcmp(what, "no_constant"))
\t\tperror(NOT_DEFINED_HERE);
\tif (!strcmp(what, "set_error"))
\t\treturn set_error("no such key %s", "HEAD") && fprintf(stderr, "%s\\n", last_error);
\treturn 0;
}
"""

# A tool of its own, with a file-local ``die`` of the same name: only its own calls reach it.
TOOL_C = """\
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void die(const char *fmt, ...)
{
\tva_list ap;
\tfprintf(stderr, "tool: ");
\tva_start(ap, fmt);
\tvfprintf(stderr, fmt, ap);
\tva_end(ap);
\tfputc('\\n', stderr);
\texit(1);
}

int main(void)
{
\tdie("no input given");
\treturn 0;
}
"""

ERRORS_HPP = """\
#pragma once
#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>

#define MYLIB_API __attribute__((visibility("default")))

namespace mylib {

template <typename... Args>
std::string concat(const Args&... args) {
  std::string out;
  (out.append(args), ...);
  return out;
}

namespace ErrorMsg {
const char* const BAD_DIRECTIVE = "directives must have exactly one argument";
inline const std::string KEY_NOT_FOUND_WITH_KEY(const std::string& key) {
  std::stringstream stream;
  stream << "key not found" << ": " << key;
  return stream.str();
}
}  // namespace ErrorMsg

struct Mark {
  int line;
  int column;
};

class Exception : public std::runtime_error {
 public:
  Exception(const Mark& mark_, const std::string& msg_)
      : std::runtime_error(build_what(mark_, msg_)), mark(mark_), msg(msg_) {}
  Mark mark;
  std::string msg;

 private:
  static const std::string build_what(const Mark& mark, const std::string& msg) {
    if (mark.line < 0) {
      return msg;
    }
    std::stringstream output;
    output << "mylib: error at line " << mark.line + 1 << ", column "
           << mark.column + 1 << ": " << msg;
    return output.str();
  }
};

class ParserException : public Exception {
 public:
  ParserException(const Mark& mark_, const std::string& msg_) : Exception(mark_, msg_) {}
};

class exception : public std::exception {
 public:
  const char* what() const noexcept override { return m.what(); }
  const int id;

 protected:
  exception(int id_, const char* what_arg) : id(id_), m(what_arg) {}
  static std::string name(const std::string& ename, int id_) {
    return concat(std::string("[mylib.exception."), ename, std::string("."),
                  std::to_string(id_), std::string("] "));
  }

 private:
  std::runtime_error m;
};

class parse_error : public exception {
 public:
  static parse_error create(int id_, std::size_t byte_, const std::string& what_arg) {
    const std::string w = name("parse_error", id_) + "parse error at byte " +
                          std::to_string(byte_) + ": " + what_arg;
    return {id_, byte_, w.c_str()};
  }
  const std::size_t byte;

 private:
  parse_error(int id_, std::size_t byte_, const char* what_arg)
      : exception(id_, what_arg), byte(byte_) {}
};

class NotFound : public std::runtime_error {
 public:
  explicit NotFound(const std::string& key) : std::runtime_error("no such item: " + key) {}
};

class Gone : public NotFound {
 public:
  using NotFound::NotFound;
};

class MYLIB_API Located : public std::exception {
 public:
  Located(const std::string& msg, const std::string& path) : msg_(msg + " at " + path) {}
  const char* what() const noexcept override { return msg_.c_str(); }

 private:
  std::string msg_;
};

class Retry : public std::runtime_error {
 public:
  explicit Retry(int n)
      : std::runtime_error(n ? "gave up after " + std::to_string(n) + " retries"
                             : std::string("gave up")) {}
};

class Pong : public std::runtime_error {
 public:
  explicit Pong(const std::string& x);
};

class Ping : public std::runtime_error {
 public:
  explicit Ping(const std::string& x);
};

inline std::runtime_error make_config_error(const std::string& option) {
  return std::runtime_error("option " + option + " needs a value");
}

#define MYLIB_FAIL(what) throw std::runtime_error(std::string("mylib failure: ") + what)

[[noreturn]] inline void fail(const std::string& msg) {
  throw std::logic_error("config: " + msg);
}

}  // namespace mylib
"""

STORE_CPP = """\
#include "mylib/errors.hpp"

using namespace mylib;

void missing(const std::string& key) { throw NotFound(key); }

void again(const std::string& key) { throw NotFound(key); }

void once_more(const std::string& key) { throw NotFound(key); }

void gone(const std::string& key) { throw Gone(key); }

void header(const std::string& path) { throw Located("bad header", path); }

void token(int byte) { throw parse_error::create(101, byte, "unexpected token"); }

void directive(int line) { throw ParserException(Mark{line, 4}, ErrorMsg::BAD_DIRECTIVE); }

void lookup(const std::string& key) {
  throw std::runtime_error(ErrorMsg::KEY_NOT_FOUND_WITH_KEY(key));
}

void bare() { throw std::runtime_error(ErrorMsg::BAD_DIRECTIVE); }

void option() { throw make_config_error("--name"); }

void unconfigured() { fail("no store configured"); }

void retry(int n) { throw Retry(n); }

void macro_fail() { MYLIB_FAIL("disk full"); }

void limit(int n) {
  std::string msg;
  if (n > 0) {
    msg = "too many: " + std::to_string(n);
  } else {
    msg = "none left";
  }
  throw std::runtime_error(msg);
}

void pick(int n) {
  std::string key;
  switch (n) {
    case 1:
      key = "first";
      break;
    default:
      key = "other";
      break;
  }
  throw NotFound(key);
}
"""

# Not built: the constructors call each other, and make_it is nowhere.
CYCLE_CPP = """\
#include "mylib/errors.hpp"

namespace mylib {
Pong::Pong(const std::string& x) : Ping(x) {}
Ping::Ping(const std::string& x) : Pong(x) {}
}  // namespace mylib

void cycle(const std::string& x) { throw mylib::Ping(x); }

void unknown(int x) { throw make_it(x); }
"""

MAIN_CPP = """\
#include <cxxabi.h>

#include <iostream>
#include <string>
#include <typeinfo>

#include "mylib/errors.hpp"

void missing(const std::string& key);
void again(const std::string& key);
void once_more(const std::string& key);
void gone(const std::string& key);
void header(const std::string& path);
void token(int byte);
void directive(int line);
void lookup(const std::string& key);
void bare();
void option();
void unconfigured();
void retry(int n);
void macro_fail();
void limit(int n);
void pick(int n);

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  const std::string arg = argc > 2 ? argv[2] : "0";
  try {
    if (what == "missing") missing(arg);
    if (what == "again") again(arg);
    if (what == "once_more") once_more(arg);
    if (what == "gone") gone(arg);
    if (what == "header") header(arg);
    if (what == "token") token(std::stoi(arg));
    if (what == "directive") directive(std::stoi(arg));
    if (what == "lookup") lookup(arg);
    if (what == "bare") bare();
    if (what == "option") option();
    if (what == "unconfigured") unconfigured();
    if (what == "retry") retry(std::stoi(arg));
    if (what == "limit") limit(std::stoi(arg));
    if (what == "macro_fail") macro_fail();
    if (what == "pick") pick(std::stoi(arg));
  } catch (const std::exception& e) {
    int status = 0;
    char* name = abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status);
    std::cout << name << "\\n" << e.what();
    return 1;
  }
  return 0;
}
"""

FILES = {
    "src/usage.h": USAGE_H, "src/usage.c": USAGE_C, "src/main.c": MAIN_C,
    "src/tool.c": TOOL_C,
    # a script's namesake of die, as near to main.c as usage.c: no C call reaches it
    "src/p4.py": 'def die(msg):\n    raise RuntimeError("p4: " + msg)\n',
    "include/mylib/errors.hpp": ERRORS_HPP, "lib/store.cpp": STORE_CPP,
    "lib/cycle.cpp": CYCLE_CPP, "lib/main.cpp": MAIN_CPP,
}

# (the call in main.c, the record's errorMessage, its errorCode, the producers it names:
# (file, start of the line); a reporter's calls to the file's other reporters are read into
# it, so ``die`` is named for the ``fatal: `` its message routine writes)
C_EXPECTED = [
    ("die", "fatal: cannot open %s", None, [("src/usage.c", "void die(")]),
    ("error", "error: bad count %d", None, [("src/usage.c", "int error(")]),
    ("yyerror", "line %d: syntax error", None, [("src/usage.c", "void yyerror(")]),
    ("bug", "BUG: %s:%d: impossible state %s", None,
     [("src/usage.c", "void BUG_fl(")]),
    ("die_bug", "fatal: BUG: lost track of %s", None,
     [("src/usage.c", "void die("), ("src/usage.h", "#define DIE_BUG(")]),
    ("warning", "warning: ignoring %s", None, [("src/usage.c", "void warning(")]),
    ("log", "[ERR] %s:%d: lost %d packets", None, [("src/usage.h", "#define LOG_ERR(")]),
    ("input", "Invalid window hint 0x%08X", "INVALID_ENUM", []),  # it hands the text on as is
    ("fail", "fail: disk is full", None, [("src/usage.h", "#define FAIL(")]),  # do … while (0)
    # an error value made from a formatted text, or from the text a function is given first
    ("value", "cannot index %s with %s", None, []),
    ("set_error", "no such key %s", None, []),
    # a string constant printed, through the project's reporter or as is
    ("nomem", "fatal: out of memory", None, [("src/usage.c", "void die(")]),
    ("busy", "device is busy", None, [("src/main.c", "#define ERR_BUSY")]),
]

H = "include/mylib/errors.hpp"
# (function in store.cpp, its argument, errorMessage, errorClass, the producers that write
# some of its text; one passing its message on is not named)
CPP_EXPECTED = [
    ("missing", "k1", "no such item: {key}", "NotFound", [(H, "class NotFound ")]),
    ("gone", "k2", "no such item: {key}", "Gone", [(H, "class NotFound ")]),
    ("header", "/etc/x", "bad header at {path}", "Located", [(H, "class MYLIB_API Located ")]),
    ("token", "12",
     "[mylib.exception.parse_error.101] parse error at byte {byte}: unexpected token",
     "parse_error", [(H, "  static parse_error create(")]),
    ("directive", "7",
     "mylib: error at line {mark.line + 1}, column {mark.column + 1}: "
     "directives must have exactly one argument",
     "ParserException", [(H, "class Exception ")]),
    ("lookup", "k3", "key not found: {key}", "std::runtime_error",
     [(H, "inline const std::string KEY_NOT_FOUND_WITH_KEY(")]),
    ("bare", "", "directives must have exactly one argument", "std::runtime_error",
     [(H, "const char* const BAD_DIRECTIVE")]),
    ("option", "", "option --name needs a value", "std::runtime_error",
     [(H, "inline std::runtime_error make_config_error(")]),
    ("unconfigured", "", "config: no store configured", "std::logic_error",
     [(H, "[[noreturn]] inline void fail(")]),
    ("macro_fail", "", "mylib failure: disk full", "std::runtime_error",
     [(H, "#define MYLIB_FAIL(")]),
]


# What the other branch of a producer prints at the same site (``build_what``'s null mark).
OTHER_BRANCHES = {"directive": {"directives must have exactly one argument"}}


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "compose_c", "composed", FILES)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory,
          mined: tuple[Path, list[errdex.StoredRecord]]) -> dict[str, Path]:
    """The fixture's C and C++ programs (skipped where no compiler is installed)."""
    if missing("gcc", "g++"):
        pytest.skip("gcc/g++ not installed")
    root, _ = mined
    out = tmp_path_factory.mktemp("built")
    subprocess.run(["gcc", "-std=gnu11", "-o", str(out / "c"), "src/usage.c", "src/main.c"],
                   cwd=root, check=True, capture_output=True)
    subprocess.run(["g++", "-std=c++17", "-Iinclude", "-o", str(out / "cpp"), "lib/store.cpp",
                    "lib/main.cpp"], cwd=root, check=True, capture_output=True)
    subprocess.run(["gcc", "-o", str(out / "tool"), "src/tool.c"], cwd=root, check=True,
                   capture_output=True)
    return {"c": out / "c", "cpp": out / "cpp", "tool": out / "tool"}


def _line(path: str, start: str) -> int:
    return line_starting(FILES[path], start)


def _cpp_throws(built: dict[str, Path], *args: str) -> tuple[str, str]:
    """What the C++ program prints for what a fixture function throws: its class, what()."""
    done = subprocess.run([str(built["cpp"]), *args], capture_output=True, text=True,
                          check=False)
    printed_class, _, printed = done.stdout.partition("\n")
    return printed_class, printed


def _c_line(case: str) -> int:
    return _line("src/main.c", f'\tif (!strcmp(what, "{case}"))') + 1


def _cpp_line(function: str) -> int:
    line = _line("lib/store.cpp", f"void {function}(")
    return line + (1 if not FILES["lib/store.cpp"].splitlines()[line - 1].rstrip().endswith(
        "}") else 0)


@pytest.mark.parametrize("case", C_EXPECTED, ids=[c[0] for c in C_EXPECTED])
def test_a_c_call_to_a_reporter_gives_the_message_it_prints(
    mined: tuple[Path, list[errdex.StoredRecord]], built: dict[str, Path],
    case: tuple[str, str, str | None, list[tuple[str, str]]],
) -> None:
    _, records = mined
    name, message, code, sources = case
    [found] = records_at(records, "src/main.c", _c_line(name))
    assert found.record.error_message == message
    assert found.record.error_code == code
    assert source_lines(found.extras) == [(path, _line(path, start)) for path, start in sources]
    done = subprocess.run([str(built["c"]), name], capture_output=True, text=True, check=False)
    printed = done.stderr.removesuffix("\n")
    assert printed and fullmatches(found, printed), (printed, found.record.message_pattern)


@pytest.mark.parametrize("case", CPP_EXPECTED, ids=[c[0] for c in CPP_EXPECTED])
def test_a_cpp_throw_gives_the_message_its_class_or_factory_builds(
    mined: tuple[Path, list[errdex.StoredRecord]], built: dict[str, Path],
    case: tuple[str, str, str, str, list[tuple[str, str]]],
) -> None:
    _, records = mined
    function, argument, message, error_class, sources = case
    at = records_at(records, "lib/store.cpp", _cpp_line(function))
    [found] = [r for r in at if r.record.error_message == message]
    others = {r.record.error_message for r in at} - {message}
    assert others == OTHER_BRANCHES.get(function, set())
    assert found.record.error_type == "exception"  # a throwing macro's call too
    assert found.record.error_class == error_class
    assert source_lines(found.extras) == [(path, _line(path, start)) for path, start in sources]
    printed_class, printed = _cpp_throws(built, function, argument)
    assert printed_class.rsplit("::", 1)[-1] == error_class.rsplit("::", 1)[-1]
    assert fullmatches(found, printed), (printed, found.record.message_pattern)


def test_a_message_chosen_by_a_ternary_in_the_constructor_gives_one_record_per_branch(
    mined: tuple[Path, list[errdex.StoredRecord]], built: dict[str, Path],
) -> None:
    _, records = mined
    found = records_at(records, "lib/store.cpp", _cpp_line("retry"))
    assert messages(found) == [
        "gave up", "gave up after {n} retries"]
    assert classes(found) == {"Retry"}
    for n in ("3", "0"):
        _, printed = _cpp_throws(built, "retry", n)
        assert any(fullmatches(r, printed) for r in found), printed


def test_a_class_thrown_from_three_places_gives_three_records_sharing_the_template(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = mined
    same = with_message(records, "no such item: {key}", "NotFound")
    assert sorted(r.record.line_number for r in same) == [
        _cpp_line("missing"), _cpp_line("again"), _cpp_line("once_more")]
    assert len({r.record.id for r in same}) == 3
    assert len({r.record.message_pattern for r in same}) == 1


def test_calls_that_reach_no_producer_and_a_constructor_cycle_make_no_record(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = mined
    assert records_at(records, "src/main.c", _c_line("unknown")) == []
    assert records_at(records, "src/main.c", _c_line("option")) == []  # a macro is no error class
    assert records_at(records, "src/main.c", _c_line("format")) == []  # it dies only if it fails
    assert records_at(records, "src/main.c", _c_line("no_constant")) == []  # no string constant
    assert [r.record.line_number for r in records if r.record.file_path == "lib/cycle.cpp"] == []


def test_an_incremental_mine_recomposes_the_throws_of_a_changed_class(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    changed = mine_changed(make_repo, tmp_path, FILES,
                           {H: ERRORS_HPP.replace('"no such item: "', '"nothing stored under: "')})
    messages = [r.record.error_message for r in changed]
    assert messages.count("nothing stored under: {key}") == 4  # missing, again, once_more, gone
    assert not any("no such item" in m for m in messages)


def test_a_static_reporter_is_reached_from_its_own_file_only(
    mined: tuple[Path, list[errdex.StoredRecord]], built: dict[str, Path],
) -> None:
    _, records = mined
    tool = "src/tool.c"
    [found] = records_at(records, tool, _line(tool, '\tdie("'))
    assert found.record.error_message == "tool: no input given"
    assert source_lines(found.extras) == [(tool, _line(tool, "static void die("))]
    [elsewhere] = records_at(records, "src/main.c", _c_line("die"))
    assert elsewhere.record.error_message == "fatal: cannot open %s"
    done = subprocess.run([str(built["tool"])], capture_output=True, text=True, check=False)
    assert fullmatches(found, done.stderr.removesuffix("\n"))


@pytest.mark.parametrize(("function", "messages", "error_class"), [
    ("limit", ["none left", "too many: {n}"], "std::runtime_error"),
    ("pick", ["no such item: first", "no such item: other"], "NotFound"),
])
def test_a_message_assigned_in_branches_gives_one_record_per_branch(
    mined: tuple[Path, list[errdex.StoredRecord]], built: dict[str, Path],
    function: str, messages: list[str], error_class: str,
) -> None:
    _, records = mined
    line = _line("lib/store.cpp", f"void {function}(")
    throw = next(i for i, text in enumerate(STORE_CPP.splitlines(), 1)
                 if i > line and text.lstrip().startswith("throw "))
    found = records_at(records, "lib/store.cpp", throw)
    assert sorted(r.record.error_message for r in found) == messages
    assert classes(found) == {error_class}
    for n in ("3", "1", "0"):
        _, printed = _cpp_throws(built, function, n)
        assert any(fullmatches(r, printed) for r in found), printed


def test_an_error_function_given_its_text_after_other_arguments_prints_that_text(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``PyErr_SetString(exc, "…")``, ``luaL_error(L, "…")``, ``g_set_error(e, D, C, "…")``:
    a function named for errors, defined elsewhere, prints the first argument with words."""
    source = (
        '#include "ext.h"\n'
        "int check(lua_State *L, int n, GError **e) {\n"
        '  if (n < 0) return luaL_error(L, "negative size: %d", n);\n'
        '  if (n > 9) { PyErr_SetString(PyExc_ValueError, "size too large"); return -1; }\n'
        '  g_set_error(e, APP_DOMAIN, 3, "cannot resize to %d", n);\n'
        "  return 0;\n"
        "}\n"
    )
    _, records = mine_once(make_repo, tmp_path, {"src/ext.c": source})
    lines = source.splitlines()
    for marker, message in (("luaL_error", "negative size: %d"),
                            ("PyErr_SetString", "size too large"),
                            ("g_set_error", "cannot resize to %d")):
        line = next(i for i, t in enumerate(lines, 1) if marker in t)
        assert messages(records_at(records, "src/ext.c", line)) == [message], marker


# --- macros tree-sitter cannot expand: namespace openers, try/catch, access ---------------

MACRO_HEADER = """\
#include <stdexcept>
#include <string>

#define WIDGET_NAMESPACE_BEGIN namespace widget {
#define WIDGET_NAMESPACE_END }
#define WIDGET_TRY try
#define WIDGET_CATCH(e) catch (e)
#define WIDGET_PRIVATE_UNLESS_TESTED private

WIDGET_NAMESPACE_BEGIN

class store
{
  public:
    int at(int i) const
    {
        WIDGET_TRY
        {
            return check(i);
        }
        WIDGET_CATCH (std::out_of_range&)
        {
            throw std::out_of_range("widget index " + std::to_string(i) + " is out of range");
        }
    }

  WIDGET_PRIVATE_UNLESS_TESTED:
    int check(int i) const
    {
        if (i < 0)
        {
            throw std::invalid_argument("widget index must not be negative");
        }
        if (i > 9)
        {
            throw std::out_of_range("too big");
        }
        return i;
    }
};

WIDGET_NAMESPACE_END
"""
MACRO_MAIN = """\
#include <iostream>
#include "src/widget.hpp"

int main()
{
    widget::store s;
    for (int i : {12, -1})
    {
        try { s.at(i); } catch (std::exception& e) { std::cout << e.what() << "\\n"; }
    }
}
"""


def test_throws_under_namespace_try_and_access_macros_are_read(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """A header opening its namespace with a macro, catching with ``X_TRY``/``X_CATCH`` and
    declaring access with a macro (``X_PRIVATE_UNLESS_TESTED:``): tree-sitter reads it as
    one parse error, so its throws are read with those macros written as what they stand
    for; each pattern matches what g++'s build prints."""
    from errdex.languages.cpp.spec import _ENGINE

    assert [s.line for s in _ENGINE.extract(MACRO_HEADER.encode()).sites] == [
        line_starting(MACRO_HEADER, '            throw std::out_of_range("widget')]
    _, records = mine_once(make_repo, tmp_path, {"src/widget.hpp": MACRO_HEADER})
    found = {r.record.line_number: r for r in records}
    index = found[line_starting(MACRO_HEADER, '            throw std::out_of_range("widget')]
    negative = found[line_starting(MACRO_HEADER, "            throw std::invalid_argument")]
    assert negative.record.error_class == "std::invalid_argument"
    assert line_starting(MACRO_HEADER, '            throw std::out_of_range("too') in found
    printed = ["widget index 12 is out of range", "widget index must not be negative"]
    if not missing("g++"):
        (tmp_path / "src").mkdir()
        (tmp_path / "src" / "widget.hpp").write_text(MACRO_HEADER)
        (tmp_path / "main.cpp").write_text(MACRO_MAIN)
        subprocess.run(["g++", "-o", "m", "main.cpp"], cwd=tmp_path, check=True,
                       capture_output=True)
        done = subprocess.run([str(tmp_path / "m")], capture_output=True, text=True,
                              check=True)
        assert done.stdout.splitlines() == printed
    assert fullmatches(index, printed[0]) and fullmatches(negative, printed[1])


# --- a format in a string macro of the file: die(MSG_NO_FILE, path) ---------------------

DEFINES_DIE = """\
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fatal: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\\n', stderr);
    va_end(ap);
    exit(128);
}
"""
DEFINES_WIDGET = """\
#include <stdio.h>
#include <stdlib.h>

void die(const char *fmt, ...);

#define MSG_NO_FILE "cannot open widget file %s"
#define MSG_BUSY "widget %d is " "busy right now\\n"
#ifdef WIDGET_VERBOSE
#define MSG_ODD "odd widget %d, see the manual"
#else
#define MSG_ODD "odd widget %d"
#endif

void open_widget(const char *path)
{
    die(MSG_NO_FILE, path);
}

void use_widget(int n)
{
    fprintf(stderr, MSG_BUSY, n);
}

void odd_widget(int n)
{
    fprintf(stderr, MSG_ODD, n);
}

int main(int argc, char **argv)
{
    use_widget(argc);
    open_widget(argv[1]);
    return 0;
}
"""


def test_a_format_in_a_string_macro_of_the_file_is_read_with_its_arguments(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``die(MSG_NO_FILE, path)`` and ``fprintf(stderr, MSG_BUSY, n)`` print the macro's
    format filled from the call's arguments (through the reporter's ``fatal: ``); a macro
    defined twice (``#ifdef``) stays a name. gcc's build prints what the patterns match."""
    files = {"src/die.c": DEFINES_DIE, "src/widget.c": DEFINES_WIDGET}
    _, records = mine_once(make_repo, tmp_path, files)
    opened = records_at(records, "src/widget.c", line_starting(DEFINES_WIDGET, "    die("))
    busy = records_at(records, "src/widget.c",
                      line_starting(DEFINES_WIDGET, "    fprintf(stderr, MSG_B"))
    assert [r.record.error_message for r in opened] == ["fatal: cannot open widget file %s"]
    assert [r.record.error_message for r in busy] == ["widget %d is busy right now"]
    odd = records_at(records, "src/widget.c",
                     line_starting(DEFINES_WIDGET, "    fprintf(stderr, MSG_O"))
    assert not any("%d" in r.record.error_message for r in odd)
    printed = ["widget 2 is busy right now", "fatal: cannot open widget file w.txt"]
    if not missing("gcc"):
        for name, text in files.items():
            (tmp_path / name.split("/")[1]).write_text(text)
        subprocess.run(["gcc", "-o", "w", "die.c", "widget.c"], cwd=tmp_path, check=True,
                       capture_output=True)
        done = subprocess.run([str(tmp_path / "w"), "w.txt"], capture_output=True, text=True)
        assert done.stderr.splitlines() == printed
    assert fullmatches(busy[0], printed[0]) and fullmatches(opened[0], printed[1])
    assert not fullmatches(opened[0], "fatal: cannot open gadget file w.txt")

"""C++ errors made by a factory and handed on (a handler throws them), with their message
built by a method of the class that appends under conditions: golden records, each
pattern checked against what the fixture prints when g++ builds it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import fullmatches, line_with, messages, mine_fixture, missing

ERRORS_HPP = """\
#pragma once
#include <stdexcept>
#include <string>

namespace cfg {

class syntax_error : public std::runtime_error {
  public:
    static syntax_error create(int id, const std::string& what) {
        return syntax_error("[cfg.syntax." + std::to_string(id) + "] " + what);
    }
  private:
    explicit syntax_error(const std::string& w) : std::runtime_error(w) {}
};

}  // namespace cfg
"""

READER_CPP = """\
#include <iostream>
#include <string>
#include "errors.hpp"

namespace cfg {

enum class token { none, comma, colon, end };
enum class dialect { ini, toml, yaml };
enum { E_NOMEM, E_BUSY, E_AGAIN };

struct handler {
    bool on_error(const syntax_error& e) { throw e; }
};

class reader {
  public:
    bool key(handler* h) {
        return h->on_error(syntax_error::create(3, describe(token::none, "key")));  // @key
    }
    bool list(handler* h) {
        return h->on_error(syntax_error::create(4, describe(token::comma, "")));  // @list
    }
    bool header(handler* h) {
        auto e = syntax_error::create(5, dialect_message(dialect::toml, "table"));  // @header
        return h->on_error(e);
    }
    bool busy(handler* h) {
        return h->on_error(syntax_error::create(6, code_message(E_AGAIN)));  // @busy
    }
    void nomem() {
        throw syntax_error::create(7, code_message(E_NOMEM));  // @nomem
    }
    token last = token::colon;
    std::string last_text = ":";

  private:
    std::string describe(token expected, const std::string& context) {
        std::string msg = "unexpected token ";
        if (!context.empty()) {
            msg += "in " + context + " ";
        }
        msg += "'" + last_text + "'";
        if (expected != token::none) {
            msg.append("; wanted a separator");
        }
        return msg;
    }
    std::string code_message(int code) {
        switch (code) {
            case E_NOMEM:
                return "out of memory";
            case E_BUSY:
            case E_AGAIN:
                return "resource busy";
            default:
                return "unknown error";
        }
    }
    std::string dialect_message(dialect d, const std::string& what) {
        std::string msg = "bad ";
        switch (d) {
            case dialect::ini:
                msg += "INI";
                break;
            case dialect::toml:
                msg += "TOML";
                break;
            case dialect::yaml:
                msg += "YAML";
                break;
        }
        return msg + " " + what;
    }
};

}  // namespace cfg

int main(int argc, char** argv) {
    cfg::reader r;
    cfg::handler h;
    std::string which = argc > 1 ? argv[1] : "";
    try {
        if (which == "key") r.key(&h);
        if (which == "list") r.list(&h);
        if (which == "header") r.header(&h);
        if (which == "busy") r.busy(&h);
        if (which == "nomem") r.nomem();
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""

FILES = {"include/errors.hpp": ERRORS_HPP, "src/reader.cpp": READER_CPP}


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "handed", "handed", FILES)


@pytest.fixture(scope="module")
def built(mined: tuple[Path, list[errdex.StoredRecord]]) -> Path | None:
    if missing("g++"):
        return None
    root, _ = mined
    out = root.parent / "reader"
    subprocess.run(["g++", "-std=c++17", "-Iinclude", "-o", str(out), "src/reader.cpp"],
                   cwd=root, check=True, capture_output=True)
    return out


def _at(records: list[errdex.StoredRecord], marker: str) -> list[errdex.StoredRecord]:
    line = line_with(READER_CPP, f"// @{marker}")
    return [r for r in records
            if r.record.file_path == "src/reader.cpp" and r.record.line_number == line]


def _printed(built: Path | None, which: str) -> str | None:
    if built is None:
        return None
    done = subprocess.run([str(built), which], capture_output=True, text=True, check=True)
    return done.stderr.strip()


@pytest.mark.parametrize(("marker", "expected"), [
    # ``if (!context.empty())`` given "key": taken; ``expected != token::none`` given
    # ``token::none``: not taken
    ("key", ["[cfg.syntax.3] unexpected token in key '{last_text}'"]),
    # "" skips the context; ``token::comma`` appends the wish
    ("list", ["[cfg.syntax.4] unexpected token '{last_text}'; wanted a separator"]),
    # ``switch (d)`` given ``dialect::toml``: that case only
    ("header", ["[cfg.syntax.5] bad TOML table"]),
    # an error-code table: the case of the code given (through a label falling through)
    ("busy", ["[cfg.syntax.6] resource busy"]),
    ("nomem", ["[cfg.syntax.7] out of memory"]),  # thrown where it is made
])
def test_an_error_a_factory_makes_and_a_handler_throws_gives_its_composed_message(
    mined: tuple[Path, list[errdex.StoredRecord]], built: Path | None, marker: str,
    expected: list[str],
) -> None:
    _, records = mined
    found = _at(records, marker)
    assert messages(found) == expected
    assert {r.record.error_class for r in found} == {"syntax_error"}
    assert {r.record.error_type for r in found} == {"exception"}
    printed = _printed(built, marker)
    if printed is not None:
        assert any(fullmatches(r, printed) for r in found), (printed, messages(found))


def test_a_call_inside_the_factory_call_is_not_a_site_of_its_own(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = mined
    for marker in ("key", "list", "header", "busy"):  # ``describe(…, "key")`` passes text on
        assert all(r.record.error_class == "syntax_error" for r in _at(records, marker))
    assert not any(r.record.error_message in ("key", "table") for r in records)

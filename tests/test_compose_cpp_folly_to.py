"""C++ messages joined by folly's conversion to a string, checked against what g++'s build
prints: ``folly::to<std::string>("Invalid address '", text, "'")`` (and ``to<string>``
under ``using``) prints its arguments one after the other, the way folly and the projects
built on it word their exceptions; before, the thrown message was one hole, or no record.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import fullmatches, line_with, mine_once, missing, records_at
from tests.conftest import GitRepo

CONV_H = """\
#pragma once
#include <sstream>
#include <string>

namespace folly {
template <class Tgt, class... Ts>
Tgt to(const Ts&... pieces) {
    std::ostringstream out;
    (out << ... << pieces);
    return out.str();
}
}  // namespace folly
"""

ADDRESS_CPP = """\
#include <iostream>
#include <stdexcept>
#include <string>

#include "conv.h"

using std::string;
using folly::to;

class AddressFormatException : public std::invalid_argument {
  public:
    explicit AddressFormatException(const std::string& what) : std::invalid_argument(what) {}
};

static void Parse(const std::string& text, int bits) {
    if (text.find('.') == std::string::npos) {
        throw AddressFormatException(
            folly::to<std::string>("Invalid IP address '", text, "'"));  // @address
    }
    if (bits > 32) {
        throw std::out_of_range(to<string>("prefix length ", bits, " is too large"));  // @bits
    }
}

int main(int argc, char** argv) {
    try {
        Parse(argv[1], std::stoi(argv[2]));
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def test_a_message_joined_by_folly_to_string_is_its_pieces(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/conv.h": CONV_H,
                                                    "src/address.cpp": ADDRESS_CPP})
    [address] = records_at(records, "src/address.cpp",
                           line_with(ADDRESS_CPP, "// @address") - 1)
    [bits] = records_at(records, "src/address.cpp", line_with(ADDRESS_CPP, "// @bits"))
    assert (address.record.error_class, address.record.error_message) == (
        "AddressFormatException", "Invalid IP address '{text}'")
    assert (bits.record.error_class, bits.record.error_message) == (
        "std::out_of_range", "prefix length {bits} is too large")
    if missing("g++"):
        return
    subprocess.run(["g++", "-std=c++17", "-Isrc", "-o", "address", "src/address.cpp"],
                   cwd=root, check=True, capture_output=True)
    printed = {}
    for args in (["localhost", "8"], ["10.0.0.1", "40"]):
        done = subprocess.run(["./address", *args], cwd=root, capture_output=True, text=True,
                              check=True)
        printed[args[0]] = done.stderr.removesuffix("\n")
    assert printed == {"localhost": "Invalid IP address 'localhost'",
                       "10.0.0.1": "prefix length 40 is too large"}
    assert fullmatches(address, printed["localhost"]), address.record.message_pattern
    assert fullmatches(bits, printed["10.0.0.1"]), bits.record.message_pattern

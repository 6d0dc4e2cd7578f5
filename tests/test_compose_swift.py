"""Swift messages composed across error types, factories and helpers: golden records for
each form (no Swift toolchain here: the expected texts are what the types' ``errorDescription``
/ ``description`` return for those values, by Swift's rules)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.conftest import GitRepo

ERRORS = '''\
import Foundation

enum StoreError: Error {
    case notFound(String)
    case http(code: Int, message: String)
    case closed
    case readOnly
    case busy(Int)
}

extension StoreError: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .notFound(let key):
            return "no such item: \\(key)"
        case let .http(code, message):
            return "HTTP \\(code): \\(message)"
        case .closed:
            return "store closed"
        default:
            return "store unavailable"
        }
    }
}

extension StoreError {
    static let _closed: any Error = StoreError.closed
}

enum Reason: Error, CustomStringConvertible {
    case tooLong(limit: Int)

    var description: String {
        switch self {
        case .tooLong(limit: let n): "longer than \\(n) bytes"
        }
    }
}

enum Quota: String, Error, LocalizedError {
    case exceeded = "quota exceeded"
    case unknownPlan

    var errorDescription: String? { rawValue }
}

struct ParseError: Error, CustomStringConvertible {
    let line: Int
    var message: String = "syntax error"

    var description: String { "line \\(line): \\(self.message)" }
}

struct Timeout: Error, CustomStringConvertible {
    var limit = "30 seconds"

    var description: String { "timed out after \\(limit)" }
}

final class Located: Error, CustomStringConvertible {
    let path: String

    init(_ p: String) {
        self.path = p
    }

    var description: String {
        return "bad header in \\(path)"
    }
}

enum Errors {
    static func missing(_ key: String) -> StoreError {
        return .notFound(key)
    }

    static func config(_ msg: String) throws -> Never {
        throw ParseError(line: 0, message: "config: " + msg)
    }
}

func load(_ path: String) throws {
    do {
        try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        throw ParseError(line: 0, message: "cannot read " + path)
    }
}

enum Ping: Error {
    case lost(String)

    static func again(_ x: String) -> Ping {
        return Pong.again(x)
    }
}

enum Pong: Error {
    case lost(String)

    static func again(_ x: String) -> Pong {
        return Ping.again(x)
    }
}
'''

STORE = '''\
import Foundation

final class Store {
    func missing(key: String) throws {
        throw StoreError.notFound(key)
    }

    func http() throws {
        throw StoreError.http(code: 404, message: "gone")
    }

    func closed() throws {
        throw StoreError.closed
    }

    func closedAlias() throws {
        throw StoreError._closed
    }

    func busy(n: Int) throws {
        throw StoreError.busy(n)
    }

    func quota() throws {
        throw Quota.exceeded
    }

    func plan() throws {
        throw Quota.unknownPlan
    }

    func tooLong() throws {
        throw Reason.tooLong(limit: 80)
    }

    func parse(line: Int) throws {
        throw ParseError(line: line, message: "unexpected token")
    }

    func parseDefault() throws {
        throw ParseError(line: 7)
    }

    func timeout() throws {
        throw Timeout()
    }

    func status() throws {
        throw HTTPStatus(code: 500)
    }

    func located(path: String) throws {
        throw Located(path)
    }

    func factory(key: String) throws {
        throw Errors.missing(key)
    }

    func unconfigured() throws {
        try Errors.config("no store configured")
    }

    func chosen(n: Int) throws {
        let why = n > 1 ? "too many: \\(n)" : "none left"
        throw StoreError.http(code: 409, message: why)
    }

    func again(key: String) throws {
        throw StoreError.notFound(key)
    }

    func once_more(key: String) throws {
        throw StoreError.notFound(key)
    }

    func handed(promise: Promise, key: String) {
        promise.fail(StoreError.notFound(key))
    }

    func failed() -> Result<Int, any Error> {
        return .failure(StoreError._closed)
    }

    func resumed(continuation: Continuation) {
        continuation.resume(throwing: Reason.tooLong(limit: 9))
    }

    func loading() throws {
        try load("store.json")
    }

    func unknown(x: String) throws {
        throw Elsewhere.failed(x)
    }

    func cycle(x: String) throws {
        throw Ping.again(x)
    }
}
'''

VIEWS = '''\
import SwiftUI

struct MainView: View {
    var body: some View {
        VStack {
            Text("Basic Image")
            Label("Sizing Toggle", systemImage: "photo")
            helperless("not a helper of the repository")
        }
    }
}
'''

# (method, the record's errorMessage, its errorClass, where the producers are written in
# Sources/Store/Errors.swift, by the line's start once stripped)
EXPECTED = [
    ("missing", "no such item: \\(key)", "StoreError.notFound", ["case .notFound(let key):"]),
    ("http", "HTTP 404: gone", "StoreError.http", ["case let .http(code, message):"]),
    ("closed", "store closed", "StoreError.closed", ["case .closed:"]),
    ("closedAlias", "store closed", "StoreError.closed", ["case .closed:"]),
    ("busy", "store unavailable", "StoreError.busy", ["default:"]),
    ("quota", "quota exceeded", "Quota.exceeded", ["case exceeded"]),
    ("plan", "unknownPlan", "Quota.unknownPlan", ["case unknownPlan"]),
    ("tooLong", "longer than 80 bytes", "Reason.tooLong", ["case .tooLong(limit: let n):"]),
    ("parse", "line \\(line): unexpected token", "ParseError",
     ["struct ParseError"]),
    ("timeout", "timed out after 30 seconds", "Timeout", ["struct Timeout"]),
    ("located", "bad header in \\(path)", "Located", ["final class Located"]),
    ("factory", "no such item: \\(key)", "StoreError.notFound",
     ["case .notFound(let key):"]),  # the factory passes the key on: it writes no text
    ("handed", "no such item: \\(key)", "StoreError.notFound", ["case .notFound(let key):"]),
    ("failed", "store closed", "StoreError.closed", ["case .closed:"]),
    ("resumed", "longer than 9 bytes", "Reason.tooLong", ["case .tooLong(limit: let n):"]),
    ("unconfigured", "line 0: config: no store configured", "ParseError",
     ["struct ParseError", "static func config("]),
]


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    root = tmp_path_factory.mktemp("compose_swift")
    repo = GitRepo(root / "repo", "https://github.com/acme/composed.git")
    repo.commit_files({"Sources/Store/Errors.swift": ERRORS,
                       "Sources/Store/Store.swift": STORE, "Sources/App/MainView.swift": VIEWS})
    db = root / "errdex.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    with errdex.open_store(db) as store:
        return list(store.records(repo="acme/composed"))


def _line(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.strip().startswith(start))


def _at(records: list[errdex.StoredRecord], method: str) -> list[errdex.StoredRecord]:
    line = _line(STORE, f"func {method}(")
    return [r for r in records if r.record.file_path == "Sources/Store/Store.swift"
            and line < r.record.line_number <= line + 2]


def _render(pattern: str, values: dict[str, str]) -> str:
    """A message Swift would print, the holes filled (for the pattern's fullmatch)."""
    text = pattern
    for name, value in values.items():
        text = text.replace("\\(" + name + ")", value)
    return text


@pytest.mark.parametrize("case", EXPECTED, ids=[c[0] for c in EXPECTED])
def test_every_composition_form_gives_the_throw_site_the_composed_message(
    mined: list[errdex.StoredRecord], case: tuple[str, str, str, list[str]],
) -> None:
    method, message, error_class, sources = case
    [found] = _at(mined, method)
    assert found.record.error_message == message
    assert found.record.error_class == error_class
    assert [(s.file_path, s.line_number) for s in found.extras.template_sources] == [
        ("Sources/Store/Errors.swift", _line(ERRORS, start)) for start in sources]
    printed = _render(message, {"key": "k1", "line": "12", "path": "/etc/x"})
    assert re.fullmatch(found.record.message_pattern, printed, re.DOTALL), printed


def test_a_message_chosen_by_a_ternary_gives_one_record_per_branch(
    mined: list[errdex.StoredRecord],
) -> None:
    found = _at(mined, "chosen")
    assert sorted(r.record.error_message for r in found) == [
        "HTTP 409: none left", "HTTP 409: too many: \\(n)"]
    assert any(re.fullmatch(r.record.message_pattern, "HTTP 409: too many: 3") for r in found)


def test_an_enum_case_thrown_from_three_places_gives_three_records_sharing_the_template(
    mined: list[errdex.StoredRecord],
) -> None:
    same = [r for r in mined if r.record.file_path == "Sources/Store/Store.swift"
            and r.record.error_message == "no such item: \\(key)"
            and r.record.error_class == "StoreError.notFound"]
    assert len(same) == 5  # missing, again, once_more, the factory's and the promise's
    assert len({r.record.id for r in same}) == 5


def test_a_call_that_reaches_no_producer_and_a_cycle_make_no_record(
    mined: list[errdex.StoredRecord],
) -> None:
    assert _at(mined, "unknown") == []
    assert _at(mined, "cycle") == []
    # a type of no producer whose first argument says nothing (HTTPStatus(code: 500)), and
    # one whose producer needs text the site does not give: no record "500" or "7"
    assert _at(mined, "loading") == []  # a function that throws in a catch is no helper
    assert _at(mined, "status") == []
    assert _at(mined, "parseDefault") == []
    # a view's Text("…") statements call a type of another package: no helper, no record
    assert not [r for r in mined if r.record.file_path == "Sources/App/MainView.swift"]


def test_the_description_arms_stay_sites_of_their_own(
    mined: list[errdex.StoredRecord],
) -> None:
    own = {r.record.error_message for r in mined
           if r.record.file_path == "Sources/Store/Errors.swift"}
    assert {"no such item: \\(key)", "store closed", "store unavailable"} <= own


def test_an_incremental_mine_recomposes_callers_of_a_changed_enum(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    repo = make_repo()
    repo.commit_files({"Sources/Store/Errors.swift": ERRORS,
                       "Sources/Store/Store.swift": STORE})
    db = tmp_path / "inc.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    repo.commit_files({"Sources/Store/Errors.swift": ERRORS.replace(
        "no such item", "nothing under")})
    summary = errdex.mine(repo.root, db=db, jobs=1)
    assert summary.incremental
    with errdex.open_store(db) as store:
        messages = [r.record.error_message for r in store.records(repo="acme/widgets")
                    if r.record.file_path.endswith("Store.swift")]
    assert messages.count("nothing under: \\(key)") == 5
    assert not any("no such item" in m for m in messages)


# --- an enum error with no description of its case: print(error) shows the case ---------

REFLECTED_ERRORS = '''\
import Foundation

public enum NetError: Error {
    case validationFailed(reason: ValidationReason)
    case timedOut
    case failed(String, code: Int)

    public enum ValidationReason: Sendable {
        case badStatus(code: Int)
        case missingType
    }
}

extension NetError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case let .validationFailed(reason): return reason.localizedDescription
        case .timedOut: return "The request timed out."
        case let .failed(message, code): return "failed \\(code): \\(message)"
        }
    }
}

public enum Quiet: Error, CustomStringConvertible {
    case down(code: Int)
    public var description: String { "quiet" }
}
'''
REFLECTED_SITES = '''\
func check(status: Int) -> Result<Void, NetError> {
    if status > 299 {
        let reason: NetError.ValidationReason = .badStatus(code: status)
        return .failure(NetError.validationFailed(reason: reason))
    }
    return .success(())
}

func made(status: Int) -> Result<Void, NetError> {
    let error = NetError.validationFailed(reason: .badStatus(code: status))
    return .failure(error)
}

func quiet() -> Result<Void, Quiet> {
    let error = Quiet.down(code: 1)
    return .failure(error)
}
'''
# What Swift prints for the values the sites make: print(error) (labels since Swift 4;
# older runtimes left them out), the nested value qualified by module and types.
REFLECTED_PRINTED = [
    "validationFailed(reason: Net.NetError.ValidationReason.badStatus(code: 404))",
    "validationFailed(Net.NetError.ValidationReason.badStatus(404))",
]


def test_an_enum_case_no_description_tells_is_printed_as_its_case(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """An error value made from an enum case whose type's description does not spell it
    (``reason.localizedDescription``) prints its case and values, the nested value qualified;
    the value may be made in a ``let`` and handed on by name later."""
    from tests.compose_steps import mine_once, records_at

    _, records = mine_once(make_repo, tmp_path, {
        "Sources/Net/NetError.swift": REFLECTED_ERRORS,
        "Sources/Net/Check.swift": REFLECTED_SITES})
    for start in ("        return .failure(NetError", "    let error = NetError"):
        line = next(i for i, text in enumerate(REFLECTED_SITES.splitlines(), 1)
                    if text.startswith(start))
        [found] = records_at(records, "Sources/Net/Check.swift", line)
        assert found.record.error_class == "NetError.validationFailed"
        assert found.record.error_message == "validationFailed(reason: {module}.NetError" + (
            ".ValidationReason.badStatus(code: {status}))")
        for printed in REFLECTED_PRINTED:
            assert re.fullmatch(found.record.message_pattern, printed), printed
        assert not re.fullmatch(found.record.message_pattern, "validationFailed(timedOut)")
    described = [r for r in records if r.record.error_class == "NetError.timedOut"]
    assert [r.record.error_message for r in described] == ["The request timed out."]
    # a type that prints its own description never prints its case
    assert not [r for r in records if "down(" in r.record.error_message]


def test_cases_after_a_conditional_nested_type_are_still_read(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """A nested type under ``#if`` in an enum's body breaks the grammar for the cases
    after it; the file is read again with the directive lines blanked (lines kept)."""
    from tests.compose_steps import mine_once, records_at

    errors = REFLECTED_ERRORS.replace(
        "    public enum ValidationReason: Sendable {",
        "    #if canImport(Security)\n    public enum TrustReason: Sendable {\n"
        "        case revoked(Data)\n    }\n    #endif\n\n"
        "    public enum ValidationReason: Sendable {").replace(
        "    case validationFailed(reason: ValidationReason)\n", "").replace(
        "        case missingType\n    }\n",
        "        case missingType\n    }\n\n    case validationFailed(reason: ValidationReason)\n")
    assert errors.index("#endif") < errors.index("case validationFailed(reason")
    _, records = mine_once(make_repo, tmp_path, {
        "Sources/Net/NetError.swift": errors, "Sources/Net/Check.swift": REFLECTED_SITES})
    line = next(i for i, text in enumerate(REFLECTED_SITES.splitlines(), 1)
                if text.startswith("    let error = NetError"))
    [found] = records_at(records, "Sources/Net/Check.swift", line)
    assert re.fullmatch(found.record.message_pattern, REFLECTED_PRINTED[0])

"""Java factories that hand on to a namesake overload, as a keeper-style exception does:

    public static StoreException create(Code code, String path) {
        StoreException r = create(code);   // a local holding another factory's result
        r.path = path;
        return r;
    }
    @Deprecated public static StoreException create(int code) { return create(...); }
    public static StoreException create(Code code) { switch (code) { … return new X(); } }

The local returned is what it was made of; of two overloads taking as many parameters,
the one that only hands on to a namesake (the deprecated ``int`` form) is left out, so
``create(Code.NONODE)`` reaches the ``switch`` (it reached neither: composition sees how
many arguments a call passes, not their types). Where a JDK is installed the fixture is
built and run, and what it throws is matched by the site's pattern."""

from __future__ import annotations

import re

import pytest

import errdex
from tests.compose_steps import java_prints, line_starting, mine_fixture, missing

STORE = """\
package shop;

public abstract class StoreException extends Exception {
    public enum Code { NONODE, EXISTS }

    private final Code code;
    private String path;

    public StoreException(Code code) {
        this.code = code;
    }

    public static StoreException create(Code code, String path) {
        StoreException r = create(code);
        r.path = path;
        return r;
    }

    @Deprecated
    public static StoreException create(int code, String path) {
        StoreException r = create(Code.values()[code]);
        r.path = path;
        return r;
    }

    @Deprecated
    public static StoreException create(int code) {
        return create(Code.values()[code]);
    }

    public static StoreException create(Code code) {
        switch (code) {
        case NONODE:
            return new NoNodeException();
        case EXISTS:
            return new NodeExistsException();
        default:
            throw new IllegalArgumentException("Invalid store code: " + code);
        }
    }

    static String getCodeMessage(Code code) {
        switch (code) {
        case NONODE:
            return "NoNode";
        case EXISTS:
            return "NodeExists";
        default:
            return "Unknown error " + code;
        }
    }

    @Override
    public String getMessage() {
        if (path == null || path.isEmpty()) {
            return "StoreErrorCode = " + getCodeMessage(code);
        }
        return "StoreErrorCode = " + getCodeMessage(code) + " for " + path;
    }

    public static class NoNodeException extends StoreException {
        public NoNodeException() {
            super(Code.NONODE);
        }
    }

    public static class NodeExistsException extends StoreException {
        public NodeExistsException() {
            super(Code.EXISTS);
        }
    }
}
"""

CLIENT = """\
package shop;

public class Client {
    public static void main(String[] args) {
        Client client = new Client();
        try {
            client.delete("/shop/a");
        } catch (StoreException e) {
            System.out.println(e.getMessage());
        }
        try {
            client.make();
        } catch (StoreException e) {
            System.out.println(e.getMessage());
        }
    }

    public void delete(String path) throws StoreException {
        throw StoreException.create(StoreException.Code.NONODE, path);
    }

    public void make() throws StoreException {
        throw StoreException.create(StoreException.Code.EXISTS);
    }
}
"""

PRINTED = [
    ("throw StoreException.create(StoreException.Code.NONODE, path);",
     "StoreErrorCode = NoNode for /shop/a"),
    ("throw StoreException.create(StoreException.Code.EXISTS);",
     "StoreErrorCode = NodeExists"),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_java_overloads", "overloads",
                        {"src/shop/StoreException.java": STORE,
                         "src/shop/Client.java": CLIENT})[1]


def _at(records: list[errdex.StoredRecord], start: str) -> list[errdex.StoredRecord]:
    line = line_starting(CLIENT, start, stripped=True)
    return [r for r in records if r.record.file_path == "src/shop/Client.java"
            and r.record.line_number == line]


@pytest.mark.parametrize(("start", "printed"), PRINTED, ids=["with-path", "code-only"])
def test_the_factory_site_prints_the_class_message(
    records: list[errdex.StoredRecord], start: str, printed: str,
) -> None:
    found = _at(records, start)
    assert {r.record.error_message for r in found} >= {
        "StoreErrorCode = {getCodeMessage(code)}"}
    assert any(re.fullmatch(r.record.message_pattern, printed) for r in found), printed


@pytest.mark.skipif(missing("javac", "java"), reason="no JDK installed")
def test_the_patterns_match_what_the_jvm_throws(
    records: list[errdex.StoredRecord], tmp_path_factory: pytest.TempPathFactory,
) -> None:
    output = java_prints(tmp_path_factory.mktemp("java_overloads_run"),
                         {"StoreException.java": STORE, "Client.java": CLIENT}, "shop.Client")
    assert output.splitlines() == [printed for _, printed in PRINTED]
    for start, printed in PRINTED:
        assert any(re.fullmatch(r.record.message_pattern, printed) for r in _at(records, start))

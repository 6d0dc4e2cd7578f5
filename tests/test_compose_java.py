"""Java messages composed across a repository: exception classes, factories, helpers,
constants and branches, mined from a small fixture repository and, where a JDK is
installed, checked against what the JVM prints for the same code."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import errdex
from errdex.records.model import Record, RecordExtras
from errdex.templates.template import compile_pattern
from tests.compose_steps import line_with as line
from tests.compose_steps import mine_pairs, missing, one_pair_at
from tests.compose_steps import pairs_at as at
from tests.compose_steps import source_roles as sources

STORE_EXCEPTION = """\
package shop.errors;

public class StoreException extends RuntimeException {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
"""

NOT_FOUND = """\
package shop.errors;

public class NotFound extends StoreException {
    private final String key;

    public NotFound(String key) {
        super("no such item: " + key);
        this.key = key;
    }

    public NotFound(String key, Throwable cause) {
        this(key);
        initCause(cause);
    }
}
"""

CODED = """\
package shop.errors;

public class CodedError extends StoreException {
    private final int code;

    public CodedError(int code, String message) {
        super(message);
        this.code = code;
    }

    @Override
    public String getMessage() {
        return "[E" + code + "] " + super.getMessage();
    }
}
"""

LIMIT = """\
package shop.errors;

public class LimitExceeded extends StoreException {
    public LimitExceeded(String what, int limit) {
        super(String.format("%s exceeds the limit of %d", what, limit));
    }
}
"""

CONFLICT = """\
package shop.errors;

public class Conflict extends StoreException {
    private Conflict(String message, int code) {
        super(message + " (" + code + ")");
    }

    public Conflict(String key) {
        this("conflict on " + key, 409);
    }
}
"""

TIMEOUT = """\
package shop.errors;

public class Timeout extends StoreException {
    public Timeout(String op) {
        super(op + " timed out");
    }

    public Timeout(String op, int ms) {
        super(op + " timed out after " + ms + "ms");
    }
}
"""

BAD_INPUT = """\
package shop.errors;

public class BadInput extends RuntimeException {
    private final String detail;

    public BadInput(String field) {
        this.detail = "field " + field + " is malformed";
    }

    @Override
    public String getMessage() {
        return detail;
    }
}
"""

PARSE_ERROR = """\
package shop.errors;

public class ParseError extends StoreException {
    public ParseError(String message) {
        super(message);
    }
}
"""

ERRORS = """\
package shop.errors;

import java.text.MessageFormat;

public final class Errors {
    public static final String OUT_OF_STOCK = "item is out of stock";

    private Errors() {
    }

    public static ParseError parse(int id, String what) {
        return new ParseError("[parse_error." + id + "] " + what);
    }

    public static StoreException formatted(String format, Object... args) {
        return new StoreException(String.format(format, args));
    }

    public static StoreException create(String pattern, Object... args) {
        return new StoreException("parse: " + MessageFormat.format(pattern, args));
    }

    public static NotFound notFound(String key) {
        return new NotFound(key);
    }

    public static String missing(String key) {
        return "missing key " + key;
    }

    public static void fail(String reason) {
        throw new IllegalStateException("operation failed: " + reason);
    }

    public static void checkNotNull(String name, Object value) {
        if (value == null) {
            throw new IllegalArgumentException("argument \\"" + name + "\\" is null");
        }
    }

    public static void reject(String reason) {
        throw new IllegalArgumentException(reason); // raise:reject
    }

    public static void require(String what) {
        fail("missing " + what);
    }

    public static RuntimeException ping(String m) {
        return pong(m);
    }

    public static RuntimeException pong(String m) {
        return ping(m);
    }
}
"""

STORE = """\
package shop;

import static shop.errors.Errors.fail;

import shop.errors.BadInput;
import shop.errors.CodedError;
import shop.errors.Conflict;
import shop.errors.Errors;
import shop.errors.LimitExceeded;
import shop.errors.NotFound;
import shop.errors.StoreException;
import shop.errors.Timeout;

public class Store {
    private int line = 7;

    private String where() {
        return " at line " + line;
    }

    public void expect(String what) {
        throw new IllegalStateException("Expected " + what + where()); // site:message-method
    }

    private IllegalStateException syntaxError(String message) {
        throw new IllegalStateException(message + where() + " (see the guide)");
    }

    public void close() {
        throw syntaxError("Unterminated array"); // site:throwing-helper
    }

    private NumberFormatException badNumber(String message, NumberFormatException cause) {
        NumberFormatException made = new NumberFormatException(message + where());
        made.initCause(cause);
        return made;
    }

    public void number(String raw) {
        throw badNumber("not a number: " + raw, null); // site:local-factory
    }

    public void side(boolean left) {
        throw new IllegalArgumentException(left ? "left side" : "right side"); // site:jdk-branches
    }

    public void get(String key) {
        throw new NotFound(key); // site:get
    }

    public void remove(String key) {
        throw new NotFound(key); // site:remove
    }

    public void rename(String key) {
        throw new NotFound(key); // site:rename
    }

    public void reject(int code) {
        throw new CodedError(code, "bad request"); // site:coded
    }

    public void grow(String what) {
        throw new LimitExceeded(what, 10); // site:limit
    }

    public void parse(String what) {
        throw Errors.parse(3, what); // site:factory
    }

    public void resize(int n, String what) {
        throw Errors.formatted("bad size %d for %s", n, what); // site:printf-factory
    }

    public void token(String tok) {
        throw Errors.create("Unexpected token {0}", tok); // site:message-format-factory
    }

    public void fetch(String key) {
        throw Errors.notFound(key); // site:class-factory
    }

    public void lookup(String key) {
        throw new IllegalStateException(Errors.missing(key)); // site:string-factory
    }

    public void find(String key) {
        throw new StoreException(Errors.missing(key)); // site:through-class
    }

    public void flush() {
        Errors.fail("disk full"); // site:helper
    }

    public void order(Object item) {
        Errors.checkNotNull("item", item); // site:guard-helper
    }

    public void sell() {
        Errors.reject("no stock left"); // site:pass-through-helper
    }

    public void ready() {
        Errors.require("paper tray"); // site:helper-chain
    }

    public void print() {
        fail("out of paper"); // site:static-import
    }

    public void clash(String key) {
        throw new Conflict(key); // site:private-constructor
    }

    public void read() {
        throw new Timeout("read"); // site:overload-1
    }

    public void write() {
        throw new Timeout("write", 30); // site:overload-2
    }

    public void submit(String field) {
        throw new BadInput(field); // site:computed-field
    }

    public void buy() {
        throw new IllegalArgumentException(Errors.OUT_OF_STOCK); // site:constant
    }

    public void take(int n) {
        String msg = n > 0 ? "too many: " + n : "none left";
        throw new NotFound(msg); // site:branches
    }

    public void pick(boolean bulk, int n) {
        String msg;
        if (bulk) {
            msg = "bulk of " + n;
        } else {
            msg = "single";
        }
        throw new NotFound(msg); // site:if-branches
    }

    public void load(boolean first) {
        if (first) {
            String why = "first failed";
            throw new NotFound(why);
        } else {
            String why = "second failed";
            throw new NotFound(why); // site:own-block
        }
    }

    public void spin(String m) {
        throw Errors.ping(m); // site:cycle
    }

    public void odd(String key) {
        throw new Mystery(key); // site:unresolved
    }

    public void other(String key) {
        throw Elsewhere.make(key); // site:unresolved-factory
    }
}
"""

MAIN = """\
package shop;

public class Main {
    static void run(String label, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            System.out.println(label + "\\t" + e.getMessage());
        }
    }

    public static void main(String[] args) {
        Store s = new Store();
        run("get", () -> s.get("bolt"));
        run("remove", () -> s.remove("nut"));
        run("rename", () -> s.rename("washer"));
        run("coded", () -> s.reject(404));
        run("limit", () -> s.grow("cart"));
        run("factory", () -> s.parse("unexpected ]"));
        run("string-factory", () -> s.lookup("color"));
        run("class-factory", () -> s.fetch("nut"));
        run("printf-factory", () -> s.resize(-2, "box"));
        run("message-format-factory", () -> s.token("]"));
        run("through-class", () -> s.find("size"));
        run("helper", () -> s.flush());
        run("overload-1", () -> s.read());
        run("overload-2", () -> s.write());
        run("computed-field", () -> s.submit("email"));
        run("helper-chain", () -> s.ready());
        run("pass-through-helper", () -> s.sell());
        run("guard-helper", () -> s.order(null));
        run("static-import", () -> s.print());
        run("private-constructor", () -> s.clash("bolt"));
        run("constant", () -> s.buy());
        run("branches", () -> s.take(5));
        run("branches", () -> s.take(0));
        run("if-branches", () -> s.pick(true, 3));
        run("if-branches", () -> s.pick(false, 3));
        run("own-block", () -> s.load(false));
        run("message-method", () -> s.expect("a name"));
        run("jdk-branches", () -> s.side(true));
        run("jdk-branches", () -> s.side(false));
        run("throwing-helper", () -> s.close());
        run("local-factory", () -> s.number("x1"));
    }
}
"""

# Never compiled: Java refuses a class that extends itself through another.
LOOP = """\
package loop;

public class Ping extends Pong {
    public Ping(String m) {
        super("ping " + m);
    }
}

class Pong extends Ping {
    public Pong(String m) {
        super("pong " + m);
    }
}

class User {
    void go() {
        throw new Ping("x"); // site:loop
    }
}
"""

FILES = {
    "src/shop/errors/StoreException.java": STORE_EXCEPTION,
    "src/shop/errors/NotFound.java": NOT_FOUND,
    "src/shop/errors/CodedError.java": CODED,
    "src/shop/errors/LimitExceeded.java": LIMIT,
    "src/shop/errors/ParseError.java": PARSE_ERROR,
    "src/shop/errors/Conflict.java": CONFLICT,
    "src/shop/errors/Timeout.java": TIMEOUT,
    "src/shop/errors/BadInput.java": BAD_INPUT,
    "src/shop/errors/Errors.java": ERRORS,
    "src/shop/Store.java": STORE,
    "src/shop/Main.java": MAIN,
    "cycles/loop/Ping.java": LOOP,
}
STORE_PATH = "src/shop/Store.java"


@pytest.fixture
def mined(make_repo, store) -> list[tuple[Record, RecordExtras]]:
    return mine_pairs(make_repo, store, FILES)


def one(mined: list[tuple[Record, RecordExtras]], marker: str) -> tuple[Record, RecordExtras]:
    return one_pair_at(mined, STORE_PATH, line(STORE, f"site:{marker}"))


def test_class_message_through_its_base(mined):
    record, extras = one(mined, "get")
    assert record.error_message == "no such item: {key}"
    assert record.message_pattern == "no such item: (.+?)"
    assert record.error_class == "NotFound"
    assert ("src/shop/errors/NotFound.java", line(NOT_FOUND, "class NotFound"),
            "class message") in sources(extras)


def test_a_class_thrown_from_three_places_gives_three_records(mined):
    records = [one(mined, m)[0] for m in ("get", "remove", "rename")]
    assert {r.message_pattern for r in records} == {"no such item: (.+?)"}
    assert len({r.id for r in records}) == 3


def test_getmessage_override_decorates_the_message(mined):
    record, extras = one(mined, "coded")
    assert record.error_message == "[E{code}] bad request"
    assert record.error_class == "CodedError"
    assert sources(extras)[-1] == ("src/shop/errors/CodedError.java",
                                   line(CODED, "class CodedError"), "class decoration")


def test_string_format_in_the_constructor(mined):
    record, extras = one(mined, "limit")
    assert record.error_message == "%s exceeds the limit of 10"
    assert compile_pattern(record.message_pattern).fullmatch("cart exceeds the limit of 10")
    assert record.error_class == "LimitExceeded"
    assert sources(extras) == [("src/shop/errors/LimitExceeded.java",
                                line(LIMIT, "class LimitExceeded"), "class message")]


def test_factory_returning_an_error(mined):
    record, extras = one(mined, "factory")
    assert record.error_message == "[parse_error.3] {what}"
    assert record.error_class == "ParseError"
    assert ("src/shop/errors/Errors.java", line(ERRORS, "static ParseError parse"),
            "factory") in sources(extras)


def test_factories_formatting_what_the_caller_passes(mined):
    record, extras = one(mined, "printf-factory")
    assert record.message_pattern == "bad size (-?\\d+) for (.+?)"
    assert record.error_class == "StoreException"
    assert sources(extras) == []  # every word is the caller's: no producer wrote text
    record, extras = one(mined, "message-format-factory")
    assert record.error_message == "parse: Unexpected token {0}"
    assert compile_pattern(record.message_pattern).fullmatch("parse: Unexpected token ]")
    assert sources(extras) == [("src/shop/errors/Errors.java",
                                line(ERRORS, "static StoreException create"), "factory")]


def test_factory_returning_a_class_it_does_not_word(mined):
    record, _ = one(mined, "class-factory")
    assert record.message_pattern == "no such item: (.+?)"
    assert record.error_class == "NotFound"
    # the factory's own 'return new NotFound(key)' is no record: its callers print it
    assert not at(mined, "src/shop/errors/Errors.java", line(ERRORS, "return new NotFound"))


def test_factory_returning_a_message_for_a_jdk_exception(mined):
    record, extras = one(mined, "string-factory")
    assert record.error_message == "missing key {key}"
    assert record.error_class == "IllegalStateException"
    assert sources(extras) == [("src/shop/errors/Errors.java",
                                line(ERRORS, "static String missing"), "factory")]


def test_a_message_method_through_a_class_that_passes_it_on(mined):
    record, extras = one(mined, "through-class")
    assert record.error_message == "missing key {key}"
    assert record.error_class == "StoreException"
    assert sources(extras) == [("src/shop/errors/Errors.java",
                                line(ERRORS, "static String missing"), "factory")]


def test_helper_that_throws_what_it_is_given(mined):
    record, extras = one(mined, "helper")
    assert record.error_message == "operation failed: disk full"
    assert record.error_class == "IllegalStateException"
    assert sources(extras) == [("src/shop/errors/Errors.java",
                                line(ERRORS, "static void fail"), "helper")]


def test_helper_calling_a_helper(mined):
    record, extras = one(mined, "helper-chain")
    assert record.error_message == "operation failed: missing paper tray"
    assert record.error_class == "IllegalStateException"
    assert ("src/shop/errors/Errors.java", line(ERRORS, "static void require"),
            "helper") in sources(extras)


def test_a_helper_passing_its_parameter_on_prints_what_its_callers_pass(mined):
    record, _ = one(mined, "pass-through-helper")
    assert record.error_message == "no stock left"
    assert record.error_class == "IllegalArgumentException"
    inside = at(mined, "src/shop/errors/Errors.java", line(ERRORS, "raise:reject"))
    assert [(r.error_message, r.error_class) for r, _ in inside] == [
        ("no stock left", "IllegalArgumentException")]
    assert sources(inside[0][1]) == [("src/shop/errors/Errors.java",
                                      line(ERRORS, "static void reject"), "callers")]


def test_a_checker_made_of_guards_raises_what_they_say(mined):
    record, extras = one(mined, "guard-helper")
    assert record.error_message == 'argument "item" is null'
    assert record.error_class == "IllegalArgumentException"
    assert sources(extras) == [("src/shop/errors/Errors.java",
                                line(ERRORS, "static void checkNotNull"), "helper")]


def test_statically_imported_helper(mined):
    record, extras = one(mined, "static-import")
    assert record.error_message == "operation failed: out of paper"
    assert sources(extras) == [("src/shop/errors/Errors.java",
                                line(ERRORS, "static void fail"), "helper")]


def test_public_constructor_delegating_to_a_private_one(mined):
    record, extras = one(mined, "private-constructor")
    assert record.error_message == "conflict on {key} (409)"
    assert record.error_class == "Conflict"
    assert ("src/shop/errors/Conflict.java", line(CONFLICT, "class Conflict"),
            "class message") in sources(extras)


def test_the_constructor_a_call_fits_by_its_arguments(mined):
    assert one(mined, "overload-1")[0].error_message == "read timed out"
    record, extras = one(mined, "overload-2")
    assert record.error_message == "write timed out after 30ms"
    assert record.error_class == "Timeout"
    assert sources(extras) == [("src/shop/errors/Timeout.java", line(TIMEOUT, "class Timeout"),
                                "class message")]


def test_getmessage_returning_a_field_the_constructor_words(mined):
    record, extras = one(mined, "computed-field")
    assert record.error_message == "field {field} is malformed"
    assert record.error_class == "BadInput"
    assert sources(extras) == [("src/shop/errors/BadInput.java",
                                line(BAD_INPUT, "class BadInput"), "class message")]


def test_constant_of_another_file(mined):
    record, extras = one(mined, "constant")
    assert record.error_message == "item is out of stock"
    assert record.error_class == "IllegalArgumentException"
    assert sources(extras) == [("src/shop/errors/Errors.java",
                                line(ERRORS, "OUT_OF_STOCK ="), "constant")]


def test_each_branch_of_a_message_is_its_own_record(mined):
    found = at(mined, STORE_PATH, line(STORE, "site:branches"))
    assert sorted(r.error_message for r, _ in found) == [
        "no such item: none left", "no such item: too many: {n}"]
    assert {r.error_class for r, _ in found} == {"NotFound"}
    assert all(("src/shop/errors/NotFound.java", line(NOT_FOUND, "class NotFound"),
                "class message") in sources(e) for _, e in found)


def test_each_branch_assigned_in_an_if_is_its_own_record(mined):
    found = at(mined, STORE_PATH, line(STORE, "site:if-branches"))
    assert sorted(r.error_message for r, _ in found) == [
        "no such item: bulk of {n}", "no such item: single"]
    # a local of a block the use is not in is no branch of it
    assert [r.error_message for r, _ in at(mined, STORE_PATH, line(STORE, "site:own-block"))
            ] == ["no such item: second failed"]


def test_a_message_method_of_the_class_is_spelled_out(mined):
    record, extras = one(mined, "message-method")
    assert record.error_message == "Expected {what} at line {line}"
    assert record.error_class == "IllegalStateException"
    assert (STORE_PATH, line(STORE, "String where()"), "message") in sources(extras)


def test_a_helper_that_throws_a_message_built_from_its_string_parameter(mined):
    # ``message + where()`` joins two texts (``message`` is a String): no sum, two holes
    record, extras = one(mined, "throwing-helper")
    assert record.error_message == "Unterminated array at line {line} (see the guide)"
    assert record.error_class == "IllegalStateException"
    assert (STORE_PATH, line(STORE, "private IllegalStateException syntaxError"), "helper"
            ) in sources(extras)


def test_a_factory_returning_the_local_it_made(mined):
    record, _ = one(mined, "local-factory")
    assert record.error_message == "not a number: {raw} at line {line}"
    assert record.error_class == "NumberFormatException"


def test_branches_of_a_jdk_exception_message(mined):
    found = at(mined, STORE_PATH, line(STORE, "site:jdk-branches"))
    assert sorted(r.error_message for r, _ in found) == ["left side", "right side"]
    assert {r.error_class for r, _ in found} == {"IllegalArgumentException"}


def test_unresolved_candidates_and_cycles_give_no_record(mined):
    for marker in ("unresolved", "unresolved-factory", "cycle"):
        assert not at(mined, STORE_PATH, line(STORE, f"site:{marker}")), marker
    # the cycle is cut where it closes: what was handed up to that point is printed
    assert len(at(mined, "cycles/loop/Ping.java", line(LOOP, "site:loop"))) <= 1


def test_the_super_call_is_still_a_site_of_its_own(mined):
    found = at(mined, "src/shop/errors/NotFound.java", line(NOT_FOUND, "super("))
    assert [r.error_message for r, _ in found] == ["no such item: {key}"]


@pytest.mark.skipif(missing("javac", "java"), reason="no JDK installed")
def test_patterns_match_what_the_jvm_prints(mined, tmp_path: Path):
    sources_dir = tmp_path / "java"
    for path, text in FILES.items():
        if path.startswith("src/"):
            target = sources_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    classes = tmp_path / "classes"
    files = [str(p) for p in sources_dir.rglob("*.java") if "Store.java" not in p.name]
    store_file = sources_dir / STORE_PATH  # without the lines that name missing classes
    store_file.write_text("\n".join(
        "" if "site:unresolved" in t else t for t in STORE.splitlines()) + "\n",
        encoding="utf-8")
    subprocess.run(["javac", "-d", str(classes), *files, str(store_file)], check=True,
                   capture_output=True)
    printed = subprocess.run(["java", "-cp", str(classes), "shop.Main"], check=True,
                             capture_output=True, text=True).stdout.splitlines()
    assert len(printed) == 31
    for label_and_message in printed:
        label, message = label_and_message.split("\t", 1)
        records = at(mined, STORE_PATH, line(STORE, f"site:{label}"))
        assert any(compile_pattern(r.message_pattern).fullmatch(message) for r, _ in records), (
            label, message, [r.message_pattern for r, _ in records])


def test_an_incremental_mine_recomposes_the_callers_of_a_changed_class(make_repo, store):
    repo = make_repo()
    repo.commit_files(FILES)
    errdex.mine(repo.root, db=store)
    repo.commit_files({"src/shop/errors/NotFound.java": NOT_FOUND.replace(
        '"no such item: "', '"unknown item: "')}, "reword")
    errdex.mine(repo.root, db=store)
    mined = [(s.record, s.extras) for s in store.records()]
    record, _ = one(mined, "get")
    assert record.error_message == "unknown item: {key}"


JOB_CANCELLED = """\
package jobs;

class JobCancelled extends IllegalStateException {
    private final Object job;

    JobCancelled(String message, Object job) {
        super(message);
        this.job = job;
    }

    @Override
    public String toString() {
        return super.toString() + "; job=" + job;
    }
}

class Jobs {
    void cancel(Object job) {
        throw new JobCancelled("Job was cancelled", job); // site:to-string
    }
}
"""


def test_a_to_string_override_after_super_extends_the_printed_message(make_repo, tmp_path):
    # a trace prints toString(): ``jobs.JobCancelled: Job was cancelled; job=Job#1``
    from tests.compose_steps import mine_once, records_at

    _, records = mine_once(make_repo, tmp_path, {"src/jobs/Jobs.java": JOB_CANCELLED})
    found = records_at(records, "src/jobs/Jobs.java", line(JOB_CANCELLED, "site:to-string"))
    assert [compile_pattern(r.record.message_pattern).fullmatch("Job was cancelled; job=Job#1")
            is not None for r in found] == [True]


DUPLICATES = """\
package cfg;

class DuplicateField extends RuntimeException {
    DuplicateField(String message) {
        super(message);
    }
}

class Reader {
    private RuntimeException duplicateField(String name, int line) {
        throw new DuplicateField("Duplicate field '" + name + "' at line " + line); // site:own
    }

    void field(String key, int at) {
        throw duplicateField(key, at); // site:caller
    }

    void other(String key) {
        throw duplicateField(key, 0); // site:zero
    }
}
"""


def test_a_call_to_a_helper_that_throws_itself_gives_no_copy_of_its_raise(make_repo, tmp_path):
    # the helper's own raise says ``Duplicate field '{name}' at line {line}``: a caller
    # passing unknown values would repeat it; one passing a literal says more
    from tests.compose_steps import mine_once, records_at

    _, records = mine_once(make_repo, tmp_path, {"src/cfg/Reader.java": DUPLICATES})
    path = "src/cfg/Reader.java"
    [own] = records_at(records, path, line(DUPLICATES, "site:own"))
    assert own.record.error_message == "Duplicate field '{name}' at line {line}"
    assert records_at(records, path, line(DUPLICATES, "site:caller")) == []
    [zero] = records_at(records, path, line(DUPLICATES, "site:zero"))
    assert zero.record.error_message == "Duplicate field '{key}' at line 0"


def test_producers_read_the_file_with_the_index_its_sites_were_read_with():
    """The composer takes the file index the site reader just built of the same tree (and
    its read memos) instead of querying and indexing the file again; another tree of the
    same text, or another kind of index, is indexed anew."""
    from errdex.languages import LANGUAGES
    from errdex.languages._engine.extract import site_index
    from errdex.languages._engine.files import FileIndex
    from errdex.languages.base import parse, parser_for
    from errdex.languages.java import compose
    from errdex.languages.java.messages import JavaFile

    source = (b'import static a.Checks.fail;\nclass A {\n  void f(String x) {\n'
              b'    String m = "bad " + x;\n    throw new IllegalStateException(m);\n  }\n}\n')
    assert [s.template.written for s in LANGUAGES["java"].extract(source).sites] == ["bad {x}"]
    root = parse("java", source).root_node
    held = site_index("java", root, JavaFile)
    assert held is not None and set(held.assignments) == {"m"} and held.imports == {
        "fail": "Checks"}
    assert compose.index(root) is held
    assert held.read_memo  # what the site read is there for the producers
    other = parser_for("java").parse(source).root_node  # the same text, another tree
    assert site_index("java", other, JavaFile) is None
    fresh = compose.index(other)
    assert fresh is not held and set(fresh.assignments) == {"m"} and fresh.imports == {
        "fail": "Checks"}
    assert site_index("java", root, FileIndex) is None  # not the kind asked

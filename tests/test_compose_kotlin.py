"""Kotlin messages composed across a repository: exception classes (primary and secondary
constructors, ``override val message``), factories, helpers, constants and branches,
mined from a small fixture repository. (No Kotlin compiler is installed here: the
runtime text these patterns must match is the JVM's, checked for Java in
``test_compose_java.py``.)"""

from __future__ import annotations

import pytest

import errdex
from errdex.records.model import Record, RecordExtras
from errdex.templates.template import compile_pattern
from tests.compose_steps import line_with as line
from tests.compose_steps import mine_pairs, one_pair_at
from tests.compose_steps import pairs_at as at
from tests.compose_steps import source_roles as sources

EXCEPTIONS = """\
package shop.errors

open class StoreException(message: String, cause: Throwable? = null) :
    RuntimeException(message, cause)

class NotFound(val key: String) : StoreException("no such item: $key")

class CodedError(val code: Int, message: String) : StoreException(message) {
    override val message: String
        get() = "[E$code] ${super.message}"
}

class LimitExceeded : StoreException {
    constructor(what: String, limit: Int) :
        super(String.format("%s exceeds the limit of %d", what, limit))
    constructor(what: String) : this(what, 100)
}

class ParseError(message: String) : StoreException(message)

class Timeout : StoreException {
    constructor(op: String) : super("$op timed out")
    constructor(op: String, ms: Int) : super("$op timed out after ${ms}ms")
}

sealed class AuthError(message: String) : StoreException(message) {
    object InvalidToken : AuthError("invalid token")
}

class ApiError(val code: Int, override val message: String) : RuntimeException()

class Conflict private constructor(message: String, code: Int) :
    StoreException("$message ($code)") {
    constructor(key: String) : this(code = 409, message = "conflict on $key")
}
"""

ERRORS = """\
package shop.errors

object Errors {
    const val OUT_OF_STOCK = "item is out of stock"

    fun parse(id: Int, what: String) = ParseError("[parse_error.$id] $what")

    fun missing(key: String): String = "missing key $key"

    fun formatted(format: String, vararg args: Any?) = StoreException(format.format(*args))

    fun fail(reason: String): Nothing {
        throw IllegalStateException("operation failed: $reason")
    }

    fun need(what: String): Nothing = error("missing $what")

    fun ping(m: String): RuntimeException = pong(m)

    fun pong(m: String): RuntimeException = ping(m)
}

fun checkId(name: String, id: Int) {
    if (id < 0) throw IllegalArgumentException("negative $name")
    require(id < 1000) { "$name is too large" }
}

fun refuse(reason: String): Nothing {
    throw IllegalArgumentException(reason) // raise:refuse
}

fun notFound(key: String): NotFound {
    return NotFound(key)
}
"""

STORE = """\
package shop

import shop.errors.*

class Store {
    private val line = 7

    private fun where(): String = " at line $line"

    fun expect(what: String) {
        throw IllegalStateException("Expected $what${where()}") // site:message-method
    }

    fun side(left: Boolean) {
        throw IllegalArgumentException(if (left) "left side" else "right side") // site:jdk-branches
    }

    fun get(key: String) {
        throw NotFound(key) // site:get
    }

    fun remove(key: String) {
        throw NotFound(key) // site:remove
    }

    fun rename(key: String) {
        throw NotFound(key) // site:rename
    }

    fun reject(code: Int) {
        throw CodedError(code, "bad request") // site:coded
    }

    fun grow(what: String) {
        throw LimitExceeded(what, 10) // site:limit
    }

    fun parseIt(what: String) {
        throw Errors.parse(3, what) // site:factory
    }

    fun resize(n: Int, what: String) {
        throw Errors.formatted("bad size %d for %s", n, what) // site:printf-factory
    }

    fun lookup(key: String) {
        throw IllegalStateException(Errors.missing(key)) // site:string-factory
    }

    fun look(key: String) {
        error(Errors.missing(key)) // site:error-factory
    }

    fun find(key: String) {
        throw StoreException(Errors.missing(key)) // site:through-class
    }

    fun order(id: Int) {
        checkId("order id", id) // site:guard-helper
    }

    fun sell() {
        refuse("no stock left") // site:pass-through-helper
    }

    fun ready() {
        Errors.need("paper tray") // site:error-helper
    }

    fun flush() {
        Errors.fail("disk full") // site:helper
    }

    fun clash(key: String) {
        throw Conflict(key) // site:private-constructor
    }

    fun call(code: Int) {
        throw ApiError(code, "upstream refused the call") // site:override-parameter
    }

    fun read() {
        throw Timeout("read") // site:overload-1
    }

    fun write() {
        throw Timeout("write", 30) // site:overload-2
    }

    fun login() {
        throw AuthError.InvalidToken // site:object
    }

    fun buy() {
        throw IllegalArgumentException(Errors.OUT_OF_STOCK) // site:constant
    }

    fun take(n: Int) {
        val msg = if (n > 0) "too many: $n" else "none left"
        throw NotFound(msg) // site:branches
    }

    fun pick(n: Int) {
        val what = when (n) {
            0 -> "zero"
            else -> "some"
        }
        throw NotFound(what) // site:when
    }

    fun top(key: String) {
        throw notFound(key) // site:top-factory
    }

    fun spin(m: String) {
        throw Errors.ping(m) // site:cycle
    }

    fun odd(key: String) {
        throw Mystery(key) // site:unresolved
    }

    fun other(key: String) {
        throw Elsewhere.make(key) // site:unresolved-factory
    }
}
"""

LOOP = """\
package loop

open class Ping(m: String) : Pong("ping $m")

open class Pong(m: String) : Ping("pong $m")

fun go() {
    throw Ping("x") // site:loop
}
"""

FILES = {
    "src/shop/errors/Exceptions.kt": EXCEPTIONS,
    "src/shop/errors/Errors.kt": ERRORS,
    "src/shop/Store.kt": STORE,
    "cycles/Loop.kt": LOOP,
}
STORE_PATH = "src/shop/Store.kt"
EXCEPTIONS_PATH = "src/shop/errors/Exceptions.kt"
ERRORS_PATH = "src/shop/errors/Errors.kt"


@pytest.fixture
def mined(make_repo, store) -> list[tuple[Record, RecordExtras]]:
    return mine_pairs(make_repo, store, FILES)


def one(mined: list[tuple[Record, RecordExtras]], marker: str) -> tuple[Record, RecordExtras]:
    return one_pair_at(mined, STORE_PATH, line(STORE, f"site:{marker}"))


def test_primary_constructor_message_through_the_base(mined):
    record, extras = one(mined, "get")
    assert record.message_pattern == "no such item: (.+?)"
    assert record.error_class == "NotFound"
    assert compile_pattern(record.message_pattern).fullmatch("no such item: bolt")
    assert (EXCEPTIONS_PATH, line(EXCEPTIONS, "class NotFound"), "class message") in sources(
        extras)


def test_a_class_thrown_from_three_places_gives_three_records(mined):
    records = [one(mined, m)[0] for m in ("get", "remove", "rename")]
    assert {r.message_pattern for r in records} == {"no such item: (.+?)"}
    assert len({r.id for r in records}) == 3


def test_message_override_decorates_what_the_constructor_hands_up(mined):
    record, extras = one(mined, "coded")
    assert compile_pattern(record.message_pattern).fullmatch("[E404] bad request")
    assert record.message_pattern.endswith("\\] bad request")
    assert record.error_class == "CodedError"
    assert sources(extras)[-1] == (EXCEPTIONS_PATH, line(EXCEPTIONS, "class CodedError"),
                                   "class decoration")


def test_secondary_constructor_with_string_format(mined):
    record, extras = one(mined, "limit")
    assert compile_pattern(record.message_pattern).fullmatch("cart exceeds the limit of 10")
    assert not compile_pattern(record.message_pattern).fullmatch("cart exceeds the limit of 1")
    assert record.error_class == "LimitExceeded"
    assert sources(extras) == [(EXCEPTIONS_PATH, line(EXCEPTIONS, "class LimitExceeded"),
                                "class message")]


def test_object_factory_returning_an_error(mined):
    record, extras = one(mined, "factory")
    assert record.error_message == "[parse_error.3] $what"
    assert record.error_class == "ParseError"
    assert (ERRORS_PATH, line(ERRORS, "fun parse"), "factory") in sources(extras)


def test_factory_formatting_what_the_caller_passes(mined):
    record, extras = one(mined, "printf-factory")
    assert record.message_pattern == "bad size (-?\\d+) for (.+?)"
    assert record.error_class == "StoreException"
    assert sources(extras) == []  # every word is the caller's: no producer wrote text


def test_top_level_factory(mined):
    record, extras = one(mined, "top-factory")
    assert record.message_pattern == "no such item: (.+?)"
    assert record.error_class == "NotFound"
    # the factory passes the class's message on: only the class is named as its source
    assert sources(extras) == [(EXCEPTIONS_PATH, line(EXCEPTIONS, "class NotFound"),
                                "class message")]
    # the factory's own 'return NotFound(key)' is no record: its callers print it
    assert not at(mined, ERRORS_PATH, line(ERRORS, "return NotFound(key)"))


def test_factory_returning_a_message_for_jdk_and_own_exceptions_and_error(mined):
    for marker, error_class in (("string-factory", "IllegalStateException"),
                                ("error-factory", "IllegalStateException"),
                                ("through-class", "StoreException")):
        record, extras = one(mined, marker)
        assert record.error_message == "missing key $key"
        assert record.error_class == error_class
        assert sources(extras) == [(ERRORS_PATH, line(ERRORS, "fun missing"), "factory")]


def test_helper_that_throws_what_it_is_given(mined):
    record, extras = one(mined, "helper")
    assert record.error_message == "operation failed: disk full"
    assert record.error_class == "IllegalStateException"
    assert sources(extras) == [(ERRORS_PATH, line(ERRORS, "fun fail"), "helper")]


def test_public_constructor_delegating_to_a_private_one_by_name(mined):
    record, extras = one(mined, "private-constructor")
    assert record.error_message == "conflict on $key (409)"
    assert record.error_class == "Conflict"
    assert (EXCEPTIONS_PATH, line(EXCEPTIONS, "class Conflict"), "class message") in sources(
        extras)


def test_message_overridden_by_a_constructor_parameter(mined):
    record, _ = one(mined, "override-parameter")
    assert record.error_message == "upstream refused the call"
    assert record.error_class == "ApiError"


def test_helper_calling_error(mined):
    record, extras = one(mined, "error-helper")
    assert record.error_message == "missing paper tray"
    assert record.error_class == "IllegalStateException"
    assert sources(extras) == [(ERRORS_PATH, line(ERRORS, "fun need"), "helper")]


def test_the_constructor_a_call_fits_by_its_arguments(mined):
    assert one(mined, "overload-1")[0].error_message == "read timed out"
    record, _ = one(mined, "overload-2")
    assert record.error_message == "write timed out after 30ms"
    assert record.error_class == "Timeout"


def test_a_helper_passing_its_parameter_on_prints_what_its_callers_pass(mined):
    record, _ = one(mined, "pass-through-helper")
    assert record.error_message == "no stock left"
    assert record.error_class == "IllegalArgumentException"
    inside = at(mined, ERRORS_PATH, line(ERRORS, "raise:refuse"))
    assert [(r.error_message, r.error_class) for r, _ in inside] == [
        ("no stock left", "IllegalArgumentException")]
    assert sources(inside[0][1]) == [(ERRORS_PATH, line(ERRORS, "fun refuse"), "callers")]


def test_an_error_object(mined):
    record, extras = one(mined, "object")
    assert record.error_message == "invalid token"
    assert record.error_class == "InvalidToken"
    assert sources(extras) == [(EXCEPTIONS_PATH, line(EXCEPTIONS, "object InvalidToken"),
                                "class message")]


def test_a_checker_made_of_guards_raises_what_they_say(mined):
    found = at(mined, STORE_PATH, line(STORE, "site:guard-helper"))
    assert sorted((r.error_message, r.error_class) for r, _ in found) == [
        ("negative order id", "IllegalArgumentException"),
        ("order id is too large", "IllegalArgumentException")]
    assert all(sources(e) == [(ERRORS_PATH, line(ERRORS, "fun checkId"), "helper")]
               for _, e in found)


def test_constant_of_an_object_in_another_file(mined):
    record, extras = one(mined, "constant")
    assert record.error_message == "item is out of stock"
    assert record.error_class == "IllegalArgumentException"
    assert sources(extras) == [(ERRORS_PATH, line(ERRORS, "OUT_OF_STOCK ="), "constant")]


@pytest.mark.parametrize(("marker", "expected"), [
    ("branches", ["no such item: none left", "no such item: too many: $n"]),
    ("when", ["no such item: some", "no such item: zero"]),
])
def test_each_branch_of_a_message_is_its_own_record(mined, marker, expected):
    found = at(mined, STORE_PATH, line(STORE, f"site:{marker}"))
    assert sorted(r.error_message for r, _ in found) == expected
    assert {r.error_class for r, _ in found} == {"NotFound"}
    assert all((EXCEPTIONS_PATH, line(EXCEPTIONS, "class NotFound"), "class message")
               in sources(e) for _, e in found)


def test_a_message_method_of_the_class_is_spelled_out(mined):
    record, extras = one(mined, "message-method")
    assert record.error_message == "Expected $what at line $line"
    assert record.error_class == "IllegalStateException"
    assert (STORE_PATH, line(STORE, "fun where()"), "message") in sources(extras)


def test_branches_of_a_jdk_exception_message(mined):
    found = at(mined, STORE_PATH, line(STORE, "site:jdk-branches"))
    assert sorted(r.error_message for r, _ in found) == ["left side", "right side"]
    assert {r.error_class for r, _ in found} == {"IllegalArgumentException"}


def test_unresolved_candidates_and_cycles_give_no_record(mined):
    for marker in ("unresolved", "unresolved-factory", "cycle"):
        assert not at(mined, STORE_PATH, line(STORE, f"site:{marker}")), marker
    # the class cycle is cut where it closes: what was handed up to there is printed
    assert len(at(mined, "cycles/Loop.kt", line(LOOP, "site:loop"))) <= 1


def test_an_incremental_mine_recomposes_the_callers_of_a_changed_factory(make_repo, store):
    repo = make_repo()
    repo.commit_files(FILES)
    errdex.mine(repo.root, db=store)
    repo.commit_files({ERRORS_PATH: ERRORS.replace('"missing key $key"', '"no key $key"')},
                      "reword")
    errdex.mine(repo.root, db=store)
    mined = [(s.record, s.extras) for s in store.records()]
    record, _ = one(mined, "string-factory")
    assert record.error_message == "no key $key"


MISSING_PARAMETER = """\
package shop.errors

open class BadRequestException(message: String) : Exception(message)

class MissingParameter(
    val name: String,
    val kind: String? = null
) : BadRequestException(
    kind?.let { "Request $it parameter $name is missing" } ?: "Request parameter $name is missing"
)

fun query(name: String): Nothing = throw MissingParameter(name, "query") // site:let

fun fail(reason: String?) {
    throw IllegalStateException(reason ?: "unknown failure") // site:elvis
}
"""


def test_elvis_and_let_branches_in_a_class_header(make_repo, tmp_path):
    from tests.compose_steps import messages, mine_once, records_at

    _, records = mine_once(make_repo, tmp_path, {"src/Errors.kt": MISSING_PARAMETER})
    path = "src/Errors.kt"
    # the header's own site: a record per branch, ``it`` named after what it lets
    header = line(MISSING_PARAMETER, ") : BadRequestException(")
    assert messages(records_at(records, path, header)) == [
        "Request $kind parameter $name is missing", "Request parameter $name is missing"]
    thrown = records_at(records, path, line(MISSING_PARAMETER, "site:let"))
    assert any(compile_pattern(r.record.message_pattern).fullmatch(
        "Request query parameter id is missing") for r in thrown)
    # an unknown left side is the caller's text: only the default is worded
    assert messages(records_at(records, path, line(MISSING_PARAMETER, "site:elvis"))) == [
        "unknown failure"]


LAZY_HELPER = """\
package shop

class BadDate(data: String, reason: String) :
    IllegalStateException("Failed to parse date \\"$data\\": $reason")

class Dates {
    private fun ensure(source: String, ok: Boolean, message: () -> String) {
        if (!ok) {
            throw BadDate(source, message())
        }
    }

    fun parse(source: String, year: Int) {
        ensure(source, year >= 1601) { "year $year is before 1601" } // site:lazy
    }
}
"""


def test_a_helper_given_its_message_as_a_trailing_lambda(make_repo, tmp_path):
    from tests.compose_steps import messages, mine_once, records_at

    _, records = mine_once(make_repo, tmp_path, {"src/Dates.kt": LAZY_HELPER})
    found = records_at(records, "src/Dates.kt", line(LAZY_HELPER, "site:lazy"))
    assert messages(found) == ['Failed to parse date "$source": year $year is before 1601']
    assert compile_pattern(found[0].record.message_pattern).fullmatch(
        'Failed to parse date "1500-01-01": year 1500 is before 1601')


JOB_CANCELLED = """\
package jobs

class JobCancelled(message: String, val job: Any) : IllegalStateException(message) {
    override fun toString(): String = "${super.toString()}; job=$job"
}

fun cancel(job: Any): Nothing = throw JobCancelled("Job was cancelled", job) // site:to-string
"""


def test_a_to_string_override_after_super_extends_the_printed_message(make_repo, tmp_path):
    # a trace prints toString(): ``jobs.JobCancelled: Job was cancelled; job=Job#1``
    from tests.compose_steps import mine_once, records_at

    _, records = mine_once(make_repo, tmp_path, {"src/Jobs.kt": JOB_CANCELLED})
    found = records_at(records, "src/Jobs.kt", line(JOB_CANCELLED, "site:to-string"))
    assert [compile_pattern(r.record.message_pattern).fullmatch("Job was cancelled; job=Job#1")
            is not None for r in found] == [True]

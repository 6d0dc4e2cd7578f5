"""Java and Kotlin sites, checked against messages the JVM really printed.

The golden files pin every site of the fixtures; here the patterns meet real
runtime text. The Java messages were printed by compiling
``fixtures/java/Inventory.java`` with javac 17 against Guava 31.1 and SLF4J 1.7.36
and calling each method; the Kotlin ones by invoking the stdlib 2.1.0 functions
(``require``, ``TODO``, ``trimIndent`` …) by reflection. The suite itself needs no JDK.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.languages import language_for_path
from errdex.languages._jvm.libraries import looks_like_throwable, parse_guava
from errdex.languages.base import Site, parse
from errdex.languages.java import SPEC as JAVA
from errdex.languages.java import extract as extract_java
from errdex.languages.java.strings import decode_java_string
from errdex.languages.kotlin import extract as extract_kotlin
from errdex.languages.kotlin.strings import trim_indent, trim_margin
from errdex.templates.template import Hole, Literal, Template, compile_pattern

FIXTURES = Path(__file__).parent / "fixtures"
INVENTORY = FIXTURES / "java" / "Inventory.java"
LEDGER = FIXTURES / "kotlin" / "Ledger.kt"


def _java(source: str) -> list[Site]:
    return extract_java(source.encode()).sites


def _kotlin(source: str) -> list[Site]:
    return extract_kotlin(source.encode()).sites


def _matching(sites: list[Site], line: int, message: str) -> list[Site]:
    return [
        s for s in sites
        if s.line == line and compile_pattern(s.template.pattern()).fullmatch(message)
    ]


# --- real runtime messages ------------------------------------------------------------------

# (line, exception class or None for a log line, message as the JVM printed it)
JAVA_OBSERVED: list[tuple[int, str | None, str]] = [
    (33, "NullPointerException", "stock map is required"),
    (39, "IllegalArgumentException", "no such sku nut 7 in stock"),
    (45, "IllegalArgumentException", "quantity must be positive, got -3"),
    (47, "NullPointerException", "sku for 2 units [null]"),
    (56, "IllegalArgumentException", "cannot restock 5000 units of bolt (limit 1000)\n"),
    (60, "UnsupportedOperationException", "unknown sku: washer"),
    (68, "IllegalArgumentException", "discount 0.75 too large for bolt"),
    (74, "VerifyException", "shelf -1 of bolt is negative"),
    (76, "IllegalStateException", "shelf 1,234 for 'bolt' does not exist"),
    (83, "IndexOutOfBoundsException", "slot (-2) must not be negative"),
    (83, "IndexOutOfBoundsException", "slot (7) must be less than size (5)"),
    (90, "NoSuchElementException", "missing washer"),
    (102, "IllegalStateException", "inventory already closed;\nopen a new one instead"),
    (108, "AssertionError", "stock vanished on close"),
    (46, "IllegalStateException", "inventory is closed"),
    (122, "OutOfStockException", "out of stock: bolt is short by 6"),
    (130, "NullPointerException",
     "shelf code for com.example.inventory.Inventory$Shelf@448139f0"),
    (135, "IllegalArgumentException", "depth -4: x2"),
    (94, None, "audit failed for bolt after 3 tries"),
    (95, None, "audit aborted"),
    (96, None, "audit: giving up on bolt"),
    (97, None, "audit: 1 items left\n"),
]


@pytest.mark.parametrize(("line", "error_class", "message"), JAVA_OBSERVED)
def test_java_patterns_match_what_the_jvm_printed(line, error_class, message):
    sites = extract_java(INVENTORY.read_bytes()).sites
    printed = message.removesuffix("\n")  # a pasted message loses its trailing newline
    found = _matching(sites, line, printed)
    assert found, (line, printed)
    assert all(s.error_class == error_class for s in found)
    assert all(s.error_type == ("log" if error_class is None else "exception") for s in found)


def test_java_patterns_reject_a_near_miss():
    sites = extract_java(INVENTORY.read_bytes()).sites
    assert not _matching(sites, 45, "quantity must be positive, got")
    assert not _matching(sites, 83, "slot (x) must not be negative")  # %s of an int index
    assert not _matching(sites, 56, "cannot restock many units of bolt (limit 1000)")


# Kotlin stdlib 2.1.0: (fixture line, class, message).
KOTLIN_OBSERVED: list[tuple[int, str, str]] = [
    (27, "IllegalArgumentException", "Failed requirement."),
    (60, "IllegalStateException", "Required value was null."),
    (52, "NotImplementedError", "An operation is not implemented: xml export for acme"),
    (53, "NotImplementedError", "An operation is not implemented."),
    (43, "IllegalArgumentException", "owner vanished"),
    (28, "IllegalStateException", "ledger of acme is full (10000 entries)"),
    (68, "UnsupportedOperationException", "Ledger report for acme\nentries: 3"),
    (71, "IllegalStateException", "cannot print margins:\n  printer offline"),
]


@pytest.mark.parametrize(("line", "error_class", "message"), KOTLIN_OBSERVED)
def test_kotlin_patterns_match_the_stdlib_text(line, error_class, message):
    found = _matching(extract_kotlin(LEDGER.read_bytes()).sites, line, message)
    assert [s.error_class for s in found] == [error_class]


@pytest.mark.parametrize(("source", "error_class", "printed"), [
    ("check(ok)", "IllegalStateException", "Check failed."),
    ("requireNotNull(x)", "IllegalArgumentException", "Required value was null."),
    ("checkNotNull(x) { \"lazy text\" }", "IllegalStateException", "lazy text"),
    ("assert(ok)", "AssertionError", "Assertion failed"),
    ("error(\"boom $n\")", "IllegalStateException", "boom 7"),
    ("require(ok, { \"lazy text\" })", "IllegalArgumentException", "lazy text"),
])
def test_kotlin_stdlib_checks(source, error_class, printed):
    [site] = _kotlin(f"fun f(ok: Boolean, x: Any?, n: Int) {{ {source} }}")
    assert site.error_class == error_class
    assert compile_pattern(site.template.pattern()).fullmatch(printed)
    assert site.symbol == "f"


# Real kotlin.text.StringsKt results for the same inputs.
@pytest.mark.parametrize(("value", "indented", "margined"), [
    ("  a\n    b\n\n  c", "a\n  b\n\nc", "  a\n    b\n\n  c"),
    ("\n   x\n  \n     y\n", "x\n\n  y", "   x\n  \n     y"),
    ("first\n   |second\n  third", "first\n   |second\n  third", "first\nsecond\n  third"),
])
def test_trim_functions_agree_with_kotlin(value, indented, margined):
    assert trim_indent(value) == indented
    assert trim_margin(value) == margined


# --- formats and literals -------------------------------------------------------------------


def test_guava_format_only_knows_percent_s():
    parts = parse_guava("%d of %s", ["a", "b", "c"])
    assert parts == (
        Literal("%d of "), Hole.of("a", "%s"), Literal(" ["), Hole.of("b", "%s"), Literal(", "),
        Hole.of("c", "%s"), Literal("]"),
    )
    assert parse_guava("%s and %s", ["a"]) == (Hole.of("a", "%s"), Literal(" and %s"))


def test_guava_message_without_arguments_is_not_formatted():
    [site] = _java("class A { void f(int x) { Preconditions.checkArgument(x > 0, \"100%s\"); } }")
    assert site.template.pattern() == "100%s"


def test_java_string_literals_and_text_blocks():
    assert decode_java_string(r'"a\tb\"c\u0041\101\s\\"') == 'a\tb"cAA \\'
    block = '"""\n    one  \n      two\\\n    three\n    """'
    assert decode_java_string(block) == "one\n  twothree\n"


def test_java_concatenation_adds_numbers_before_text():
    [site] = _java('class A { void f(int a, int b) { throw new E(a + b + " left " + 1 + 2); } }')
    assert site.template.written == "{a + b} left 12"
    assert [h.name for h in site.template.holes] == ["a + b"]


def test_java_message_from_constant_and_format_with_locale():
    source = """
    class A {
        static final String PREFIX = "bad ";
        String mutable = "not read";
        void f(int n) { throw new E(PREFIX + String.format(Locale.ROOT, "%05.1f", n)); }
        void g() { throw new E(mutable); }
    }"""
    [site] = _java(source)
    assert site.template.written == "bad %05.1f"
    assert compile_pattern(site.template.pattern()).fullmatch("bad 003.5")


def test_java_non_sites():
    source = """
    class A {
        void f(Exception e, String s) {
            if (s == null) throw new IllegalStateException();
            if (e != null) throw new RuntimeException(e);
            checkArgument(s.isEmpty(), "no static import, no Guava");
            Preconditions.checkState(s.isEmpty());
            System.exit(1);
            throw new IllegalStateException(e.getMessage(), e);
        }
    }"""
    assert _java(source) == []


def test_static_imported_guava_check():
    source = """
    import static com.google.common.base.Preconditions.*;
    class A { void f(int n) { checkNotNull(n, "n %s", n); } }"""
    [site] = _java(source)
    assert (site.error_class, site.template.written) == ("NullPointerException", "n %s")


def test_slf4j_trailing_throwable_by_declared_type_and_name():
    source = """
    class A {
        void f(String user, Throwable problem, String detail) {
            log.error("a {} b {}", user, problem);
            log.error("c {} d {}", user, detail);
            try { } catch (IOException | RuntimeException e) { LOG.error("e {}", e); }
        }
    }"""
    first, second, third = _java(source)
    assert [h.name for h in first.template.holes] == ["user", None]
    assert [h.name for h in second.template.holes] == ["user", "detail"]
    assert [h.name for h in third.template.holes] == [None]
    assert looks_like_throwable("ex") and looks_like_throwable("new IOException(\"x\")")
    assert not looks_like_throwable("user")


def test_kotlin_templates_and_symbols():
    source = '''
    class Box {
        companion object {
            fun make(n: Int): Nothing = throw IllegalStateException("n=${n + 1}\\t$n")
        }
        init { check(true) { "init" } }
    }
    fun top(): Nothing = throw IllegalArgumentException("price: ${'$'}5")
    '''
    make, init, top = _kotlin(source)
    assert make.symbol == "Box.Companion.make"
    assert make.template.render(["3", "2"]) == "n=3\t2"
    assert [h.name for h in make.template.holes] == ["n + 1", "n"]
    assert init.symbol == "Box.<init>"
    assert (top.symbol, top.template.pattern()) == ("top", r"price: \$5")


def test_kotlin_logging_lambda_and_constant():
    source = '''
    object Messages { const val GONE = "gone" }
    private const val PREFIX = "ledger: "
    fun f(e: Exception, id: String) {
        logger.error(e) { PREFIX + "lost $id" }
        throw IllegalStateException(Messages.GONE)
    }
    '''
    logged, thrown = _kotlin(source)
    assert logged.error_type == "log"
    assert logged.template.written == "ledger: lost $id"
    assert thrown.template.written == "gone"


def test_registered_languages():
    assert language_for_path("src/Main.java").name == "java"
    assert language_for_path("build.gradle.kts").name == "kotlin"
    assert language_for_path("App.kt").name == "kotlin"


def test_parse_errors_are_reported_and_good_sites_kept():
    result = extract_java((FIXTURES / "java" / "Broken.java").read_bytes())
    assert result.parse_errors
    assert [s.line for s in result.sites] == [3, 11]


def test_template_type_is_kept():
    [site] = _java('class A { void f() { throw new E("x"); } }')
    assert isinstance(site.template, Template)


def test_java_message_after_a_context_argument_and_report_helpers():
    """Jackson's ``new X(parser, msg, …)`` and ``ctxt.reportBadDefinition(type, msg)``:
    the message is the first argument source spells out; a ``report…`` helper's extra
    arguments format its literal as ``String.format`` does."""
    sites = _java('''class U {
  static X from(JsonParser p, Object o, String name) {
    String msg = String.format("Unrecognized field \\"%s\\" (class %s)", name, o);
    UnrecognizedPropertyException e = new UnrecognizedPropertyException(p, msg, o);
    return e;
  }
  void s(SerializerProvider prov, Class<?> cl) {
    prov.reportBadDefinition(handledType(), String.format("No serializer found for class %s", cl));
    ctxt.reportInputMismatch(this, "Cannot deserialize value of type %s from %s", type, token);
    reportProblem(x);
    throw new IllegalStateException(cause);
  }
}''')
    found = [(s.line, s.error_class, s.template.pattern()) for s in sites]
    assert found == [
        (4, "UnrecognizedPropertyException", r'Unrecognized field "(.+?)" \(class (.+?)\)'),
        (8, None, "No serializer found for class (.+?)"),
        (9, None, "Cannot deserialize value of type (.+?) from (.+?)"),
    ]
    printed = 'Cannot deserialize value of type `int` from String "x"'
    assert compile_pattern(found[2][2]).fullmatch(printed)


def test_java_tests_claim_classes_and_messages() -> None:
    """The spec's test reader: JUnit's ``assertThrows`` names the class and the call,
    ``assertEquals(msg, e.getMessage())`` and AssertJ's ``hasMessage…`` the text; an
    ``assertEquals`` on anything but a message claims nothing."""
    source = b'''class InventoryTest {
  @Test void rejects() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> inventory.take(-1));
    assertEquals("count must be positive: -1", e.getMessage());
    assertThat(thrown).hasMessage("sku missing");
    assertThat(thrown).hasMessageContaining("out of stock");
    assertEquals("3", inventory.size());
  }
}
'''
    tests = JAVA.evidence.tests
    assert tests is not None
    links = list(tests.read("InventoryTest.java", parse("java", source).root_node))
    assert [(ln.line, ln.name, ln.framework, ln.mode, ln.expected, ln.error_class, ln.call)
            for ln in links] == [
        (3, "rejects", "junit", "class", None, "IllegalArgumentException", "inventory.take(-1)"),
        (5, "rejects", "junit", "exact", "count must be positive: -1", None, None),
        (6, "rejects", "assertj", "exact", "sku missing", None, None),
        (7, "rejects", "assertj", "substring", "out of stock", None, None),
    ]


# --- pastes as users copy them ----------------------------------------------------------------


def _read(text: str) -> tuple[str | None, str, list[tuple[str, int | None]]]:
    from errdex.lookup.parse import main_event

    event = main_event(text)
    return event.error_class, event.message, [(f.file, f.line) for f in event.frames]


SHOP_FRAMES = [("Shop.kt", 12), ("Main.kt", 3)]


@pytest.mark.parametrize("text", [
    # a message ending in a newline prints a blank line before its frames
    "shop.CartException: cart 7 is empty\n\n\tat shop.Cart.pay(Shop.kt:12)\n"
    "\tat shop.MainKt.main(Main.kt:3)",
    # the frames lost their indentation in the copy
    "shop.CartException: cart 7 is empty\nat shop.Cart.pay(Shop.kt:12)\n"
    "at shop.MainKt.main(Main.kt:3)",
    # the whole paste indented (quoted), the header with it
    "    shop.CartException: cart 7 is empty\n        at shop.Cart.pay(Shop.kt:12)\n"
    "        at shop.MainKt.main(Main.kt:3)",
    # one log prefix on every line
    "12:20:46 [SEVERE] shop.CartException: cart 7 is empty\n"
    "12:20:46 [SEVERE]     at shop.Cart.pay(Shop.kt:12)\n"
    "12:20:46 [SEVERE]     at shop.MainKt.main(Main.kt:3)",
    # Android: the tag on the header only, or another one on the frames
    "E/Checkout: shop.CartException: cart 7 is empty\n        at shop.Cart.pay(Shop.kt:12)\n"
    "        at shop.MainKt.main(Main.kt:3)",
    "System.err: shop.CartException: cart 7 is empty\n"
    "W/System.err:     at shop.Cart.pay(Shop.kt:12)\n"
    "W/System.err:     at shop.MainKt.main(Main.kt:3)",
])
def test_jvm_paste_keeps_its_frames_however_it_was_copied(text: str) -> None:
    assert _read(text) == ("shop.CartException", "cart 7 is empty", SHOP_FRAMES)


def test_jvm_paste_message_lines_of_an_indented_header_lose_its_indentation() -> None:
    text = ("  shop.CartException: cart 7 is empty\n  pay first\n"
            "    at shop.Cart.pay(Shop.kt:12)")
    assert _read(text) == ("shop.CartException", "cart 7 is empty\npay first", [("Shop.kt", 12)])


def test_jvm_paste_unindented_at_line_inside_a_message_stays_in_it() -> None:
    text = ("shop.StubException: \nUnfinished stub here:\nat shop.CartTest.pay(CartTest.java:9)\n"
            "\nFinish it first.")
    error_class, message, frames = _read(text)
    assert error_class == "shop.StubException"
    assert message == "\nUnfinished stub here:\nat shop.CartTest.pay(CartTest.java:9)"
    assert frames == []


def test_jvm_paste_spring_nested_exception_names_the_cause() -> None:
    text = ("Error creating bean 'cart'; nested exception is "
            "java.lang.IllegalArgumentException: cart 7 is empty")
    assert _read(text)[:2] == ("java.lang.IllegalArgumentException", "cart 7 is empty")


def test_jvm_paste_log_line_without_frames_is_not_a_trace() -> None:
    text = "12:20:46 [SEVERE] shop.CartException: cart 7 is empty\n12:20:47 [INFO] done"
    assert _read(text)[2] == []


def test_kotlin_template_spells_the_vals_it_interpolates() -> None:
    sites = _kotlin(
        'internal const val keysHint = "Use ignoreUnknownKeys to skip them."\n'
        "\n"
        "class Lexer {\n"
        "    fun unknownKey(key: String) {\n"
        '        val where = "at offset"\n'
        '        throw IllegalStateException("unknown key \'$key\' ${where}\\n$keysHint")\n'
        "    }\n"
        "\n"
        "    fun passed(keysHint: String) {\n"
        '        throw IllegalStateException("bad: $keysHint")\n'
        "    }\n"
        "}\n"
    )
    by_line = {s.line: s.template for s in sites}
    pattern = compile_pattern(by_line[6].pattern())
    assert pattern.fullmatch("unknown key 'x' at offset\nUse ignoreUnknownKeys to skip them.")
    # a parameter of that name hides the constant: its value is the caller's
    assert by_line[10].written == "bad: $keysHint"


KOTLIN_SPLIT_HEADER = """\
package shop

class Pool<T : Any>
internal constructor(val capacity: Int) : Base() {
    init {
        require(capacity > 0) { "capacity should be positive but it is $capacity" }
    }
}

class Gone
@Inject constructor(key: String) : IllegalStateException("no such item: $key")
"""


def test_kotlin_primary_constructor_on_its_own_line_keeps_the_class_readable() -> None:
    from errdex.languages.base import parse
    from errdex.languages.kotlin.compose import producers

    found = extract_kotlin(KOTLIN_SPLIT_HEADER.encode())
    assert not found.parse_errors
    assert [(s.line, s.template.written) for s in found.sites] == [
        (6, "capacity should be positive but it is $capacity"),
        (11, "no such item: $key"),
    ]
    source = KOTLIN_SPLIT_HEADER.encode()
    made = producers(parse("kotlin", source).root_node, source, "Pool.kt")
    assert [(p.name, p.params) for p in made if p.name == "Gone"] == [("Gone", ("key",))]


def test_log_message_built_by_concatenation_or_template_with_a_throwable() -> None:
    java = _java(
        "class Svc {\n"
        "  void run(String id, Exception e) {\n"
        '    log.error("Unhandled error for request " + id, e);\n'
        '    log.error("failed for " + id + " at {}", id, e);\n'
        "  }\n"
        "}\n"
    )
    # the Throwable prints after the message, not in it; a ``{}`` with values to fill in a
    # text that is not one literal is not read
    assert [(s.line, s.template.written, s.error_type) for s in java] == [
        (3, "Unhandled error for request {id}", "log")]
    kotlin = _kotlin(
        "fun serve(logger: Logger) {\n"
        "    try { run() } catch (cause: Throwable) {\n"
        '        logger.error("Unhandled server error: ${cause.message}", cause)\n'
        "    }\n"
        "}\n"
    )
    assert [(s.line, s.template.written) for s in kotlin] == [
        (3, "Unhandled server error: ${cause.message}")]


def test_jvm_paste_coroutine_boundary_and_kotlin_native_header() -> None:
    recovered = (
        'Exception in thread "main" shop.CartException: cart 7 is empty\n'
        "\tat shop.Cart.pay(Shop.kt:12)\n"
        "\t(Coroutine boundary)\n"
        "\tat shop.MainKt.main(Main.kt:3)\n"
    )
    assert _read(recovered) == ("shop.CartException", "cart 7 is empty", SHOP_FRAMES)
    native = ("Uncaught Kotlin exception: kotlin.IllegalStateException: cart 7 is empty\n"
              "    at 0   shop.kexe   0x000000010d5b2e4f kfun:kotlin.Throwable#<init>() + 95\n")
    assert _read(native)[:2] == ("kotlin.IllegalStateException", "cart 7 is empty")


def test_kotlin_object_passing_its_message_to_its_base_is_its_own_class() -> None:
    sites = _kotlin(
        "sealed class ApiError(message: String) : Exception(message) {\n"
        '    object Unauthorized : ApiError("you are not logged in")\n'
        '    class NotFound(id: String) : ApiError("resource $id was not found")\n'
        "}\n"
    )
    assert [(s.line, s.error_class, s.symbol) for s in sites] == [
        (2, "Unauthorized", "ApiError.Unauthorized.<init>"),
        (3, "NotFound", "ApiError.NotFound.<init>"),
    ]


def test_a_factory_thrown_through_an_object_is_a_candidate() -> None:
    java = extract_java(b"class A { void go(Lexer r) { throw r.unexpected(\"a name\"); } }")
    kotlin = extract_kotlin(b'fun go(r: Lexer): Nothing = throw r.unexpected("a name")\n')
    for found in (java, kotlin):
        assert [(c.call.callee if c.call else None) for c in found.candidates] == [
            "r.unexpected"]


def test_kotlin_build_string_message() -> None:
    sites = _kotlin(
        "fun check(x: Int) {\n"
        '    throw IllegalArgumentException(buildString { append("bad value "); append(x) })\n'
        "}\n"
        "fun other(x: Int) {\n"
        "    throw IllegalArgumentException(buildString { repeat(x) { append(it) } })\n"
        "}\n"
    )
    assert [(s.line, s.template.written) for s in sites] == [(2, "bad value {x}")]
    assert compile_pattern(sites[0].template.pattern()).fullmatch("bad value 42")


def test_java_string_builder_appended_in_straight_line() -> None:
    sites = _java(
        "class A {\n"
        "  void check(String id, boolean strict) {\n"
        '    StringBuilder sb = new StringBuilder("Invalid id ");\n'
        '    sb.append(id).append(": must be numeric");\n'
        "    throw new IllegalArgumentException(sb.toString());\n"
        "  }\n"
        "  void loose(String id, boolean strict) {\n"
        '    StringBuilder sb = new StringBuilder("Invalid id ");\n'
        '    if (strict) { sb.append(" (strict)"); }\n'
        "    throw new IllegalArgumentException(sb.toString());\n"
        "  }\n"
        "}\n"
    )
    assert [(s.line, s.template.written) for s in sites] == [  # a branch: one hole
        (5, "Invalid id {id}: must be numeric"), (10, "Invalid id {…}")]

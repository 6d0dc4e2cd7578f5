"""Reading patterns back: fragments, prefilter words, and the regex-free matcher."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from errdex.lookup.index import verify
from errdex.templates.analysis import prefilter_words, shape_of
from errdex.templates.matching import _head
from errdex.templates.template import Hole, Literal, PatternError, Template, compile_pattern, utf8


def test_fragments_and_words():
    shape = shape_of(r"deform_conv2d_backward: unsupported dtype (.+?)")
    assert shape.fragments == ("deform_conv2d_backward: unsupported dtype ", "")
    assert shape.plain and shape.groups == 1
    assert prefilter_words(shape) == ["deform_conv2d_backward", "unsupported", "dtype"]
    assert prefilter_words(shape_of("bad (.+?)x y")) == ["bad", "y"]  # "x" runs into the hole
    typed = shape_of(r"got (-?\d+) items(?:: (.+?))?")
    assert not typed.plain and typed.groups == 2
    assert shape_of(r"a|b").opaque


_PIECES = st.lists(st.text(alphabet="ab: .\n(", max_size=4), min_size=1, max_size=5)


@settings(max_examples=400)
@given(pieces=_PIECES, message=st.text(alphabet="ab: .\n(x", max_size=16))
@example(pieces=["a:a", ""], message="a:a")  # ``a:a(.+?)``: its final hole printed nothing
def test_plain_matcher_equals_the_regex(pieces, message):
    parts = []
    for index, piece in enumerate(pieces):
        if index:
            parts.append(Hole.of(None, "{}"))
        parts.append(Literal(piece))
    pattern = Template("t", tuple(p for p in parts if not (isinstance(p, Literal) and not p.text))
                       ).pattern()
    assert shape_of(pattern).plain
    expected = compile_pattern(pattern).fullmatch(message)
    blanks = len(pattern) - len(pattern.rstrip(" "))
    if expected is None and blanks and pattern.strip(" ") and not message.endswith(" "):
        # The one rule verify adds: a template's trailing blank matches a trimmed line.
        expected = compile_pattern(pattern).fullmatch(message + " " * blanks)
    got = verify(pattern, message)
    if got is not None and expected is None and (end := _head(pattern)) is not None:
        # verify's second documented reading: a final hole that printed nothing, the message
        # then read by the pattern before it (its blanks trimmed)
        head = compile_pattern(end[0]).fullmatch(message.rstrip())
        assert got[-1] == "" and head is not None and got[:-1] == head.groups(), (pattern, message)
        return
    assert (got is None) == (expected is None), (pattern, message)
    if expected:
        assert got == expected.groups()


def test_typed_patterns_still_use_the_regex():
    assert verify(r"need (-?\d+) more", "need 3 more") == ("3",)
    assert verify(r"need (-?\d+) more", "need x more") is None
    assert verify(r"m(?:: (.+?))?", "m") == (None,)
    assert re.fullmatch(r"m(?:: (.+?))?", "m: e")
    assert verify(r"m(?:: (.+?))?", "m: e") == ("e",)


# --- RE2: what it is given, and what it refuses ------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "message", "groups"),
    [
        (r"caf\u00e9 (.+?)", "café au lait", ("au lait",)),  # JavaScript's \uXXXX
        (r"smile \ud83d\ude00 (\d+)", "smile \U0001f600 3", ("3",)),  # a UTF-16 pair
        (r"star \u{2B50}", "star \u2b50", ()),  # \u{…} (JavaScript's u flag)
        (r"dash \N{EM DASH}", "dash \u2014", ()),  # Python's \N{NAME}
        (r"wide \U0001F600", "wide \U0001f600", ()),
        (r"end\Z", "end", ()),  # Python's \Z is RE2's \z
        (r"a\/b", "a/b", ()),
        (r"x{,2}y", "xxy", ()),  # Python's {,n}
        (r"x{,}y", "xxxy", ()),  # and {,}
        (r"[\b]", "\b", ()),  # a backspace inside a class
        (r"nul \0 (.+?)", "nul \0 q", ("q",)),
        (r"ctl \cA", "ctl \x01", ()),
        (r"(\S+?) (\d+)", "naïve \u0663\u0664", ("naïve", "\u0663\u0664")),  # Python's Unicode
        (r"a\sb", "a\u2003b", ()),  # an em space is \s in Python (and JavaScript)
        (r"(\w+)", "größe_1", ("größe_1",)),
    ],
)
def test_python_and_javascript_spellings_run_on_re2(pattern, message, groups):
    found = compile_pattern(pattern).fullmatch(message)
    assert found is not None and found.groups() == groups


def test_python_and_javascript_spellings_keep_their_meaning_as_python_reads_them():
    assert not compile_pattern(r"a\sb").fullmatch("a\u200bb")  # zero-width space: not \s
    assert not compile_pattern(r"x{,2}y").fullmatch("xxxy")
    assert not compile_pattern(r"end\Z").fullmatch("end\n")
    assert compile_pattern(r"(\S+)").fullmatch("a\xa0b") is None  # no-break space is \s


@pytest.mark.parametrize(
    ("pattern", "says"),
    [
        ("look (?=ahead)", "lookaround at 5 ((?=…) cannot run in linear time"),
        ("(?<!x)y", "lookaround at 0 ((?<!…)"),
        (r"(a)\1", r"backreference at 3 (\1) cannot run in linear time"),
        ("(?P<n>a)(?P=n)", "backreference at 8"),
        ("(?>a)", "atomic group at 0"),
        ("(?U)a+", "inline flag U at 0"),
        (r"\xZZ", "pattern not valid for RE2: invalid escape sequence"),
        (r"\u12", r"bad escape at 0: \u needs 4 hex digits"),
        (r"\N{NO SUCH THING}", "no character named 'NO SUCH THING'"),
        ("a{1001}", "pattern not valid for RE2: invalid repetition size"),
        ("(a", "pattern not valid for RE2: missing )"),
        ("trailing\\", "lone backslash"),
        (r"\C", r"escape \C at 0"),
    ],
)
def test_patterns_re2_cannot_run_are_refused_in_one_line(pattern, says):
    with pytest.raises(PatternError) as refused:
        compile_pattern(pattern)
    assert says in str(refused.value) and "\n" not in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_an_exponential_python_pattern_is_one_linear_re2_run():
    """``((a+)+)b`` backtracks exponentially in Python's engine; RE2's answer is the same."""
    compiled = compile_pattern("hello ((a+)+)b")
    assert compiled.fullmatch("hello " + "a" * 100_000 + "c") is None
    assert compiled.fullmatch("hello aab").groups() == ("aa", "aa")


def test_surrogates_are_read_as_utf16_reads_them():
    """A lone surrogate has no UTF-8: texts and patterns alike read it as U+FFFD (and a
    pair as the character it encodes), so a pasted one never fails a lookup."""
    assert utf8("a\udc80b") == "a\ufffdb".encode()
    assert utf8("\ud83d\ude00") == "\U0001f600".encode()
    compiled = compile_pattern(r"bad (.+?) byte")
    assert compiled.fullmatch("bad \udc80 byte").groups() == ("\ufffd",)
    assert compile_pattern(r"lone \udc80 (\d+)").fullmatch("lone \udc80 7").groups() == ("7",)
    assert verify(r"got (-?\d+) in (.+?)", "got 3 in \udc80") == ("3", "\ufffd")


def test_imported_escapes_the_prefilter_cannot_read_make_a_pattern_opaque():
    """``\\x{…}`` or a bad ``\\x`` used to crash reading the pattern's literal text."""
    assert shape_of(r"a\x{41}(.+?)").opaque
    assert shape_of(r"a\xZ(.+?)").opaque
    assert shape_of(r"a\x41(.+?)").fragments == ("aA", "")


_SHAPE_PIECES = ["ab", " ", ":", "é", "_", "\n", "-", "(.+?)", r"(-?\d+)", r"\n", r"\t", r"\.",
                 r"\(", r"\\", r"\x41", r"\d", "(?:a|b)", "(?:(a)|[)(])", "((x)(?:y))", "[^)]",
                 r"(a[\]])", "(", ")", "?", "*", "[", "]", "{2}", "|", "^", "$", "."]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_SHAPE_PIECES), max_size=10))
def test_a_pattern_is_read_to_the_shape_the_character_loop_reads(pieces):
    # Typed holes, optional groups and escaped line breaks are read token by token; any
    # pattern reads to what the character-by-character reader makes of it.
    from errdex.templates.analysis import _read_shape

    pattern = "".join(pieces)
    assert shape_of(pattern) == _read_shape(pattern)


def test_typed_and_optional_groups_are_read_token_by_token():
    from errdex.templates.analysis import _SIMPLE

    pattern = (r"ratio ((?:-?\d+\.\d{2}|[-+]?(?:inf|Infinity)|nan)) of (.+?)\nat (-?\d+)"
               r"(?:: (.+?))?")
    assert _SIMPLE.fullmatch(pattern)
    shape = shape_of(pattern)
    assert shape.fragments == ("ratio ", " of ", "\nat ", "", "")
    assert (shape.groups, shape.opaque, shape.plain) == (4, False, False)
    assert not _SIMPLE.fullmatch(r"a (x)* b") and shape_of(r"a (x)* b").opaque


_CLASS_PIECES = [r"\d", r"\D", r"\s", r"\S", r"\w", r"\W", r"[\d,]", r"[^\d]", r"[\s.]",
                 r"[^\s]", r"[\w-]", r"[^\w]", r"[\D]", "(", ")", "(?:", "+", "*", "?", "|",
                 "a", "A", "_", "0", " ", "-", ".", r"\.", "{2}", r"(-?\d+)", "(.+?)"]
_ASCII_TEXT = st.text(st.sampled_from([chr(c) for c in range(128)]), max_size=12)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_CLASS_PIECES), min_size=1, max_size=8), _ASCII_TEXT)
def test_the_ascii_spelling_matches_an_ascii_text_as_the_unicode_one_does(pieces, message):
    # A text of ASCII is matched on the pattern spelled with ASCII classes (cheaper to
    # compile); every pattern must find there what its Unicode spelling finds.
    pattern = "".join(pieces)
    try:
        unicode = compile_pattern(pattern)
    except PatternError:
        return
    ascii_only = compile_pattern(pattern, ascii_only=True)
    assert unicode.fullmatch(message) == ascii_only.fullmatch(message)


def test_a_typed_hole_is_spelled_with_ascii_digits_for_an_ascii_text():
    from errdex.templates.template import to_re2

    pattern = r"offset (-?\d+) [\s\w]"
    assert to_re2(pattern) == r"offset (-?\p{Nd}+) [\t-\r\x1c-\x1f\x85\p{Z}\p{L}\p{N}_]"
    assert to_re2(pattern, ascii_only=True) == r"offset (-?[0-9]+) [\t-\r\x1c-\x1f 0-9A-Za-z_]"
    assert verify(r"at (\d+|none)", "at 12") == ("12",)  # on RE2, spelled for ASCII
    assert verify(r"at (\d+|none)", "at \u0661\u0662") == ("\u0661\u0662",)  # Arabic-Indic digits


def test_patterns_compile_without_re2s_option_readback_and_keep_its_errors():
    # The pinned google-re2's regex class is made directly (``re2.compile`` reads every
    # option back per call); a pattern RE2 refuses is still one PatternError line.
    from errdex.templates import template

    assert template._REGEX is not None
    compiled = compile_pattern(r"(\d+) of (.+?)")
    assert compiled.fullmatch("3 of them").groups() == ("3", "them")
    assert compile_pattern(r"(\d+) of (.+?)", ascii_only=True).fullmatch("3 of x").groups() == (
        "3", "x")
    with pytest.raises(PatternError, match="not valid for RE2"):
        compile_pattern("a{2,1}")

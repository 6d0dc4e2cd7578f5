"""Integer holes matched without compiling the pattern: the same answers as RE2's."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.templates.matching import _head, verify
from errdex.templates.template import compile_pattern, escape
from errdex.templates.typed import typed_shape

LAZY, INTEGER = "(.+?)", r"(-?\d+)"


def compiled(pattern: str, message: str) -> tuple[str | None, ...] | None:
    found = compile_pattern(pattern).fullmatch(message)
    return None if found is None else found.groups()


def read(pattern: str, message: str) -> tuple[str | None, ...] | None:
    """RE2's answer with the first reading ``verify`` adds by design (templates/matching.py):
    a template's trailing blanks, the line read or written trimmed."""
    found = compiled(pattern, message)
    if found is None and pattern.endswith(" ") and not message.endswith(" ") and pattern.strip():
        found = compiled(pattern, message + " " * (len(pattern) - len(pattern.rstrip(" "))))
    return found


def typed(pattern: str, message: str) -> tuple[str, ...] | None:
    shape = typed_shape(pattern)
    assert shape is not None
    sure, found = shape.match(message)
    assert sure
    return found


def test_an_integer_hole_takes_its_digits_greedily_as_re2_does():
    pattern = "n=" + INTEGER + "1" + LAZY
    assert typed(pattern, "n=21151z") == compiled(pattern, "n=21151z") == ("2115", "z")
    pattern = "slot " + escape("(") + INTEGER + escape(")") + " of " + LAZY
    assert typed(pattern, "slot (-12) of the pool") == ("-12", "the pool")
    assert typed(pattern, "slot (x12) of the pool") is None


def test_a_lazy_hole_before_an_integer_one_tries_each_place_in_turn():
    pattern = "x " + LAZY + " " + INTEGER + " y"
    assert typed(pattern, "x a 1 2 y") == compiled(pattern, "x a 1 2 y") == ("a 1", "2")


def test_only_literal_text_and_lazy_or_integer_holes_are_typed():
    assert typed_shape("plain (.+?) only") is None  # no integer hole: the plain matcher's
    assert typed_shape(r"amount (-?\d+) has (too many|too few) decimals") is None
    assert typed_shape(r"at offset 0x(-?[0-9a-f]+)") is None
    assert typed_shape(r"line (-?\d+)\nsee (.+?)") is not None


def test_the_search_gives_way_to_the_compiled_pattern_past_its_budget():
    pattern = LAZY * 3 + INTEGER + " qqzz"
    shape = typed_shape(pattern)
    assert shape is not None
    assert shape.match("1" * 400 + "x qqzz") == (False, None)
    assert shape.match("naïve 12 qqzz") == (False, None)  # not ASCII: \d reads otherwise
    assert shape.match("1" * 2_001 + " qqzz") == (False, None)  # long: RE2 is linear
    adjacent = INTEGER * 3 + "9 end"  # many ways to cut one run of digits
    digits = typed_shape(adjacent)
    assert digits is not None
    message = "1" * 1_990 + "9 end"
    sure, found = digits.match(message)
    assert not sure or found == compiled(adjacent, message)
    assert verify(adjacent, message) == compiled(adjacent, message)
    assert verify(pattern, "1" * 400 + "x qqzz") is None
    assert verify(pattern, "ab7 qqzz") == compiled(pattern, "ab7 qqzz")


ALPHABET = "ab1-2 :x\n"
# each piece: a hole, or literal text (as written, escaped into the pattern)
pieces = st.lists(st.one_of(st.sampled_from([LAZY, INTEGER]).map(lambda h: (h, "")),
                            st.text(ALPHABET, min_size=1, max_size=3).map(lambda t: ("", t))),
                  min_size=1, max_size=6)


def written(parts: list[tuple[str, str]]) -> str:
    return "".join(hole or escape(text) for hole, text in parts)


@settings(max_examples=400, deadline=None)
@given(pieces, st.text(ALPHABET, max_size=14))
def test_typed_matching_gives_re2s_values(parts, message):
    pattern = written(parts)
    shape = typed_shape(pattern)
    if shape is None:
        return
    sure, found = shape.match(message)
    if sure:
        assert found == compiled(pattern, message)
    got, expected = verify(pattern, message), read(pattern, message)
    if got is not None and expected is None and (end := _head(pattern)) is not None:
        # verify's second reading: a final hole that printed nothing, the message then the
        # pattern before it (its blanks trimmed)
        assert got[-1] == "" and got[:-1] == compiled(end[0], message.rstrip())
    else:
        assert got == expected


def test_a_trailing_blank_and_an_empty_final_hole_are_read_as_verify_documents():
    assert compiled(INTEGER + " ", "1") is None
    assert verify(INTEGER + " ", "1") == read(INTEGER + " ", "1") == ("1",)
    pattern = "bad value " + INTEGER + " for " + LAZY
    assert compiled(pattern, "bad value 7 for") is None
    assert verify(pattern, "bad value 7 for") == ("7", "")


@settings(max_examples=200, deadline=None)
@given(pieces, st.data())
def test_a_message_printed_from_a_typed_pattern_matches_it(parts, data):
    pattern = written(parts)
    if typed_shape(pattern) is None:
        return
    message = "".join(
        data.draw(st.from_regex(r"-?[0-9]{1,3}", fullmatch=True)) if hole == INTEGER
        else data.draw(st.text("ab1 :", min_size=1, max_size=4)) if hole == LAZY
        else text for hole, text in parts)
    assert typed(pattern, message) == compiled(pattern, message)
    assert typed(pattern, message) is not None

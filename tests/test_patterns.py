"""Reading patterns back: fragments, prefilter words, and the regex-free matcher."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.lookup.index import verify
from errdex.lookup.patterns import prefilter_words, shape_of
from errdex.template import Hole, Literal, Template, compile_pattern


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
    got = verify(pattern, message)
    assert (got is None) == (expected is None), (pattern, message)
    if expected:
        assert got == expected.groups()


def test_typed_patterns_still_use_the_regex():
    assert verify(r"need (-?\d+) more", "need 3 more") == ("3",)
    assert verify(r"need (-?\d+) more", "need x more") is None
    assert verify(r"m(?:: (.+?))?", "m") == (None,)
    assert re.fullmatch(r"m(?:: (.+?))?", "m: e")
    assert verify(r"m(?:: (.+?))?", "m: e") == ("e",)

"""For every template of every fixture: rendered messages fullmatch, altered ones do not.

Values are drawn from each hole's own regex (so ``%d`` gets integers), or any
non-empty text for untyped holes. Deleting one character of the template's
literal text — a character no value contains — must break the match, since the
message then holds fewer of that character than the literals require.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.templates.template import Hole, Literal, Template, compile_pattern, merge_literals
from tests.golden import FIXTURES, fixture_files, sites_of

TEMPLATES: list[tuple[str, Template]] = [
    (f"{path.relative_to(FIXTURES)}:{site.line}", site.template)
    for path in fixture_files()
    for site in sites_of(path)
]

_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12
)


def _value(hole: Hole) -> st.SearchStrategy[str]:
    if hole.regex == ".+?":
        return _TEXT
    return st.from_regex(hole.regex, fullmatch=True)


def _draw_values(
    template: Template, data: st.DataObject, value: Callable[[Hole], st.SearchStrategy[str]]
) -> list[str | None]:
    """A value for each hole; an optional hole (``{:?}`` after a lead) is sometimes left out."""
    return [
        None if hole.optional_lead is not None and data.draw(st.booleans())
        else data.draw(value(hole))
        for hole in template.holes
    ]


@pytest.mark.parametrize(("where", "template"), TEMPLATES, ids=[w for w, _ in TEMPLATES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_rendered_messages_fullmatch(where, template, data):
    message = template.render(_draw_values(template, data, _value))
    assert compile_pattern(template.pattern()).fullmatch(message), (where, message)


@pytest.mark.parametrize(("where", "template"), TEMPLATES, ids=[w for w, _ in TEMPLATES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_deleting_literal_text_breaks_the_match(where, template, data):
    holes = template.holes
    values: list[str | None] = [
        None if hole.optional_lead is not None else data.draw(_value(hole)) for hole in holes
    ]
    used = "".join(v for v in values if v)
    literal_positions = []
    offset = 0
    filled = iter(values)
    for part in template.parts:
        if isinstance(part, Literal):
            literal_positions += [
                offset + i for i, ch in enumerate(part.text) if ch not in used
            ]
            offset += len(part.text)
        else:
            value = next(filled)
            offset += len(value or "") + (
                len(part.optional_lead) if part.optional_lead and value else 0
            )
    if not literal_positions:
        return
    message = template.render(values)
    cut = data.draw(st.sampled_from(literal_positions))
    altered = message[:cut] + message[cut + 1 :]
    assert not compile_pattern(template.pattern()).fullmatch(altered), (where, altered)


_QUANTIFIED_GROUP_WITH_QUANTIFIER = re.compile(r"\((?:[^()\\]|\\.)*[+*](?:[^()\\]|\\.)*\)[+*{]")


@pytest.mark.parametrize(("where", "template"), TEMPLATES, ids=[w for w, _ in TEMPLATES])
def test_no_nested_unbounded_quantifiers(where, template):
    """No group with an unbounded quantifier inside is itself repeated: no catastrophic
    backtracking (optional groups ``(…)?`` are bounded)."""
    pattern = template.pattern()
    assert not _QUANTIFIED_GROUP_WITH_QUANTIFIER.search(pattern), (where, pattern)


# --- every pattern errdex writes runs on RE2, capturing what Python's re captures ---------

_KINDS = ["any", "int", "uint", "hex", "HEX", "octal", "binary", "float", "word"]
# Literal text: regex syntax, controls, spaces of every kind, digits, astral and lone
# surrogates (a source string can hold one).
_LITERAL_CHARS = st.one_of(
    st.sampled_from([
        *"ab :.-x0f9_\n\t\r{}()[]\\/*+?|^$%#'\"",
        "é", "\u2003", "\x85", "\x0b", "\x1c", "\xa0", "\U0001f600", "\u0663", "\x00",
        "\x1b", "\u202e",
    ]),
    st.characters(codec="utf-8"),
)
_TEXT_LITERALS = st.one_of(
    st.text(_LITERAL_CHARS, min_size=1, max_size=8),
    st.builds(lambda ch, n: ch * n, _LITERAL_CHARS, st.integers(20, 400)),  # repeated chars
)
_LITERALS = _TEXT_LITERALS | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
_TYPED_HOLES = st.builds(
    lambda kind, precision, pad, prefix: Hole.of(None, "{}", kind, precision=precision,
                                                 pad=pad, prefix=prefix),
    st.sampled_from(_KINDS), st.none() | st.integers(0, 3), st.booleans(),
    st.sampled_from(["", "0x"]),
)
_HOLES = st.one_of(
    _TYPED_HOLES,
    st.builds(lambda hole, lead: replace(hole, optional_lead=lead), _TYPED_HOLES,
              st.sampled_from([": ", " (", "x", "\n"])),
)


def _templates(literals: st.SearchStrategy[str]) -> st.SearchStrategy[Template]:
    return st.lists(st.one_of(literals, _HOLES), min_size=1, max_size=7).map(
        lambda parts: Template("t", merge_literals(
            [Literal(p) if isinstance(p, str) else p for p in parts]
        ))
    )


GENERATED_TEMPLATES = _templates(_LITERALS)
# Surrogates are read the way UTF-16 reads them (tested in test_patterns), not as re does.
TEXT_TEMPLATES = _templates(_TEXT_LITERALS)


@settings(max_examples=300, deadline=None)
@given(template=GENERATED_TEMPLATES)
def test_every_generated_pattern_runs_on_re2(template: Template) -> None:
    """Adjacent holes of every kind, optional leads, long and odd literals: RE2 takes all."""
    pattern = template.pattern()
    compiled = compile_pattern(pattern)
    assert compiled.groups == len(template.holes)
    pattern.encode("utf-8")  # storable: no raw lone surrogate


def test_a_very_long_literal_template_runs_on_re2() -> None:
    template = Template("t", (Literal("x" * 900_000), Hole.of(None, "{}", "int")))
    assert compile_pattern(template.pattern()).fullmatch("x" * 900_000 + "42")


# Python's re is the reference the RE2 translation must agree with; texts hold no
# surrogates (read as UTF-16 reads them, tested in test_patterns).
_MESSAGE_CHARS = st.sampled_from(
    [*"ab :.-x0f9_\n\t{}()1234567890abcdefABCDEF+-eEinfaN",
     "é", "\u2003", "\x85", "\x0b", "\x1c", "\xa0", "\U0001f600", "\u0663", "\x00"]
)


def _python_re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.DOTALL)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(template=TEXT_TEMPLATES, data=st.data())
def test_re2_captures_what_python_re_captures(template: Template, data: st.DataObject) -> None:
    """Lazy holes, leftmost-first: the same match and the same groups in both engines, on
    rendered messages and on arbitrary near misses."""
    def near(hole: Hole) -> st.SearchStrategy[str]:
        return st.text(_MESSAGE_CHARS, min_size=1, max_size=6) | st.from_regex(
            hole.regex, fullmatch=True, alphabet=_MESSAGE_CHARS)

    rendered = template.render(_draw_values(template, data, near))
    cut = data.draw(st.integers(0, len(rendered)))
    noise = data.draw(st.text(_MESSAGE_CHARS, max_size=3))
    pattern = template.pattern()
    for message in (rendered, rendered[:cut] + noise + rendered[cut:]):
        expected = _python_re(pattern).fullmatch(message)
        got = compile_pattern(pattern).fullmatch(message)
        assert (got is None) == (expected is None), (pattern, message)
        if expected is not None and got is not None:
            assert got.groups() == expected.groups(), (pattern, message)

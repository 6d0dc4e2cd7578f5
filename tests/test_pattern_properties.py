"""For every template of every fixture: rendered messages fullmatch, altered ones do not.

Values are drawn from each hole's own regex (so ``%d`` gets integers), or any
non-empty text for untyped holes. Deleting one character of the template's
literal text — a character no value contains — must break the match, since the
message then holds fewer of that character than the literals require.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.template import Hole, Literal, Template, compile_pattern
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


@pytest.mark.parametrize(("where", "template"), TEMPLATES, ids=[w for w, _ in TEMPLATES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_rendered_messages_fullmatch(where, template, data):
    holes = template.holes
    values: list[str | None] = []
    for hole in holes:
        if hole.optional_lead is not None and data.draw(st.booleans()):
            values.append(None)
        else:
            values.append(data.draw(_value(hole)))
    message = template.render(values)
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

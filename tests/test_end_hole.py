"""A template's final hole may print nothing: the message then ends where its text ends.

``panic!("… in use by both '{}' and '{}'{}", a, b, note)`` with an empty ``note`` prints
a line that ends at the last quote; a pasted line also loses the blank a template writes
before an empty value (``Failed to load config: {}``). Both still match the template whole.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import errdex
from errdex.templates.matching import verify
from errdex.templates.template import Hole, Literal, Template
from tests.conftest import GitRepo
from tests.golden import FIXTURES, fixture_files, sites_of

SHORT = ("Command (.+?): Short option names must be unique for each argument, but '-(.+?)' is "
         "in use by both '(.+?)' and '(.+?)'(.+?)")
PRINTED = ("Command compare: Short option names must be unique for each argument, but '-g' is "
           "in use by both 'gnuplot' and 'significant_only'")


def test_an_empty_final_value_matches_and_is_empty() -> None:
    assert verify(SHORT, PRINTED) == ("compare", "g", "gnuplot", "significant_only", "")
    # a value there is still that hole's value
    assert verify(SHORT, PRINTED + " (hint)") == (
        "compare", "g", "gnuplot", "significant_only", " (hint)")


def test_the_blank_before_an_empty_final_value_is_optional() -> None:
    pattern = "Failed to load the shop config at (.+?): (.+?)"
    assert verify(pattern, "Failed to load the shop config at /etc/shop:") == ("/etc/shop", "")
    assert verify(pattern, "Failed to load the shop config at /etc/shop: ") == ("/etc/shop", "")
    assert verify("Could not open the cart\\n(.+?)", "Could not open the cart") == ("",)


def test_only_the_final_hole_may_be_empty() -> None:
    assert verify(SHORT, PRINTED.replace("'-g'", "'-'")) is None
    assert verify("Cart (.+?) is (.+?)", "Cart  is") is None
    # the text before the hole must still be all there
    assert verify(SHORT, PRINTED[:-1]) is None
    assert verify(SHORT, PRINTED.replace("Short", "Long")) is None


def test_a_template_saying_too_little_of_its_own_needs_its_value() -> None:
    assert verify("Error: (.+?)", "Error:") is None
    assert verify("(.+?): (.+?)", "cart:") is None


def test_an_escaped_paren_or_backslash_is_text_not_a_hole_or_blank() -> None:
    assert verify("Bad cart total \\((.+?)", "Bad cart total (") == ("",)  # "(" is text
    assert verify("Bad cart path C:\\\\n(.+?)", "Bad cart path C:\\n") == ("",)
    assert verify("Bad cart path C:\\\\n(.+?)", "Bad cart path C:") is None


def test_typed_holes_before_the_final_one_run_on_re2() -> None:
    pattern = "Retry (\\d+) of the cart sync failed(?:: (.+?))? after (\\d+)ms(.+?)"
    assert verify(pattern, "Retry 3 of the cart sync failed after 40ms") == ("3", None, "40", "")


def test_a_long_hostile_message_is_answered() -> None:
    # many partial heads: placing fragments and RE2 stay linear, whatever the message
    message = "Command x: Short option names " * 20_000
    assert verify(SHORT, message) is None
    assert verify("Retry (\\d+) of (.+?) failed (.+?)", "Retry 1 of " * 20_000) is None


# --- every fixture template whose last part is a plain hole -------------------------------

ENDING: list[tuple[str, Template]] = [
    (f"{path.relative_to(FIXTURES)}:{site.line}", site.template)
    for path in fixture_files()
    for site in sites_of(path)
    if site.template.parts and isinstance(site.template.parts[-1], Hole)
    and site.template.parts[-1].regex == ".+?" and site.template.parts[-1].optional_lead is None
]
_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Z")),
                min_size=1, max_size=12)


def _says_enough(template: Template) -> bool:
    literal = " ".join(p.text for p in template.parts[:-1] if isinstance(p, Literal))
    return sum(1 for word in literal.replace("_", " ").split() if any(c.isalnum() for c in word)
               ) >= 2


def test_the_fixtures_have_templates_ending_in_a_hole() -> None:
    assert len(ENDING) >= 20


@pytest.mark.parametrize(("where", "template"), ENDING, ids=[w for w, _ in ENDING])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_template_ending_in_a_hole_matches_it_printed_empty(where, template, data):
    values: list[str | None] = []
    for hole in template.holes[:-1]:
        optional = hole.optional_lead is not None and data.draw(st.booleans())
        values.append(None if optional else data.draw(
            _TEXT if hole.regex == ".+?" else st.from_regex(hole.regex, fullmatch=True)))
    pattern = template.pattern()
    filled = template.render([*values, data.draw(_TEXT)])
    assert verify(pattern, filled) is not None, (where, filled)  # unchanged with a value
    empty = template.render([*values, ""]).rstrip()
    if _says_enough(template) and empty.strip():
        found = verify(pattern, empty)
        assert found is not None and found[-1] == "", (where, empty)


# --- the lookup: the site whose text it is, not a neighbour the frame names -------------

ASSERTS = '''pub struct Command { name: String }

fn assert_unique(cmd: &Command, long: &str, short: char, first: &str, second: &str) {
    if !long.is_empty() {
        panic!(
            "Command {}: Long LONG",
            cmd.name, long, first, second, duplicate_tip(first, second)
        );
    }
    let tip = duplicate_tip(first, second);
    let unused = 0;
    let _ = unused;
    panic!(
        "Command {}: Short SHORT",
        cmd.name, short, first, second, tip
    );
}

fn duplicate_tip(first: &str, second: &str) -> String {
    if first == second { String::from(" (the same argument twice)") } else { String::new() }
}
'''.replace("LONG", "option names must be unique for each argument, but '--{}' is in use by both "
            "'{}' and '{}'{}").replace("SHORT", "option names must be unique for each argument, "
                                       "but '-{}' is in use by both '{}' and '{}'{}")


@pytest.mark.parametrize("message", [
    # printed with an empty last value: its blank before it is gone too
    "Command compare: Short option names must be unique for each argument, but '-g' "
    "is in use by both 'gnuplot' and 'significant_only'\n",
    # wrapped where the template has one space
    "Command compare: Short option names must be unique for each argument,\n"
    "                 but '-g' is in use by both 'gnuplot' and 'significant_only'\n",
], ids=["empty-last-value", "wrapped"])
def test_a_panic_with_an_empty_last_value_finds_its_own_site(
    make_repo: Callable[..., GitRepo], tmp_path: Path, message: str
) -> None:
    repo = make_repo()
    repo.commit_files({"src/asserts.rs": ASSERTS})
    db = str(tmp_path / "asserts.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/flags", jobs=1)
    found = errdex.explain("thread 'main' panicked at src/asserts.rs:6:9:\n" + message, db=db)
    assert (found[0].record.line_number, found[0].approximate) == (13, False)

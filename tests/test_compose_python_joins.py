"""A Python message joined from a list the function builds (``" ".join(parts)``): one
record per way the list can end up, each pattern checked against what the interpreter
prints for the fixture's raises."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import (
    fullmatches,
    line_with,
    messages,
    mine_fixture,
    python_prints,
    records_at,
)

FILES = {
    "kit/__init__.py": "",
    "kit/parse.py": (
        "class SyntaxProblem(Exception):\n"
        "    pass\n\n\n"
        "class Reader:\n"
        "    def __init__(self, open_blocks):\n"
        "        self.open_blocks = open_blocks\n\n"
        "    def fail(self, msg, line=None, exc=SyntaxProblem):\n"
        "        raise exc(msg)\n\n"
        "    def unknown(self, word, wanted, nested):\n"
        "        if word is None:\n"
        "            parts = ['Input ended too soon.']\n"
        "        else:\n"
        "            parts = [f'Met the unknown word {word!r}.']\n"
        "        if wanted:\n"
        "            if nested:\n"
        "                parts.append(f'A block is still open; expected {wanted}.')\n"
        "            else:\n"
        "                parts.append(f'The reader wanted one of: {wanted}.')\n"
        "        if self.open_blocks:\n"
        "            parts.append(f'Close the block {self.open_blocks[-1]!r} first.')\n"
        "        self.fail(' '.join(parts), 3)  # helper\n\n\n"
        "def check(lines):\n"
        "    notes = []\n"
        "    notes.append('the header is missing')\n"
        "    if len(lines) > 3:\n"
        "        notes.append(f'{len(lines)} lines is too many')\n"
        "    raise ValueError('; '.join(notes))  # direct\n\n\n"
        "def listed(items):\n"
        "    found = ['bad items:']\n"
        "    for item in items:\n"
        "        found.append(str(item))\n"
        "    raise ValueError(' '.join(found))  # loop\n"),
}

# (call, marker, what the interpreter prints)
CASES = [
    ("Reader(['for']).unknown('end', \"'endfor' or 'else'\", False)", "# helper",
     "Met the unknown word 'end'. The reader wanted one of: 'endfor' or 'else'. "
     "Close the block 'for' first."),
    ("Reader([]).unknown(None, 'x', True)", "# helper",
     "Input ended too soon. A block is still open; expected x."),
    ("Reader(['if']).unknown('x', '', False)", "# helper",
     "Met the unknown word 'x'. Close the block 'if' first."),
    ("Reader([]).unknown(None, '', False)", "# helper", "Input ended too soon."),
    ("check([1, 2, 3, 4])", "# direct", "the header is missing; 4 lines is too many"),
    ("check([])", "# direct", "the header is missing"),
]


@pytest.fixture(scope="module")
def joins(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "joins", "joins", FILES)


def _printed(root: Path, call: str) -> str:
    printed = python_prints(root, "from kit.parse import *\n"
                            f"try:\n    {call}\nexcept Exception as e:\n    print(repr(str(e)))\n")
    return str(ast.literal_eval(printed))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_each_way_the_list_is_built_is_a_record_that_matches_the_printed_message(
    joins: tuple[Path, list[errdex.StoredRecord]], case: tuple[str, str, str],
) -> None:
    root, records = joins
    call, marker, expected = case
    printed = _printed(root, call)
    assert printed == expected
    found = records_at(records, "kit/parse.py", line_with(FILES["kit/parse.py"], marker))
    assert any(fullmatches(r, printed) for r in found), messages(found)


def test_the_fullest_text_is_read_and_alternatives_are_capped(
    joins: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = joins
    at_helper = records_at(records, "kit/parse.py",
                           line_with(FILES["kit/parse.py"], "# helper"))
    # two first sentences x (two wanted forms or none) x (the close note or not)
    assert len(set(messages(at_helper))) == 12
    assert ("Met the unknown word {word!r}. The reader wanted one of: {wanted}. "
            "Close the block {self.open_blocks[-1]!r} first.") in messages(at_helper)


def test_a_list_appended_in_a_loop_is_not_read_as_a_known_text(
    joins: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = joins
    looped = records_at(records, "kit/parse.py", line_with(FILES["kit/parse.py"], "# loop"))
    assert all("bad items" not in m for m in messages(looped))

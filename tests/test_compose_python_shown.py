"""What a command-line framework shows for an error (``format_message()``, as click's
``Error: …`` line) is a message of the class beside ``str()``: its local variables set in
branches spelled out, each pattern checked against what the interpreter prints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_with, messages, mine_fixture, python_prints, records_at

ERRORS = (
    "class UsageProblem(Exception):\n"
    "    def __init__(self, message=None, kind=None, hint=None):\n"
    "        super().__init__(message or '')\n"
    "        self.message = message\n"
    "        self.kind = kind\n"
    "        self.hint = hint\n\n"
    "    def format_message(self):\n"
    "        hint = self.hint\n"
    "        hint = f' {hint}' if hint else ''\n"
    "        msg = self.message\n"
    "        msg = f' {msg}' if msg else ''\n"
    "        if self.kind == 'argument':\n"
    "            missing = 'Missing argument'\n"
    "        elif self.kind == 'option':\n"
    "            missing = 'Missing option'\n"
    "        else:\n"
    "            missing = 'Missing {kind}'.format(kind=self.kind)\n"
    "        return f'{missing}{hint}.{msg}'\n\n"
    "    def __str__(self):\n"
    "        if not self.message:\n"
    "            return f'Missing value: {self.kind}'\n"
    "        return self.message\n\n"
    "    def show(self):\n"
    "        print('Error: ' + self.format_message())\n\n\n"
    "def parse(kind, hint):\n"
    "    raise UsageProblem(kind=kind, hint=hint)  # raise\n\n\n"
    "class BadValue(Exception):\n"
    "    def __init__(self, message):\n"
    "        super().__init__(message)\n"
    "        self.message = message\n\n"
    "    def format_message(self):\n"
    "        return f'Invalid value: {self.message}'\n\n\n"
    "def fail(message):\n"
    "    raise BadValue(message)  # passed\n\n\n"
    "def check(value):\n"
    "    fail(f'{value!r} is not a number at all')\n"
)
FILES = {"cli/__init__.py": "", "cli/errors.py": ERRORS}
SHOWN = [
    ("'argument'", "\"'INPUT'\"", "Missing argument 'INPUT'."),
    ("'option'", "\"'--name'\"", "Missing option '--name'."),
    ("'parameter'", "None", "Missing parameter."),
]


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "shown", "shown", FILES)


@pytest.mark.parametrize("case", SHOWN, ids=[c[2] for c in SHOWN])
def test_the_line_a_command_line_shows_matches_a_record_at_the_raise(
    shown: tuple[Path, list[errdex.StoredRecord]], case: tuple[str, str, str],
) -> None:
    root, records = shown
    kind, hint, expected = case
    printed = python_prints(root, "from cli.errors import *\n"
                            f"try:\n    parse({kind}, {hint})\nexcept UsageProblem as e:\n"
                            "    e.show()\n")
    assert printed == f"Error: {expected}"
    found = records_at(records, "cli/errors.py", line_with(ERRORS, "# raise"))
    assert any(re.fullmatch(r.record.message_pattern, expected) for r in found), messages(found)


def test_the_fullest_reading_comes_first_among_the_shown_ones(
    shown: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = shown
    found = messages(records_at(records, "cli/errors.py", line_with(ERRORS, "# raise")))
    assert "Missing argument {hint}. {msg}" in found
    assert len(found) <= 16


def test_a_class_passing_its_message_on_keeps_printing_what_callers_pass(
    shown: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    """``str()`` of ``BadValue(message)`` is the message: the raise in the helper prints each
    caller's text, not only the framework's ``Invalid value: …`` line."""
    _, records = shown
    found = messages(records_at(records, "cli/errors.py", line_with(ERRORS, "# passed")))
    assert "{value!r} is not a number at all" in found

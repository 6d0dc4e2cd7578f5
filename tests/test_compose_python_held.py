"""A Python message built in a variable and handed to an object that raises it later: a
site at the assignment, whose pattern matches what the interpreter prints when the
object raises; a variable raised, logged, changed or given to an error class is not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_with, messages, mine_fixture, python_prints, records_at

MOCKS = (
    "class UserError(Exception):\n"
    "    pass\n\n\n"
    "class Placeholder:\n"
    "    def __init__(self, error_message, *, code):\n"
    "        self._error_message = error_message\n"
    "        self._code = code\n\n"
    "    def __getattr__(self, item):\n"
    "        raise UserError(self._error_message)\n\n\n"
    "def set_mocks(cls, missing):\n"
    "    undefined_message = (\n"
    "        f'`{cls.__name__}` is not fully defined; you should define {missing},'  # held\n"
    "        f' then call `{cls.__name__}.rebuild()`.'\n"
    "    )\n"
    "    cls.validator = Placeholder(undefined_message, code='not-defined')\n"
    "    cls.serializer = Placeholder(error_message=undefined_message, code='not-defined')\n\n\n"
    "def raised(name):\n"
    "    msg = f'no widget called {name} is known here'  # raised\n"
    "    raise UserError(msg)\n\n\n"
    "def changed(name):\n"
    "    msg = f'the widget {name} is broken beyond repair'  # changed\n"
    "    msg = msg.upper()\n"
    "    return Placeholder(msg, code='x')\n\n\n"
    "def made(name):\n"
    "    msg = f'the widget {name} is missing its parts'  # made\n"
    "    return UserError(msg)\n\n\n"
    "def short(name):\n"
    "    msg = f'bad {name}'  # short\n"
    "    return Placeholder(msg, code='x')\n"
)
FILES = {"kit/__init__.py": "", "kit/mocks.py": MOCKS}


@pytest.fixture(scope="module")
def held(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "held", "held", FILES)


def _at(records: list[errdex.StoredRecord], marker: str) -> list[errdex.StoredRecord]:
    # the site is the assignment's first line, the marker on the text's
    return [r for line in (line_with(MOCKS, marker) - 1, line_with(MOCKS, marker))
            for r in records_at(records, "kit/mocks.py", line)]


def test_a_message_handed_to_a_holder_is_a_site_matching_what_the_holder_raises(
    held: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, records = held
    found = _at(records, "# held")
    assert messages(found) == ["`{cls.__name__}` is not fully defined; you should define "
                               "{missing}, then call `{cls.__name__}.rebuild()`."]
    assert found[0].record.error_class is None
    printed = python_prints(root, "from kit.mocks import *\n"
                            "class Model: pass\n"
                            "set_mocks(Model, '`Other`')\n"
                            "try:\n    Model.validator.validate\nexcept UserError as e:\n"
                            "    print(str(e))\n")
    assert printed == ("`Model` is not fully defined; you should define `Other`, then call "
                       "`Model.rebuild()`.")
    assert re.fullmatch(found[0].record.message_pattern, printed, re.DOTALL)


@pytest.mark.parametrize("marker", ["# changed", "# made", "# short"])
def test_a_variable_changed_made_into_an_error_or_too_short_is_no_held_site(
    held: tuple[Path, list[errdex.StoredRecord]], marker: str,
) -> None:
    _, records = held
    assert _at(records, marker) == []


def test_a_variable_raised_in_its_function_keeps_its_site_at_the_raise(
    held: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = held
    assert _at(records, "# raised") == []
    at_raise = records_at(records, "kit/mocks.py", line_with(MOCKS, "# raised") + 1)
    assert messages(at_raise) == ["no widget called {name} is known here"]

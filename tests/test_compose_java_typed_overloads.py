"""Java constructors taking as many parameters, told apart by the declared types of what
a call passes (as the C# ones in ``test_compose_csharp_overloads.py``): ``new
TakenException(newTrigger)`` prints the ``Trigger`` constructor's message, a string
argument the ``String`` one's, a subtype named as its kind (``OperableTrigger``) the
``Trigger`` one's; a ``var`` decides nothing and both messages stay. Where a JDK is
installed the fixture is built and run, and what it throws is matched by the site's
pattern."""

from __future__ import annotations

import pytest

import errdex
from tests.compose_steps import java_prints, line_starting, matched_among, mine_fixture, missing

ERRORS = """\
package shop;

interface JobDetail { String getKey(); }

interface Trigger { String getKey(); }

interface OperableTrigger extends Trigger { }

public class TakenException extends RuntimeException {
    public TakenException(String message) { super(message); }

    public TakenException(JobDetail offendingJob) {
        super("Unable to store Job: '" + offendingJob.getKey() + "', because one exists.");
    }

    public TakenException(Trigger offendingTrigger) {
        super("Unable to store Trigger: '" + offendingTrigger.getKey() + "', it exists.");
    }
}
"""

STORE = """\
package shop;

public class Store {
    public static void main(String[] args) {
        Store store = new Store();
        JobDetail job = () -> "DEFAULT.nightly";
        OperableTrigger trigger = () -> "DEFAULT.nightly";
        try { store.addJob(job); } catch (TakenException e) { System.out.println(e.getMessage()); }
        try { store.addTrigger(trigger); } catch (TakenException e) {
            System.out.println(e.getMessage());
        }
        try { store.addCalendar("holidays"); } catch (TakenException e) {
            System.out.println(e.getMessage());
        }
    }

    public void addJob(JobDetail newJob) {
        throw new TakenException(newJob);
    }

    public void addTrigger(OperableTrigger newTrigger) {
        throw new TakenException(newTrigger);
    }

    public void addCalendar(String name) {
        throw new TakenException("Calendar " + name + " is already stored.");
    }

    public void restore(Object saved) {
        var found = (JobDetail) saved;
        throw new TakenException(found);
    }
}
"""

JOB = "Unable to store Job: 'DEFAULT.nightly', because one exists."
TRIGGER = "Unable to store Trigger: 'DEFAULT.nightly', it exists."
CALENDAR = "Calendar holidays is already stored."
SITES = [
    ("throw new TakenException(newJob);", [JOB]),
    ("throw new TakenException(newTrigger);", [TRIGGER]),
    ('throw new TakenException("Calendar "', [CALENDAR]),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    files = {"src/shop/TakenException.java": ERRORS, "src/shop/Store.java": STORE}
    return mine_fixture(tmp_path_factory, "compose_java_typed", "typed", files)[1]


def _printed(records: list[errdex.StoredRecord], start: str) -> list[str]:
    """The messages among ours the records at the line starting ``start`` fullmatch."""
    line = line_starting(STORE, start, stripped=True)
    found = [r for r in records if r.record.file_path == "src/shop/Store.java"
             and r.record.line_number == line]
    assert found, f"no record at line {line}"
    return matched_among(found, (JOB, TRIGGER, CALENDAR))


@pytest.mark.parametrize(("start", "printed"), SITES, ids=["job", "subtype", "string"])
def test_the_constructor_a_declared_type_reaches_prints_its_own_message(
    records: list[errdex.StoredRecord], start: str, printed: list[str]
) -> None:
    assert _printed(records, start) == printed


def test_a_var_decides_nothing_and_both_messages_stay(
    records: list[errdex.StoredRecord],
) -> None:
    assert _printed(records, "throw new TakenException(found);") == sorted([JOB, TRIGGER])


@pytest.mark.skipif(missing("javac", "java"), reason="no JDK installed")
def test_the_patterns_match_what_the_jvm_throws(
    records: list[errdex.StoredRecord], tmp_path_factory: pytest.TempPathFactory,
) -> None:
    printed = java_prints(tmp_path_factory.mktemp("java_typed_run"),
                          {"TakenException.java": ERRORS, "Store.java": STORE}, "shop.Store")
    assert printed.splitlines() == [JOB, TRIGGER, CALENDAR]
    for start, printed in SITES:
        assert _printed(records, start) == printed

"""``scan --all-levels`` regressions on small mined repositories: a log line must keep
mapping to the statement that wrote it when the miner and the layout reader disagree on
where the message begins."""

from __future__ import annotations

import errdex

MANAGER = """\
import logging

LOG = logging.getLogger(__name__)


def _(text):
    return text


class ComputeManager:
    def terminate_instance(self, context, instance):
        LOG.info(_('Terminating instance'), instance=instance)

    def reboot_instance(self, context, instance):
        LOG.info(_('Rebooting instance'))
"""

UUID = "b9000564-fe1a-409b-b8cc-1e88b294cd1d"
LOG_LINES = (
    "2017-05-16 00:00:00.008 25746 INFO nova.compute.manager "
    f"[req-3ea4052c-895d-4b64-9e2d-04d64c4d94ab - - -] [instance: {UUID}] "
    "Terminating instance\n"
    "2017-05-16 00:00:01.100 25746 INFO nova.compute.manager "
    "[req-3ea4052c-895d-4b64-9e2d-04d64c4d94ab - - -] Rebooting instance\n"
    # the prefix from elsewhere (a context, ``extra=``): the call mined without it
    "2017-05-16 00:00:02.200 25746 INFO nova.compute.manager "
    f"[req-3ea4052c-895d-4b64-9e2d-04d64c4d94ab - - -] [instance: {UUID}] Rebooting instance\n"
)


def test_an_oslo_instance_prefix_read_as_metadata_still_names_the_statement(
        make_repo, tmp_path):
    # The miner gives ``instance=`` calls oslo.log's runtime prefix ('[instance: <uuid>] ');
    # the oslo layout reads that prefix as metadata: the line must still map to its call.
    repo = make_repo()
    repo.write("nova/compute/manager.py", MANAGER)
    repo.commit()
    db = tmp_path / "nova.sqlite"
    errdex.mine(repo.root, db=db)
    log = tmp_path / "nova-compute.log"
    log.write_text(LOG_LINES)
    events = list(errdex.scan(str(log), db=db, all_levels=True, jobs=1))
    mapped = {}
    for event in events:
        found = getattr(event, "statement", None)
        statement = getattr(found, "statement", None)
        mapped[event.line] = None if statement is None else (
            statement.file_path, statement.line_number)
    assert mapped == {1: ("nova/compute/manager.py", 12), 2: ("nova/compute/manager.py", 15),
                      3: ("nova/compute/manager.py", 15)}
    first = next(event for event in events if event.line == 1)
    assert first.layout["instance"] == UUID  # still metadata of the entry
    assert first.layout["name"] == "oslo" and "printed" not in first.layout

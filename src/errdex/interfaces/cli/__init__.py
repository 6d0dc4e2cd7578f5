"""The ``errdex`` command line: a thin layer over the Python API (:mod:`errdex.api`).

``app`` holds the group and what every command shares (one-line errors, exit codes,
progress bars); the commands live by what they do: ``mining`` (mine, mine-many,
enrich), ``lookup`` (explain, scan, search, show), ``datasets`` (import, export) and
``servers`` (serve, mcp).
"""

from __future__ import annotations

from errdex.interfaces.cli import datasets, deps, lookup, mining, packages, servers, sync
from errdex.interfaces.cli.app import main

for _command in (mining.mine, mining.mine_many, deps.mine_deps, packages.mine_env,
                 mining.enrich, lookup.explain,
                 lookup.scan, lookup.search, lookup.show, datasets.import_command, datasets.export,
                 sync.sync_command, servers.serve, servers.mcp_command):
    main.add_command(_command)

__all__ = ["main"]

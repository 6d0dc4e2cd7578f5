"""What ``Store.write`` reads of a mine: the store sits below mining, so it names the
fields it needs here and ``errdex.mining.extract.Extraction`` has them."""

from __future__ import annotations

from typing import Protocol

from errdex.records.log_statements import LogStatement
from errdex.records.model import Record, RecordExtras
from errdex.records.text_sites import TextSite


class MineWrite(Protocol):
    """One repository's mine, ready to write (``Store.write``) in one transaction."""

    @property
    def repo(self) -> str: ...
    @property
    def sha(self) -> str: ...
    @property
    def root(self) -> str: ...
    @property
    def rows(self) -> list[tuple[Record, RecordExtras, str]]:
        """(record, extras, content hash) of every site found in the files read."""
        ...
    @property
    def files(self) -> set[str] | None:
        """The files read again (the rest are restamped); None: the whole tree."""
        ...
    @property
    def miner_version(self) -> str: ...
    @property
    def analyzed_at(self) -> str: ...
    @property
    def texts(self) -> list[TextSite]:
        """The worded literals of the files read that no record holds (lookup only)."""
        ...
    @property
    def logs(self) -> list[LogStatement]:
        """The log calls below warning of the files read (scan only, never records)."""
        ...

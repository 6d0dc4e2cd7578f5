"""The wordings of one site across releases: what a store keeps of a site's lineage, and
what a lookup says when a paste matched an older wording.

Defined below the store so that the store hands them out and lookup names them without
importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Wording:
    """One record's wording: the site it belongs to now (``site_id``, itself while it is the
    newest wording) and the first and last mined releases that printed it."""

    id: str
    site_id: str
    first_seen: str
    last_seen: str


@dataclass(frozen=True)
class WordingVersion:
    """The older wording a paste matched, where it lived, and the releases that had it."""

    template: str
    file_path: str
    line_number: int
    first_seen: str
    last_seen: str
    current_since: str | None = None  # the first release with the site's wording of today

    def to_json(self) -> dict[str, object]:
        """The ``version`` object of ``explain --json``."""
        return {"template": self.template, "filePath": self.file_path,
                "lineNumber": self.line_number, "firstSeen": self.first_seen,
                "lastSeen": self.last_seen}

    def span(self) -> str:
        """``v2.12.0–v2.26.0`` (one name when it lived in one release)."""
        if self.first_seen == self.last_seen:
            return self.first_seen
        return f"{self.first_seen}–{self.last_seen}"

    def sentence(self, current: str, removed: bool = False) -> str:
        """In words: which releases printed this wording, and what the site prints now."""
        said = f"this wording is from {self.span()}"
        if removed:
            return f"{said}; the site was removed later (its last wording: {current!r})"
        if current == self.template:
            return f"{said}; the site has moved since"
        since = f"since {self.current_since}" if self.current_since else "now"
        return f"{said}; {since} it reads {current!r}"


__all__ = ["Wording", "WordingVersion"]

"""The evidence model: facts about one error site, read from the repository, never invented.

Evidence is what enrichment (``errdex.enrich``) may cite. Every field records
where it was read (a line, a test's path and name, a commit), so a generated
sentence can be traced back to source. Stored with the record as the schema-3
``evidence`` field.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

GuardKind = Literal["if", "else", "match-arm", "catch-all", "assert", "unwrap"]
DocKind = Literal["raises", "panics", "errors", "throws", "summary"]
MatchMode = Literal["exact", "substring", "regex", "class"]


class Guard(BaseModel):
    """A condition under which the site fires, as written in source.

    ``condition`` holds when the error is produced; ``negated`` is the condition a
    caller must meet to avoid it, in the same language (None when errdex cannot
    write it, e.g. for an ``unwrap`` on a value whose type it does not know).
    """

    model_config = ConfigDict(extra="forbid")

    kind: GuardKind
    condition: str
    negated: str | None = None
    line: int
    subject: str | None = None  # the matched value of a match arm / switch case
    handled: list[str] = Field(default_factory=list)  # the other arms, for a catch-all


class DocNote(BaseModel):
    """A doc comment's statement about the site: a ``Raises:`` entry, a ``# Panics`` section…"""

    model_config = ConfigDict(extra="forbid")

    kind: DocKind
    text: str
    error_class: str | None = None
    line: int


class TestLink(BaseModel):
    """A test in the repository that triggers the site (its expectation matched the record)."""

    model_config = ConfigDict(extra="forbid")

    path: str
    line: int
    name: str  # ``test_parse_rejects_negative`` or ``Parser > rejects negatives``
    framework: str  # pytest, unittest, should_panic, rust-assert, jest, junit, go
    mode: MatchMode
    expected: str | None = None  # the expected message / regex / substring as written
    error_class: str | None = None
    call: str | None = None  # the statement that triggers it, as written in the test


class Blame(BaseModel):
    """The commit that last touched the site's line (``git blame``), with its subject."""

    model_config = ConfigDict(extra="forbid")

    commit: str
    subject: str
    author_time: int  # seconds since the epoch


class Evidence(BaseModel):
    """Everything errdex read about one site."""

    model_config = ConfigDict(extra="forbid")

    symbol: str | None = None
    signature: str | None = None
    parameters: list[str] = Field(default_factory=list)  # names, without self/this
    declarations: list[str] = Field(default_factory=list)  # each parameter as written
    guards: list[Guard] = Field(default_factory=list)
    docs: list[DocNote] = Field(default_factory=list)
    tests: list[TestLink] = Field(default_factory=list)
    blame: Blame | None = None
    call_hint: str | None = None  # ``obj.method(a, b)``: how a caller invokes the symbol

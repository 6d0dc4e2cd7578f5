"""Answers already paid for: (model, prompt version, evidence hash) → the model's fields.

A small SQLite file beside the database (``errdex.sqlite`` → ``errdex.llm-cache.sqlite``),
or in the user cache directory when the database is not a local file (PostgreSQL).
It is separate from the store so that dropping it only costs requests, and it is
only touched from one thread. A format version guards its layout: an unknown one
is discarded, never misread.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

CACHE_FORMAT_VERSION = 1


def cache_path_for(db_path: str | os.PathLike[str] | None) -> Path:
    """Where the cache of the database at ``db_path`` lives."""
    text = os.fspath(db_path) if db_path is not None else ""
    if text and "://" not in text and text != ":memory:":
        path = Path(text)
        return path.with_name(path.stem + ".llm-cache.sqlite")
    return Path(user_cache_dir("errdex", appauthor=False)) / "llm-cache.sqlite"


class LlmCache:
    """Get and put verified-or-not raw answers; verification runs again on every read."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        row = self.conn.execute("SELECT value FROM meta WHERE key='format_version'").fetchone()
        if row is None or row[0] != str(CACHE_FORMAT_VERSION):
            self.conn.execute("DROP TABLE IF EXISTS answers")
            self.conn.execute(
                "INSERT OR REPLACE INTO meta VALUES ('format_version', ?)",
                (str(CACHE_FORMAT_VERSION),))
        self.conn.execute(
            """CREATE TABLE IF NOT EXISTS answers (
                   model TEXT NOT NULL, prompt_version TEXT NOT NULL,
                   evidence_hash TEXT NOT NULL, answer TEXT NOT NULL,
                   PRIMARY KEY (model, prompt_version, evidence_hash))""")

    def get(self, model: str, prompt_version: str, evidence_hash: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT answer FROM answers WHERE model=? AND prompt_version=? AND evidence_hash=?",
            (model, prompt_version, evidence_hash)).fetchone()
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def put(self, model: str, prompt_version: str, evidence_hash: str,
            answer: dict[str, Any]) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?)",
            (model, prompt_version, evidence_hash,
             json.dumps(answer, ensure_ascii=False, separators=(",", ":"))))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> LlmCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

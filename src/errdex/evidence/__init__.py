"""The evidence stage: facts about each error site that enrichment may cite.

* ``site.file_evidence`` runs in ``mine_file`` (one extra tree-sitter parse per file
  that has sites): enclosing symbol, signature, guards, doc comments;
* ``tests.expectations`` + ``link.link_tests`` run once per repository over its test
  files;
* ``blame.blame_files`` is optional (it walks history).

This package's ``__init__`` imports only the model, so ``record.py`` can use it.
"""

from __future__ import annotations

from errdex.records.evidence import Blame, DocNote, Evidence, Guard, TestLink

__all__ = ["Blame", "DocNote", "Evidence", "Guard", "TestLink"]

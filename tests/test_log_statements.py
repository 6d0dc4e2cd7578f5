"""Every log statement is indexed: warning and above are records, trace … notice a table.

A log call below warning is what ``scan`` needs to name the line that wrote an INFO
entry, but the dataset stays about errors: those statements live in their own table,
replaced per file with each mine, never exported.
"""

from __future__ import annotations

from errdex.records.log_statements import LogStatement
from errdex.store.protocol import Store


def _statement(path: str, line: int, text: str, level: str = "info") -> LogStatement:
    return LogStatement("acme/app", path, line, level, text, text, "App.run",  # type: ignore[arg-type]
                        "java", "App")


def test_store_replaces_log_statements_per_file(backend_store: Store) -> None:
    store = backend_store
    first = [_statement("a.java", 3, "starting"), _statement("b.java", 9, "ready", "debug")]
    store.replace_repo("acme/app", [], analyzed_sha="1" * 40, logs=first)
    assert store.log_statements() == first and store.log_statement_count("acme/app") == 2
    # an incremental mine of b.java only: a.java's statement stays, b.java's is replaced
    store.replace_repo("acme/app", [], analyzed_sha="2" * 40, files={"b.java"},
                       logs=[_statement("b.java", 11, "ready now", "trace")])
    got = store.log_statements("acme/app")
    assert [(s.file_path, s.line_number, s.level, s.template) for s in got] == [
        ("a.java", 3, "info", "starting"), ("b.java", 11, "trace", "ready now")]
    assert store.log_statements("other/repo") == [] and store.count("acme/app") == 0
    # a write without logs (an import) leaves them; a full mine with none clears them
    store.replace_repo("acme/app", [], analyzed_sha="3" * 40)
    assert store.log_statement_count() == 2
    store.replace_repo("acme/app", [], analyzed_sha="4" * 40, logs=[])
    assert store.log_statement_count() == 0

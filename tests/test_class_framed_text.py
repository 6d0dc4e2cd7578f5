"""A class raised in many places, narrowed to the raise in the file a stack frame names,
says where but not what: a template of another class whose text is close to the pasted
message (a wrapper class re-raising text written elsewhere, as gson's JsonSyntaxException
wraps its reader's words) ranks above it when the frame names the file but not the
raising method; the framed raise still ranks above loosely similar text."""

from __future__ import annotations

from pathlib import Path

import pytest

import errdex
from tests.compose_steps import mine_fixture
from tests.test_compose_typescript_wrapped import FILES

SCHEMA = '''\
export class SchemaReader {
    table(name: string): never {
        throw new TypeError(`relation "${name}" does not exist in the loaded schema`)
    }
}
'''

PASTE = '''\
QueryFailedError: relation "public.administrator" does not exist in the schema
    at PostgresQueryRunner.connect (/srv/node_modules/orm/driver/PostgresQueryRunner.js:219:19)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
'''


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root, _ = mine_fixture(tmp_path_factory, "class_framed_text", "framed",
                           {**FILES, "src/schema/SchemaReader.ts": SCHEMA})
    return root.parent / "errdex.sqlite"


def test_close_text_of_another_class_ranks_above_the_framed_raise(db: Path) -> None:
    matches = errdex.explain(PASTE, db=db)
    assert [m.record.file_path for m in matches[:2]] == [
        "src/schema/SchemaReader.ts", "src/driver/postgres/PostgresQueryRunner.ts"]
    assert "similar text" in matches[0].reason
    assert "a frame names its file" in matches[1].reason


def test_the_framed_raise_still_beats_loosely_similar_text(db: Path) -> None:
    loose = PASTE.replace("does not exist in the schema", "was dropped by a concurrent job")
    matches = errdex.explain(loose, db=db)
    assert matches[0].record.file_path == "src/driver/postgres/PostgresQueryRunner.ts"

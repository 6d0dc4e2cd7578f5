"""An error class whose whole message is text it derives from an argument
(``class QueryFailedError … super(driverError.toString().replace(…))``, the database
driver's own words): each raise of it is a record of the class alone (a lone-hole pattern,
never found by text), not the raise's first argument (the SQL it ran). A paste naming the
class, raised in many files, resolves to the raise in the file its stack names. Mined from
a small fixture repository; where ``node`` is installed, the class's message is checked to
be the driver's text, which no pattern of the repository could spell."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing

ERRORS = '''\
export class OrmError extends Error {
    constructor(message?: string) {
        super(message)
        this.name = this.constructor.name
    }
}

export class QueryFailedError extends OrmError {
    constructor(
        readonly query: string,
        readonly parameters: unknown[] | undefined,
        readonly driverError: Error,
    ) {
        super(
            driverError
                .toString()
                .replace(/^error: /, "")
                .replace(/^Error: /, ""),
        )
    }
}
'''

DRIVERS = ("Postgres", "Mysql", "Sqlite", "Oracle", "Spanner", "Cockroach")


def runner(driver: str) -> str:
    return f'''\
import {{ QueryFailedError }} from "../../error/QueryFailedError"

export class {driver}QueryRunner {{
    async query(query: string, parameters: unknown[]): Promise<unknown> {{
        try {{
            return await this.send(query, parameters)
        }} catch (err) {{
            throw new QueryFailedError(query, parameters, err as Error)
        }}
    }}

    async setting(): Promise<void> {{
        try {{
            await this.send("SET statement_timeout = 1000", [])
        }} catch (err) {{
            throw new QueryFailedError("SET statement_timeout = 1000", [], err as Error)
        }}
    }}

    async exec(statement: string): Promise<void> {{
        try {{
            await this.send(statement, [])
        }} catch (err) {{
            throw new QueryFailedError(statement, [], err as Error)
        }}
    }}

    async begin(): Promise<void> {{
        await this.exec("START TRANSACTION")
    }}

    async send(query: string, parameters: unknown[]): Promise<unknown> {{
        return [query, parameters]
    }}
}}
'''


FILES = {"src/error/QueryFailedError.ts": ERRORS,
         **{f"src/driver/{d.lower()}/{d}QueryRunner.ts": runner(d) for d in DRIVERS}}


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "compose_typescript_wrapped", "wrapped", FILES)


def _raises(records: list[errdex.StoredRecord], driver: str) -> list[errdex.StoredRecord]:
    path = f"src/driver/{driver.lower()}/{driver}QueryRunner.ts"
    return sorted((r for r in records if r.record.file_path == path),
                  key=lambda r: r.record.line_number)


def test_each_raise_of_a_class_deriving_its_whole_message_is_a_record_of_the_class(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    found = _raises(mined[1], "Postgres")
    source = runner("Postgres")
    assert [r.record.line_number for r in found] == [
        line_starting(source, "throw new QueryFailedError(query", stripped=True),
        line_starting(source, 'throw new QueryFailedError("SET', stripped=True),
        line_starting(source, "throw new QueryFailedError(statement", stripped=True)]
    assert {r.record.error_class for r in found} == {"QueryFailedError"}
    assert {r.record.message_pattern for r in found} == {"(.+?)"}  # not the SQL it ran
    # (``this.exec("START TRANSACTION")`` calls a method that raises it: no record there)


PASTE = '''\
QueryFailedError: relation "public.administrator" does not exist
    at PostgresQueryRunner.query (/srv/node_modules/orm/driver/PostgresQueryRunner.js:219:19)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
'''


def test_a_paste_naming_the_class_resolves_to_the_raise_in_the_file_its_stack_names(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, _ = mined
    db = root.parent / "errdex.sqlite"
    matches = errdex.explain(PASTE, db=db)
    assert matches
    assert matches[0].record.file_path == "src/driver/postgres/PostgresQueryRunner.ts"
    assert matches[0].record.error_class == "QueryFailedError"
    assert "a frame names its file" in matches[0].reason


def test_without_a_frame_the_class_alone_does_not_say_which(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, _ = mined
    db = root.parent / "errdex.sqlite"
    matches = errdex.explain(PASTE.splitlines()[0], db=db)
    assert not any(m.record.error_class == "QueryFailedError" for m in matches)


def test_the_class_prints_the_drivers_text(tmp_path: Path) -> None:
    if missing("node"):
        pytest.skip("no node installed")
    script = tmp_path / "run.js"
    script.write_text(
        "class OrmError extends Error { constructor(m) { super(m); "
        "this.name = this.constructor.name } }\n"
        "class QueryFailedError extends OrmError { constructor(q, p, e) {\n"
        "  super(e.toString().replace(/^error: /, '').replace(/^Error: /, '')) } }\n"
        "const driver = new Error('relation \"public.x\" does not exist')\n"
        "console.log(String(new QueryFailedError('SELECT 1', [], driver)))\n")
    printed = subprocess.run(["node", str(script)], capture_output=True, text=True,
                             check=True).stdout.strip()
    assert printed == 'QueryFailedError: relation "public.x" does not exist'


RELAYED = [
    # a task runner tags every line it relays
    "".join(f"[server] {line}\n" for line in PASTE.splitlines()),
    # ``docker logs --timestamps`` stamps every line
    "".join(f"2026-02-14T12:45:17.93{k}Z {line}\n" for k, line in enumerate(PASTE.splitlines())),
]


@pytest.mark.parametrize("paste", RELAYED, ids=["tagged", "stamped"])
def test_a_stack_relayed_with_a_prefix_on_every_line_still_names_its_file(
    mined: tuple[Path, list[errdex.StoredRecord]], paste: str,
) -> None:
    root, _ = mined
    matches = errdex.explain(paste, db=root.parent / "errdex.sqlite")
    assert matches
    assert matches[0].record.file_path == "src/driver/postgres/PostgresQueryRunner.ts"

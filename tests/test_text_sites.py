"""Never worse than grep: a message errdex cannot trace still lands on the line that writes it.

Text sites are the worded literals of source that no record's template holds. A paste
that matches no record resolves to the line whose literal it contains, flagged as such;
text sites are never records (not counted, not exported) and are replaced per file on
an incremental re-mine.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import errdex
from errdex.interfaces.cli import main
from errdex.lookup.text_sites import MAX_LEADS, PART_REASON, REASON
from errdex.records.text_sites import TextSite
from errdex.store.schema import STORE_FORMAT_VERSION
from errdex.store.text_sites import PER_LEAD
from tests.conftest import GitRepo, sql

# The message is kept in a dict and looked up at the raise: errdex does not model that.
VAULT = '''MESSAGES = {"locked": "could not open the vault"}


class VaultError(Exception):
    pass


def open_vault(state):
    """Open the vault; this docstring has many words but is documentation."""
    if state == "missing":
        raise VaultError("the vault key is missing")
    raise VaultError(MESSAGES[state])
'''
TEST_FILE = 'def test_it():\n    assert run() == "could not open the vault in tests"\n'
PASTE = "VaultError: could not open the vault"


def _mined(make_repo: Callable[..., GitRepo], db: str) -> GitRepo:
    repo = make_repo()
    repo.commit_files({"src/vault.py": VAULT, "tests/test_vault.py": TEST_FILE})
    errdex.mine(repo.root, db=db, repo="acme/vault", jobs=1)
    return repo


def _explain(db: str, text: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(main, ["--db", db, "explain", "--json", text])
    return result.exit_code, json.loads(result.output)


def test_untraced_message_resolves_to_its_line(
    make_repo: Callable[..., GitRepo], backend_db: str
) -> None:
    repo = _mined(make_repo, backend_db)
    # errdex really does not mine it (the class alone points at its raises, a guess)
    assert all(m.approximate for m in errdex.explain(PASTE, db=backend_db))
    code, out = _explain(backend_db, PASTE)
    assert code == 0  # the line is found
    best = out["matches"][0]
    assert "record" not in best
    assert best["reason"] == REASON
    assert best["candidate"] == {
        "repo": "acme/vault", "filePath": "src/vault.py", "lineNumber": 1,
        "text": "could not open the vault",
        "githubUrl": f"https://github.com/acme/widgets/blob/{repo.head()}/src/vault.py#L1-L1",
    }


def test_the_cli_prints_the_line_and_the_flag(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = str(tmp_path / "errdex.sqlite")
    _mined(make_repo, db)
    result = CliRunner().invoke(main, ["--db", db, "explain", PASTE])
    assert result.exit_code == 0
    assert "src/vault.py:1" in result.output
    assert "errdex did not see how it is raised" in result.output
    nothing = CliRunner().invoke(main, ["--db", db, "explain", "Oops: a message nobody wrote"])
    assert nothing.exit_code != 0


def test_record_templates_docstrings_and_tests_are_not_text_sites(
    make_repo: Callable[..., GitRepo], backend_db: str
) -> None:
    _mined(make_repo, backend_db)
    texts = sorted(str(row[0]) for row in sql(backend_db, "SELECT DISTINCT text FROM text_sites"))
    assert texts == ["could not open the vault"]
    # the record's own literal is found as a record, not as a text site
    matches = errdex.explain("VaultError: the vault key is missing", db=backend_db)
    assert [m.record.line_number for m in matches] == [11]
    assert errdex.text_sites("the vault key is missing", db=backend_db) == []


def test_text_sites_are_not_records_nor_exported(
    make_repo: Callable[..., GitRepo], backend_db: str, tmp_path: Path
) -> None:
    _mined(make_repo, backend_db)
    with errdex.open_store(backend_db) as store:
        assert store.count("acme/vault") == 1
        assert store.text_site_count("acme/vault") == 1
    out = tmp_path / "dataset.jsonl"
    assert errdex.export_dataset(out, db=backend_db) == 1
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["record"]["errorMessage"] for line in lines] == ["the vault key is missing"]


def test_incremental_mine_replaces_a_changed_files_text_sites(
    make_repo: Callable[..., GitRepo], backend_db: str
) -> None:
    repo = _mined(make_repo, backend_db)
    repo.commit_files({
        "src/vault.py": VAULT.replace("could not open the vault", "the vault stays sealed"),
        "src/other.py": 'HINT = "try the spare key first"\n',
    })
    summary = errdex.mine(repo.root, db=backend_db, repo="acme/vault", jobs=1)
    assert summary.incremental
    texts = sorted((str(r[0]), str(r[1])) for r in
                   sql(backend_db, "SELECT DISTINCT file_path, text FROM text_sites"))
    assert texts == [("src/other.py", "try the spare key first"),
                     ("src/vault.py", "the vault stays sealed")]
    assert errdex.text_sites(PASTE, db=backend_db) == []
    [found] = errdex.text_sites("Error: the vault stays sealed today", db=backend_db)
    assert (found.site.file_path, found.site.line_number) == ("src/vault.py", 1)


def test_a_lookup_probes_a_bounded_number_of_rows(tmp_path: Path) -> None:
    """However long the paste and however many literals share its words, one lookup reads
    at most ``MAX_LEADS`` × ``PER_LEAD`` rows."""
    db = str(tmp_path / "errdex.sqlite")
    sites = [TextSite(f"f{n}.py", n + 1, f"alpha beta gamma word{n}") for n in range(500)]
    with errdex.open_store(db) as store:
        store.replace_repo("acme/many", [], analyzed_sha="a" * 40, texts=sites)
        assert store.text_site_count() == 500
        words = " ".join(f"alpha beta gamma word{n}" for n in range(2_000))
        assert len(store.text_sites(["alpha beta gamma"])) == PER_LEAD
        found = errdex.text_sites(words, db=store, top=1_000)
        assert 0 < len(found) <= MAX_LEADS * PER_LEAD


def test_web_page_and_api_show_the_line(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    from errdex.interfaces.web.app import create_app
    from tests.test_web import local_client

    db = str(tmp_path / "errdex.sqlite")
    _mined(make_repo, db)
    client = local_client(create_app(db))
    api = client.post("/api/explain", json={"text": PASTE})
    assert api.status_code == 200
    assert api.json() == _explain(db, PASTE)[1]
    page = client.post("/explain", data={"text": PASTE})
    assert page.status_code == 200
    assert "src/vault.py:1" in page.text
    assert "errdex did not see how it is raised" in page.text
    assert "text only" in page.text
    assert "1 line with this text" in page.text


async def _mcp_explain(db: Path) -> Any:
    from contextlib import AsyncExitStack

    from mcp import ClientSession, stdio_client

    from tests.test_mcp import _payload, _server

    async with AsyncExitStack() as stack:
        errlog = stack.enter_context((db.parent / "mcp-stderr.log").open("w"))
        read, write = await stack.enter_async_context(stdio_client(_server(db), errlog=errlog))
        session = await stack.enter_async_context(ClientSession(read, write))
        await session.initialize()
        return _payload(await session.call_tool("explain_error", {"text": PASTE}))


def test_mcp_tool_returns_the_flagged_line(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    import anyio

    db = tmp_path / "errdex.sqlite"
    _mined(make_repo, str(db))
    payload = anyio.run(_mcp_explain, db)
    assert payload == _explain(str(db), PASTE)[1]
    assert payload["matches"][0]["candidate"]["filePath"] == "src/vault.py"


# One file per language: a literal kept in a table (no site), read by the language's own
# string decoder; interpolated strings keep their literal pieces of three words or more.
LANGUAGE_SAMPLES = {
    "python": (b'M = {"a": "could not open the vault"}\nX = f"{a} and then more words"\n',
               ["could not open the vault", "and then more words"]),
    "javascript": (b'const m = {a: "could not open the vault", b: `${x} and then more words`};\n',
                   ["could not open the vault", "and then more words"]),
    "typescript": (b'const m: Record<string, string> = {a: "could not open the vault"};\n',
                   ["could not open the vault"]),
    "tsx": (b'const m = {a: "could not open the vault"};\n', ["could not open the vault"]),
    "go": (b'package a\nvar m = map[string]string{"a": "could not open the vault"}\n',
           ["could not open the vault"]),
    "rust": (b'const M: &str = "could not open the vault";\n', ["could not open the vault"]),
    "c": (b'static const char *m = "could not open the vault";\n', ["could not open the vault"]),
    "cpp": (b'const char *m = "could not open the vault";\n', ["could not open the vault"]),
    "java": (b'class A { String m = "could not open the vault"; }\n',
             ["could not open the vault"]),
    "kotlin": (b'val m = "could not open the vault ${x} and then more words"\n',
               ["could not open the vault", "and then more words"]),
    "csharp": (b'class A { string m = $"could not open the vault {x}"; }\n',
               ["could not open the vault"]),
    "php": (b'<?php $m = ["a" => "could not open the vault"];\n', ["could not open the vault"]),
    "ruby": (b'M = "could not open the vault #{x} and then more words"\n',
             ["could not open the vault", "and then more words"]),
    "swift": (b'let m = "could not open the vault \\(x) and then more words"\n',
              ["could not open the vault", "and then more words"]),
}


@pytest.mark.parametrize("language", sorted(LANGUAGE_SAMPLES))
def test_every_language_reads_its_literals(language: str) -> None:
    from errdex.languages import SPECS
    from errdex.languages._engine.literals import file_literals

    source, expected = LANGUAGE_SAMPLES[language]
    assert [text for _, text in file_literals(SPECS[language], source)] == expected
    assert sorted(LANGUAGE_SAMPLES) == sorted(SPECS)  # every registered language is covered


def test_per_file_cap() -> None:
    from errdex.languages import SPECS
    from errdex.languages._engine.literals import MAX_PER_FILE, file_literals

    source = "".join(f'M{n} = "message number {n} of many"\n' for n in range(1_000)).encode()
    found = file_literals(SPECS["python"], source)
    assert len(found) == MAX_PER_FILE
    assert found[-1] == (MAX_PER_FILE, f"message number {MAX_PER_FILE - 1} of many")


def test_a_format_4_database_gains_the_table_and_the_next_mine_fills_it(
    make_repo: Callable[..., GitRepo], backend_db: str
) -> None:
    repo = _mined(make_repo, backend_db)
    # As a database written by an errdex of format 4: none of the later tables, an older miner.
    for table in ("text_sites", "repo_origins", "synced_datasets", "log_statements", "releases",
                  "wordings"):
        sql(backend_db, f"DROP TABLE {table}")
    sql(backend_db, "UPDATE errdex_meta SET value = '4' WHERE key = 'format_version'")
    sql(backend_db, "UPDATE repos SET miner_version = 'older'")
    with errdex.open_store(backend_db) as store:
        assert store.format_version() == STORE_FORMAT_VERSION
        assert store.text_site_count() == 0
    summary = errdex.mine(repo.root, db=backend_db, repo="acme/vault", jobs=1)
    assert not summary.incremental and summary.text_sites == 1
    assert _explain(backend_db, PASTE)[1]["matches"][0]["candidate"]["lineNumber"] == 1


def test_a_paste_holding_only_the_first_line_of_a_long_literal_lands_on_it(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"app/ctx.py": (
        '_NO_APP = """Working outside of application context.\n\n'
        'This typically means that you attempted to use functionality that needed\n'
        'the current application."""\n\n\n'
        "def proxy():\n    return Proxy(unbound_message=_NO_APP)\n")})
    db = str(tmp_path / "t.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/ctx", jobs=1)
    _, out = _explain(db, "RuntimeError: Working outside of application context.")
    assert out["matches"][0]["candidate"]["lineNumber"] == 1
    assert out["matches"][0]["candidate"]["text"] == "Working outside of application context."


def test_a_paste_holding_part_of_a_literal_lands_on_it_below_a_whole_one(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"src/pool.c": (
        "static const char *MSG = \"Connection is not available, request timed out after\";\n"
        "static const char *OTHER = \"request timed out while waiting for the pool\";\n")})
    db = str(tmp_path / "p.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/pool", jobs=1)
    # cut short, with the user's own words around it: only some of its word windows
    paste = "SQLTransientConnectionException: HikariPool-1 - Connection is not available, " \
            "request timed out"
    found = errdex.text_sites(paste, db=db)
    assert [(m.site.line_number, m.reason) for m in found][:1] == [(1, PART_REASON)]
    # a reworded tail shares too few windows with the other literal: it is not offered
    assert all(m.site.line_number == 1 for m in found)
    whole = errdex.text_sites("error: request timed out while waiting for the pool", db=db)
    assert whole[0].reason == REASON and whole[0].score > found[0].score


def test_a_literal_the_paste_holds_whole_ranks_above_one_it_holds_part_of(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"src/Reader.cs": (
        'class R {\n'
        '  string A = "Unexpected character encountered while parsing value:";\n'
        '  string B = "Unexpected character encountered while parsing number: the digits '
        'ran out before the exponent was read";\n}\n')})
    db = str(tmp_path / "w.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/reader", jobs=1)
    paste = ("Newtonsoft.Json.JsonReaderException: Unexpected character encountered while "
             "parsing value: <. Path '', line 0, position 0. " + "and a long tail " * 40)
    found = errdex.text_sites(paste, db=db)
    assert [m.site.line_number for m in found][:2] == [2, 3]
    assert found[0].reason == REASON and found[1].reason == PART_REASON


def test_a_thin_record_match_gives_way_to_a_line_holding_more_of_the_message(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({
        "app/files.py": "def load(p):\n    raise OSError('Could not read %s' % p)\n",
        "app/remote.py": ("MESSAGES = {'remote': 'Could not read from remote repository.'}\n\n\n"
                          "def fetch(kind):\n    raise RuntimeError(MESSAGES[kind])\n"),
    })
    db = str(tmp_path / "thin.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/thin", jobs=1)
    paste = "fatal: Could not read from remote repository."
    assert errdex.explain(paste, db=db)[0].record.file_path == "app/files.py"  # thin
    found = errdex.resolve(paste, db=db)
    assert found.matches == []
    assert (found.text_sites[0].site.file_path, found.text_sites[0].site.line_number) == (
        "app/remote.py", 1)
    # a record that says as much as the literal keeps its place
    kept = errdex.resolve("OSError: Could not read /etc/x", db=db)
    assert kept.matches and kept.matches[0].record.file_path == "app/files.py"


def test_a_line_holding_more_of_the_pasted_texts_between_its_holes_ranks_first(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    tail = " received a child action while the child state was another case"
    repo.commit_files({"src/reducers.c": (
        f'const char *branch(void) {{ return join("A branch at", where, "{tail}"); }}\n'
        f'const char *scope(void) {{ return join("A scope at", where, "{tail}"); }}\n')})
    db = str(tmp_path / "scope.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/reducers", jobs=1)
    found = errdex.text_sites(f"error: A scope at Feature.swift:12{tail}. …", db=db)
    assert [(m.site.line_number, m.reason) for m in found][:2] == [(2, REASON), (1, REASON)]
    assert found[0].site.text == f"A scope at …{tail}" and found[0].score > found[1].score


"""Prompt tokens per record of LLM enrichment, against the common approach, in the same run.

    .venv/bin/python benchmarks/llm_tokens.py PATH [PATH…] [--repo OWNER/NAME]
    .venv/bin/python benchmarks/llm_tokens.py --db FILE [--db FILE…]   # records already mined

Mines each PATH (a git checkout, into a temporary database) or reads each --db, and
builds, without sending anything, every request ``errdex enrich --llm-…`` would send
for its records: the system prompt, the schema and each batch's legend and tagged data
block. The baseline sends, for the same records, the same task, rules and schema (without
errdex's data legend) and, in the same marked block, each record's id, path, line,
message and the ±12 source lines around the site, as JSON, in batches of 20 (the common
approach). Both are counted over the messages and the
``response_format`` as compact JSON, the way httpx puts it on the wire (local servers —
vLLM, llama.cpp, Ollama — turn the schema into a grammar and do not count it as prompt
tokens; it is counted here all the same, for both sides), three ways:

- o200k: the real BPE tokenizer of OpenAI's current models, when the ``bench`` extra is
  installed (``.venv/bin/pip install -c requirements.lock -e '.[bench]'``; its token
  tables ship inside the wheel, nothing is downloaded);
- chars / 4: the estimate errdex itself uses when a server reports no usage;
- lexical: words, digit runs, whitespace runs and punctuation marks, one token each (a
  tokenizer-free count that punishes punctuation-dense text).

One line a repository (with the first count), then the totals over all of them, each
count. Target: errdex / baseline <= 1/5.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import errdex
from errdex.enrich.llm import _batches, _prepare, batch_message
from errdex.enrich.llm_client import ChatClient, LlmConfig, estimate_tokens
from errdex.enrich.llm_prompt import CLOSE, OPEN, RULES, SYSTEM, TASK, answer_schema
from errdex.records.model import Record
from errdex.store.protocol import open_store
from errdex.store.sqlite import StoredRecord

BASELINE_RADIUS = 12
BASELINE_BATCH = 20


_PIECE = re.compile(r"[A-Za-z]+|\d+|\s+|[^\w\s]")


def counters() -> list[tuple[str, Callable[[str], int]]]:
    """The token counts to report: o200k when its tokenizer is installed, then the two
    estimates."""
    found: list[tuple[str, Callable[[str], int]]] = []
    try:
        import bpe_openai
    except ImportError:
        print("(o200k not counted: install the 'bench' extra for the real tokenizer)")
    else:
        encoding = bpe_openai.get_encoding("o200k_base")
        found.append(("o200k", lambda text: len(encoding.encode(text))))
    found.append(("chars / 4", estimate_tokens))
    found.append(("lexical", lambda text: len(_PIECE.findall(text))))
    return found


# The baseline's instructions: the same task and rules, without errdex's data legend.
BASELINE_SYSTEM = f"{TASK}\n{RULES}"


def request_text(client: ChatClient, user: str, system: str = SYSTEM) -> str:
    """One request body as the text a tokenizer reads: the messages and the
    ``response_format`` as compact JSON (as httpx sends it), non-ASCII as is."""
    body = client._body(system, user, answer_schema(), json_object=False)
    wire = json.dumps(body["response_format"], ensure_ascii=False, separators=(",", ":"))
    return "".join(m["content"] for m in body["messages"]) + wire


def baseline_user(records: list[Record]) -> str:
    """The common approach: every record with the ±12 lines around its site."""
    rows = []
    for record in records:
        lines = record.source_code.split("\n")
        at = record.line_number - record.source_code_start
        window = "\n".join(lines[max(0, at - BASELINE_RADIUS):at + BASELINE_RADIUS + 1])
        rows.append({"id": record.id, "file": record.file_path, "line": record.line_number,
                     "message": record.error_message, "code": window})
    return f"{OPEN}\n{json.dumps(rows, ensure_ascii=False)}\n{CLOSE}\nExplain each error record."


@dataclass
class Measured:
    """One repository's requests, both ways."""

    repo: str
    records: int
    repeats: int  # records sent as ``E k again`` (answered with an equal error)
    ours: list[str]
    base: list[str]


def measure(repo: str, stored: list[StoredRecord], client: ChatClient,
            config: LlmConfig) -> Measured:
    """Every request ``errdex enrich`` would send for ``stored``, and the baseline's."""
    items = [_prepare(s.record, s.extras) for s in stored]
    unique = list({i.hash: i for i in items}.values())
    batches = _batches(unique, config)
    ours = [request_text(client, batch_message(batch)) for batch in batches]
    answers = sum(len({i.bundle.error["k"] for i in batch}) for batch in batches)
    records = [s.record for s in stored]
    base = [request_text(client, baseline_user(records[i:i + BASELINE_BATCH]), BASELINE_SYSTEM)
            for i in range(0, len(records), BASELINE_BATCH)]
    return Measured(repo, len(items), len(items) - answers, ours, base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", type=Path, nargs="*", metavar="PATH",
                        help="git checkouts to mine (each into a temporary database)")
    parser.add_argument("--db", action="append", default=[],
                        help="a database with records already mined (repeatable)")
    parser.add_argument("--repo", help="only records of this OWNER/NAME")
    args = parser.parse_args()
    if not args.paths and not args.db:
        parser.error("give PATHs to mine, or --db with records already mined")
    by_repo: dict[str, list[StoredRecord]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        dbs = list(args.db)
        for index, path in enumerate(args.paths):
            dbs.append(str(Path(tmp) / f"bench{index}.sqlite"))
            summary = errdex.mine(path, db=dbs[-1], repo=args.repo)
            print(f"mined {summary.repo}: {summary.records} records")
        for db in dbs:
            with open_store(db) as store:
                for stored in store.records(args.repo):
                    by_repo.setdefault(stored.record.repo, []).append(stored)
    if not by_repo:
        raise SystemExit("no records")
    config = LlmConfig("http://127.0.0.1:1/v1", "bench")
    client = ChatClient(config)
    measured = [measure(repo, stored, client, config) for repo, stored in sorted(by_repo.items())]
    fixed = request_text(client, "")
    client.close()
    found = counters()
    label, count = found[0]
    for m in measured:
        mine, theirs = sum(map(count, m.ours)), sum(map(count, m.base))
        print(f"{m.repo}: {m.records} records ({m.repeats} sent as a repeat of an equal error); "
              f"errdex {len(m.ours)} requests, {mine / m.records:.1f} {label} tokens a record; "
              f"baseline {len(m.base)} requests, {theirs / m.records:.1f}; "
              f"ratio {mine / theirs:.3f}")
    n = sum(m.records for m in measured)
    print(f"all {n} records of {len(measured)} repositories (baseline: ±{BASELINE_RADIUS} "
          f"lines, batches of {BASELINE_BATCH}):")
    for label, count in found:
        mine = sum(count(text) for m in measured for text in m.ours)
        theirs = sum(count(text) for m in measured for text in m.base)
        ratio = mine / theirs
        print(f"[{label}] errdex {mine} prompt tokens, {mine / n:.1f} per record (system prompt "
              f"+ schema ~{count(fixed)} a request); baseline {theirs}, {theirs / n:.1f} per "
              f"record; RATIO {ratio:.3f} (1/{1 / ratio:.1f}; target <= 1/5: "
              f"{'met' if ratio <= 0.2 else 'NOT met'})")
    print("a re-run with nothing changed: 0 prompt tokens (every answer is cached)")


if __name__ == "__main__":
    main()

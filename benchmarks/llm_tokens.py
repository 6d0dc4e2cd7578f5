"""Prompt tokens per record of LLM enrichment, against the common approach, in the same run.

    .venv/bin/python benchmarks/llm_tokens.py PATH [--db FILE] [--repo OWNER/NAME]
    .venv/bin/python benchmarks/llm_tokens.py --db FILE    # records already mined

Mines PATH (a git checkout; into a temporary database unless --db is given) and
builds, without sending anything, every request ``errdex enrich --llm-…`` would send
for its records: the system prompt, the schema and each batch's evidence bundles.
The baseline sends, for the same records, the same instructions and schema with
each record's id, path, line, message and the ±12 source lines around the site,
in batches of 20 (the common approach). Tokens are estimated as characters / 4
(the estimate errdex itself uses when a server reports no usage), and by a lexical
count, over the messages and the ``response_format`` as compact JSON, the way httpx puts it
on the wire (local servers — vLLM, llama.cpp, Ollama — turn the schema into a grammar and
do not count it as prompt tokens; it is counted here all the same, for both sides).
Target: errdex / baseline <= 1/5.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from pathlib import Path

import errdex
from errdex.enrich.llm import _batches, _prepare, request_text
from errdex.enrich.llm_client import ChatClient, LlmConfig, estimate_tokens
from errdex.enrich.llm_prompt import SYSTEM, answer_schema, schema_hint
from errdex.record import Record
from errdex.stores import open_store

BASELINE_RADIUS = 12
BASELINE_BATCH = 20


_PIECE = re.compile(r"[A-Za-z]+|\d+|\s+|[^\w\s]")


def request_tokens(client: ChatClient, user: str) -> tuple[int, int]:
    """Prompt tokens of one request body as errdex would send it: characters / 4, and a
    lexical count (words, digit runs, whitespace runs, punctuation: nearer to a BPE
    tokenizer on indented code, where chars / 4 overcounts the indentation)."""
    body = client._body(SYSTEM, user, answer_schema(), json_object=False)
    # as httpx puts it on the wire: compact JSON, non-ASCII as is
    wire = json.dumps(body["response_format"], ensure_ascii=False, separators=(",", ":"))
    text = "".join(m["content"] for m in body["messages"]) + wire
    return estimate_tokens(text), len(_PIECE.findall(text))


def baseline_user(records: list[Record]) -> str:
    """The common approach: every record with the ±12 lines around its site."""
    rows = []
    for record in records:
        lines = record.sourceCode.split("\n")
        at = record.lineNumber - record.sourceCodeStart
        window = "\n".join(lines[max(0, at - BASELINE_RADIUS):at + BASELINE_RADIUS + 1])
        rows.append({"id": record.id, "file": record.filePath, "line": record.lineNumber,
                     "message": record.errorMessage, "code": window})
    return "Explain each error record:\n" + json.dumps(rows, ensure_ascii=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, nargs="?")
    parser.add_argument("--db", help="database to mine into / read from (default: temporary)")
    parser.add_argument("--repo", help="only records of this OWNER/NAME")
    args = parser.parse_args()
    if args.path is None and args.db is None:
        parser.error("give PATH to mine, or --db with records already mined")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "bench.sqlite")
        if args.path is not None:
            summary = errdex.mine(args.path, db=db, repo=args.repo)
            print(f"mined {summary.repo}: {summary.records} records")
        with open_store(db) as store:
            stored = list(store.records(args.repo))
    if not stored:
        raise SystemExit("no records")
    config = LlmConfig("http://127.0.0.1:1/v1", "bench")
    client = ChatClient(config)
    items = [_prepare(s.record, s.extras) for s in stored]
    unique = list({i.hash: i for i in items}.values())
    ours = [0, 0]
    batches = _batches(unique, config)
    for batch in batches:
        counted = request_tokens(client, request_text(batch))
        ours = [a + b for a, b in zip(ours, counted, strict=True)]
    records = [s.record for s in stored]
    base = [0, 0]
    for i in range(0, len(records), BASELINE_BATCH):
        counted = request_tokens(client, baseline_user(records[i:i + BASELINE_BATCH]))
        base = [a + b for a, b in zip(base, counted, strict=True)]
    client.close()
    fixed = estimate_tokens(SYSTEM) + estimate_tokens(schema_hint())
    n = len(items)
    print(f"{n} records ({n - len(unique)} with an evidence bundle identical to another's); "
          f"instructions + schema: ~{fixed} tokens a request")
    for label, index in (("chars / 4", 0), ("lexical", 1)):
        print(f"[{label}] errdex: {len(batches)} requests, {ours[index]} prompt tokens, "
              f"{ours[index] / n:.1f} per record; baseline: {-(-n // BASELINE_BATCH)} requests "
              f"(±{BASELINE_RADIUS} lines, batches of {BASELINE_BATCH}), {base[index]} prompt "
              f"tokens, {base[index] / n:.1f} per record")
        ratio = ours[index] / base[index]
        print(f"[{label}] RATIO errdex / baseline: {ratio:.3f} (1/{1 / ratio:.1f}; target <= 1/5: "
              f"{'met' if ratio <= 0.2 else 'NOT met'})")
    print("a re-run with nothing changed: 0 prompt tokens (every answer is cached)")


if __name__ == "__main__":
    main()

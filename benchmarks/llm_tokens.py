"""Prompt tokens per record of LLM enrichment, against the common approach, in the same run.

    .venv/bin/python benchmarks/llm_tokens.py PATH [--db FILE] [--repo OWNER/NAME]
    .venv/bin/python benchmarks/llm_tokens.py --db FILE    # records already mined

Mines PATH (a git checkout; into a temporary database unless --db is given) and
builds, without sending anything, every request ``errdex enrich --llm-…`` would send
for its records: the system prompt, the schema and each batch's tagged data block.
The baseline sends, for the same records, the same task, rules and schema (without
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

Target: errdex / baseline <= 1/5.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import errdex
from errdex.enrich.llm import _batches, _prepare, batch_message
from errdex.enrich.llm_client import ChatClient, LlmConfig, estimate_tokens
from errdex.enrich.llm_prompt import CLOSE, OPEN, RULES, SYSTEM, TASK, answer_schema
from errdex.record import Record
from errdex.stores import open_store

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
        lines = record.sourceCode.split("\n")
        at = record.lineNumber - record.sourceCodeStart
        window = "\n".join(lines[max(0, at - BASELINE_RADIUS):at + BASELINE_RADIUS + 1])
        rows.append({"id": record.id, "file": record.filePath, "line": record.lineNumber,
                     "message": record.errorMessage, "code": window})
    return f"{OPEN}\n{json.dumps(rows, ensure_ascii=False)}\n{CLOSE}\nExplain each error record."


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
    batches = _batches(unique, config)
    ours = [request_text(client, batch_message(batch)) for batch in batches]
    records = [s.record for s in stored]
    base = [request_text(client, baseline_user(records[i:i + BASELINE_BATCH]), BASELINE_SYSTEM)
            for i in range(0, len(records), BASELINE_BATCH)]
    client.close()
    n = len(items)
    answers = sum(len({i.bundle.error["k"] for i in batch}) for batch in batches)
    print(f"{n} records ({n - len(unique)} with an evidence bundle identical to another's, "
          f"{len(unique) - answers} sent as a repeat of an equal error); errdex: {len(batches)} "
          f"requests; baseline: {len(base)} requests (±{BASELINE_RADIUS} lines, batches of "
          f"{BASELINE_BATCH})")
    for label, count in counters():
        mine, theirs = sum(map(count, ours)), sum(map(count, base))
        fixed = count(request_text(client, ""))
        ratio = mine / theirs
        print(f"[{label}] errdex {mine} prompt tokens, {mine / n:.1f} per record (instructions "
              f"+ schema ~{fixed} a request); baseline {theirs}, {theirs / n:.1f} per record; "
              f"RATIO {ratio:.3f} (1/{1 / ratio:.1f}; target <= 1/5: "
              f"{'met' if ratio <= 0.2 else 'NOT met'})")
    print("a re-run with nothing changed: 0 prompt tokens (every answer is cached)")


if __name__ == "__main__":
    main()

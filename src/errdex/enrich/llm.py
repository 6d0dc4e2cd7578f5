"""Optional LLM enrichment through any OpenAI-compatible endpoint, verified against the evidence.

``enrich_with_llm`` reads the stored records with their evidence, rebuilds each one's
static draft (deterministic, so a re-run sends the same bundle), and asks the model to
rewrite the explanation fields from the evidence bundle (``llm_prompt``). Answers go
through ``llm_verify`` before anything is stored: a field that passes replaces the
static value (flag ``llm-enriched``); one that fails keeps it (flag
``llm-rejected:<field>``). An answer that is not JSON, or a refusal, keeps every static
value (``llm-malformed`` / ``llm-refused``); a record the server never answered (HTTP
errors, timeouts after the retries, the token budget) is left as stored and reported.

Answers are cached by (model, prompt version, evidence hash) beside the database
(``llm_cache``): a re-run with nothing changed sends no request.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from errdex.enrich.llm_cache import LlmCache, cache_path_for
from errdex.enrich.llm_client import (
    Answer,
    ChatClient,
    LlmConfig,
    LlmFailure,
    Usage,
    estimate_tokens,
)
from errdex.enrich.llm_prompt import (
    PROMPT_VERSION,
    SYSTEM,
    Bundle,
    answer_schema,
    bundle,
    schema_hint,
    user_message,
)
from errdex.enrich.llm_verify import verify_fields
from errdex.enrich.static import enrich_record
from errdex.enrich.stored import RecordStore
from errdex.records.evidence import Evidence
from errdex.records.model import EXPLANATION_FIELDS, Record, RecordExtras, attribute

__all__ = ["LlmConfig", "LlmReport", "enrich_with_llm"]

ProgressCallback = Callable[[int, int], None]
_FLAG_PREFIX = "llm-"
_FLAG_FOR = {"malformed": "llm-malformed", "truncated": "llm-malformed", "missing": "llm-malformed",
             "refusal": "llm-refused"}
_COMPLETION_GUESS = 400  # tokens a record's answer costs, until answers say otherwise
_SCHEMA_TOKENS = estimate_tokens(schema_hint())
_AGAIN_CHARS = 60  # what an equal error's place adds to a batch (its file, function, key)


@dataclass
class LlmReport:
    """What one run did; ``failed`` maps a record id to the reason it was not enriched."""

    records: int = 0
    requests: int = 0
    sent: int = 0  # records sent in requests (several to a request when small)
    cached: int = 0  # records answered from the cache
    enriched: int = 0  # records with at least one field replaced
    fields_replaced: int = 0
    rejected: Counter[str] = field(default_factory=Counter)  # field → records it was rejected in
    failed: dict[str, str] = field(default_factory=dict)
    over_budget: int = 0  # records not sent because the token budget was spent
    written: int = 0  # records whose stored form changed
    usage: Usage = field(default_factory=Usage)
    json_object_fallback: bool = False

    def summary(self) -> str:
        """The lines the CLI prints at the end."""
        tokens = (f"tokens: {self.usage.prompt} prompt + {self.usage.completion} completion"
                  + (" (partly estimated)" if self.usage.estimated else ""))
        lines = [f"llm: {self.enriched} of {self.records} record(s) enriched "
                 f"({self.fields_replaced} fields), {self.cached} from cache, {self.sent} sent in "
                 f"{self.requests} request(s); {self.written} written", "  " + tokens]
        if self.rejected:
            lines.append("  rejected fields: " + ", ".join(
                f"{name} {count}" for name, count in sorted(self.rejected.items())))
        if self.failed:
            reasons = Counter(reason.split(":")[0] for reason in self.failed.values())
            lines.append("  not enriched: " + ", ".join(
                f"{count} {why}" for why, count in sorted(reasons.items())))
        return "\n".join(lines)


@dataclass
class _Item:
    """One stored record on its way through: its static draft and its bundle."""

    record: Record
    extras: RecordExtras
    draft: Record
    draft_extras: RecordExtras
    evidence: Evidence
    bundle: Bundle
    hash: str


def enrich_with_llm(store: RecordStore, config: LlmConfig, *, repo: str | None = None,
                    progress: ProgressCallback | None = None,
                    client: ChatClient | None = None) -> LlmReport:
    """Rewrite the explanation fields of the stored records (of ``repo``, or all) with the
    model ``config`` names; only verified fields are stored. ``client`` overrides the one
    built from ``config`` (to share one, or to inject a fake)."""
    report = LlmReport()
    items = [_prepare(s.record, s.extras) for s in store.records(repo)]
    report.records = len(items)
    answers: dict[str, dict[str, Any] | LlmFailure] = {}  # evidence hash → answer
    cache_file = config.cache_path or cache_path_for(store.path)
    done = 0
    with LlmCache(cache_file) as cache:
        unique: dict[str, _Item] = {}
        for item in items:
            hit = answers.get(item.hash) or cache.get(config.model, PROMPT_VERSION, item.hash)
            if hit is not None:
                answers[item.hash] = hit
            else:
                unique.setdefault(item.hash, item)
        report.cached = len(items) - sum(1 for i in items if i.hash in unique)
        by_hash = Counter(i.hash for i in items)
        done += report.cached
        if progress and done:
            progress(done, len(items))
        own = client is None
        chat = client or ChatClient(config)
        try:
            for batch, outcome in _run(chat, config, _batches(list(unique.values()), config),
                                       report):
                for item in batch:
                    result = outcome.get(item.bundle.error["k"]) if isinstance(
                        outcome, dict) else outcome
                    if result is None:
                        result = LlmFailure("missing", "the answer had no entry for this key")
                    answers[item.hash] = result
                    if isinstance(result, dict):
                        cache.put(config.model, PROMPT_VERSION, item.hash, result)
                    done += by_hash[item.hash]
                if progress:
                    progress(done, len(items))
        finally:
            report.json_object_fallback = chat.json_object_mode
            if own:
                chat.close()
    changed = [pair for item in items if (pair := _apply(item, answers.get(item.hash), report))]
    if changed:
        store.upsert(changed)
    report.written = len(changed)
    return report


def _prepare(record: Record, extras: RecordExtras) -> _Item:
    """The record with its static draft rebuilt from evidence (the fallback of every field)."""
    evidence = extras.evidence or Evidence(symbol=extras.enclosing_symbol)
    draft, draft_extras = record.model_copy(deep=True), extras.model_copy(deep=True)
    draft_evidence = evidence.model_copy(deep=True)
    draft_extras.evidence = draft_evidence
    enrich_record(draft, draft_extras, draft_evidence)
    made = bundle(record, extras.language, evidence, draft)
    return _Item(record, extras, draft, draft_extras, evidence, made, made.evidence_hash())


def _batches(items: list[_Item], config: LlmConfig) -> list[list[_Item]]:
    """Small records of one file side by side, up to ``batch_records`` answers and
    ``batch_chars``; a large record goes alone. Records whose errors are equal (the same
    statement in several functions) go in the batch of the first of them: it answers once."""
    items.sort(key=lambda i: (i.record.file_path, i.extras.enclosing_symbol or "",
                              i.record.line_number))
    groups: dict[str, list[_Item]] = {}
    for item in items:
        groups.setdefault(item.bundle.same_as, []).append(item)
    out: list[list[_Item]] = []
    current: list[_Item] = []
    answers = size = 0
    for group in groups.values():
        for start in range(0, len(group), config.batch_records):
            part = group[start:start + config.batch_records]
            cost = part[0].bundle.size() + _AGAIN_CHARS * (len(part) - 1)
            if current and (answers >= config.batch_records or size + cost > config.batch_chars):
                out.append(current)
                current, answers, size = [], 0, 0
            current.extend(part)
            answers += 1
            size += cost
    if current:
        out.append(current)
    return out


def batch_message(batch: list[_Item]) -> str:
    """The user message for ``batch``, keying its records: equal errors share a key."""
    keys: dict[str, str] = {}
    for item in batch:
        item.bundle.error["k"] = keys.setdefault(item.bundle.same_as, str(len(keys)))
    return user_message([(i.bundle.error["k"], i.bundle) for i in batch])


def _run(chat: ChatClient, config: LlmConfig, batches: list[list[_Item]], report: LlmReport,
         ) -> Iterator[tuple[list[_Item], dict[str, dict[str, Any]] | LlmFailure]]:
    """Send the batches, ``config.concurrency`` at a time, within the token budget; yield each
    batch with its answers by key (or the failure that ended it)."""
    pending = deque(batches)
    in_flight: dict[Future[Answer], tuple[list[_Item], int]] = {}
    reserved = 0
    per_record = _COMPLETION_GUESS
    answered = 0
    with ThreadPoolExecutor(max_workers=max(1, config.concurrency)) as pool:
        while pending or in_flight:
            while pending and len(in_flight) < max(1, config.concurrency):
                batch = pending[0]
                user = batch_message(batch)
                answers = len({i.bundle.error["k"] for i in batch})
                guess = estimate_tokens(SYSTEM + user) + _SCHEMA_TOKENS + per_record * answers
                spent = report.usage.prompt + report.usage.completion
                if config.token_budget is not None and spent + reserved + guess > (
                        config.token_budget):
                    if in_flight:
                        break  # answers in flight may cost less than reserved: wait for them
                    for rest in pending:
                        report.over_budget += len(rest)
                        for item in rest:
                            report.failed[item.record.id] = "token-budget"
                        yield rest, LlmFailure("token-budget")
                    pending.clear()
                    break
                pending.popleft()
                future = pool.submit(chat.complete, SYSTEM, user, answer_schema(), schema_hint)
                in_flight[future] = (batch, guess)
                reserved += guess
                report.requests += 1
                report.sent += len(batch)
            if not in_flight:
                continue
            finished, _ = wait(list(in_flight), return_when=FIRST_COMPLETED)
            for future in finished:
                batch, guess = in_flight.pop(future)
                reserved -= guess
                try:
                    answer = future.result()
                except LlmFailure as failure:
                    report.usage.add(failure.usage)
                    if failure.reason == "truncated" and len(batch) > 1:
                        half = len(batch) // 2  # the answer outgrew the completion limit
                        pending.extendleft((batch[half:], batch[:half]))
                        report.sent -= len(batch)  # counted again when the halves go
                        continue
                    yield batch, failure
                    continue
                report.usage.add(answer.usage)
                answered += len({i.bundle.error["k"] for i in batch})
                if not answer.usage.estimated and answered:
                    per_record = max(50, report.usage.completion // answered)
                yield batch, _by_key(answer.data)


def _by_key(data: Any) -> dict[str, dict[str, Any]] | LlmFailure:
    """``{"records": [{"key": …, fields…}]}`` (or ``{key: {fields}}``) → key → the explanation
    fields only: ids, patterns or anything else an answer adds are dropped here."""
    entries: list[tuple[str, Any]] = []
    if isinstance(data, dict) and isinstance(data.get("records"), list):
        entries = [(str(e.get("key")), e) for e in data["records"] if isinstance(e, dict)]
    elif isinstance(data, dict):
        entries = [(str(k), v) for k, v in data.items()]
    out = {key: {n: v[n] for n in EXPLANATION_FIELDS if n in v}
           for key, v in entries if isinstance(v, dict)}
    return out if out else LlmFailure("malformed", "no records in the answer")


def _apply(item: _Item, result: dict[str, Any] | LlmFailure | None,
           report: LlmReport) -> tuple[Record, RecordExtras] | None:
    """The record to store (static draft + verified fields + flags), or None when it is
    unchanged or the server never answered (then what is stored stays)."""
    record, extras = item.draft.model_copy(deep=True), item.draft_extras.model_copy(deep=True)
    flags = [f for f in extras.quality_flags if not f.startswith(_FLAG_PREFIX)]
    if isinstance(result, LlmFailure):
        report.failed.setdefault(item.record.id, str(result))
        if result.reason not in _FLAG_FOR:
            return None  # transient (HTTP, timeout, budget): leave the stored record alone
        flags.append(_FLAG_FOR[result.reason])
    elif result is not None:
        verdict = verify_fields(result, item.record, item.extras.language, item.evidence,
                                item.draft)
        for name, value in verdict.accepted.items():
            setattr(record, attribute(name), value)
        for name in verdict.rejected:
            flags.append(f"llm-rejected:{name}")
            report.rejected[name] += 1
        if verdict.accepted:
            flags.append("llm-enriched")
            report.enriched += 1
            report.fields_replaced += len(verdict.accepted)
    else:
        return None
    extras.quality_flags = sorted(set(flags))
    if record == item.record and extras == item.extras:
        return None
    return record, extras

"""A small client for any OpenAI-compatible Chat Completions endpoint (OpenAI, vLLM, Ollama,
llama.cpp): structured output with a fallback, retries with backoff, token accounting.

Configuration is one explicit ``LlmConfig``; only ``LlmConfig.from_env`` reads the
environment, so nothing deep inside the enrichment picks up settings by surprise.
"""

from __future__ import annotations

import email.utils
import json
import os
import random
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from errdex.errors import UsageError

ENV_BASE_URL = "ERRDEX_LLM_BASE_URL"
ENV_MODEL = "ERRDEX_LLM_MODEL"
ENV_API_KEY = "ERRDEX_LLM_API_KEY"
_REFUSAL = re.compile(r"^\W*(i['’]m sorry|sorry|i can['’]?t|i cannot|i am unable|i['’]m unable|"
                      r"i won['’]?t|as an ai)\b", re.IGNORECASE)
_FENCE = re.compile(r"^\s*```(?:json)?\s*\n?(.*?)\n?```\s*$", re.DOTALL)


@dataclass(frozen=True)
class LlmConfig:
    """Where the model is and how hard errdex may use it."""

    base_url: str
    model: str
    api_key: str | None = None
    concurrency: int = 4  # requests in flight
    token_budget: int | None = None  # prompt + completion tokens; None: no limit
    timeout: float = 120.0  # seconds per request
    max_retries: int = 4  # after the first try, on 429 / 5xx / timeouts
    backoff_base: float = 1.0  # seconds; doubled each retry, with full jitter
    backoff_max: float = 60.0  # cap on one wait, Retry-After included
    batch_records: int = 60  # small records sent together in one request
    batch_chars: int = 16000  # data characters per batched request
    max_tokens: int | None = None  # completion cap sent to the server; None: its default
    temperature: float = 0.2
    cache_path: str | None = None  # default: beside the database (see ``llm_cache``)

    def __post_init__(self) -> None:
        for name in ("concurrency", "batch_records", "batch_chars"):
            if getattr(self, name) < 1:
                raise UsageError(f"LLM {name} must be at least 1, not {getattr(self, name)}")
        if self.token_budget is not None and self.token_budget < 0:
            raise UsageError("the LLM token budget cannot be negative")
        if not self.base_url.startswith(("http://", "https://")):
            raise UsageError(f"--llm-base-url must be an http(s) URL, not {self.base_url!r}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *,
                 api_key_env: str = ENV_API_KEY, **overrides: Any) -> LlmConfig:
        """Options given explicitly win over ``ERRDEX_LLM_*``; a missing URL or model is a
        usage error naming the option and the variable."""
        env = os.environ if environ is None else environ
        values = {k: v for k, v in overrides.items() if v is not None}
        values.setdefault("base_url", env.get(ENV_BASE_URL) or None)
        values.setdefault("model", env.get(ENV_MODEL) or None)
        values.setdefault("api_key", env.get(api_key_env) or None)
        for name, option, var in (("base_url", "--llm-base-url", ENV_BASE_URL),
                                  ("model", "--llm-model", ENV_MODEL)):
            if not values.get(name):
                raise UsageError(f"LLM enrichment needs {option} (or ${var})")
        return cls(**values)


@dataclass
class Usage:
    """Tokens used, as the server reported them (estimated where it did not)."""

    prompt: int = 0
    completion: int = 0
    estimated: bool = False

    def add(self, other: Usage) -> None:
        self.prompt += other.prompt
        self.completion += other.completion
        self.estimated = self.estimated or other.estimated


class LlmFailure(Exception):
    """One request that produced no usable answer; ``reason`` is short and stable."""

    def __init__(self, reason: str, detail: str = "", usage: Usage | None = None):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason  # http-500, timeout, transport, refusal, malformed, truncated
        self.usage = usage or Usage()


@dataclass
class Answer:
    """A parsed JSON answer and what it cost."""

    data: Any
    usage: Usage
    attempts: int = 1


def estimate_tokens(text: str) -> int:
    """The usual rough count (four characters a token) where no server usage is known."""
    return (len(text) + 3) // 4


@dataclass
class ChatClient:
    """Thread-safe: one ``httpx.Client`` shared by the worker threads."""

    config: LlmConfig
    sleep: Callable[[float], None] = time.sleep
    _json_object: bool = field(default=False, init=False)  # the server rejected json_schema
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        headers = {"Content-Type": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        limits = httpx.Limits(max_connections=max(1, self.config.concurrency))
        self._http = httpx.Client(base_url=self.config.base_url.rstrip("/") + "/",
                                  headers=headers, timeout=self.config.timeout, limits=limits)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def json_object_mode(self) -> bool:
        return self._json_object

    def complete(self, system: str, user: str, schema: dict[str, Any],
                 schema_hint: Callable[[], str]) -> Answer:
        """Send one chat, retrying what is worth retrying; the JSON object it answered.

        ``schema_hint`` gives the text appended to the user message when the server only
        takes ``json_object`` (the schema must then travel in the prompt)."""
        attempts, waited_usage = 0, Usage()
        while True:
            attempts += 1
            fallback = self._json_object
            body = self._body(system, user + (schema_hint() if fallback else ""), schema, fallback)
            try:
                response = self._http.post("chat/completions", json=body)
            except httpx.TimeoutException as exc:
                failure = LlmFailure("timeout", f"no answer within {self.config.timeout:g}s")
                retry_after = None
                cause: Exception = exc
            except httpx.TransportError as exc:
                failure, retry_after, cause = LlmFailure("transport", str(exc)), None, exc
            else:
                if response.status_code == 400 and not fallback and _rejects_schema(response):
                    with self._lock:
                        self._json_object = True
                    attempts -= 1  # the fallback is not a retry
                    continue
                if response.status_code < 400:
                    answer = self._parse(response, body)
                    answer.attempts = attempts
                    answer.usage.add(waited_usage)
                    return answer
                failure = LlmFailure(f"http-{response.status_code}", _error_text(response))
                retry_after = _retry_after(response.headers.get("retry-after"))
                cause = failure
                if response.status_code != 429 and response.status_code < 500:
                    raise failure
            if attempts > self.config.max_retries:
                raise failure from cause
            self.sleep(self._delay(attempts, retry_after))

    def _body(self, system: str, user: str, schema: dict[str, Any],
              json_object: bool) -> dict[str, Any]:
        response_format: dict[str, Any] = (
            {"type": "json_object"} if json_object else
            {"type": "json_schema",
             "json_schema": {"name": "errdex_explanations", "strict": True, "schema": schema}})
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": [{"role": "system", "content": system},
                         {"role": "user", "content": user}],
            "response_format": response_format,
            "temperature": self.config.temperature,
        }
        if self.config.max_tokens:
            body["max_tokens"] = self.config.max_tokens
        return body

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        """Retry-After when the server gave one, else full-jitter exponential backoff."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.config.backoff_max)
        ceiling = min(self.config.backoff_max, self.config.backoff_base * 2 ** (attempt - 1))
        return random.uniform(ceiling / 2, ceiling)

    def _parse(self, response: httpx.Response, body: dict[str, Any]) -> Answer:
        try:
            payload = response.json()
        except ValueError as exc:
            raise LlmFailure("malformed", "the response is not JSON") from exc
        usage = _usage(payload, body)
        choices = payload.get("choices") if isinstance(payload, dict) else None
        if not choices or not isinstance(choices[0], dict):
            raise LlmFailure("malformed", "no choices in the response", usage)
        message = choices[0].get("message") or {}
        if message.get("refusal"):
            raise LlmFailure("refusal", str(message["refusal"])[:200], usage)
        content = message.get("content")
        if not isinstance(content, str) or not content.strip():
            raise LlmFailure("malformed", "empty content", usage)
        fenced = _FENCE.match(content)
        text = fenced.group(1) if fenced else content
        try:
            data = json.loads(text)
        except ValueError as exc:
            if _REFUSAL.match(content):
                raise LlmFailure("refusal", content.strip()[:200], usage) from exc
            if choices[0].get("finish_reason") == "length":
                raise LlmFailure("truncated", "the answer hit the token limit", usage) from exc
            raise LlmFailure("malformed", f"content is not JSON: {content[:80]!r}", usage) from exc
        return Answer(data, usage)


def _usage(payload: Any, body: dict[str, Any]) -> Usage:
    raw = payload.get("usage") if isinstance(payload, dict) else None
    if isinstance(raw, dict) and isinstance(raw.get("prompt_tokens"), int):
        return Usage(raw["prompt_tokens"], int(raw.get("completion_tokens") or 0))
    prompt = estimate_tokens(json.dumps(body["messages"]) + json.dumps(body["response_format"]))
    choices = payload.get("choices") if isinstance(payload, dict) else None
    content = ""
    if choices and isinstance(choices[0], dict):
        content = str((choices[0].get("message") or {}).get("content") or "")
    return Usage(prompt, estimate_tokens(content), estimated=True)


def _rejects_schema(response: httpx.Response) -> bool:
    """A 400 that is about structured output (servers word it differently; some say nothing)."""
    text = response.text.lower()
    return not text.strip() or any(w in text for w in ("response_format", "json_schema", "schema",
                                                         "structured", "not supported"))


def _error_text(response: httpx.Response) -> str:
    try:
        error = response.json().get("error")
        message = error.get("message") if isinstance(error, dict) else error
    except (ValueError, AttributeError):
        message = response.text
    return " ".join(str(message or response.reason_phrase).split())[:200]


def _retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header: a number, or an HTTP date."""
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())

"""One taxonomy of error families shared by every language: ``backgroundTag`` and tags.

Each family is a kebab-case name, a one-line meaning, the words that place a
message in it (searched in the message's literal text, its error class and the
doc notes), and the handling strategy it suggests. Families are tried in order,
specific before general; ``other`` when none fits. ``docs/taxonomy.md`` is this
table, rendered (a test keeps them equal).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from errdex.records.model import HandlingStrategy


@dataclass(frozen=True)
class Family:
    name: str
    meaning: str
    words: str  # a regex over lowercased text
    strategy: HandlingStrategy | None = None


F = Family
FAMILIES: tuple[Family, ...] = (
    F("unsupported-dtype", "a data type (dtype, element type) the code does not handle",
      r"\b(dtype|data ?type|element type|elem type)\b.*\b(unsupported|not supported|invalid|"
      r"unknown|unexpected|mismatch)|\b(unsupported|invalid|unknown|unexpected) (d)?type\b",
      "unsupported"),
    F("shape-mismatch", "tensor/array shapes or dimensions that do not agree",
      r"\bshapes?\b|\bdimensions?\b.*\b(mismatch|match|equal|same)|\bndims?\b|\brank\b|"
      r"\bbroadcast", "validation"),
    F("dimension-out-of-range", "an axis or dimension index beyond the tensor's rank",
      r"\b(dim|axis|axes)\b.*\b(out of (range|bounds)|exceed|invalid|must be less)", "validation"),
    F("index-out-of-range", "an index or offset past the end of a sequence",
      r"index.*out of (range|bounds)|out of bounds|\bindexerror\b|outofbounds|"
      r"index \S+ (is )?(greater|larger|beyond)|past the end", "validation"),
    F("empty-input", "an empty collection, string or tensor where one element is needed",
      r"\b(is |was )?empty\b|no (elements|items|values)|at least one", "validation"),
    F("length-mismatch", "two sequences of different lengths",
      r"\blength\b.*\b(mismatch|differ|match|equal|same)|\blen\(|lengths? (do not|don't|must)",
      "validation"),
    F("negative-value", "a value that must not be negative", r"\bnegative\b|must be non-?negative",
      "validation"),
    F("zero-value", "a value that must not be zero", r"\bzero\b|must be (positive|> ?0|non-?zero)",
      "validation"),
    F("division-by-zero", "a division or modulo by zero", r"divi(de|sion) by zero|zerodivision",
      "validation"),
    F("overflow", "an arithmetic result too large for its type",
      r"\boverflow|underflow|too large for|exceeds? (the )?max", "validation"),
    F("nan-or-infinite", "a NaN or infinite floating-point value", r"\bnan\b|\binfinit|not finite",
      "validation"),
    F("out-of-range", "a numeric value outside its allowed range",
      r"out of range|outside (the )?(range|bounds)|must be (between|in range|less|greater|at "
      r"(most|least))|too (small|big|large|high|low)|above|below|exceed", "validation"),
    F("not-implemented", "a code path the authors have not written yet",
      r"not (yet )?implemented|notimplemented|\btodo\b|unimplemented", "unsupported"),
    F("unsupported-operation", "an operation this backend/type/platform does not support",
      r"\bunsupported\b|not supported|does not support|doesn't support|cannot be used with|"
      r"only supports?|is not available", "unsupported"),
    F("device-mismatch", "tensors or buffers that live on different devices",
      r"(different|same|mismatch\w*) devices?|devices? (mismatch|differ)", "validation"),
    F("gradient-error", "autodiff: missing or invalid gradients, backward on a bad graph",
      r"\bgrad(ient)?s?\b|backward|autodiff|requires_grad", "fix-bug"),
    F("quantization-error", "quantized values, scales or schemes that do not fit",
      r"quantiz|\bqparams?\b|\bscale\b.*\bzero.?point", "unsupported"),
    F("precision-loss", "a conversion that would lose precision or range",
      r"precision|lossy|truncat|narrowing", "validation"),
    F("conversion-error", "a value that cannot be converted or cast to another type",
      r"cannot (convert|cast)|can't (convert|cast)|conversion|convert(ing)? .* to|\bcast\b|"
      r"tryfrom|into_", "validation"),
    F("checkpoint-error", "model weights, checkpoints or saved records that cannot be loaded",
      r"checkpoint|weights?|state.?dict|safetensors|\bpickle\b|\brecord(er)?\b.*load",
      "validation"),
    F("shader-compile-error", "a GPU kernel or shader that fails to compile or launch",
      r"shader|wgsl|spir-?v|ptx|kernel (launch|compil)|compile (kernel|shader)"),
    F("backend-error", "a compute backend that failed or is misconfigured",
      r"\bbackend\b", "configuration"),
    F("platform-unsupported", "an OS, architecture or platform the code does not support",
      r"platform|\b(os|arch|architecture|wasm|windows|macos|linux)\b.*(not|unsupported)",
      "unsupported"),
    F("checksum-mismatch", "data whose checksum or hash does not match",
      r"checksum|hash mismatch|digest|crc|corrupt", "retry"),
    F("tls-error", "a TLS / certificate problem", r"\btls\b|\bssl\b|certificate|x509"),
    F("invalid-url", "a URL or URI that cannot be parsed or is not allowed",
      r"\burl\b|\buri\b|url scheme|invalid host", "validation"),
    F("invalid-path", "a file system path that is malformed, relative, or of the wrong kind",
      r"not a directory|is a directory|not a file|invalid path|path .*(must|should|invalid|"
      r"absolute|relative)", "validation"),
    F("file-too-large", "an input larger than allowed", r"too (large|big|long)|payload|"
      r"\b413\b|max(imum)? size|size limit", "validation"),
    F("limit-exceeded", "a count, depth or capacity limit reached",
      r"limit|capacity|too many|maximum|max(imum)? (number|count|depth)|recursion", "validation"),
    F("cycle-detected", "a cycle in a graph of dependencies, references or imports",
      r"\bcycl|circular|recursive (import|dependency)", "fix-bug"),
    F("database-error", "a database query, connection or transaction failure",
      r"\bsql|database|\bdb\b|query|transaction|sqlite|postgres|mysql", "retry"),
    F("constraint-violation", "data that violates a unique, foreign-key or check constraint",
      r"constraint|unique|foreign key|integrity", "validation"),
    F("migration-error", "a schema migration that fails or is out of order",
      r"migrat", "upgrade"),
    F("schema-mismatch", "data that does not follow the expected schema",
      r"\bschema\b|unknown field|missing field|unexpected field|required field|"
      r"extra field", "validation"),
    F("unknown-variant", "an enum variant, mode or kind name that is not recognised",
      r"unknown (variant|mode|kind|option|value|type|name|op|operation|command)|"
      r"unrecogni[sz]ed|no variant|invalid (variant|mode|kind|choice)", "validation"),
    F("subprocess-failed", "a child process that failed or could not start",
      r"subprocess|child process|exit (code|status)|command failed|spawn|exec", "try-catch"),
    F("signal-received", "the process received a signal", r"\bsignal\b|sigint|sigterm|sigkill"),
    F("cli-usage", "command-line arguments that are missing or wrong",
      r"\busage\b|command.line|\bflag\b|--\w+|subcommand|\bcli\b", "validation"),
    F("template-error", "a template or format string that cannot be rendered",
      r"template|placeholder|format string|render", "fix-bug"),
    F("regex-error", "a regular expression that does not compile or match",
      r"\bregex|regular expression|pattern .*(invalid|compile)", "validation"),
    F("date-time-error", "a date, time, duration or timezone that is invalid",
      r"\bdate|\btime ?zone|timestamp|duration|datetime|\btz\b", "validation"),
    F("encoding-error", "text in an unexpected character encoding", r"charset|encoding",
      "validation"),
    F("alignment-error", "memory that is not aligned as required", r"align", "fix-bug"),
    F("buffer-error", "a buffer too small, too large or misused", r"\bbuffer|\bbuf\b|"
      r"\bbytes?\b.*(short|few|many|size)", "validation"),
    F("stride-layout-error", "a memory layout (strides, contiguity) the code cannot handle",
      r"strides?|contiguous|layout", "unsupported"),
    F("plugin-error", "an extension, plugin or hook that fails to load or run",
      r"plugin|extension|\bhook\b", "configuration"),
    F("registry-error", "a registry, catalog or lookup table misuse",
      r"registry|register|registered", "fix-bug"),
    F("resource-exhausted", "a pool, handle or descriptor limit exhausted",
      r"exhaust|too many open|pool|descriptor|handles?", "retry"),
    F("queue-full", "a queue or channel at capacity", r"queue|full\b|backpressure", "retry"),
    F("io-eof", "input that ended too early", r"\beof\b|end of (file|input|stream)|"
      r"unexpected end|truncated|incomplete", "validation"),
    F("random-error", "a random number or distribution parameter that is invalid",
      r"\brandom|distribution|\brng\b|seed", "validation"),
    F("sampling-error", "a sampling, probability or weight input that is invalid",
      r"probabilit|sampl|weights? must", "validation"),
    F("math-domain-error", "a math function applied outside its domain",
      r"domain|sqrt|\blog\b.*(negative|zero)|singular|not invertible|invert", "validation"),
    F("optimizer-error", "an optimizer, learning-rate or scheduler setting that is invalid",
      r"optimi[sz]er|learning.rate|\blr\b|scheduler|momentum", "configuration"),
    F("dataset-error", "a dataset, batch or loader that is misused",
      r"dataset|dataloader|\bbatch", "validation"),
    F("model-error", "a neural-network module misconfigured (layers, heads, channels)",
      r"\b(layer|module|channels?|heads?|kernel.size|padding|stride|dilation|groups?)\b",
      "validation"),
    F("tensor-error", "a tensor operation misused in a way not covered above",
      r"\btensor", "validation"),
    F("encoding-size-error", "a size or count that does not fit the declared type",
      r"\bu(8|16|32|64)\b|\bi(8|16|32|64)\b|\busize\b", "validation"),
    F("unsupported-format", "a file, data or wire format the code cannot read or write",
      r"(format|encoding|codec|extension|mime|content.type).*(unsupported|unknown|not supported"
      r"|invalid)", "unsupported"),
    F("deprecated", "a deprecated API or option", r"deprecat", "upgrade"),
    F("version-mismatch", "incompatible versions of data, protocol or dependency",
      r"\bversions?\b|incompatible|too old|too new|requires? .*>=", "upgrade"),
    F("feature-disabled", "a feature gated behind a build flag or setting",
      r"\bfeature\b.*(disabled|not enabled|enable)|compiled without|built without",
      "configuration"),
    F("missing-dependency", "a module, package or library that is not installed",
      r"not installed|no module named|importerror|modulenotfound|missing (dependency|package|"
      r"library)|pip install|cargo add|npm install", "configuration"),
    F("config-missing", "a required configuration value, setting or environment variable absent",
      r"(env(ironment)? var|config|setting|option|\bkey\b).*(missing|not set|required|not "
      r"found|undefined)|must be set|is not set", "configuration"),
    F("config-invalid", "a configuration value that is malformed or contradictory",
      r"(config|configuration|setting|option)s?\b.*(invalid|unknown|conflict|malformed)",
      "configuration"),
    F("credentials", "missing or rejected credentials, tokens or keys",
      r"credential|api.?key|\btoken\b|password|secret", "configuration"),
    F("unauthenticated", "a request without valid authentication",
      r"unauthori[sz]ed|unauthenticated|not (logged|signed) in|authentication|\b401\b"),
    F("permission-denied", "an operation the caller is not allowed to perform",
      r"permission|forbidden|access denied|not allowed|\b403\b|eacces|eperm|privilege"),
    F("missing-argument", "a required argument, field or value that was not given",
      r"\bis required\b|required (argument|parameter|field|value)|missing (argument|parameter"
      r"|value)", "validation"),
    F("not-found", "a named thing (file, key, record, resource) that does not exist",
      r"not found|no such|does not exist|doesn't exist|unknown|missing|\b404\b|notfound|"
      r"could not find|cannot find|can't find|no \w+ (named|with|for)|keyerror", "validation"),
    F("already-exists", "creating something that exists already",
      r"already (exists|registered|defined|present|taken|in use)|duplicate|exists already|"
      r"\b409\b|conflict"),
    F("file-io", "reading or writing a file failed",
      r"\b(read|write|open|create|remove|delete|rename|copy|flush|seek)\b.*\b(file|dir|"
      r"directory|path)|\bio ?error|\bioerror|oserror|\bfs\b|eof|end of file", "try-catch"),
    F("disk-full", "no space left on a device", r"no space|disk full|quota", "try-catch"),
    F("timeout", "an operation that did not finish in time",
      r"time(d)? ?out|deadline|timeout|took too long", "retry"),
    F("connection-error", "a network connection that failed or dropped",
      r"connect(ion)? (failed|refused|reset|closed|error|timed)|connection|socket|network|"
      r"unreachable|refused|reset by peer|broken pipe|\bdns\b", "retry"),
    F("rate-limited", "too many requests", r"rate.?limit|too many requests|\b429\b|throttl",
      "retry"),
    F("service-unavailable", "a remote service that is down or overloaded",
      r"unavailable|\b50[234]\b|overloaded|try again later|server error", "retry"),
    F("http-error", "an HTTP request answered with an error status",
      r"\bhttp\b|status code|\bstatus\b|response|request failed", "retry"),
    F("cancelled", "an operation cancelled or interrupted",
      r"cancel|interrupt|abort|aborted|shutdown|shutting down|closed", "retry"),
    F("lock-poisoned", "a lock poisoned by a panicking thread, or a deadlock",
      r"poison|deadlock|lock", "fix-bug"),
    F("concurrency", "threads, channels or tasks misused",
      r"channel|thread|mutex|send|receiver|sender|join|task|concurren|race", "fix-bug"),
    F("out-of-memory", "an allocation that could not be satisfied",
      r"out of memory|\boom\b|alloc|memory", "try-catch"),
    F("device-error", "a GPU/accelerator/device failure",
      r"\b(cuda|gpu|device|wgpu|vulkan|metal|kernel|cubecl|rocm|hip)\b"),
    F("parse-error", "text that could not be parsed",
      r"pars(e|ing)|syntax|not a (valid )?(number|integer|float)|"
      r"unexpected (token|char|end|eof)|invalid (syntax|json|yaml|toml|"
      r"number|literal|digit)|malformed", "validation"),
    F("serialization-error", "encoding or decoding data failed",
      r"seriali[sz]|deseriali[sz]|encod|decod|serde|json|bincode|protobuf|msgpack|pickle",
      "validation"),
    F("invalid-utf8", "bytes that are not valid text", r"utf-?8|unicode|invalid (char|string)",
      "validation"),
    F("type-error", "a value of the wrong type", r"\btype ?error\b|expected (a |an )?\w+ "
      r"(got|but)|wrong type|must be (a|an) |not (a|an) \w+|typeerror|isinstance|instance of",
      "type-guard"),
    F("null-value", "a null / None / nil / undefined value where one is required",
      r"\b(null|none|nil|undefined)\b|nullpointer", "type-guard"),
    F("invalid-state", "an object used in the wrong state (closed, uninitialized, finished)",
      r"state|not initiali[sz]ed|uninitiali[sz]ed|already (closed|started|finished|running|"
      r"consumed)|not (started|running|ready|open)|before|after", "fix-bug"),
    F("immutable", "writing to something read-only or frozen",
      r"read.?only|immutable|frozen|cannot (modify|assign|mutate)", "fix-bug"),
    F("borrow-error", "a value already borrowed or moved (RefCell, ownership at run time)",
      r"already (mutably )?borrowed|borrowmut|moved", "fix-bug"),
    F("ownership-error", "a resource used after it was released or by the wrong owner",
      r"after (free|close|drop|release)|use after|dropped|released|owner", "fix-bug"),
    F("mismatch", "two values that must agree but do not",
      r"mismatch|does not match|doesn't match|must match|not equal|differ", "validation"),
    F("invariant-violation", "an internal invariant that should always hold",
      r"invariant|unreachable|should (never|not) happen|internal error|\bbug\b|assertion|"
      r"entered unreachable", "fix-bug"),
    F("invalid-argument", "an argument value the function rejects",
      r"invalid|must be|must not|should be|expected|cannot|can't|illegal|bad|wrong|not a valid|"
      r"argument|parameter|valueerror|illegalargument", "validation"),
    F("other", "nothing above fits", r"$^"),
)


@cache
def _compiled() -> tuple[tuple[Family, re.Pattern[str], tuple[str, ...] | None], ...]:
    """Each family's pattern, and strings one of which any match of it holds (``needs``)."""
    return tuple((family, re.compile(family.words), needs(family.words))
                 for family in FAMILIES)


def needs(pattern: str) -> tuple[str, ...] | None:
    """Strings one of which every match of ``pattern`` contains, or None when none are
    known: a plain ``in`` rules most families out of a long text at once, where the
    pattern itself (most start with ``\b``, which keeps ``re`` from skipping ahead) is
    tried at every position of it."""
    try:  # the standard library's own reading of a pattern
        parsed = importlib.import_module("re._parser").parse(pattern)
    except Exception:  # no prefilter is always right
        return None
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return None
    return _needed(list(parsed.data))


def _needed(items: list[tuple[Any, Any]]) -> tuple[str, ...] | None:
    """``needs`` of a parsed sequence: its literal runs, and what a group, a branch (each
    alternative's) or a repeat of at least one time needs; the fewest strings found."""
    op = importlib.import_module("re._constants")
    found: list[tuple[str, ...]] = []
    run: list[str] = []
    for code, value in items:
        if code is op.LITERAL:
            run.append(chr(value))
            continue
        if run:
            found.append(("".join(run),))
            run = []
        inner: tuple[str, ...] | None = None
        if code is op.SUBPATTERN and not value[1] & re.IGNORECASE:
            inner = _needed(list(value[-1]))
        elif code is op.BRANCH:
            branches = [_needed(list(b)) for b in value[1]]
            if all(branches):
                inner = tuple(s for b in branches if b for s in b)
        elif code in (op.MAX_REPEAT, op.MIN_REPEAT) and value[0] >= 1:
            inner = _needed(list(value[2]))
        if inner:
            found.append(inner)
    if run:
        found.append(("".join(run),))
    return min(found, key=lambda f: (len(f), -min(len(s) for s in f))) if found else None


def classify(text: str, limit: int | None = None) -> list[Family]:
    """The families whose words occur in ``text`` (lowercased), in taxonomy order; the first
    ``limit`` of them."""
    return list(_classified(text, limit))


@lru_cache(maxsize=4096)
def _classified(text: str, limit: int | None) -> tuple[Family, ...]:
    """``classify``, remembered: the records of one function share its documentation, and
    each tries some thirty patterns on it."""
    lowered = text.lower()
    found: list[Family] = []
    for family, words, needed in _compiled():
        if needed is not None:  # a plain loop: a generator per family cost more than ``in``
            for piece in needed:
                if piece in lowered:
                    break
            else:
                continue
        if words.search(lowered):
            found.append(family)
            if limit is not None and len(found) >= limit:
                break
    return tuple(found)


def family(name: str) -> Family:
    return next(f for f in FAMILIES if f.name == name)


def markdown() -> str:
    """``docs/taxonomy.md``: the table above, for people."""
    lines = [
        "# Error families (`backgroundTag`)",
        "",
        "One taxonomy for every language, generated from `src/errdex/enrich/taxonomy.py`",
        "(a test keeps this file equal to it). A record's `backgroundTag` is the first family",
        "whose words occur in its message's literal text (then its error class, then its doc",
        "notes); `other` when none does. The strategy column is the `handlingStrategy` the",
        "family suggests when the record's evidence does not decide it.",
        "",
        "| family | meaning | suggested strategy |",
        "| --- | --- | --- |",
    ]
    lines += [f"| `{f.name}` | {f.meaning} | {f.strategy or '—'} |" for f in FAMILIES]
    return "\n".join(lines) + "\n"

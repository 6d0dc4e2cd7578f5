"""Error codes in a paste: read them, and rank the records that carry them first.

A code is a key: ``Error [ERR_X]: …``, ``code: 'ENOENT'``, ``error[E0308]``, ``(SQLSTATE
23505)``, gRPC's ``code = NotFound`` name the error exactly where the wording may have
changed. A paste that carries one ranks the records with that ``errorCode`` first; a paste
that is nothing but a code (``ERR_BAD_RESPONSE``) lists the records that carry it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from errdex.languages._engine.pastes.common import ErrorEvent
from errdex.lookup.ranking import Scored
from errdex.mining.codes import ERRNO_NAMES, GRPC_CODES
from errdex.store.protocol import Store

__all__ = ["CODE_BONUS", "PasteCodes", "apply_codes", "may_carry_code", "paste_codes",
           "spellings"]

CODE_BONUS = 0.35  # a matching code: above a class match, below a full match's worth
_ALONE_SCORE = 0.9  # a paste of a code alone: the records carrying it, exact keys
_DIFFERS_SCORE = 0.55  # the code matches, the message does not: below full matches
_MOST_ROWS = 50  # records carrying one code read per lookup
_MOST_ADDED = 10  # records added by their code alone to a paste that has a message
_SCAN_CHARS = 20_000  # a paste's first characters searched for codes

_BRACKETED = re.compile(r"\[([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]|E\d{4}|ERR[A-Z0-9]{2,30})\]")
_KEYED = re.compile(
    r"""(?<![\w$])["']?(?:code|errorCode|error_code|errno)["']?\s?[:=]\s?"""
    r"""(?:'([A-Za-z][\w.\-]{0,63})'|"([A-Za-z][\w.\-]{0,63})"|([A-Z][A-Za-z0-9_]{2,63})\b)"""
)
_SQLSTATE = re.compile(r"\bSQLSTATE\s?[\[=:]?\s?([0-9A-Z]{5})\b", re.IGNORECASE)
_STATUS_CODE = re.compile(r"\bStatusCode\.([A-Z][A-Z_]{3,24})\b")
_ERRNO_WORD = re.compile(r"E[A-Z0-9]{2,15}")
_UPPER_CODE = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]|ERR[A-Z0-9]{2,30}|E\d{4}")
_LEVELS = frozenset({"ERROR", "ERRORS", "ERR_"})  # ``[ERROR]``: a log level, not a code
# What may surround a code in a paste of the code alone (``error[E0308]``, ``SQLSTATE 23505``).
_DECORATION = re.compile(r"(?i)\b(?:sqlstate|error|code|errno|status)\b|[\s\[\](){}:=,'\"`]")

# SQLSTATE codes with the condition names drivers and servers spell them by (PostgreSQL's
# appendix: ``23505`` is ``unique_violation``, ``ERRCODE_UNIQUE_VIOLATION`` in its source).
_SQLSTATE_NAMES = {
    "23505": "unique_violation", "23503": "foreign_key_violation",
    "23502": "not_null_violation", "23514": "check_violation", "23P01": "exclusion_violation",
    "42P01": "undefined_table", "42703": "undefined_column", "42883": "undefined_function",
    "42601": "syntax_error", "42501": "insufficient_privilege", "42P07": "duplicate_table",
    "40001": "serialization_failure", "40P01": "deadlock_detected", "57014": "query_canceled",
    "08006": "connection_failure", "08001": "sqlclient_unable_to_establish_sqlconnection",
    "22P02": "invalid_text_representation", "22001": "string_data_right_truncation",
    "22003": "numeric_value_out_of_range", "22012": "division_by_zero",
    "53300": "too_many_connections", "28P01": "invalid_password",
    "3D000": "invalid_catalog_name", "25P02": "in_failed_sql_transaction",
    "55P03": "lock_not_available", "57P01": "admin_shutdown",
}


@dataclass(frozen=True)
class PasteCodes:
    """The codes a paste carries, best first, and whether it is nothing but one of them."""

    codes: tuple[str, ...]
    alone: bool = False


def paste_codes(event: ErrorEvent, paste: str | None = None) -> PasteCodes:
    """The codes of one event (and the paste it came from), first those its reader found."""
    text = (paste or event.text or event.message)[:_SCAN_CHARS]
    found: dict[str, None] = {}
    if event.code:
        found[event.code] = None
    lowered = text.lower()
    # Each form is looked for only when a plain substring test says it may be there: a
    # scan ranks every error line of a log, and most carry no code at all.
    for regex, marker in ((_BRACKETED, "["), (_SQLSTATE, "sqlstate"),
                          (_STATUS_CODE, "statuscode.")):
        if marker in lowered:
            for match in regex.finditer(text):
                found.setdefault(match.group(1), None)
    if "code" in lowered or "errno" in lowered:
        for match in _KEYED.finditer(text):
            value = match.group(1) or match.group(2) or match.group(3)
            if value and (match.group(3) is None or _code_like(value)):
                found.setdefault(value, None)
    for word in _ERRNO_WORD.findall(text):  # no \b: several times faster, same names
        if word in ERRNO_NAMES and _whole_word(text, word):
            found.setdefault(word, None)
    for level in _LEVELS.intersection(found):
        del found[level]
    stripped = text.strip()
    if not found and (_UPPER_CODE.fullmatch(stripped) or stripped in GRPC_CODES):
        found[stripped] = None
    codes = tuple(found)
    alone = bool(codes) and not _rest_of(stripped, codes)
    return PasteCodes(codes, alone)


def may_carry_code(event: ErrorEvent) -> bool:
    """Whether ``paste_codes(event)`` may read a code (False: it reads none): the same
    substring tests before each form, one search for an errno's spelling, the code-alone
    test. A scan rechecks thousands of log lines that carry none."""
    if event.code:
        return True
    text = (event.text or event.message)[:_SCAN_CHARS]
    lowered = text.lower()
    if "[" in lowered or "sqlstate" in lowered or "statuscode." in lowered or (
            "code" in lowered or "errno" in lowered):
        return True
    if _ERRNO_WORD.search(text) is not None:
        return True
    stripped = text.strip()
    return bool(_UPPER_CODE.fullmatch(stripped)) or stripped in GRPC_CODES


def _whole_word(text: str, word: str) -> bool:
    """Whether ``word`` stands alone somewhere in ``text`` (``ENOENT:``, not ``XENOENTS``)."""
    return re.search(rf"(?<![\w.]){word}(?!\w)", text) is not None


def _code_like(value: str) -> bool:
    """An unquoted value is a code when it is spelled like one: ``ERR_X``, ``NotFound``."""
    return bool(_UPPER_CODE.fullmatch(value)) or value in GRPC_CODES or value in ERRNO_NAMES


def _rest_of(text: str, codes: tuple[str, ...]) -> str:
    """What a paste holds besides its codes and their usual decoration."""
    for code in codes:
        text = text.replace(code, " ")
    return _DECORATION.sub("", text)


def spellings(code: str) -> list[str]:
    """Every way a source may spell ``code``: gRPC's ``NotFound`` and ``NOT_FOUND``, a
    SQLSTATE and its condition name (``23505``, ``unique_violation``, …)."""
    found = [code]
    if code in GRPC_CODES:
        found.append(re.sub(r"(?<!^)(?=[A-Z])", "_", code).upper())
    elif "_" in code and code.isupper():
        camel = "".join(word.capitalize() for word in code.split("_"))
        if camel in GRPC_CODES:
            found.append(camel)
    name = _SQLSTATE_NAMES.get(code.upper())
    if name is not None:
        camel = "".join(word.capitalize() for word in name.split("_"))
        found += [name, name.upper(), f"ERRCODE_{name.upper()}", camel]
    return list(dict.fromkeys(found))


def apply_codes(
    store: Store, codes: PasteCodes, scored: dict[str, Scored], repo: str | None
) -> None:
    """Rank the records carrying one of the paste's codes first, saying so.

    Records the message already found gain ``CODE_BONUS``; others carrying the code are
    added below the full matches (approximate: only the key agrees), or, for a paste of a
    code alone, listed as what it names.
    """
    for code in codes.codes:
        rows = store.rows_with_codes(spellings(code), repo, _MOST_ROWS)
        if not rows:
            continue
        added = 0
        for row in rows:
            item = scored.get(row.id)
            if item is not None:
                item.score += CODE_BONUS
                item.reasons.append(f"error code {code} matches")
            elif codes.alone:
                scored[row.id] = Scored(row, _ALONE_SCORE, [f"raises error code {code}"])
            elif added < _MOST_ADDED:
                scored[row.id] = Scored(
                    row, _DIFFERS_SCORE, [f"error code {code} matches; the message differs"],
                    approximate=True)
                added += 1
        return  # the first code the store knows decides; later ones are likely context

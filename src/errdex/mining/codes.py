"""An error site's code, read from the raising statement's own text, whatever the language.

A code is the key a user searches by (``ERR_BAD_RESPONSE``, ``ENOENT``, ``E0308``, a gRPC
``NotFound``), so a record carries it in ``errorCode`` wherever the source shows one. The
languages already set it where their syntax says so (``Site.error_code``: gRPC calls, a
class's ``this.code``); this module reads what one statement spells out in any language:

* a ``code`` key or field given a literal (``{ code: 'ENOENT' }``, ``code="invalid"``,
  ``err.code = 'ERR_X'`` just before the raise);
* a gRPC status (``codes.NotFound``, ``StatusCode.NOT_FOUND``, ``Status.Code.NOT_FOUND``);
* an errno name (``errno.ENOENT``, ``syscall.EINVAL``), a SQLSTATE (``sqlstate = '23505'``,
  ``errcode(ERRCODE_UNIQUE_VIOLATION)``), a rustc-style code (``E0308``);
* a constant of a code holder passed to the error (``ErrorCode.BAD_TOKEN``,
  ``AxiosError.ERR_BAD_RESPONSE``), or an error enum's variant (``Error::InvalidToken``).

Every regex is linear (no nested unbounded quantifiers) and runs over a few lines.
"""

from __future__ import annotations

import re

__all__ = ["ERRNO_NAMES", "GRPC_CODES", "code_in_statement", "site_code", "statement_text"]

# The POSIX / Linux errno names a message is raised with (the common ones).
ERRNO_NAMES = frozenset((
    "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF",
    "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "EBUSY", "EEXIST", "EXDEV", "ENODEV",
    "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG",
    "ENOSPC", "ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK",
    "ENAMETOOLONG", "ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP", "EWOULDBLOCK", "ENOMSG",
    "ENODATA", "ETIME", "EPROTO", "EOVERFLOW", "EILSEQ", "ENOTSOCK", "EDESTADDRREQ",
    "EMSGSIZE", "EPROTOTYPE", "ENOPROTOOPT", "EPROTONOSUPPORT", "EOPNOTSUPP", "ENOTSUP",
    "EAFNOSUPPORT", "EADDRINUSE", "EADDRNOTAVAIL", "ENETDOWN", "ENETUNREACH", "ENETRESET",
    "ECONNABORTED", "ECONNRESET", "ENOBUFS", "EISCONN", "ENOTCONN", "ESHUTDOWN",
    "ETIMEDOUT", "ECONNREFUSED", "EHOSTDOWN", "EHOSTUNREACH", "EALREADY", "EINPROGRESS",
    "ESTALE", "EDQUOT", "ECANCELED", "EOWNERDEAD", "ENOTRECOVERABLE", "ENOTBLK", "ENOTUNIQ",
    "EBADMSG", "EIDRM", "ENOSTR", "ENOSR", "ENOLINK", "EREMOTE", "ECOMM", "EUSERS",
))

# gRPC status codes as Go and C# spell them; Java, Python and C++ write the UPPER_SNAKE form.
GRPC_CODES = frozenset((
    "Canceled", "Cancelled", "Unknown", "InvalidArgument", "DeadlineExceeded", "NotFound",
    "AlreadyExists", "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
    "Aborted", "OutOfRange", "Unimplemented", "Internal", "Unavailable", "DataLoss",
    "Unauthenticated",
))
_GRPC_UPPER = frozenset(re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper() for name in GRPC_CODES)

# Most lines of a statement read, and lines after it searched for ``err.code = …``.
_STATEMENT_LINES = 8
_AFTER_LINES = 3
_MAX_CHARS = 2_000

_STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`""")
# ``code: 'X'``, ``code="X"``, ``errorCode = "X"``, ``"code": "X"``, ``err.code = 'X'``.
_CODE_KEY = re.compile(
    r"""(?<![\w$])["']?(?:code|error_?[cC]ode|err_?[cC]ode|errno_?[cC]ode)["']?\s*(?::|=>|=)\s*"""
    r"""(?:"([A-Za-z][\w.\-]{0,63})"|'([A-Za-z][\w.\-]{0,63})'|`([A-Za-z][\w.\-]{0,63})`"""
    r"""|([A-Za-z_$][\w$]{0,40}(?:(?:\.|::)[A-Za-z_$][\w$]{0,40}){0,4}))"""
)
# gRPC: Go ``codes.NotFound``; C# ``StatusCode.NotFound``; Java ``Status.NOT_FOUND`` /
# ``Status.Code.NOT_FOUND``; Python ``grpc.StatusCode.NOT_FOUND``; C++ ``StatusCode::NOT_FOUND``.
_GRPC = re.compile(
    r"\b(?:codes|StatusCode|Status(?:\.Code)?|Code)(?:\.|::)([A-Z][A-Za-z_]{3,24})\b")
_ERRNO = re.compile(
    r"(?<![\w.])(?:(?:errno|syscall|unix|os|Errno|libc)(?:\.|::))?(E[A-Z0-9]{2,15})\b")
_SQLSTATE = re.compile(
    r"""(?i:sql_?state)\w*["']?\s*(?:[:=(,]|=>)?\s*["']([0-9A-Z]{5})["']"""
    r"|\berrcode\(\s*(ERRCODE_[A-Z_]{3,60})\s*\)"
)
_RUSTC = re.compile(r"\b(E0\d{3})\b")
# ``ErrorCode.BAD_TOKEN``, ``AxiosError.ERR_BAD_RESPONSE``, ``Errors::NO_SUCH_KEY``.
_HOLDER = re.compile(
    r"\b([A-Z][A-Za-z0-9]{0,40}(?:Code|Codes|Error|Errors|Err|Exception|Reason|Reasons|Kind))"
    r"(?:\.|::)([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]|ERR[A-Z0-9]{2,})\b"
)
# An error enum's variant: ``Error::InvalidToken``, ``ErrorKind::NotFound``.
_VARIANT = re.compile(
    r"\b(?:[A-Za-z]\w{0,40}Error|Error|ErrorKind|Errno|ErrorCode|Code)::([A-Z][A-Za-z0-9]{2,40})\b"
)
_OPENERS, _CLOSERS = "([{", ")]}"


def statement_text(lines: list[str], line: int) -> tuple[str, str]:
    """(the statement starting at 1-based ``line``, the few lines after it).

    The statement ends at the first line where its brackets close (strings left out of the
    count), at most ``_STATEMENT_LINES`` lines; what follows, up to a line that raises or
    returns, may set the error's code (``err.code = 'X'; throw err``).
    """
    start = max(0, line - 1)
    depth, end = 0, start
    for end in range(start, min(len(lines), start + _STATEMENT_LINES)):
        depth += _depth_change(_STRING.sub('""', lines[end]))
        if depth <= 0:
            break
    after: list[str] = []
    for text in lines[end + 1: end + 1 + _AFTER_LINES]:
        stripped = text.strip()
        if stripped.startswith(("throw", "raise", "return", "panic", "}", "end")):
            break
        after.append(text)
    statement = "\n".join(lines[start:end + 1])[:_MAX_CHARS]
    return statement, "\n".join(after)[:_MAX_CHARS]


def _depth_change(code: str) -> int:
    return sum(code.count(c) for c in _OPENERS) - sum(code.count(c) for c in _CLOSERS)


def code_in_statement(statement: str, after: str = "") -> str | None:
    """The error code one raising statement (and the lines after it) spells, or None."""
    code = _keyed(statement) or _keyed(after, assigned_only=True)
    if code:
        return code
    bare = _STRING.sub('""', statement)  # codes are read outside strings from here on
    # each pattern is tried only where the text holds what every match of it holds
    if "ode" in bare or "Status" in bare:
        for match in _GRPC.finditer(bare):
            name = match.group(1)
            if name in GRPC_CODES or name in _GRPC_UPPER:
                return name
    for match in _SQLSTATE.finditer(statement):
        return match.group(1) or match.group(2)
    for match in _ERRNO.finditer(bare):
        if match.group(1) in ERRNO_NAMES:
            return match.group(1)
    held = {m.group(2) for m in _HOLDER.finditer(bare) if not m.group(1).startswith("Http")
            } if "_" in bare or "ERR" in bare else set()
    if len(held) > 1:
        return None  # one of several by a condition (``[E.ERR_A, E.ERR_B][i]``): none known
    if held:
        return held.pop()
    variant = _VARIANT.search(bare) if "::" in bare else None
    if variant:
        return variant.group(1)
    rustc = _RUSTC.search(bare) if "E0" in bare else None
    return rustc.group(1) if rustc else None


def _keyed(text: str, *, assigned_only: bool = False) -> str | None:
    """The value of a ``code`` key or field, outside the statement's strings."""
    if not text or ("ode" not in text and "errno" not in text):
        return None
    strings = [m.span() for m in _STRING.finditer(text)]
    for match in _CODE_KEY.finditer(text):
        at = match.start()
        if any(s <= at < e for s, e in strings):
            continue  # ``"error code: x"`` inside a message
        if assigned_only and "." not in text[max(0, at - 2):at + 1]:
            continue  # after the statement only ``err.code = …`` is about this error
        literal = match.group(1) or match.group(2) or match.group(3)
        if literal:
            return literal
        name = match.group(4)
        if name:
            last = re.split(r"\.|::", name)[-1]
            # a constant (``ErrorCode.BAD_X``, ``ENOENT``) is a code; a variable is not known
            if (last.isupper() and len(last) > 1) or last in GRPC_CODES:
                return last
    return None


def site_code(given: str | None, lines: list[str], line: int) -> str | None:
    """A site's ``errorCode``: what its language read (``Site.error_code``), else what the
    raising statement at 1-based ``line`` of ``lines`` spells."""
    if given:
        return given
    return code_in_statement(*statement_text(lines, line))

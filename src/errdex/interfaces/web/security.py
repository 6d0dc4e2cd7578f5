"""The guard around the whole web app: Host allow-list, cross-site refusal, headers.

It wraps the application outside Starlette's own error middleware, so every
response gets the security headers, a 500 included:

- **Host allow-list.** A page on another site can make a browser send requests to
  a loopback server by pointing its own name at 127.0.0.1 (DNS rebinding); such a
  request carries that name as its Host. Only loopback names, and the names given
  with ``errdex serve --allowed-host``, are served; any other Host is a 400.
- **Cross-site requests refused.** Nothing here changes state, but a lookup costs
  CPU: a POST that a browser marks as sent from another site (``Sec-Fetch-Site``,
  or an ``Origin`` that is not this host) is a 403, so no other page can spend
  this server's time in its visitors' names. (``GET /explain?text=`` from another
  site only fills the paste box; see ``pages.explain_link``.)
- **Headers.** A Content-Security-Policy that allows this site's own stylesheets
  and nothing else (no script at all: the pages work without it), no framing,
  no MIME sniffing, no Referer (pasted errors travel in ``/explain`` URLs).
- **Query length cap.** A query string over 32 KiB is a 414 before any parsing.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from errdex.interfaces.web.errors import MAX_DRAIN_BYTES, drain_body, expects_continue
from errdex.visible import json_text, visible

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
ANY_HOST = "*"
MAX_QUERY_BYTES = 32 * 1024

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = tuple(
    (name.encode("latin-1"), value.encode("latin-1")) for name, value in (
        ("content-security-policy", CONTENT_SECURITY_POLICY),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
        ("cross-origin-opener-policy", "same-origin"),
        ("cross-origin-resource-policy", "same-origin"),
    )
)
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_CROSS_SITE = frozenset({"cross-site", "same-site"})


def host_name(value: str) -> str:
    """``[::1]:8000`` → ``::1``, ``LocalHost.:80`` → ``localhost``: the name a Host
    header or an ``--allowed-host`` gives, without port, brackets or final dot."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[1:end] if end > 0 else value
    if value.count(":") == 1:
        name, _, port = value.partition(":")
        if port.isdigit() or not port:
            value = name
    elif value.count(":") > 1:  # a bare IPv6 address, as --allowed-host ::1
        return value
    return value.rstrip(".")


def allowed_host_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """Loopback names plus ``extra`` (``*`` allows any Host)."""
    return frozenset(LOOPBACK_HOSTS) | {host_name(name) for name in extra if name.strip()}


def bind_address_name(host: str) -> str | None:
    """The address ``serve --host`` listens on, when it is one a Host header can name:
    a specific IP (browsers cannot be rebound to an IP literal); None for 0.0.0.0 / ::."""
    try:
        address = ipaddress.ip_address(host_name(host))
    except ValueError:
        return None
    return None if address.is_unspecified else str(address)


class GuardMiddleware:
    """Host allow-list, cross-site refusal, query cap and security headers (see module)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = LOOPBACK_HOSTS):
        self.app = app
        self.allowed = frozenset(host_name(h) for h in allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(n, v) for n, v in SECURITY_HEADERS if n not in present]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        refusal = self.refusal(scope)
        if refusal is not None:
            status, text = refusal
            if scope["method"] not in _SAFE_METHODS and not expects_continue(scope):
                await drain_body(receive, MAX_DRAIN_BYTES)  # so the client reads the answer
            await _refuse(status, text, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """The status and message this request is refused with, or None to serve it."""
        headers = Headers(scope=scope)
        host = headers.get("host")
        # A request without Host (HTTP/1.0) cannot come from a browser page.
        if host is not None and ANY_HOST not in self.allowed:
            name = host_name(host)
            if name not in self.allowed:
                return 400, (f"host {name!r} is not served here (DNS rebinding guard); "
                             f"start errdex serve with --allowed-host {name} to allow it")
        if len(scope.get("query_string", b"")) > MAX_QUERY_BYTES:
            return 414, (f"the query string is over {MAX_QUERY_BYTES // 1024} KiB; "
                         "POST long text instead")
        if scope["method"] not in _SAFE_METHODS and _cross_site(headers):
            return 403, ("cross-site request refused: this errdex only answers forms and "
                         "API calls sent from its own pages or from outside a browser")
        return None


def _cross_site(headers: Headers) -> bool:
    """Whether a browser says this request was sent by another site's page."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site.lower() in _CROSS_SITE
    origin = headers.get("origin")
    if origin is None:
        return False  # not a browser, or a same-origin GET form
    if origin == "null":
        return True  # sandboxed frame, file: page
    try:
        parts = urlsplit(origin)
        origin_host = parts.netloc.lower()
    except ValueError:
        return True
    return origin_host != (headers.get("host") or "").lower()


async def _refuse(status: int, message: str, send: Send) -> None:
    code = {400: "bad_request", 403: "forbidden", 414: "uri_too_long"}.get(status, "error")
    body = json_text({"error": {"code": code, "message": visible(message)}},
                     compact=True).encode("utf-8")
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode("latin-1")),
    ]})
    await send({"type": "http.response.body", "body": body})

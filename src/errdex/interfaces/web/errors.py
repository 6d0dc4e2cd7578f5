"""One error shape for every error, and the request body limit.

Every error the web app answers is ``{"error": {"code": str, "message": str}}``
(pages get the same code and message in an HTML page). Statuses come from
``errdex.errors.http_status_for`` and nowhere else; an unexpected exception is
a 500 whose message says nothing about its cause, so no traceback or internal
detail ever reaches a client (the server log has it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from errdex.errors import ErrdexError, http_status_for
from errdex.visible import json_text

MAX_BODY_BYTES = 1024 * 1024
MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES
INTERNAL_MESSAGE = "internal error; the server log has the details"

log = logging.getLogger("errdex.interfaces.web")

HtmlRenderer = Callable[[Request, int, str, str], HTMLResponse]


class SafeJSONResponse(JSONResponse):
    """JSON whose text carries controls, bidi controls and lone surrogates as ``\\uXXXX``
    escapes: the same data for any JSON reader, safe on a terminal, always encodable
    (a record's path may hold a surrogate, which plain ``JSONResponse`` cannot send)."""

    def render(self, content: Any) -> bytes:
        return json_text(content, compact=True, allow_nan=False).encode("utf-8")


_CODES = {
    400: "bad_request", 404: "not_found", 405: "method_not_allowed",
    413: "payload_too_large", 422: "validation_error", 500: "internal_error",
}


def error_code(status: int) -> str:
    """``404`` → ``not_found``; stable across Python versions for the statuses we send."""
    if status in _CODES:
        return _CODES[status]
    try:
        return HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")
    except ValueError:
        return "error"


def error_body(status: int, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": error_code(status), "message": message}}


def _wants_html(request: Request) -> bool:
    path = request.url.path
    if path.startswith("/api/") or path == "/openapi.json":
        return False
    return "text/html" in request.headers.get("accept", "")


def install_error_handlers(app: FastAPI, html: HtmlRenderer) -> None:
    """Route every error through one shape: JSON for the API, an HTML page for browsers."""

    def respond(
        request: Request, status: int, message: str, headers: dict[str, str] | None = None
    ) -> Response:
        if _wants_html(request):
            page = html(request, status, error_code(status), message)
            if headers:
                page.headers.update(headers)
            return page
        return SafeJSONResponse(error_body(status, message), status_code=status,
                                headers=headers)

    async def on_errdex(request: Request, exc: Exception) -> Response:
        status = http_status_for(exc)
        if status >= 500:
            log.error("errdex error on %s %s", request.method, request.url.path, exc_info=exc)
        return respond(request, status, str(exc) if status < 500 else INTERNAL_MESSAGE)

    async def on_http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        status = exc.status_code
        message = exc.detail if isinstance(exc.detail, str) else HTTPStatus(status).phrase
        if status >= 500:
            message = INTERNAL_MESSAGE
        return respond(request, status, message, getattr(exc, "headers", None))

    async def on_validation(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return respond(request, 422, validation_message(exc.errors()))

    async def on_crash(request: Request, exc: Exception) -> Response:
        log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
        return respond(request, 500, INTERNAL_MESSAGE)

    app.add_exception_handler(ErrdexError, on_errdex)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(Exception, on_crash)


def validation_message(errors: Any) -> str:
    """``body.top: Input should be greater than or equal to 1`` (up to three, joined)."""
    parts = []
    for error in list(errors)[:3]:
        where = ".".join(str(p) for p in error.get("loc", ()))
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", ""))
    return "; ".join(parts) or "invalid request"


class BodyLimitMiddleware:
    """413 for request bodies over ``limit`` bytes: by Content-Length, then by reading.

    At most ``limit + 1`` bytes are kept; the body is then replayed to the app. Before
    a 413 the rest of the body is read and dropped (up to ``drain`` bytes): a client
    that sends its whole body before reading the answer (Python's urllib, requests)
    would otherwise see the connection reset instead of the 413. A client that asked
    to wait (``Expect: 100-continue``) is answered without being sent for the body.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES,
                 drain: int = MAX_DRAIN_BYTES):
        self.app = app
        self.limit = limit
        self.drain = drain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            if declared <= self.drain and not expects_continue(scope):
                await drain_body(receive, self.drain)
            await self._too_large(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([], message, receive), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                if message.get("more_body", False):
                    await drain_body(receive, self.drain - size)
                await self._too_large(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        await self.app(scope, _replay(chunks, None, receive), send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"request body is over {self.limit // 1024} KiB; send less text"
        response = SafeJSONResponse(error_body(413, message), status_code=413,
                                headers={"Connection": "close"})
        await response(scope, receive, send)


async def drain_body(receive: Receive, limit: int) -> bool:
    """Read and drop the rest of a request body, at most ``limit`` more bytes; whether
    it ended (False: the client left, or sent more than that)."""
    read = 0
    while read <= limit:
        message = await receive()
        if message["type"] != "http.request":
            return False
        read += len(message.get("body", b""))
        if not message.get("more_body", False):
            return True
    return False


def expects_continue(scope: Scope) -> bool:
    """Whether the client waits to be asked for its body (``Expect: 100-continue``)."""
    return any(name == b"expect" and value.lower() == b"100-continue"
               for name, value in scope.get("headers", ()))


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _replay(chunks: list[bytes], pending: Message | None, receive: Receive) -> Receive:
    """A ``receive`` that first gives back the body already read."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            if pending is not None:
                return pending
            return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        return await receive()

    return replayed

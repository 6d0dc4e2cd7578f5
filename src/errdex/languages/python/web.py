"""Python web framework errors: sites whose ``errorType`` is ``http``.

A class or function is recognised through the file's imports (``from fastapi
import HTTPException``, ``from rest_framework import exceptions`` then
``exceptions.NotFound``), so a project's own ``NotFound`` stays an ordinary
exception. Only names no other library uses are also taken unimported
(``Http404``, ``HttpResponseBadRequest``) and ``HTTPException`` when it is given a
status code. The status comes from an int literal, a ``status.HTTP_404_NOT_FOUND``
style constant (FastAPI, Starlette and DRF ``status`` modules) or
``HTTPStatus.NOT_FOUND``; a status computed at run time leaves ``httpStatus`` null.

What each framework prints, and what the pattern matches:

* FastAPI / Starlette ``HTTPException(status_code, detail)``: the response body is
  ``{"detail": "<detail>"}``; ``str(exc)`` is ``"<status>: <detail>"``. The pattern
  is the detail. Without a detail the body is the status phrase (``Not Found``),
  which nothing in the repository explains: no site.
* Flask / werkzeug ``abort(404, "…")`` and ``raise NotFound("…")``: the page shows the
  description; ``str(exc)`` is ``"404 Not Found: <description>"``. The pattern is the
  description. ``abort``'s ``errorClass`` is the werkzeug class its status raises
  (``NotFound``), or ``HTTPException`` when the status is not known.
* Django ``Http404`` (404), ``PermissionDenied`` (403), ``SuspiciousOperation`` and its
  subclasses, ``BadRequest`` (400): ``str(exc)`` is the message (shown on the DEBUG
  error page). ``HttpResponseBadRequest("…")`` and the other error responses: the body
  is the content. ``JsonResponse({"error": "…"}, status=400)`` and Starlette's
  ``JSONResponse``: the pattern is the value under ``error``/``detail``/``message``.
* DRF ``rest_framework.exceptions``: the body is ``{"detail": "<detail>"}``
  (``ValidationError``: ``["<detail>"]``, or ``{"field": ["<detail>"]}`` for a one-key
  dict). The pattern is the detail; an explicit ``code="…"`` is the ``errorCode``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from http import HTTPStatus

from tree_sitter import Node

from errdex.languages._engine import FileIndex, Message
from errdex.languages.base import Site, line_of, text
from errdex.languages.python.messages import (
    arguments,
    dict_items,
    last_name,
    literal_string,
    read,
    symbol_of,
    unwrap,
)
from errdex.templates.template import Hole, Template


@dataclass(frozen=True)
class WebClass:
    """How one framework class reads its arguments: where the message and status are."""

    framework: str
    status: int | None
    message_index: int = 0  # positional index of the message argument
    message_keywords: tuple[str, ...] = ()
    status_index: int | None = None  # an explicit status argument (FastAPI, abort, responses)
    status_keywords: tuple[str, ...] = ()


_WERKZEUG_STATUS = {
    "BadRequest": 400, "BadRequestKeyError": 400, "ClientDisconnected": 400,
    "SecurityError": 400, "BadHost": 400, "Unauthorized": 401, "Forbidden": 403,
    "NotFound": 404, "MethodNotAllowed": 405, "NotAcceptable": 406, "RequestTimeout": 408,
    "Conflict": 409, "Gone": 410, "LengthRequired": 411, "PreconditionFailed": 412,
    "RequestEntityTooLarge": 413, "RequestURITooLarge": 414, "UnsupportedMediaType": 415,
    "RequestedRangeNotSatisfiable": 416, "ExpectationFailed": 417, "ImATeapot": 418,
    "UnprocessableEntity": 422, "Locked": 423, "FailedDependency": 424,
    "PreconditionRequired": 428, "TooManyRequests": 429, "RequestHeaderFieldsTooLarge": 431,
    "UnavailableForLegalReasons": 451, "InternalServerError": 500, "NotImplemented": 501,
    "BadGateway": 502, "ServiceUnavailable": 503, "GatewayTimeout": 504,
    "HTTPVersionNotSupported": 505,
}
_WERKZEUG_FIRST_ARGS = {"MethodNotAllowed": 1, "RequestedRangeNotSatisfiable": 2}
_DJANGO_STATUS = {
    "Http404": 404, "PermissionDenied": 403, "BadRequest": 400, "SuspiciousOperation": 400,
    "DisallowedHost": 400, "DisallowedRedirect": 400, "SuspiciousFileOperation": 400,
    "SuspiciousMultipartForm": 400, "SuspiciousSession": 400, "TooManyFieldsSent": 400,
    "TooManyFilesSent": 400, "RequestDataTooBig": 400,
}
_DRF_STATUS = {
    "APIException": 500, "ValidationError": 400, "ParseError": 400,
    "AuthenticationFailed": 401, "NotAuthenticated": 401, "PermissionDenied": 403,
    "NotFound": 404, "MethodNotAllowed": 405, "NotAcceptable": 406,
    "UnsupportedMediaType": 415, "Throttled": 429,
}
_DRF_FIRST_ARGS = {"MethodNotAllowed": 1, "UnsupportedMediaType": 1, "Throttled": 1}
_DJANGO_RESPONSES = {
    "HttpResponseBadRequest": 400, "HttpResponseForbidden": 403, "HttpResponseNotFound": 404,
    "HttpResponseGone": 410, "HttpResponseServerError": 500,
}
_FASTAPI = WebClass("fastapi", None, 1, ("detail",), 0, ("status_code",))
_ABORT = WebClass("werkzeug", None, 1, ("description",), 0, ("code", "status"))
_STATUS_CONSTANT = re.compile(r"HTTP_(\d{3})(?:_\w+)?")


# --- which names are web errors --------------------------------------------------------


def raise_class(written: str, args: Node, file: FileIndex) -> WebClass | None:
    """The framework class ``raise <written>(…)`` instantiates, or None for other exceptions."""
    dotted = file.qualified(written)
    module, _, name = dotted.rpartition(".")
    root = module.partition(".")[0]
    if name == "HTTPException":
        if root in ("fastapi", "starlette"):
            return _FASTAPI
        if root == "werkzeug":
            return WebClass("werkzeug", None, 0, ("description",))
        if not module and _has_status_argument(args):
            return _FASTAPI  # a FastAPI-shaped call whose import errdex cannot see
        return None
    if root in ("werkzeug", "flask") and name in _WERKZEUG_STATUS:
        index = _WERKZEUG_FIRST_ARGS.get(name, 0)
        return WebClass("werkzeug", _WERKZEUG_STATUS[name], index, ("description",))
    if root == "rest_framework" and name in _DRF_STATUS:
        index = _DRF_FIRST_ARGS.get(name, 0)
        return WebClass("drf", _DRF_STATUS[name], index, ("detail",))
    if (root == "django" or dotted == "Http404") and name in _DJANGO_STATUS:
        return WebClass("django", _DJANGO_STATUS[name])
    return None


def call_class(function: Node, args: Node, file: FileIndex) -> WebClass | None:
    """The web call a function expression names: ``abort`` or a Django/Starlette response.

    An ``abort`` errdex cannot trace to flask or werkzeug counts only with a known status.
    """
    dotted = file.qualified(text(function))
    module, _, name = dotted.rpartition(".")
    root = module.partition(".")[0]
    if name == "abort":
        if root in ("flask", "werkzeug"):
            return _ABORT
        return _ABORT if not module and _has_status_argument(args, "code") else None
    if not module or root in ("django", "starlette", "fastapi"):
        if name in _DJANGO_RESPONSES:
            return WebClass("django", _DJANGO_RESPONSES[name], 0, ("content",))
        if name in ("HttpResponse", "JsonResponse"):
            return WebClass("django", None, 0, ("content", "data"), None, ("status",))
        if name == "JSONResponse":
            return WebClass("starlette", None, 0, ("content",), 1, ("status_code",))
    return None


def _has_status_argument(args: Node, keyword: str = "status_code") -> bool:
    positional, keywords = arguments(args)
    if keyword in keywords:
        return True
    return bool(positional) and status_of(positional[0]) is not None


# --- sites ----------------------------------------------------------------------------


def raise_site(node: Node, written: str, web: WebClass, args: Node, file: FileIndex) -> Site | None:
    """``raise HTTPException(404, "…")``, ``raise NotFound("…")``, ``raise Http404("…")``."""
    positional, keywords = arguments(args)
    message = _message(web, positional, keywords, file)
    if message is None:
        return None
    status = web.status if web.status_index is None and not web.status_keywords else (
        _status_argument(web, positional, keywords)
    )
    template = Template(message.written, message.parts)
    if written.rpartition(".")[2] == "Throttled" and web.framework == "drf":
        template = _throttled(template, positional, keywords)
    code = keywords.get("code")
    if code is None and web.framework == "drf" and len(positional) > web.message_index + 1:
        code = positional[web.message_index + 1]
    return Site(
        template, "http", line_of(node), written,
        error_code=literal_string(code) if code is not None else None,
        http_status=status, symbol=symbol_of(node),
    )


def call_site(
    node: Node, function: Node, web: WebClass, args: Node, file: FileIndex
) -> Site | None:
    """``abort(404, "…")``, ``HttpResponseBadRequest("…")``, ``JsonResponse({…}, status=400)``."""
    positional, keywords = arguments(args)
    if web.status_index is None and not web.status_keywords:
        status = web.status
    else:
        status = _status_argument(web, positional, keywords)
        if web is not _ABORT and (status is None or status < 400):
            return None  # a response that is not known to be an error
    message = _message(web, positional, keywords, file)
    if message is None:
        return None
    error_class = _werkzeug_class(status) if web is _ABORT else text(function)
    return Site(
        Template(message.written, message.parts), "http", line_of(node), error_class,
        http_status=status, symbol=symbol_of(node),
    )


def _message(
    web: WebClass, positional: list[Node], keywords: dict[str, Node], file: FileIndex
) -> Message | None:
    if len(positional) > web.message_index:
        node: Node | None = positional[web.message_index]
    else:
        node = next((keywords[k] for k in web.message_keywords if k in keywords), None)
    node = unwrap(node)
    if node is not None and node.type == "dictionary":
        return _dict_message(node, file)
    return read(node, file)


def _dict_message(node: Node, file: FileIndex) -> Message | None:
    """``{"error": "…"}`` (or ``detail``/``message``), or the only value of a one-key dict."""
    items = dict_items(node)
    for key in ("error", "detail", "message"):
        if key in items:
            return read(items[key], file)
    if len(items) == 1 and node.named_child_count == 1:
        return read(next(iter(items.values())), file)
    return None


def _throttled(template: Template, positional: list[Node], keywords: dict[str, Node]) -> Template:
    """DRF's ``Throttled(wait, detail)`` appends `` Expected available in N second(s).``"""
    wait = keywords.get("wait") or (positional[0] if positional else None)
    if wait is None or text(wait) == "None":
        return template
    hole = Hole(text(wait), "{wait}", "any", r"\d+ seconds?\.",
                optional_lead=" Expected available in ")
    return template.with_wrapper(suffix=(hole,))


def _werkzeug_class(status: int | None) -> str:
    name = next((n for n, s in _WERKZEUG_STATUS.items() if s == status), None)
    return name or "HTTPException"


# --- status codes ---------------------------------------------------------------------


def _status_argument(
    web: WebClass, positional: list[Node], keywords: dict[str, Node]
) -> int | None:
    node = next((keywords[k] for k in web.status_keywords if k in keywords), None)
    if node is None and web.status_index is not None and len(positional) > web.status_index:
        node = positional[web.status_index]
    return status_of(node) if node is not None else None


def status_of(node: Node) -> int | None:
    """``404``, ``status.HTTP_404_NOT_FOUND``, ``HTTPStatus.NOT_FOUND`` → 404; else None."""
    if node.type == "integer":
        try:
            value = int(text(node), 0)
        except ValueError:
            return None
        return value if 100 <= value <= 599 else None
    if node.type not in ("identifier", "attribute"):
        return None
    name = last_name(node)
    match = _STATUS_CONSTANT.fullmatch(name)
    if match:
        return int(match.group(1))
    owner = node.child_by_field_name("object") if node.type == "attribute" else None
    if owner is not None and last_name(owner) == "HTTPStatus" and name in HTTPStatus.__members__:
        return HTTPStatus[name].value
    return None

"""Go's ``net/http`` status constants: what ``http.StatusNotFound`` is worth, and the text
``http.StatusText`` gives for it (echo's ``NewHTTPError(code)`` prints that text too)."""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages.base import text

# net/http status constants (Go 1.19): name without ``Status`` → (code, ``http.StatusText``).
HTTP_STATUS: dict[str, tuple[int, str]] = {
    "Continue": (100, "Continue"),
    "SwitchingProtocols": (101, "Switching Protocols"),
    "Processing": (102, "Processing"),
    "EarlyHints": (103, "Early Hints"),
    "OK": (200, "OK"),
    "Created": (201, "Created"),
    "Accepted": (202, "Accepted"),
    "NonAuthoritativeInfo": (203, "Non-Authoritative Information"),
    "NoContent": (204, "No Content"),
    "ResetContent": (205, "Reset Content"),
    "PartialContent": (206, "Partial Content"),
    "MultiStatus": (207, "Multi-Status"),
    "AlreadyReported": (208, "Already Reported"),
    "IMUsed": (226, "IM Used"),
    "MultipleChoices": (300, "Multiple Choices"),
    "MovedPermanently": (301, "Moved Permanently"),
    "Found": (302, "Found"),
    "SeeOther": (303, "See Other"),
    "NotModified": (304, "Not Modified"),
    "UseProxy": (305, "Use Proxy"),
    "TemporaryRedirect": (307, "Temporary Redirect"),
    "PermanentRedirect": (308, "Permanent Redirect"),
    "BadRequest": (400, "Bad Request"),
    "Unauthorized": (401, "Unauthorized"),
    "PaymentRequired": (402, "Payment Required"),
    "Forbidden": (403, "Forbidden"),
    "NotFound": (404, "Not Found"),
    "MethodNotAllowed": (405, "Method Not Allowed"),
    "NotAcceptable": (406, "Not Acceptable"),
    "ProxyAuthRequired": (407, "Proxy Authentication Required"),
    "RequestTimeout": (408, "Request Timeout"),
    "Conflict": (409, "Conflict"),
    "Gone": (410, "Gone"),
    "LengthRequired": (411, "Length Required"),
    "PreconditionFailed": (412, "Precondition Failed"),
    "RequestEntityTooLarge": (413, "Request Entity Too Large"),
    "RequestURITooLong": (414, "Request URI Too Long"),
    "UnsupportedMediaType": (415, "Unsupported Media Type"),
    "RequestedRangeNotSatisfiable": (416, "Requested Range Not Satisfiable"),
    "ExpectationFailed": (417, "Expectation Failed"),
    "Teapot": (418, "I'm a teapot"),
    "MisdirectedRequest": (421, "Misdirected Request"),
    "UnprocessableEntity": (422, "Unprocessable Entity"),
    "Locked": (423, "Locked"),
    "FailedDependency": (424, "Failed Dependency"),
    "TooEarly": (425, "Too Early"),
    "UpgradeRequired": (426, "Upgrade Required"),
    "PreconditionRequired": (428, "Precondition Required"),
    "TooManyRequests": (429, "Too Many Requests"),
    "RequestHeaderFieldsTooLarge": (431, "Request Header Fields Too Large"),
    "UnavailableForLegalReasons": (451, "Unavailable For Legal Reasons"),
    "InternalServerError": (500, "Internal Server Error"),
    "NotImplemented": (501, "Not Implemented"),
    "BadGateway": (502, "Bad Gateway"),
    "ServiceUnavailable": (503, "Service Unavailable"),
    "GatewayTimeout": (504, "Gateway Timeout"),
    "HTTPVersionNotSupported": (505, "HTTP Version Not Supported"),
    "VariantAlsoNegotiates": (506, "Variant Also Negotiates"),
    "InsufficientStorage": (507, "Insufficient Storage"),
    "LoopDetected": (508, "Loop Detected"),
    "NotExtended": (510, "Not Extended"),
    "NetworkAuthenticationRequired": (511, "Network Authentication Required"),
}
REASONS = {code: reason for code, reason in HTTP_STATUS.values()}


def status_code(node: Node) -> int | None:
    """``http.StatusNotFound`` (any package spelling the net/http names) or ``404``."""
    if node.type == "int_literal" and text(node).isdigit():
        return int(text(node))
    if node.type == "selector_expression":
        name = text(node.child_by_field_name("field"))
        if name.startswith("Status") and name[6:] in HTTP_STATUS:
            return HTTP_STATUS[name[6:]][0]
    return None

"""Recognizers for pasted errors, one module per runtime or log format.

Package-internal: ``errdex.lookup.parse`` is the public interface. Each module
exports recognizers with the signature ``(lines, i) -> (events, next) | None``
(see ``common.Found``); ``parse`` tries them in order at each line.
"""

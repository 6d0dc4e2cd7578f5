"""A template's slug: the readable, URL-safe name a record is known by.

It lives with templates (a slug is made from a template's literal text) so that the
record model above can use it without templates importing the record model.
"""

from __future__ import annotations

import re

SLUG_MAX_LENGTH = 80

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(text: str, fallback: str = "error") -> str:
    """Lowercase, non-alphanumerics to ``-``, collapsed, at most 80 characters."""
    slug = _NON_ALNUM.sub("-", text.lower()).strip("-")
    if len(slug) > SLUG_MAX_LENGTH:
        slug = slug[:SLUG_MAX_LENGTH].rstrip("-")
    if not slug:
        slug = _NON_ALNUM.sub("-", fallback.lower()).strip("-")[:SLUG_MAX_LENGTH]
        slug = slug.rstrip("-") or "error"
    return slug


__all__ = ["SLUG_MAX_LENGTH", "slugify"]

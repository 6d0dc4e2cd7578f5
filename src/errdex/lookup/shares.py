"""Which worker ranks which entry of a chunk, when several workers rank one log.

A worker learns each line shape it ranks (the full ranking of the first line of a shape,
then cheaper rechecks: ``replay``, ``prefilter``). Chunks dealt out whole teach every
worker every shape of the log, so with two workers most shapes are learnt twice. Instead
every worker reads every chunk (reading entries is cheap) and ranks only its share: the
entries whose message opens with the same text (``head``: a template's literal opening,
up to a value) go to one worker in every chunk, so each learns its own shapes once.

A head frequent in a chunk (a log's few common messages) would leave one worker doing
most of the work: its entries are dealt in turn instead, each worker learning that shape.
The owners depend on the chunk's text alone, so every worker reckons the same ones.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter

__all__ = ["Share", "heads", "owners"]

Share = tuple[int, int]  # (this worker, how many workers)

# A message's opening up to its first value (a digit or a quote), at most this long
_HEAD = re.compile(r"[^0-9'\"]{0,16}")
_DEALT = 16  # a head this frequent in one chunk: its entries dealt in turn


def heads(messages: list[str]) -> list[str]:
    """The opening of each message that entries of one template share (before any value)."""
    match = _HEAD.match  # matches every text (at worst its empty start)
    return [match(message).group() for message in messages]  # type: ignore[union-attr]


def owners(heads: list[str], workers: int) -> list[int]:
    """The worker that ranks each entry of a chunk, given each entry's ``heads``: by the
    head (the same worker in every chunk), frequent heads dealt in turn."""
    owner: dict[str, int] = {}
    dealt: dict[str, int] = {}
    for text, count in Counter(heads).items():
        if count >= _DEALT:
            dealt[text] = 0
        else:  # crc32, not hash(): the same in every process, however it was started
            owner[text] = zlib.crc32(text.encode("utf-8", "surrogatepass")) % workers
    out: list[int] = []
    for text in heads:
        found = owner.get(text)
        if found is None:
            found = dealt[text] % workers
            dealt[text] += 1
        out.append(found)
    return out

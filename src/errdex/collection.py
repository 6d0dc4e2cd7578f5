"""Garbage collection for long passes that keep what they read: young objects only.

A mine keeps every record, text site and log statement it reads until it writes them; a
scan's caches (rankings by message and by shape, records, probes) grow to hundreds of
thousands of objects that live as long as the scan. Each full collection walks all of
them again — a tenth of kafka's extraction CPU, a fifth of a 100k-line scan's — for a few
thousand objects of cyclic garbage in all. Young collections still run as ever (a file's
or a line's own garbage dies young), worker processes forked meanwhile inherit the
thresholds, and the deferred full collection runs on its own once they are back.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# A generation-2 threshold no mine or scan reaches.
NO_FULL_COLLECTIONS = 1 << 30


@contextmanager
def young_collections_only() -> Iterator[None]:
    """No full garbage collection inside the block (the thresholds as they were after)."""
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], NO_FULL_COLLECTIONS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def young_collections_from_now() -> None:
    """No full garbage collection for the rest of this process (a worker of one pass)."""
    gc.set_threshold(*gc.get_threshold()[:2], NO_FULL_COLLECTIONS)

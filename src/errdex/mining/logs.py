"""Log levels after composition: a call to a project's own logging function is routed by
that function's level, as a direct log call is by its method's.

Composition (``errdex.mining.compose``) gives ``logit("Accepted %s", u)`` the text the
project's ``logit`` prints; the producer it reached knows the level (``Producer.level``,
read by ``errdex.languages.c.logs``). A call naming its level itself
(``serverLog(LL_NOTICE, "fmt", …)``) keeps the level it names (``MinedRecord.level``)
whatever its call composed into. At warning and above the record stays, with that
severity; below, it leaves the records and becomes a scan-only ``LogStatement``.
"""

from __future__ import annotations

from errdex.languages.logs import severity_of
from errdex.mining.files import MinedRecord
from errdex.mining.producers import Producers
from errdex.records.log_statements import LEVELS, LogLevel, LogStatement


def route_levels(mined: list[MinedRecord], producers: Producers) -> list[LogStatement]:
    """Drop from ``mined`` the records composed through a logging function below warning
    (returned as log statements); give the rest their function's severity."""
    levels: dict[tuple[str, int], LogLevel] = {(p.path, p.line): p.level
              for found in producers.by_name.values() for p in found
              if p.level in LEVELS}
    if not levels and not any(m.level for m in mined):
        return []
    kept: list[MinedRecord] = []
    out: list[LogStatement] = []
    for m in mined:
        level = m.level or next((levels[key] for s in m.extras.template_sources or ()
                                 if (key := (s.file_path, s.line_number)) in levels), None)
        severity = severity_of(level) if level is not None else None
        if level is None:
            kept.append(m)
        elif severity is not None:
            m.record.severity = severity  # its kind stays the site's (``fatal`` exits),
            if m.record.error_type == "exception" and m.record.error_class is None:
                m.record.error_type = "log"  # but a helper thought to throw only logs
            kept.append(m)
        else:
            r = m.record
            out.append(LogStatement(r.repo, r.file_path, r.line_number, level, r.error_message,
                                    r.message_pattern, m.extras.enclosing_symbol,
                                    m.extras.language))
    mined[:] = kept
    return out


__all__ = ["route_levels"]

"""Golden files for language fixtures: the sites a fixture must yield, as reviewed JSON.

``tests/fixtures/<lang>/<name>.<ext>`` is mined and compared with
``<name>.<ext>.expected.json``. After a deliberate change, regenerate with
``ERRDEX_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from errdex.languages import Site, language_for_path
from errdex.templates.template import Hole

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def fixture_files() -> list[Path]:
    """Every fixture source file a registered language mines."""
    return sorted(
        p for p in FIXTURES.rglob("*")
        if p.is_file() and not p.name.endswith(".json") and language_for_path(p.name)
    )


def sites_of(path: Path) -> list[Site]:
    language = language_for_path(path.name)
    assert language is not None
    return language.extract(path.read_bytes()).sites


def site_json(site: Site) -> dict[str, Any]:
    return {
        "line": site.line,
        "errorMessage": site.template.written,
        "messagePattern": site.template.pattern(),
        "errorType": site.error_type,
        "errorClass": site.error_class,
        "errorCode": site.error_code,
        "httpStatus": site.http_status,
        "severity": site.severity,
        "symbol": site.symbol,
        "holes": [h.name or h.spec for h in site.template.parts if isinstance(h, Hole)],
    }


def golden_path(path: Path) -> Path:
    return path.with_name(path.name + ".expected.json")


def render_golden(path: Path) -> str:
    return json.dumps([site_json(s) for s in sites_of(path)], indent=2, ensure_ascii=False) + "\n"

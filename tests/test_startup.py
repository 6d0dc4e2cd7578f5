"""Starting errdex loads only what the call needs: the CLI's help, `import errdex`."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("errdex.lookup", "errdex.languages", "errdex.mining", "errdex.store", "pydantic",
         "tree_sitter")


def _loaded_after(code: str) -> list[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    loaded: list[str] = json.loads(out.splitlines()[-1])
    return loaded


def _heavy(loaded: list[str]) -> list[str]:
    return [m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_import_errdex_loads_no_stage() -> None:
    assert _heavy(_loaded_after("import errdex")) == []


def test_cli_help_loads_no_stage() -> None:
    code = ("from click.testing import CliRunner\nfrom errdex.interfaces.cli import main\n"
            "assert CliRunner().invoke(main, ['--help']).exit_code == 0")
    assert _heavy(_loaded_after(code)) == []


def test_a_public_name_loads_its_module_on_use() -> None:
    loaded = _loaded_after("import errdex\nerrdex.explain")
    assert "errdex.lookup.index" in loaded


def test_the_enrich_stage_leaves_the_enrich_function() -> None:
    code = ("import errdex, errdex.enrich, inspect\n"
            "assert inspect.isfunction(errdex.enrich), errdex.enrich\n"
            "assert errdex.enrich is errdex.api.enrich")
    _loaded_after(code)

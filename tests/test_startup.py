"""Starting errdex loads only what the call needs: the CLI's help, `import errdex`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


def test_explain_imports_no_language_mining_code() -> None:
    loaded = _loaded_after("import errdex\nerrdex.explain")
    assert [m for m in loaded if m.startswith("errdex.languages.") and m.endswith(".spec")
            and not m.startswith("errdex.languages._")] == []


def test_the_known_languages_are_the_folders() -> None:
    import errdex.languages as registry

    folders = sorted(p.parent.name for p in Path(registry.__file__).parent.glob("*/__init__.py")
                     if not p.parent.name.startswith("_"))
    assert sorted({known.folder for known in registry.KNOWN}) == folders
    declared = []
    for folder in folders:  # what each folder declares, read the way the registry reads it
        module = __import__(f"errdex.languages.{folder}", fromlist=["SPEC"])
        declared += getattr(module, "SPECS", None) or [module.SPEC]
    assert [spec.name for spec in declared] == [known.name for known in registry.KNOWN]
    for known, spec, pastes in zip(registry.KNOWN, declared, registry.paste_readers(),
                                   strict=True):
        assert known.extensions == spec.extensions == registry.LANGUAGES[known.name].extensions
        assert pastes == spec.pastes, known.name
        assert registry.SPECS[known.name] is spec


def test_a_path_loads_only_its_language() -> None:
    code = ("from errdex.languages import language_for_path\n"
            "assert language_for_path('src/app.py').name == 'python'\n"
            "assert language_for_path('README.md') is None")
    loaded = _loaded_after(code)
    specs = {m for m in loaded if m.startswith("errdex.languages.") and m.endswith(".spec")
             and not m.startswith("errdex.languages._")}
    assert specs == {"errdex.languages.python.spec"}


def test_mining_a_python_repository_loads_only_python(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "app.py").write_text("def f(x):\n    raise ValueError(f'bad value {x}')\n")
    for args in (["init", "-q"], ["add", "app.py"],
                 ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"]):
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
    code = (f"import errdex\nsummary = errdex.mine({str(repo)!r}, db={str(tmp_path / 'db')!r})\n"
            "assert summary.new == 1, summary")
    specs = {m for m in _loaded_after(code) if m.startswith("errdex.languages.")
             and m.endswith(".spec") and not m.startswith("errdex.languages._")}
    assert specs == {"errdex.languages.python.spec"}


ENGINE = ("tree_sitter", "tree_sitter_language_pack", "errdex.languages.base",
          "errdex.languages.logs", "errdex.languages._engine.extract",
          "errdex.languages._engine.spec", "errdex.mining.extract")


def test_reading_a_log_imports_no_engine_or_mining_code(tmp_path: Path) -> None:
    """A scan reads entries and pastes: the grammars, the engine and the mining code behind
    them are a cost it never uses."""
    log = tmp_path / "app.log"
    log.write_text("2026-01-02 10:00:00,000 ERROR app.worker: missing id\n"
                   "Traceback (most recent call last):\n  File \"x.py\", line 3, in f\n"
                   "ValueError: bad value 3\n")
    code = ("import errdex.lookup.entries, errdex.lookup.scan\n"
            "from errdex.lookup.parse import parse_events\n"
            f"events = parse_events(open({str(log)!r}).read())\n"
            "assert [e.error_class for e in events] == [None, 'ValueError'], events")
    loaded = _loaded_after(code)
    assert [m for m in loaded if m in ENGINE] == []


def test_the_engine_names_bind_on_first_use() -> None:
    code = ("import errdex.languages._engine.extract as module\n"
            "from errdex.languages._engine import language\n"
            "from errdex.languages._engine import LanguageSpec\n"
            "from errdex.languages import Language, Site\n"
            "assert language is module.language, language\n"
            "from errdex.languages._engine.spec import LanguageSpec as declared\n"
            "from errdex.languages.base import Language as base_language\n"
            "assert LanguageSpec is declared and Language is base_language")
    _loaded_after(code)

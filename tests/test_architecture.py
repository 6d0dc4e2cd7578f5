"""The shape of the source tree: no import cycles, no oversized modules, and a README
layout that names every package.

What counts as an import cycle here: every ``import`` statement in errdex's own modules,
wherever it stands (module level, inside a function, under ``if TYPE_CHECKING:``), as
grimp reads them — one edge from the importing module to the module it names. A package
re-exporting its submodules (``store/__init__`` importing ``store.protocol``) is such an
edge too, and is counted: it closes a cycle only when that submodule (or anything it
imports) imports the package back, which is a real cycle. What is not counted is the
implicit step Python takes before running ``a.b`` (running ``a/__init__``): that is no
import statement, and counting it would make every re-exporting package a "cycle". The
one import by name (the language registry loading each ``languages/<lang>/`` folder) is
added by hand, so a language folder importing the registry back would be caught.
"""

from __future__ import annotations

import re
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "errdex"
MAX_MODULE_LINES = 500


def _import_graph() -> dict[str, set[str]]:
    """Module → the errdex modules it imports (every import statement), plus the language
    folders the registry imports by name (``importlib``, which no import statement shows)."""
    graph = grimp.build_graph("errdex", include_external_packages=False, cache_dir=None)
    edges = {
        module: {m for m in graph.find_modules_directly_imported_by(module) if m != module}
        for module in graph.modules
    }
    for folder in (PACKAGE / "languages").iterdir():
        if (folder / "__init__.py").exists() and not folder.name.startswith("_"):
            edges["errdex.languages"].add(f"errdex.languages.{folder.name}")
    return edges


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of a directed graph with more than one module
    (Tarjan's algorithm, iterative: the module graph may be deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(edges.get(start, ())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                nxt = pending.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(edges.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_cycles_and_only_cycles() -> None:
    """The check below can fail: a two-module and a three-module cycle are found, a chain
    and a diamond are not."""
    edges = {
        "a": {"b"}, "b": {"a"},  # a two-module cycle
        "c": {"d"}, "d": {"e"}, "e": {"c", "f"},  # three modules, plus a way out
        "f": set(), "g": {"h", "i"}, "h": {"j"}, "i": {"j"}, "j": set(),  # a diamond
    }
    assert sorted(strongly_connected(edges)) == [["a", "b"], ["c", "d", "e"]]


def test_no_import_cycle_among_errdex_modules() -> None:
    edges = _import_graph()
    cycles = strongly_connected(edges)
    described = [
        " <-> ".join(component) + "\n    " + "\n    ".join(
            f"{a} -> {b}" for a in component for b in sorted(edges[a]) if b in component
        )
        for component in cycles
    ]
    assert not cycles, "modules that import each other (directly or around a loop):\n" + (
        "\n".join(described)
    )


def test_no_module_over_500_lines() -> None:
    sizes = {
        path.relative_to(PACKAGE.parent).as_posix(): len(path.read_text("utf-8").splitlines())
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    assert len(sizes) > 50  # the whole package was read
    over = {name: lines for name, lines in sizes.items() if lines > MAX_MODULE_LINES}
    assert not over, f"modules over {MAX_MODULE_LINES} lines: {over}"


# --- the README's layout --------------------------------------------------------------------

_TREE_LINE = re.compile(r"^(?P<indent>(?:│   |    )*)(?:├── |└── )(?P<name>\S+)(?P<text>.*)$")


def packages() -> set[str]:
    """Every package under src/errdex (a folder with ``__init__.py``), as ``a/b/``."""
    return {
        init.parent.relative_to(PACKAGE).as_posix() + "/"
        for init in PACKAGE.rglob("__init__.py")
        if init.parent != PACKAGE
    }


def layout_entries(readme: str) -> dict[str, str]:
    """Path → description of each line of the folder listing in the README's Layout
    section (a fenced block drawn as a tree under ``src/errdex/``)."""
    section = readme.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    lines = block.splitlines()[1:]  # after the fence's language tag
    assert lines and lines[0].strip() == "src/errdex/", "the listing starts at src/errdex/"
    entries: dict[str, str] = {}
    parents: list[str] = []
    for line in lines[1:]:
        match = _TREE_LINE.match(line)
        assert match, f"not a line of the folder listing: {line!r}"
        depth = len(match["indent"]) // 4
        parents = parents[:depth]
        path = "".join(parents) + match["name"]
        entries[path] = match["text"].strip()
        if path.endswith("/"):
            parents.append(match["name"])
    return entries


def test_layout_reader_sees_nesting_and_missing_packages() -> None:
    """The README check can fail: a listing without a package misses it, and nested
    folders are read with their parents."""
    readme = (
        "intro\n\n## Layout\n\n```text\nsrc/errdex/\n"
        "├── lookup/          lookup\n"
        "│   └── pastes/      one module per format\n"
        "└── errors.py        the error tree\n```\n\n## Next\n"
    )
    entries = layout_entries(readme)
    assert entries == {"lookup/": "lookup", "lookup/pastes/": "one module per format",
                       "errors.py": "the error tree"}
    assert {"lookup/", "lookup/pastes/", "store/"} - set(entries) == {"store/"}


def test_readme_layout_lists_every_package_with_what_it_does() -> None:
    entries = layout_entries((ROOT / "README.md").read_text("utf-8"))
    missing = sorted(packages() - set(entries))
    assert not missing, f"packages the README's Layout section does not list: {missing}"
    gone = sorted(p for p in entries if not (PACKAGE / p).exists())
    assert not gone, f"the README's Layout section lists what is not in src/errdex: {gone}"
    silent = sorted(p for p, text in entries.items() if not text)
    assert not silent, f"Layout lines that do not say what the package does: {silent}"

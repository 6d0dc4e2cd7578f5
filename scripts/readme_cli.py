"""Regenerate the CLI reference inside README.md from the real ``--help`` texts.

``make readme`` runs it; ``tests/test_docs.py`` fails when README.md drifts.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from click.testing import CliRunner

from errdex.interfaces.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
START, END = "<!-- cli-help:start -->", "<!-- cli-help:end -->"


def cli_reference() -> str:
    """`errdex --help` and every command's help, as one fenced block per command."""
    runner = CliRunner()
    blocks = []
    commands = [[]] + [[name] for name in sorted(main.commands)]
    for command in commands:
        result = runner.invoke(main, [*command, "--help"], prog_name="errdex", terminal_width=100)
        title = " ".join(["errdex", *command, "--help"])
        blocks.append(f"```text\n$ {title}\n{result.output.rstrip()}\n```")
    return "\n\n".join(blocks)


def render(readme: str) -> str:
    body = f"{START}\n{cli_reference()}\n{END}"
    return re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _: body, readme, flags=re.S)


if __name__ == "__main__":
    text = README.read_text(encoding="utf-8")
    updated = render(text)
    if "--check" in sys.argv:
        sys.exit(0 if updated == text else 1)
    README.write_text(updated, encoding="utf-8")

"""Text from repositories, imports and pastes is data in the terminal: never Rich markup,
never a control sequence, never a bidi reordering; links only for https.

Every reproduction of issue 13's "terminal output" points, through the CLI as a user
runs it (click's runner), once piped and once as a terminal (TTY_COMPATIBLE=1 makes
Rich write colours and hyperlinks as it does on a real terminal).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.interfaces.cli import main
from errdex.records.model import Record
from errdex.store.protocol import open_store
from errdex.visible import https_url, json_text, visible
from tests.conftest import SEED_RECORD, GitRepo

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "inventory"
SEED = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
ESC = "\x1b"
RLO = "\u202e"
OSC8 = "\x1b]8;"  # how a terminal hyperlink starts
TERMINAL = {"TTY_COMPATIBLE": "1", "COLUMNS": "200"}
PIPED = {"TTY_COMPATIBLE": "0", "COLUMNS": "200"}

HOSTILE_PY = '''def load(name):
    raise ValueError(f"bad value '[/]' [u8] [link=https://evil.example]here[/link] for {name}")


def paint(name):
    raise RuntimeError(f"\x1b[2J\x1b]0;owned\x07screen cleared for {name} \u202eexe.txt")
'''  # raw ESC, BEL and U+202E in the source file, as a hostile repository has them


def run(db: Path, *args: str, env: dict[str, str] | None = None,
        stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", str(db), *args], env=env or PIPED, input=stdin)


def assert_shown_as_data(result: Result) -> None:
    """No internal error, no raw escape or bidi control from the data."""
    assert "internal error" not in result.output, result.output
    assert "Traceback" not in result.output
    assert RLO not in result.output


@pytest.fixture
def hostile_db(make_repo: Callable[..., GitRepo], tmp_path: Path) -> Path:
    """A mined repository whose file is ``pkg/[/].py`` and whose messages hold markup,
    a hyperlink tag, escape sequences and a right-to-left override."""
    repo = make_repo()
    repo.write("pkg/[/].py", HOSTILE_PY)
    repo.commit("hostile")
    db = tmp_path / "hostile.sqlite"
    mined = run(db, "mine", str(repo.root))
    assert mined.exit_code == 0, mined.output
    return db


def test_demo_error_with_markup_in_the_paste(tmp_path: Path) -> None:
    """The inventory demo's error with the SKU '[/]': a MarkupError internal error before."""
    checkout = tmp_path / "inventory"
    shutil.copytree(EXAMPLES, checkout)
    repo = GitRepo(checkout, "https://github.com/errdex-demo/inventory.git")
    repo.commit("inventory demo")
    db = tmp_path / "demo.sqlite"
    assert run(db, "mine", str(checkout)).exit_code == 0
    paste = (EXAMPLES / "ERROR.txt").read_text().replace("'SKU-1042'", "'[/]'")
    for env in (PIPED, TERMINAL):
        result = run(db, "explain", "-", stdin=paste, env=env)
        assert result.exit_code == 0, result.output
        assert_shown_as_data(result)
        assert "'[/]'" in result.stdout  # the bound value, as pasted
        assert "inventory/store.py" in result.stdout


@pytest.mark.parametrize("env", [PIPED, TERMINAL], ids=["piped", "terminal"])
def test_path_and_message_markup_is_text(hostile_db: Path, env: dict[str, str]) -> None:
    """explain, show, search and the scan summary with a file named pkg/[/].py."""
    paste = ("ValueError: bad value '[/]' [u8] [link=https://evil.example]here[/link] "
             "for widget")
    explained = run(hostile_db, "explain", paste, env=env)
    assert explained.exit_code == 0, explained.output
    assert_shown_as_data(explained)
    assert "pkg/[/].py:2" in explained.stdout
    assert "[link=https://evil.example]here[/link]" in explained.stdout
    assert ";https://evil.example" not in explained.stdout  # no OSC 8 hyperlink to it

    shown = run(hostile_db, "show", "bad-value-u8-link-https-evil-example-here-link-for",
                env=env)
    assert shown.exit_code == 0, shown.output
    assert_shown_as_data(shown)
    assert "pkg/[/].py:2" in shown.stdout

    found = run(hostile_db, "search", "bad value", env=env)
    assert found.exit_code == 0, found.output
    assert_shown_as_data(found)
    assert "[u8]" in found.stdout  # Rich took it for a style tag and dropped it
    assert "[/]" in found.stdout

    log = hostile_db.parent / "app.log"
    log.write_text("starting\n" + paste + "\nstopping\n")
    scanned = run(hostile_db, "scan", str(log), env=env)
    assert scanned.exit_code == 0, scanned.output
    assert_shown_as_data(scanned)
    assert "pkg/[/].py:2" in scanned.stdout  # in the summary table too


def test_hyperlinks_only_for_https_records(tmp_path: Path) -> None:
    """A record stored before imports were checked may carry javascript: as its link."""
    db = tmp_path / "links.sqlite"
    good = dict(SEED)
    bad = dict(SEED, id="00000000000000bb", slug="bad-link",
               githubUrl="javascript:alert(document.cookie)")
    with open_store(db) as store:
        store.upsert([(Record.model_construct(**good), None),
                      (Record.model_construct(**bad), None)])
    linked = run(db, "show", SEED["id"], env=TERMINAL)
    assert linked.exit_code == 0, linked.output
    assert OSC8 in linked.stdout and f";{SEED['githubUrl']}{ESC}" in linked.stdout
    assert SEED["githubUrl"] in linked.stdout
    unlinked = run(db, "show", "bad-link", env=TERMINAL)
    assert unlinked.exit_code == 0, unlinked.output
    assert "javascript:alert(document.cookie)" in unlinked.stdout
    assert "not an https link" in unlinked.stdout
    assert OSC8 not in unlinked.stdout


@pytest.mark.parametrize("env", [PIPED, TERMINAL], ids=["piped", "terminal"])
def test_controls_and_bidi_are_visible(hostile_db: Path, env: dict[str, str]) -> None:
    paste = f"RuntimeError: {ESC}[2J{ESC}]0;owned\x07screen cleared for box {RLO}exe.txt"
    result = run(hostile_db, "explain", paste, env=env)
    assert result.exit_code == 0, result.output
    assert_shown_as_data(result)
    assert "\\x1b[2J\\x1b]0;owned\\x07screen cleared for {name}" in result.stdout
    assert "⟨U+202E⟩exe.txt" in result.stdout
    assert "]0;owned\x07" not in result.stdout  # the title-setting sequence never runs
    if env is PIPED:
        assert ESC not in result.stdout


def test_json_output_is_exact_data_in_safe_text(hostile_db: Path) -> None:
    paste = f"RuntimeError: {ESC}[2J{ESC}]0;owned\x07screen cleared for box {RLO}exe.txt"
    result = run(hostile_db, "explain", "--json", paste)
    assert result.exit_code == 0
    assert ESC not in result.stdout and RLO not in result.stdout and "\x07" not in result.stdout
    assert "\\u202e" in result.stdout
    (best, *_) = json.loads(result.stdout)["matches"]
    message = best["record"]["errorMessage"]
    assert message == f"{ESC}[2J{ESC}]0;owned\x07screen cleared for {{name}} {RLO}exe.txt"
    shown = json.loads(run(hostile_db, "show", "--json", best["record"]["id"]).stdout)
    assert shown["errorMessage"] == message


def test_error_messages_are_visible_too(tmp_path: Path) -> None:
    result = run(tmp_path / "e.sqlite", "show", f"no-{ESC}[31m-such{RLO}")
    assert result.exit_code == 1
    assert ESC not in result.output and RLO not in result.output
    assert "\\x1b[31m" in result.output


# --- the shared rule ------------------------------------------------------------------


def test_visible_examples() -> None:
    assert visible("plain text\twith tab\nand lines") == "plain text\twith tab\nand lines"
    assert visible(f"{ESC}[31mred") == "\\x1b[31mred"
    assert visible("a\r\nb\rc") == "a\nb\\x0dc"
    assert visible("\x9b31m \x7f") == "\\x9b31m \\x7f"
    assert visible(f"{RLO}txt.exe\u2066\u061c") == "⟨U+202E⟩txt.exe⟨U+2066⟩⟨U+061C⟩"
    assert visible("path\udcff.py") == "path\\udcff.py"
    assert visible("naïve café 日本 😀 [/] <b>") == "naïve café 日本 😀 [/] <b>"


UNSAFE = {chr(c) for c in [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0),
                           0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
                           *range(0x2066, 0x206A), *range(0xD800, 0xE000)]}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=200))
def test_visible_leaves_nothing_that_acts(text: str) -> None:
    shown = visible(text)
    assert not UNSAFE & set(shown)
    shown.encode("utf-8")  # always writable
    if not UNSAFE & set(text.replace("\r\n", "\n")):
        assert shown == text.replace("\r\n", "\n") or shown == text


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                    max_leaves=20))
def test_json_text_is_the_same_data(value: Any) -> None:
    text = json_text(value)
    assert not (UNSAFE - {"\t", "\n"}) & set(text)
    text.encode("utf-8")
    assert json.loads(text) == value


@pytest.mark.parametrize(("url", "ok"), [
    ("https://github.com/acme/widgets/blob/abc/pkg/m.py#L2", True),
    ("HTTPS://github.com/a/b", True),
    ("http://github.com/a/b", False),
    ("javascript:alert(1)", False),
    ("  javascript:alert(1)", False),
    ("data:text/html,<script>x</script>", False),
    ("https://", False),
    ("https://evil.example/\x1b]8;;x\x07", False),
    ("https://evil.example/\u202etxt", False),
    ("https://a b", False),
    ("", False),
    (None, False),
])
def test_https_url(url: str | None, ok: bool) -> None:
    assert (https_url(url) is not None) is ok

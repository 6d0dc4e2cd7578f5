"""A real server on a loopback port, driven by headless Chromium through Playwright.

paste → results → record page, with JavaScript off (the pages must work without
it), at a laptop and a phone size. Screenshots are kept in tests/artifacts/.
Chromium is Debian's (scripts/install-browser.sh); Playwright never downloads one.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import GitRepo
from tests.test_web import WIDTH_ERROR, build_index_db

CHROMIUM = Path(os.environ.get("ERRDEX_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PANIC = (
    "thread 'main' panicked at crates/burn-flex/src/ops/module.rs:243:25:\n"
    "deform_conv2d_backward: unsupported dtype I8\n"
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
)
LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"{CHROMIUM} is missing: run scripts/install-browser.sh (Debian's chromium)",
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _server_command(db: Path, port: int) -> list[str]:
    """``errdex serve`` when the CLI has it, else uvicorn on ``create_app`` directly."""
    from errdex.interfaces.cli import main

    if "serve" in getattr(main, "commands", {}):
        return [sys.executable, "-m", "errdex.interfaces.cli", "--db", str(db), "serve",
                "--host", "127.0.0.1", "--port", str(port)]
    code = (
        "import sys, uvicorn; from errdex.interfaces.web.app import create_app; "
        "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), "
        "log_level='warning')"
    )
    return [sys.executable, "-c", code, str(db), str(port)]


def _wait_until_up(url: str, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the server did not answer {url} within {seconds}s")


@pytest.fixture
def server(make_repo: Callable[..., GitRepo], tmp_path: Path) -> Iterator[str]:
    db = build_index_db(make_repo, tmp_path / "browser.sqlite")
    port = _free_port()
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(_server_command(db, port), stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(base + "/", process)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text(errors="replace")


@pytest.fixture
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


def _shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_paste_results_record_without_javascript(server: str, browser, size: str) -> None:
    viewport = LAPTOP if size == "laptop" else PHONE
    context = browser.new_context(viewport=viewport, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(server + "/")
        assert page.title().startswith("Paste an error")
        page.fill("textarea[name=text]", PANIC)
        _shot(page, f"{size}-1-home")
        page.click("button[type=submit].primary")
        page.wait_for_url(server + "/explain")
        first = page.locator("article.match").first
        assert "deform_conv2d_backward: unsupported dtype {:?}" in first.inner_text()
        assert "I8" in first.locator("table.bound").inner_text()
        assert "full pattern match" in first.inner_text()
        assert first.locator(".line.raised").inner_text().strip().startswith("243")
        _shot(page, f"{size}-2-results")

        first.locator("a.button", has_text="Full explanation").click()
        page.wait_for_url(server + "/tracel-ai/burn/deform-conv2d-backward-unsupported-dtype")
        assert page.locator("h1").inner_text() == "deform_conv2d_backward: unsupported dtype {:?}"
        for heading in ("Source", "What it means", "How to fix it", "Example fix", "Prevention",
                        "Related: the unsupported-dtype family"):
            assert page.get_by_role("heading", name=heading).count() == 1, heading
        raised = page.locator("#L243")
        assert "raised" in (raised.get_attribute("class") or "")
        assert "panic!" in raised.inner_text()
        assert page.locator("a.permalink").get_attribute("href", timeout=2000).startswith(
            "https://github.com/tracel-ai/burn/blob/")
        _shot(page, f"{size}-3-record")

        page.click("a.family-badge")
        page.wait_for_url(server + "/family/unsupported-dtype")
        assert page.inner_text("h1") == "unsupported-dtype"
        assert page.locator('a[href="/tracel-ai/burn/conv3d-unsupported-dtype"]').count() == 1
        _shot(page, f"{size}-4-family")
    finally:
        context.close()


def test_python_traceback_and_repo_page(server: str, browser) -> None:
    context = browser.new_context(viewport=LAPTOP, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(server + "/")
        page.fill("textarea[name=text]", WIDTH_ERROR)
        page.click("button[type=submit].primary")
        first = page.locator("article.match").first
        assert "pkg/shapes.py:7" in first.inner_text()
        assert "-2" in first.locator("table.bound").inner_text()
        _shot(page, "laptop-5-traceback-results")
        page.click("article.match >> nth=0 >> a.button")
        page.wait_for_url(server + "/acme/widgets/width-must-be-positive-got")
        assert "raise ValueError" in page.locator("#L7").inner_text()
        page.click("nav.crumbs a")
        page.wait_for_url(server + "/acme/widgets")
        assert page.locator("section#type-exception li").count() == 3
        _shot(page, "laptop-6-repo")
        page.fill("header input[name=q]", "catalog")
        page.click("header button")
        assert "1 result for" in page.inner_text("h1")
        _shot(page, "laptop-7-search")
    finally:
        context.close()

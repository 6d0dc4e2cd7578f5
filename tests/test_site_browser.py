"""The static site in headless Chromium, served by a plain file server: a record page
without JavaScript, and the index page's search typed into with it, at a phone and a
laptop size. Screenshots are kept in tests/artifacts/ (site-*.png)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import errdex
from tests.conftest import GitRepo
from tests.test_browser import (  # noqa: F401 (browser is a fixture)
    CHROMIUM,
    _free_port,
    _shot,
    _wait_until_up,
    browser,
)
from tests.test_web import build_index_db

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
SIZES = {"phone": PHONE, "laptop": LAPTOP}
RECORD = "/repos/tracel-ai/burn/deform-conv2d-backward-unsupported-dtype.html"

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"{CHROMIUM} is missing: run scripts/install-browser.sh (Debian's chromium)",
)


@pytest.fixture
def site_server(make_repo: Callable[..., GitRepo], tmp_path: Path) -> Iterator[str]:
    """The exported site behind ``python -m http.server`` on a loopback port."""
    db = build_index_db(make_repo, tmp_path / "site.sqlite")
    folder = tmp_path / "site"
    errdex.export_site(folder, db=db, base_url="https://errors.example.org")
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
         "--directory", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(base + "/index.html", process)  # type: ignore[arg-type]
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_record_page_without_javascript(site_server: str, browser, size: str) -> None:  # noqa: F811
    context = browser.new_context(viewport=SIZES[size], java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site_server + RECORD)
        assert page.locator("h1").inner_text() == "deform_conv2d_backward: unsupported dtype {:?}"
        for heading in ("Source", "What it means", "How to fix it",
                        "Related: the unsupported-dtype family"):
            assert page.get_by_role("heading", name=heading).count() == 1, heading
        raised = page.locator("#L243")
        assert "raised" in (raised.get_attribute("class") or "")
        assert "panic!" in raised.inner_text()
        assert page.locator("a.permalink").get_attribute("href").startswith(
            "https://github.com/tracel-ai/burn/blob/")
        # nothing wider than the screen but the code, which scrolls in its own box
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= SIZES[size]["width"], width
        _shot(page, f"site-{size}-record")
        page.click("a.family-badge")
        assert page.inner_text("h1") == "unsupported-dtype"
        page.click("text=conv3d: unsupported dtype {:?}")
        assert page.locator("h1").inner_text() == "conv3d: unsupported dtype {:?}"
    finally:
        context.close()


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_search_finds_a_record_by_typing(site_server: str, browser, size: str) -> None:  # noqa: F811
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    errors: list[str] = []  # script errors, Content-Security-Policy refusals included
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    try:
        page.goto(site_server + "/index.html")
        page.locator("#site-q").press_sequentially("conv3d dtype", delay=20)
        # results follow the typing (the index may arrive mid-word): wait for the last word's
        expect = pytest.importorskip("playwright.sync_api").expect
        expect(page.locator("#site-q")).to_have_value("conv3d dtype")
        expect(page.locator("#site-status")).to_have_text("1 match.", timeout=15_000)
        first = page.locator("#site-results li").first
        assert "conv3d: unsupported dtype {:?}" in first.inner_text()
        assert page.locator("#site-results li").count() == 1
        _shot(page, f"site-{size}-search")
        first.locator("a").click()
        page.wait_for_url(site_server + "/repos/tracel-ai/burn/conv3d-unsupported-dtype.html")
        # the header's search box on any page lands on the index page, searched
        page.fill("header input[name=q]", "width positive")
        page.click("header button")
        expect(page.locator("#site-q")).to_have_value("width positive")
        expect(page.locator("#site-results")).to_contain_text("width must be positive",
                                                               timeout=15_000)
        assert errors == []
    finally:
        context.close()


def test_index_page_without_javascript_lists_repositories(site_server: str, browser) -> None:  # noqa: F811
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site_server + "/index.html")
        assert "Search needs JavaScript" in page.inner_text("#site-status")
        page.click("text=acme/widgets")
        assert page.inner_text("h1") == "acme/widgets"
    finally:
        context.close()

"""The web UI in a real headless Chromium (Debian's, driven by Playwright): upload a file,
ask, click a citation, see the cited sentence highlighted; a screenshot is kept in
test-artifacts/.

The browser comes from ``make browser`` (apt-get install chromium; `make test` runs it).
Without it the test fails under CI (``CI`` set) and is skipped elsewhere."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.server.conftest import copy_kb

pytestmark = pytest.mark.integration
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HANDBOOK = """# 员工手册

## 第一章 休假

员工连续工作满一年的，每年享有带薪年假十五天。年假应当在当年休完。

## 第二章 报销

差旅费用应当在出差结束后三十日内报销，逾期不予受理。
"""


def _chromium() -> str:
    found = os.environ.get("ZHIKU_CHROMIUM") or shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
    if found:
        return found
    msg = "Chromium is not installed; run `make browser` (apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(msg)
    pytest.skip(msg)


def test_upload_ask_click_citation_highlights_source(kb, tmp_path):
    chromium = _chromium()
    from playwright.sync_api import expect, sync_playwright

    from zhiku.server.app import create_app
    from zhiku.server.run import background

    cfg, skb = copy_kb(kb, tmp_path / "home")
    doc = tmp_path / "员工手册.md"
    doc.write_text(HANDBOOK, encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    with background(create_app(cfg, skb)) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        try:
            page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
            page.goto(url)
            expect(page.locator("#subindexes li").first).to_be_visible()
            page.set_input_files("#file-input", str(doc))
            page.fill("#upload-subindex", "制度")
            page.click("#upload-btn")
            expect(page.locator("#upload-status")).to_have_attribute("data-state", "done", timeout=60_000)
            expect(page.locator("#subindexes")).to_contain_text("制度")
            page.fill("#question", "带薪年假有多少天？")
            page.click("#send")
            cite = page.locator(".msg.bot .cite").first
            expect(cite).to_be_visible(timeout=60_000)
            expect(page.locator(".msg.bot .text").last).to_contain_text("十五天")
            page.locator(".msg.bot details.trace summary").last.click()
            expect(page.locator(".msg.bot details.trace").last).to_contain_text("resolve")
            cite.click()
            mark = page.locator("#reader-text mark")
            expect(mark).to_contain_text("带薪年假十五天", timeout=30_000)
            expect(page.locator("#reader-title")).to_contain_text("员工手册")
            expect(page.locator("#reader-path")).to_contain_text("制度/员工手册.md")
            page.click("#lang")
            expect(page.locator("#send")).to_have_text("Ask")
            expect(page.locator(".msg.bot details.trace summary").last).to_have_text("Route and trace")
            expect(page.locator("#reader-title")).to_contain_text("员工手册")
            page.screenshot(path=str(ARTIFACTS / "web-ui.png"), full_page=True)
            page.click("#clear")
            expect(page.locator("#messages .msg")).to_have_count(0)
        finally:
            browser.close()
    assert (ARTIFACTS / "web-ui.png").stat().st_size > 10_000

"""The library in a real headless Chromium: search, paging, status, chunks, re-ingest and
delete; answer details (low confidence, what verification removed, what a refusal
searched) and the trace timeline, in both UI languages; screenshots in test-artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.server.conftest import copy_kb
from tests.server.test_browser import ARTIFACTS, FLAGS, _chromium

pytestmark = pytest.mark.integration


def _script(body):
    user = body["messages"][-1]["content"] if body.get("messages") else ""
    found = re.findall(r"^\[(\d+)\] ([^\n]*\n[^\[]*)", user, re.M)
    n = next((int(m) for m, text in found if "第十九条" in text and "六个月" in text), 1)
    return f"劳动合同期限三年以上的，试用期不得超过六个月[{n}]。试用期最长十二个月[{n}]。"


def test_library_management_answer_details_and_trace(kb, tmp_path):
    chromium = _chromium()
    from playwright.sync_api import expect, sync_playwright

    from tests.llmserver import fake_llm
    from zhiku.server.app import create_app
    from zhiku.server.run import background

    ARTIFACTS.mkdir(exist_ok=True)
    with fake_llm(_script) as llm:
        cfg, skb = copy_kb(kb, tmp_path / "home", llm_model="fake-chat", llm_base_url=llm.base_url,
                           llm_retries=0, low_confidence=0.99, cache=False)
        with background(create_app(cfg, skb)) as url, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
            try:
                page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
                page.on("dialog", lambda d: d.accept())
                page.goto(url)
                _library(page, expect)
                _answers(page, expect)
            finally:
                browser.close()
    for name in ("library.png", "answer-details.png", "trace-en.png"):
        assert (ARTIFACTS / name).stat().st_size > 10_000


def _library(page, expect):
    page.click("#library-btn")
    rows = page.locator("#lib-table tbody tr")
    expect(rows).to_have_count(6)
    expect(page.locator("#lib-sync")).to_contain_text("尚未同步")
    page.fill("#lib-q", "公司法")
    expect(rows).to_have_count(2)
    expect(page.locator("#lib-table")).to_contain_text("现行")
    expect(page.locator("#lib-table")).to_contain_text("已失效")
    page.fill("#lib-q", "")
    page.select_option("#lib-size", "5")
    expect(rows).to_have_count(5)
    expect(page.locator("#lib-page")).to_have_text("第 1–5 条，共 6 条")
    page.click("#lib-next")
    expect(rows).to_have_count(1)
    expect(page.locator("#lib-page")).to_have_text("第 6–6 条，共 6 条")
    page.click("#lib-prev")
    labour = rows.filter(has_text="劳动合同法")
    expect(labour.locator("td").nth(5)).to_have_text(re.compile(r"^(\d+)/\1$"))  # every chunk has a vector
    labour.locator("[data-action=showChunks]").click()
    expect(page.locator("#lib-chunks li.chunk").first).to_be_visible()
    expect(page.locator("#lib-chunks h3")).to_contain_text("劳动合同法")
    labour.locator("[data-action=reingest]").click()
    expect(page.locator("#lib-status")).to_have_attribute("data-state", "done", timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "library.png"), full_page=True)
    rows.filter(has_text="攻略").locator("[data-action=del]").click()
    expect(page.locator("#lib-status")).to_have_attribute("data-state", "deleted")
    expect(page.locator("#lib-page")).to_have_text("第 1–5 条，共 5 条")
    page.click("#lib-close")


def _answers(page, expect):
    page.fill("#question", "劳动合同法规定试用期最长多久？")
    page.click("#send")
    bot = page.locator(".msg.bot").last
    expect(bot.locator(".cite").first).to_be_visible(timeout=90_000)
    expect(bot.locator(".meta.low")).to_contain_text("置信度低")
    expect(bot.locator(".removed")).to_contain_text("试用期最长十二个月")
    bot.locator("details.trace summary").click()
    steps = bot.locator(".timeline li.step")
    expect(steps.filter(has_text="引用核验")).to_have_count(1)
    expect(bot.locator(".timeline")).to_contain_text(re.compile(r"合计 \d+ ms"))
    page.screenshot(path=str(ARTIFACTS / "answer-details.png"), full_page=True)
    page.fill("#question", "火星基地的氧气配给标准是多少升每天？")
    page.click("#send")
    refused = page.locator(".msg.bot.refused").last
    expect(refused.locator(".searched")).to_contain_text("检索范围", timeout=90_000)
    page.click("#lang")
    page.fill("#question", "劳动合同法第十九条规定了什么？")
    page.click("#send")
    last = page.locator(".msg.bot").last
    expect(last.locator(".cite").first).to_be_visible(timeout=90_000)
    last.locator("details.trace summary").click()
    expect(last.locator(".timeline")).to_contain_text("Timeline of steps")
    expect(last.locator(".timeline")).to_contain_text("verify citations")
    expect(page.locator("#library-btn")).to_have_text("Library")
    page.screenshot(path=str(ARTIFACTS / "trace-en.png"), full_page=True)

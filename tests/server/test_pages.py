"""The cited page on screen: GET /api/documents/{id}/pages/{n}.png over a real server, and in a
real Chromium a PDF citation opens its page image with the passage highlighted."""

from __future__ import annotations

import io

import pytest

from tests.server.test_browser import ARTIFACTS, FLAGS, _chromium

pytestmark = pytest.mark.integration

RULES = ["第一条 设备巡检每班不少于两次，发现异常立即停机。", "第二条 巡检记录应当保存三年，以备查验。",
         "第三条 本规程自发布之日起施行。"]


def _pdf(path):
    from reportlab.lib.pagesizes import A5
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A5)
    c.setFont("STSong-Light", 14)
    c.drawString(40, 540, "设备巡检规程")
    c.showPage()
    c.setFont("STSong-Light", 11)
    for i, text in enumerate(RULES):
        c.drawString(40, 540 - 24 * i, text)
    c.save()
    return path


def _yellow(png: bytes) -> int:
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(1 for r, g, b in img.getdata() if r > 200 and g > 180 and b < 140)


@pytest.fixture(scope="module")
def pdf_server(tmp_path_factory):
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase
    from zhiku.server.app import create_app
    from zhiku.server.run import background

    tmp = tmp_path_factory.mktemp("pages")
    (tmp / "docs").mkdir()
    _pdf(tmp / "docs" / "巡检规程.pdf")
    (tmp / "docs" / "说明.md").write_text("# 说明\n\n巡检说明文字。\n", encoding="utf-8")
    kb = KnowledgeBase(load_config(home=tmp / "home"))
    kb.ingest([tmp / "docs"], dense=True, progress=False)
    with background(create_app(kb.config, kb)) as url:
        yield url, kb


def test_page_png_with_the_passage_highlighted(pdf_server):
    import httpx

    url, kb = pdf_server
    doc = next(d for d in kb.store.documents() if d.path.endswith(".pdf"))
    base = f"{url}/api/documents/{doc.doc_id}/pages"
    plain = httpx.get(f"{base}/2.png", timeout=30)
    assert plain.status_code == 200 and plain.headers["content-type"] == "image/png"
    assert plain.content[:8] == b"\x89PNG\r\n\x1a\n" and _yellow(plain.content) == 0
    marked = httpx.get(f"{base}/2.png", params={"highlight": "巡检记录应当保存三年"}, timeout=30)
    assert _yellow(marked.content) > 200
    missing = httpx.get(f"{base}/9.png", timeout=30)
    assert missing.status_code == 400 and "has 2 pages" in missing.json()["error"]
    md = next(d for d in kb.store.documents() if d.path.endswith(".md"))
    not_pdf = httpx.get(f"{url}/api/documents/{md.doc_id}/pages/1.png", timeout=30)
    assert not_pdf.status_code == 404 and "not a PDF" in not_pdf.json()["error"]


def test_pdf_citation_opens_the_page_image_beside_the_text(pdf_server):
    chromium = _chromium()
    from playwright.sync_api import expect, sync_playwright

    url, _ = pdf_server
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        try:
            page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
            page.goto(url)
            page.fill("#question", "巡检记录应当保存多久？")
            page.click("#send")
            cite = page.locator(".msg.bot .cite").first
            expect(cite).to_be_visible(timeout=60_000)
            cite.click()
            expect(page.locator("#reader-text mark")).to_contain_text("保存三年", timeout=30_000)
            fig = page.locator("#page-view")
            expect(fig).to_be_visible(timeout=30_000)
            expect(fig).to_have_attribute("data-page", "2")
            expect(page.locator("#page-caption")).to_contain_text("巡检规程.pdf")
            page.wait_for_function("document.getElementById('page-image').naturalWidth > 100")
            page.screenshot(path=str(ARTIFACTS / "cited-page.png"), full_page=True)
        finally:
            browser.close()

"""A real browser (Debian's Chromium via Playwright) against the server's defaults: a page
on another origin tries to upload, ingest and delete against a server without keys, and
is refused every time; the UI asks for a key on 401, keeps it in sessionStorage, and
shows errors in Chinese."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.server.conftest import ADMIN_KEY, READ_KEY, copy_kb
from tests.server.test_browser import FLAGS, _chromium

pytestmark = pytest.mark.integration
ATTACK = """<!doctype html><meta charset="utf-8"><body><script>
const target = %(target)s, doc = %(doc)s, folder = %(folder)s;
window.results = {};
async function attempt(name, f) {
  try { const r = await f(); window.results[name] = r.type === "opaque" ? "opaque" : r.status; }
  catch (e) { window.results[name] = "blocked"; }
}
(async () => {
  const form = new FormData();
  form.append("files", new Blob(["# 植入\\n\\n第一条 恶意网站植入的文字。"], {type: "text/markdown"}), "planted.md");
  await attempt("upload", () => fetch(target + "/api/documents", {method: "POST", mode: "no-cors", body: form}));
  await attempt("ingest", () => fetch(target + "/api/ingest", {method: "POST", mode: "no-cors",
    headers: {"Content-Type": "text/plain"}, body: JSON.stringify({paths: [folder]})}));
  await attempt("ingest_json", () => fetch(target + "/api/ingest", {method: "POST",
    headers: {"Content-Type": "application/json", "X-Zhiku-Request": "1"}, body: JSON.stringify({paths: [folder]})}));
  await attempt("delete", () => fetch(target + "/api/documents/" + doc, {method: "DELETE"}));
  await attempt("delete_nocors", () => fetch(target + "/api/documents/" + doc, {method: "POST", mode: "no-cors"}));
  await attempt("read", () => fetch(target + "/api/documents"));
  const f = document.createElement("form");
  f.method = "POST"; f.action = target + "/api/documents"; f.enctype = "multipart/form-data"; f.target = "sink";
  const i = document.createElement("iframe"); i.name = "sink"; document.body.append(i, f);
  f.submit();
  setTimeout(() => { window.done = true; }, 1500);
})();
</script></body>"""


def _attack_app(html: str):
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    return Starlette(routes=[Route("/", lambda _: HTMLResponse(html))])


def test_another_origin_cannot_upload_ingest_or_delete(kb, tmp_path):
    chromium = _chromium()
    from playwright.sync_api import sync_playwright

    from zhiku.server.app import create_app
    from zhiku.server.run import background

    folder = tmp_path / "served-folder"
    folder.mkdir()
    (folder / "inside.md").write_text("# 内部\n\n第一条 不应被网页触发索引。\n", encoding="utf-8")
    cfg, skb = copy_kb(kb, tmp_path / "home", ingest_roots=str(folder))
    before = skb.store.count()
    victim = next(d for d in skb.store.documents() if not d.deleted)
    with background(create_app(cfg, skb)) as url:
        html = ATTACK % {"target": json.dumps(url), "doc": json.dumps(victim.doc_id),
                         "folder": json.dumps(str(folder))}
        with background(_attack_app(html)) as evil, sync_playwright() as pw:
            evil = evil.replace("127.0.0.1", "localhost")  # another origin than the server's
            browser = pw.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
            try:
                page = browser.new_page()
                page.goto(evil)
                page.wait_for_function("window.done === true", timeout=30_000)
                results = page.evaluate("window.results")
            finally:
                browser.close()
        assert results["ingest_json"] == "blocked" and results["delete"] == "blocked"  # no CORS
        assert results["read"] == "blocked"
        assert app_jobs_idle(skb, url)
        assert skb.store.count() == before  # nothing indexed, nothing deleted
        assert skb.store.get_doc(victim.doc_id).deleted is None
        assert not any(d.path.endswith(("planted.md", "inside.md")) for d in skb.store.documents())
        assert not (cfg.home / "uploads").exists() or not any((cfg.home / "uploads").rglob("*.md"))
        r = httpx.get(f"{url}/api/documents", headers={"Host": "evil.example"})
        assert r.status_code == 400 and victim.doc_id not in r.text  # DNS rebinding: refused


def app_jobs_idle(kb, url: str) -> bool:
    """No ingest job was started (job ids are unknown, so look at the documents and uploads)."""
    return not any(d.path.startswith("uploads/") for d in kb.store.documents())


def test_ui_asks_for_a_key_keeps_it_per_tab_and_speaks_chinese(kb, tmp_path):
    chromium = _chromium()
    from playwright.sync_api import expect, sync_playwright

    from zhiku.server.app import create_app
    from zhiku.server.run import background

    cfg, skb = copy_kb(kb, tmp_path / "home", api_keys=READ_KEY, admin_keys=ADMIN_KEY)
    doc = tmp_path / "说明.md"
    doc.write_text("# 说明\n\n第一条 只读密钥不能上传。\n", encoding="utf-8")
    with background(create_app(cfg, skb)) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(url)
            dialog = page.locator("#key-dialog")
            expect(dialog).to_be_visible(timeout=15_000)
            expect(dialog).to_contain_text("API 密钥")
            page.fill("#key-dialog-input", READ_KEY)
            page.locator("#key-dialog button[value=ok]").click()
            expect(page.locator("#subindexes li").first).to_be_visible(timeout=15_000)
            assert page.evaluate("sessionStorage.getItem('zhiku.key')") == READ_KEY
            assert page.evaluate("localStorage.getItem('zhiku.key')") is None
            page.set_input_files("#file-input", str(doc))
            page.click("#upload-btn")
            expect(page.locator("#upload-status")).to_contain_text("此密钥无权", timeout=15_000)
            page.click("#lang")
            page.click("#upload-btn")
            expect(page.locator("#upload-status")).to_contain_text("read-only", timeout=15_000)
        finally:
            browser.close()

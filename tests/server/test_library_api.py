"""Library endpoints on a real uvicorn: paging, search, status, chunks, the last sync, and
a server that watches a folder (the `watch` config)."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.server.conftest import ADMIN_KEY, READ_KEY

pytestmark = pytest.mark.integration
R = {"X-API-Key": READ_KEY}


def test_library_pages_searches_and_reports_status(served):
    url, _ = served
    first = httpx.get(f"{url}/api/library", params={"limit": 4}, headers=R).json()
    rest = httpx.get(f"{url}/api/library", params={"limit": 4, "offset": 4}, headers=R).json()
    assert first["total"] == rest["total"] >= 6 and len(first["items"]) == 4
    assert {d["doc_id"] for d in first["items"]}.isdisjoint({d["doc_id"] for d in rest["items"]})
    found = httpx.get(f"{url}/api/library", params={"q": "公司法"}, headers=R).json()
    assert found["total"] == 2
    by_date = {d["version_date"]: d for d in found["items"]}
    assert by_date["2023-12-29"]["in_force"] and not by_date["2018-10-26"]["in_force"]
    d = by_date["2023-12-29"]
    assert d["vectors"] == d["searchable_chunks"] > 0 and d["chunks"] >= d["searchable_chunks"]
    assert httpx.get(f"{url}/api/library", params={"limit": 0}, headers=R).status_code == 422
    assert httpx.get(f"{url}/api/library").status_code == 401


def test_chunks_of_a_document_in_order(served):
    url, _ = served
    doc = httpx.get(f"{url}/api/library", params={"q": "劳动合同法"}, headers=R).json()["items"][0]
    page = httpx.get(f"{url}/api/documents/{doc['doc_id']}/chunks", params={"limit": 5}, headers=R).json()
    assert page["total"] == doc["chunks"] and len(page["items"]) == 5
    starts = [c["start"] for c in page["items"]]
    assert starts == sorted(starts) and all(c["chunk_id"] and c["text"] for c in page["items"])
    assert any(c["vector"] for c in page["items"])
    assert httpx.get(f"{url}/api/documents/nope/chunks", headers=R).status_code == 404


def test_server_watches_a_folder_and_reports_the_last_sync(tmp_path):
    from zhiku.config import load_config
    from zhiku.server.app import create_app
    from zhiku.server.run import background

    folder = tmp_path / "制度"
    folder.mkdir()
    (folder / "差旅.md").write_text("# 差旅\n\n差旅住宿标准为每晚四百五十元。\n", encoding="utf-8")
    cfg = load_config(home=tmp_path / "home", watch=[folder], watch_debounce=0.3,
                      admin_keys=ADMIN_KEY)
    with background(create_app(cfg)) as url:
        h = {"X-API-Key": ADMIN_KEY}

        def wait(total):
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                lib = httpx.get(f"{url}/api/library", headers=h).json()
                if lib["total"] == total:
                    return lib
                time.sleep(0.1)
            raise AssertionError(f"the library never had {total} documents")

        wait(1)
        (folder / "年假.md").write_text("# 年假\n\n员工每年享有带薪年假十五天。\n", encoding="utf-8")
        lib = wait(2)
        assert {d["path"] for d in lib["items"]} == {"差旅.md", "年假.md"}
        deadline = time.monotonic() + 90  # the report is written when the sync (embedding too) ends
        while time.monotonic() < deadline:
            sync = httpx.get(f"{url}/api/sync", headers=h).json()
            if sync["last"]["added"] == ["年假.md"]:
                break
            time.sleep(0.1)
        assert sync["watch"] == [str(folder)] and sync["last"]["added"] == ["年假.md"]

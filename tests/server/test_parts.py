"""The server's parts on their own: names, keys, bind rule, section rebuilding, sessions,
and the load-test client against a real server."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from zhiku.config import load_config
from zhiku.errors import ZhikuError
from zhiku.server.auth import Access, Keys, check_bind, presented_key
from zhiku.library import _merge
from zhiku.ask.sessions import Sessions
from zhiku.server.uploads import TooLarge, save, safe_name
from zhiku.types import Chunk


@pytest.mark.unit
@pytest.mark.parametrize("raw,want", [("../../etc/passwd.md", "passwd.md"), ("C:\\x\\规章.docx", "规章.docx"),
                                      ("a<b>:c?.md", "a_b__c_.md"), ("报告.md. ", "报告.md"),
                                      ("tab\there.md", "tabhere.md")])
def test_safe_name_keeps_one_clean_component(raw, want):
    assert safe_name(raw) == want


@pytest.mark.unit
@pytest.mark.parametrize("raw", ["", "..", "/", ".env", "../.ssh", "\u202e"])
def test_unusable_names_are_refused(raw):
    with pytest.raises(ZhikuError, match="not usable"):
        safe_name(raw)


@pytest.mark.unit
def test_save_stays_under_home_and_enforces_the_limit(tmp_path):
    p = save(tmp_path, "../../x", "../a.md", io.BytesIO(b"# a\n\nb"), 100)
    assert p == (tmp_path / "uploads" / "x" / "a.md").resolve()
    with pytest.raises(TooLarge, match="upload limit"):
        save(tmp_path, "x", "big.md", io.BytesIO(b"x" * 101), 100)
    assert sorted(f.name for f in (tmp_path / "uploads" / "x").iterdir()) == ["a.md"]
    with pytest.raises(ZhikuError, match="not a supported type"):
        save(tmp_path, "x", "a.exe", io.BytesIO(b"MZ"), 100)
    with pytest.raises(ZhikuError, match="empty"):
        save(tmp_path, "x", "e.md", io.BytesIO(b""), 100)


@pytest.mark.unit
def test_keys_read_admin_and_open(tmp_path):
    keys = Keys.from_config(load_config(home=tmp_path, api_keys="r1, r2", admin_keys="a1"))
    assert [keys.access(k) for k in ("r2", "a1", "x", None, "")] == \
        [Access.READ, Access.ADMIN, Access.NONE, Access.NONE, Access.NONE]
    assert "r1" not in repr(keys) and "a1" not in repr(keys)
    assert "r1" not in repr(load_config(home=tmp_path, api_keys="r1"))
    assert Keys((), ()).access(None) is Access.ADMIN
    assert presented_key({"authorization": "Bearer  k1 "}) == "k1"
    assert presented_key({"x-api-key": "k2", "authorization": "Bearer k1"}) == "k2"


@pytest.mark.unit
def test_no_keys_means_loopback_only(tmp_path, capsys):
    from zhiku.cli import main

    assert "listening on 127.0.0.1 only" in check_bind("127.0.0.1", Keys((), ()))
    assert check_bind("::1", Keys((), ())) and check_bind("0.0.0.0", Keys(("k",), ())) is None
    with pytest.raises(ZhikuError, match="without API keys"):
        check_bind("0.0.0.0", Keys((), ()))
    assert main(["--home", str(tmp_path), "serve", "--host", "0.0.0.0"]) == 2
    assert "refusing to listen on 0.0.0.0" in capsys.readouterr().err


def _chunk(cid: str, body: str, start: int, end: int) -> Chunk:
    return Chunk(cid, "d", "p", "t", "1", (), None, body[start:end], start, end)


@pytest.mark.unit
def test_merge_drops_window_overlap_and_keeps_offsets():
    body = "第一句。第二句。第三句。第四句。"
    chunks = [_chunk("b", body, 4, 12), _chunk("a", body, 0, 8), _chunk("c", body, 12, 16)]
    text, passages = _merge(chunks)
    assert text == "第一句。第二句。第三句。\n\n第四句。"
    for cid, s, e in passages:
        want = next(c.text for c in chunks if c.id == cid)
        assert text[s:e] == want


@pytest.mark.unit
def test_sessions_migrate_once_and_keep_history(tmp_path):
    db = tmp_path / "s.sqlite"
    s = Sessions(db)
    sid = s.add_turn(None, "问题", {"answer": "回答", "citations": []})
    s.close()
    s = Sessions(db)  # reopening applies no migration twice
    assert [m["text"] for m in s.history(sid)] == ["问题", "回答"]
    assert s.history(sid)[1]["answer"]["answer"] == "回答"
    with pytest.raises(ZhikuError, match="bad session id"):
        s.add_turn("a b", "q", {})
    assert s.clear(sid) and not s.clear(sid)


@pytest.mark.integration
def test_load_client_counts_requests_without_errors(served):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import bench_serve

    url, _ = served
    for scenario in ("health", "search"):
        m = bench_serve.load(url, scenario, clients=3, seconds=1.0, cap=50, headers={"X-API-Key": "read-key-123"})
        assert m["requests"] > 0 and m["errors"] == 0 and m["p95"] >= m["p50"] > 0

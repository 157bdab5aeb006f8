"""Text-to-SQL through a real loopback OpenAI-compatible server: the model's SQL is
validated like the rule parser's; invalid SQL, DML and other tables are rejected and the
rule parser answers instead."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.llmserver import Reply, fake_llm
from tests.structured.conftest import make_erp, sources
from zhiku.config import load_config
from zhiku.kb import KnowledgeBase
from zhiku.pipeline import ask

pytestmark = pytest.mark.integration

SEED = "扬程大于30米且耐腐蚀等级为A的泵有哪些"
WANT = ["IH100-80-160", "IH50-32-160", "IH65-50-160", "IH80-50-200", "IH80-65-160"]
replies: list = []


@pytest.fixture(scope="module")
def llm_kb(tmp_path_factory):
    root = tmp_path_factory.mktemp("t2s")
    from tests.structured.conftest import DATA

    with fake_llm(lambda body: replies.pop(0) if replies else Reply(status=500)) as srv:
        cfg = load_config(None, home=root / "home", llm_model="fake-sql", llm_base_url=srv.base_url,
                          llm_retries=0, structured_sources=sources(DATA, make_erp(root / "erp.db")))
        kb = KnowledgeBase(cfg)
        kb.srv = srv
        yield kb


def _ask(kb, question, *answers):
    replies[:] = [json.dumps({"sql": a}, ensure_ascii=False) for a in answers]
    ans = ask(kb, question)
    return ans, next(t for t in ans.trace if t.stage == "structured").detail


def _pump_count(kb) -> int:
    con = sqlite3.connect(kb.config.home / "structured" / "tables.sqlite")
    try:
        return con.execute('SELECT COUNT(*) FROM "pumps"').fetchone()[0]
    finally:
        con.close()


def test_model_sql_is_validated_and_runs(llm_kb):
    ans, d = _ask(llm_kb, SEED, 'SELECT "型号" FROM pumps WHERE "扬程" > 30 AND "耐腐蚀等级" = \'A\'')
    assert d["via"] == "llm" and sorted(d["rows"]) == WANT
    assert d["sql"].startswith('SELECT * FROM "pumps" WHERE') and d["sql"].endswith("LIMIT 200")
    assert d["conditions"] == "扬程 > 30 m 且 耐腐蚀等级 = A"
    assert sorted(c.row_key for c in ans.citations) == WANT
    prompt = llm_kb.srv.last_user()
    assert '"扬程" 数值；单位 m' in prompt and "不锈钢304" in prompt and SEED in prompt


@pytest.mark.parametrize("bad,why", [
    ("SELEC * FORM pumps", "parse|only SELECT"),
    ("DELETE FROM pumps", "only SELECT"),
    ("SELECT * FROM pumps; DROP TABLE pumps", "one statement"),
    ("DROP TABLE pumps", "only SELECT"),
    ("SELECT * FROM pumps WHERE \"密码\" = 1", "not in table"),
    ("SELECT * FROM stock", "not one of"),
])
def test_bad_model_sql_falls_back_to_rules(llm_kb, bad, why):
    import re

    ans, d = _ask(llm_kb, SEED, bad)
    assert d["via"] == "rules" and re.search(why, d["rejected"]), d["rejected"]
    assert sorted(d["rows"]) == WANT  # the rule parser's answer
    assert _pump_count(llm_kb) == 18


def test_unreachable_model_falls_back(llm_kb):
    replies.clear()  # the server answers 500
    _, d = _ask(llm_kb, SEED)
    assert d["via"] == "rules" and "failed" in d["rejected"] and sorted(d["rows"]) == WANT

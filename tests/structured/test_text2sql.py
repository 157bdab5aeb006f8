"""Text-to-SQL through a real loopback OpenAI-compatible server: the model's SQL is
validated like the rule parser's; invalid SQL, DML and other tables are rejected and the
rule parser answers instead."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.llmserver import Reply, fake_llm
from tests.structured.conftest import make_erp, sources
from tests.structured.test_structured_ask import P
from zhiku.config import load_config
from zhiku.kb import KnowledgeBase
from tests.asking import ask

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


# -- aggregates from the model -------------------------------------------------------------
AVG_Q = "扬程大于30米的泵平均价格是多少"
OVER_30 = sorted(r["型号"] for r in P if r["扬程(m)"] > 30)


def test_model_aggregate_runs_and_cites_the_rows_it_covers(llm_kb):
    ans, d = _ask(llm_kb, AVG_Q, 'SELECT AVG("价格") AS avg_price FROM pumps WHERE "扬程" > 30')
    assert d["via"] == "llm" and not d["rejected"]
    assert d["value"] == pytest.approx(87800 / 14)  # sum of the 14 prices over 30 m, by hand
    assert 'AVG("价格") AS "avg_price"' in d["sql"] and 'WHERE "扬程" > 30' in d["sql"]
    assert d["aggregate"]["rows_sql"].startswith('SELECT * FROM "pumps" WHERE "扬程" > 30')
    assert sorted(d["rows"]) == OVER_30 and sorted(c.row_key for c in ans.citations) == OVER_30
    assert "扬程 > 30 m" in ans.text and "价格平均值为 6271.43 元" in ans.text
    assert "COUNT/SUM/AVG/MIN/MAX" in llm_kb.srv.requests[-1]["messages"][0]["content"]


def test_model_group_by_with_having_order_and_limit(llm_kb):
    sql = ('SELECT "材质", AVG("价格") AS p, COUNT(*) AS n FROM pumps WHERE "耐腐蚀等级" = \'A\' '
           'GROUP BY "材质" HAVING COUNT(*) >= 2 ORDER BY p DESC LIMIT 2')
    ans, d = _ask(llm_kb, "耐腐蚀等级为A的泵各材质平均价格", sql)
    assert d["via"] == "llm"
    assert d["value"] == pytest.approx({"不锈钢316L": 10850.0, "不锈钢304": 7533.333333})
    assert sorted(d["rows"]) == ["IH100-80-160", "IH50-32-160", "IH65-50-160", "IH80-50-200", "IH80-65-160"]
    assert "按 材质 分为 2 组" in ans.text and "氟塑料合金" not in ans.text  # cut by ORDER BY … LIMIT 2


def test_model_count_over_erp(llm_kb):
    _, d = _ask(llm_kb, "一号库的物料有几种", 'SELECT COUNT(*) FROM stock WHERE "仓库" = \'一号库\'')
    assert d["via"] == "llm" and d["value"] == 3 and sorted(d["rows"]) == ["M-1001", "M-1002", "M-1006"]


@pytest.mark.parametrize("bad,why", [
    ('SELECT AVG("价格") FROM pumps WHERE "扬程" > 30; DROP TABLE pumps', "one statement"),
    ('SELECT AVG("价格") * 2 FROM pumps WHERE "扬程" > 30', "not COUNT/SUM/AVG/MIN/MAX"),
    ('SELECT COUNT(DISTINCT "材质") FROM pumps', "not COUNT/SUM/AVG/MIN/MAX"),
    ('SELECT SUM("材质") FROM pumps', "text column"),
    ('SELECT "材质", "耐腐蚀等级", COUNT(*) FROM pumps GROUP BY "材质", "耐腐蚀等级"', "one column"),
    ('SELECT AVG("密码") FROM pumps', "not in table"),
])
def test_bad_model_aggregate_falls_back_to_rules(llm_kb, bad, why):
    import re

    ans, d = _ask(llm_kb, AVG_Q, bad)
    assert d["via"] == "rules" and re.search(why, d["rejected"]), d["rejected"]
    assert d["value"] == pytest.approx(87800 / 14) and sorted(d["rows"]) == OVER_30
    assert _pump_count(llm_kb) == 18


def test_injection_inside_an_aggregate_question(llm_kb):
    q = "材质为不锈钢'; DROP TABLE pumps; -- 的泵平均价格是多少"
    # the model copies the payload into a string literal: one harmless SELECT, no row matches
    ans, d = _ask(llm_kb, q, 'SELECT AVG("价格") FROM pumps WHERE "材质" = \'不锈钢\'\'; DROP TABLE pumps; --\'')
    assert d["via"] == "llm" and d["rows"] == [] and d["value"] is None
    import sqlglot

    assert len(sqlglot.parse(d["sql"], read="sqlite")) == 1 and "没有满足" in ans.text  # one statement
    # the model emits the payload as SQL: rejected, the rules answer from literal values
    ans, d = _ask(llm_kb, q, 'SELECT AVG("价格") FROM pumps WHERE "材质" LIKE \'%不锈钢%\'; DROP TABLE pumps; --')
    assert d["via"] == "rules" and "one statement" in d["rejected"]
    assert d["value"] == pytest.approx(54100 / 6)  # the six stainless pumps, by hand
    assert _pump_count(llm_kb) == 18
    con = sqlite3.connect(llm_kb.config.structured_sources[2].url.split("///", 1)[1])
    assert con.execute("SELECT COUNT(*) FROM stock").fetchone()[0] == 8
    con.close()

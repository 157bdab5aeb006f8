"""Condition questions through ask(): exactly the rows that satisfy them, from a CSV, an
XLSX and a SQLite database; tables and policy documents together; closest rows; a
calculation with cited numbers; SQL injection that changes nothing."""

from __future__ import annotations

import csv
import hashlib
import json
import sqlite3

import pytest

from tests.structured.conftest import DATA, ERP_ROWS
from tests.asking import ask

pytestmark = pytest.mark.integration


def structured_step(ans):
    return next((t for t in ans.trace if t.stage == "structured"), None)


def pumps() -> list[dict]:
    rows = list(csv.DictReader(open(DATA / "pumps.csv", encoding="utf-8")))
    for r in rows:
        for k in ("扬程(m)", "流量(m³/h)", "功率(kW)", "价格(元)"):
            r[k] = float(r[k])
    return rows


def keys(rows, pred, key="型号"):
    return sorted(r[key] for r in rows if pred(r))


P = pumps()
CASES = [  # question, the rows that satisfy it (an independent filter over the CSV)
    ("扬程大于30米的泵有哪些？", keys(P, lambda r: r["扬程(m)"] > 30)),
    ("扬程30米以上的泵", keys(P, lambda r: r["扬程(m)"] >= 30)),
    ("功率低于4千瓦的水泵", keys(P, lambda r: r["功率(kW)"] < 4)),
    ("功率不超过15千瓦且扬程至少50米的泵", keys(P, lambda r: r["功率(kW)"] <= 15 and r["扬程(m)"] >= 50)),
    ("流量在20到60立方米每小时之间的泵", keys(P, lambda r: 20 <= r["流量(m³/h)"] <= 60)),
    ("流量不低于100立方米每小时的泵", keys(P, lambda r: r["流量(m³/h)"] >= 100)),
    ("流量大于15升每秒的泵", keys(P, lambda r: r["流量(m³/h)"] > 54)),
    ("扬程不低于3000毫米的氟塑料合金泵", keys(P, lambda r: r["扬程(m)"] >= 3 and r["材质"] == "氟塑料合金")),
    ("功率不超过7500瓦、耐腐蚀等级A的泵", keys(P, lambda r: r["功率(kW)"] <= 7.5 and r["耐腐蚀等级"] == "A")),
    ("流量 between 10 and 30 m3/h 的泵", keys(P, lambda r: 10 <= r["流量(m³/h)"] <= 30)),
    ("功率 >= 15kW 的泵", keys(P, lambda r: r["功率(kW)"] >= 15)),
    ("价格 < 3000 元的泵", keys(P, lambda r: r["价格(元)"] < 3000)),
    ("材质为不锈钢的泵有哪些", keys(P, lambda r: "不锈钢" in r["材质"])),
    ("材质是铸铁且扬程50米的泵", keys(P, lambda r: r["材质"] == "铸铁" and r["扬程(m)"] == 50)),
    ("耐腐蚀等级不低于B级、价格不超过5000元的泵",
     keys(P, lambda r: r["耐腐蚀等级"] in ("A", "B") and r["价格(元)"] <= 5000)),
    ("哪款泵能满足扬程30米且耐腐蚀？", keys(P, lambda r: r["扬程(m)"] >= 30 and r["耐腐蚀等级"] == "A")),
]


@pytest.mark.parametrize("question,want", CASES, ids=[c[0] for c in CASES])
def test_condition_questions_return_exactly_the_matching_rows(skb, question, want):
    ans = ask(skb, question)
    step = structured_step(ans)
    assert step is not None, ans.text
    assert sorted(step.detail["rows"]) == want, (step.detail["sql"], step.detail["conditions"])
    cited = sorted(c.row_key for c in ans.citations if c.row_key is not None)
    assert cited == want  # every matching row cited, nothing else
    assert all(c.label().startswith("pumps › pumps › 型号 ") for c in ans.citations)
    assert step.detail["sql"].upper().startswith("SELECT")


def test_seed_question_shows_conditions_with_units(skb):
    ans = ask(skb, "哪款泵能满足扬程30米且耐腐蚀？")
    assert "扬程 ≥ 30 m 且 耐腐蚀等级 = A" in ans.text
    assert "IH80-65-160" in ans.text and "[1]" in ans.text
    assert not ans.refused and ans.confidence >= 0.8
    d = ans.to_dict()
    assert d["citations"][0]["row_key"] and d["citations"][0]["label"].startswith("pumps › pumps ›")


def test_xlsx_source_with_units_in_cells(skb):
    ans = ask(skb, "转速超过2000转每分钟的电机")
    assert structured_step(ans).detail["rows"] == ["YE3-132S-2", "YE3-160M-2"]
    ans = ask(skb, "防护等级IP55、价格低于5千元的电机")
    assert sorted(structured_step(ans).detail["rows"]) == ["Y2-112M-4", "Y2-132M-4", "YE3-132S-2"]
    ans = ask(skb, "额定功率最大的电机是哪款")
    assert structured_step(ans).detail["rows"] == ["Y2-180L-4"]


def test_sqlite_database_source(skb):
    ans = ask(skb, "库存数量少于60的物料有哪些")
    want = sorted(r[0] for r in ERP_ROWS if r[2] < 60)
    assert sorted(structured_step(ans).detail["rows"]) == want
    assert ans.citations[0].label().startswith("erp › stock › 物料编码 M-")
    ans = ask(skb, "单价超过400元且在一号库的物料")
    assert sorted(structured_step(ans).detail["rows"]) == sorted(
        r[0] for r in ERP_ROWS if r[3] > 400 and r[4] == "一号库")


def test_no_match_says_so_and_names_closest_rows(skb):
    ans = ask(skb, "扬程超过200米的不锈钢泵")
    step = structured_step(ans)
    assert step.detail["rows"] == []
    assert "没有满足「扬程 > 200 m 且 材质 含 不锈钢」的记录" in ans.text
    assert step.detail["closest"][0] == "GDL25-11x10"  # 110 m, stainless: the nearest
    assert "最接近" in ans.text and ans.citations[0].row_key == "GDL25-11x10"


def test_table_and_policy_document_answer_together(skb):
    ans = ask(skb, "扬程不低于30米且材质为不锈钢的泵有哪些？采购审批需要谁签字？")
    rows = sorted(structured_step(ans).detail["rows"])
    assert rows == keys(P, lambda r: r["扬程(m)"] >= 30 and "不锈钢" in r["材质"])
    docs = [c for c in ans.citations if c.row_key is None]
    assert docs and all(c.title == "设备采购管理规定" for c in docs)
    assert "签字" in ans.text
    assert sorted(c.marker for c in ans.citations) == list(range(1, len(ans.citations) + 1))


def test_calculation_cites_each_number(skb):
    ans = ask(skb, "去上海出差三天，住宿和交通一共能报销多少？")
    step = structured_step(ans)
    assert step.detail["rows"] == ["上海"]
    assert "住宿标准 600 元/天 [1] × 3 天 + 交通费 1100 元 [1] = 2900 元" in ans.text
    c = ans.citations[0]
    assert c.title == "差旅报销办法" and c.label().endswith("城市 上海")
    row = skb.store.get_chunks([c.chunk_id])[c.chunk_id]  # the ingested table_row chunk
    assert row.kind == "table_row" and "600" in row.text and "1100" in row.text


def test_document_questions_still_go_to_documents(skb):
    ans = ask(skb, "出差申请需要谁批准？")
    assert structured_step(ans) is None
    assert "部门负责人" in ans.text and ans.citations[0].title == "差旅报销办法"


INJECTIONS = [
    "材质为不锈钢'; DROP TABLE pumps; -- 的泵有哪些",
    "扬程大于30米'); DELETE FROM stock; --",
    "库存数量少于60的物料\"; DROP TABLE stock; --",
    "1 OR 1=1; UPDATE pumps SET 价格=0",
]


def _digest(kb) -> tuple:
    local = kb.config.home / "structured" / "tables.sqlite"
    con = sqlite3.connect(local)
    pumps_rows = con.execute('SELECT * FROM "pumps" ORDER BY "型号"').fetchall()
    con.close()
    con = sqlite3.connect(kb.test_erp)
    erp_rows = con.execute("SELECT * FROM stock ORDER BY 1").fetchall()
    con.close()
    csv_hash = hashlib.sha1((kb.test_folder / "pumps.csv").read_bytes()).hexdigest()
    return pumps_rows, erp_rows, csv_hash


@pytest.mark.parametrize("question", INJECTIONS)
def test_sql_injection_changes_nothing(skb, question):
    before = _digest(skb)
    assert len(before[0]) == 18 and len(before[1]) == len(ERP_ROWS)
    ans = ask(skb, question)  # answered from literal values, or not a table question at all
    step = structured_step(ans)
    if step is not None:
        sql = step.detail["sql"].upper()
        assert sql.count(";") == 0 and "DROP" not in sql.replace("'", " ").split("LIKE")[0]
        assert not any(w in sql for w in ("DELETE FROM", "UPDATE PUMPS", "DROP TABLE"))
    assert _digest(skb) == before


def test_trace_is_json_ready(skb):
    ans = ask(skb, "功率低于4千瓦的水泵")
    out = json.loads(json.dumps(ans.to_dict(), ensure_ascii=False))
    step = next(t for t in out["trace"] if t["stage"] == "structured")
    assert step["detail"]["via"] == "rules" and "功率 < 4 kW" == step["detail"]["conditions"]

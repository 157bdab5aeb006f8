"""Aggregate questions through ask() on the rule path: count, average, sum, largest and
smallest value, per group, over the real CSV, XLSX and SQLite sources; each value is
checked against an independent computation over the source file, every covered row is
cited, units are kept, and the per-row calculation and row questions are unchanged."""

from __future__ import annotations

import re
import statistics

import openpyxl
import pytest

from tests.structured.conftest import DATA, ERP_ROWS, make_erp, sources
from tests.structured.test_structured_ask import P, keys, structured_step
from tests.asking import ask
from zhiku.structured.conditions import fmt

pytestmark = pytest.mark.integration


def _motors() -> list[dict]:
    ws = openpyxl.load_workbook(DATA / "motors.xlsx", read_only=True).active
    head, *body = [list(r) for r in ws.iter_rows(values_only=True)]
    rows = [dict(zip(head, r)) for r in body]
    for r in rows:
        r["kw"] = float(str(r["额定功率"]).split()[0])
    return rows


M = _motors()


def _value(ans):
    return structured_step(ans).detail["value"]


def _cited(ans) -> list[str]:
    return sorted(c.row_key for c in ans.citations if c.row_key is not None)


def _pumps(pred):
    return [r for r in P if pred(r)]


PUMP_CASES = [  # question, independent value, rows covered, unit shown
    ("扬程大于30米的泵有几款", len(_pumps(lambda r: r["扬程(m)"] > 30)), lambda r: r["扬程(m)"] > 30, "款"),
    ("扬程大于30米的泵平均价格是多少",
     statistics.mean(r["价格(元)"] for r in _pumps(lambda r: r["扬程(m)"] > 30)), lambda r: r["扬程(m)"] > 30, "元"),
    ("功率不超过4千瓦的泵总功率是多少",
     sum(r["功率(kW)"] for r in _pumps(lambda r: r["功率(kW)"] <= 4)), lambda r: r["功率(kW)"] <= 4, "kW"),
    ("不锈钢泵的价格最高是多少",
     max(r["价格(元)"] for r in _pumps(lambda r: "不锈钢" in r["材质"])), lambda r: "不锈钢" in r["材质"], "元"),
    ("流量至少50立方米每小时的泵最低功率是多少",
     min(r["功率(kW)"] for r in _pumps(lambda r: r["流量(m³/h)"] >= 50)), lambda r: r["流量(m³/h)"] >= 50, "kW"),
    ("耐腐蚀等级为A的泵价格合计是多少",
     sum(r["价格(元)"] for r in _pumps(lambda r: r["耐腐蚀等级"] == "A")), lambda r: r["耐腐蚀等级"] == "A", "元"),
    ("功率不超过4千瓦的泵最高扬程是多少",
     max(r["扬程(m)"] for r in _pumps(lambda r: r["功率(kW)"] <= 4)), lambda r: r["功率(kW)"] <= 4, "m"),
    ("氟塑料合金泵的均价",
     statistics.mean(r["价格(元)"] for r in _pumps(lambda r: r["材质"] == "氟塑料合金")),
     lambda r: r["材质"] == "氟塑料合金", "元"),
]


@pytest.mark.parametrize("question,want,pred,unit", PUMP_CASES, ids=[c[0] for c in PUMP_CASES])
def test_pump_aggregates_on_the_csv(skb, question, want, pred, unit):
    ans = ask(skb, question)
    step = structured_step(ans)
    assert step is not None and step.detail["via"] == "rules", ans.text
    assert step.detail["value"] == pytest.approx(want)
    rows = keys(P, pred)
    assert sorted(step.detail["rows"]) == rows and _cited(ans) == rows  # every covered row cited
    assert all(c.label().startswith("pumps › pumps › 型号 ") for c in ans.citations)
    assert f"为 {fmt(round(want, 2))} {unit}" in ans.text, ans.text
    assert step.detail["conditions"] in ans.text  # the conditions applied are shown
    assert re.search(r"(COUNT|AVG|SUM|MAX|MIN)\(", step.detail["sql"])
    assert step.detail["aggregate"]["rows_sql"].startswith('SELECT * FROM "pumps" WHERE')


def test_average_shows_the_formula_with_each_cell_cited(skb):
    ans = ask(skb, "扬程大于30米的泵平均价格是多少")
    rows = _pumps(lambda r: r["扬程(m)"] > 30)
    line = next(ln for ln in ans.text.splitlines() if ln.startswith("计算："))
    assert line.endswith(f"÷ {len(rows)} = 6271.43 元")
    cells = [float(x) for x in re.findall(r"([\d.]+) \[\d+\]", line)]
    assert sorted(cells) == sorted(r["价格(元)"] for r in rows)
    markers = [int(m) for m in re.findall(r"\[(\d+)\]", line)]
    assert markers == list(range(1, len(rows) + 1))
    by_marker = {c.marker: c.row_key for c in ans.citations}
    price = {r["型号"]: r["价格(元)"] for r in rows}
    for (value, marker) in re.findall(r"([\d.]+) \[(\d+)\]", line):  # each cell is its cited row's
        assert price[by_marker[int(marker)]] == float(value)


def test_largest_value_names_its_row(skb):
    ans = ask(skb, "不锈钢泵的价格最高是多少")
    m = re.search(r"价格最高值为 12800 元（IH80-50-200 \[(\d+)\]）", ans.text)
    assert m, ans.text
    assert next(c for c in ans.citations if c.marker == int(m[1])).row_key == "IH80-50-200"


def test_grouped_count_and_average(skb):
    ans = ask(skb, "各材质的泵有几款")
    counts = {}
    for r in P:
        counts[r["材质"]] = counts.get(r["材质"], 0) + 1
    assert _value(ans) == counts and len(ans.citations) == len(P)
    assert "按 材质 分为 5 组" in ans.text and "- 铸铁：数量 8 款" in ans.text
    ans = ask(skb, "各防护等级的电机平均价格是多少")
    want = {g: statistics.mean(r["价格(元)"] for r in M if r["防护等级"] == g) for g in {r["防护等级"] for r in M}}
    assert _value(ans) == pytest.approx(want)
    assert "IP65：价格平均值 = (8600 [" in ans.text and "= 11200 元" in ans.text


def test_xlsx_aggregates_keep_units(skb):
    ans = ask(skb, "额定功率不低于7.5千瓦的电机平均重量是多少")
    sel = [r for r in M if r["kw"] >= 7.5]
    assert _value(ans) == pytest.approx(statistics.mean(r["重量(kg)"] for r in sel))
    assert "重量平均值为 125.43 kg" in ans.text and _cited(ans) == sorted(r["型号"] for r in sel)
    ans = ask(skb, "防护等级IP55的电机最低价格是多少")
    assert _value(ans) == min(r["价格(元)"] for r in M if r["防护等级"] == "IP55") == 2350
    assert "价格最低值为 2350 元（Y2-112M-4 [" in ans.text


def test_sqlite_database_aggregates(skb):
    ans = ask(skb, "一号库的物料库存数量合计是多少")
    one = [r for r in ERP_ROWS if r[4] == "一号库"]
    assert _value(ans) == sum(r[2] for r in one)
    assert _cited(ans) == sorted(r[0] for r in one)
    assert ans.citations[0].label().startswith("erp › stock › 物料编码 M-")
    ans = ask(skb, "二号库物料的平均单价是多少")
    assert _value(ans) == pytest.approx(statistics.mean(r[3] for r in ERP_ROWS if r[4] == "二号库"))
    assert "单价平均值为 558.33 元" in ans.text
    ans = ask(skb, "库存数量少于60的物料有几种")
    n = sum(r[2] < 60 for r in ERP_ROWS)
    assert _value(ans) == n and f"数量为 {n} 种" in ans.text
    ans = ask(skb, "各仓库的物料有多少种")
    assert _value(ans) == {"一号库": 3, "二号库": 3, "三号库": 2}


def test_no_matching_row_says_so(skb):
    ans = ask(skb, "扬程超过200米的泵平均价格是多少")
    step = structured_step(ans)
    assert step.detail["rows"] == [] and step.detail["value"] is None
    assert "没有满足「扬程 > 200 m」的记录" in ans.text and "无法计算价格平均值" in ans.text
    ans = ask(skb, "扬程超过200米的泵有几款")
    assert _value(ans) == 0 and "数量为 0 款" in ans.text


@pytest.mark.parametrize("question,rows", [
    ("价格最低的泵是哪款", ["ISG40-160"]),  # 哪款 picks a row
    ("扬程最高的泵价格是多少", ["GDL25-11x10"]),  # the price of that row, not MAX(价格)
])
def test_row_questions_stay_row_questions(skb, question, rows):
    step = structured_step(ask(skb, question))
    assert step.detail["rows"] == rows and "value" not in step.detail


def test_per_row_calculation_is_not_an_aggregate(skb):
    ans = ask(skb, "去上海出差三天，住宿和交通一共能报销多少？")
    step = structured_step(ans)
    assert "value" not in step.detail and step.detail["rows"] == ["上海"]
    assert "住宿标准 600 元/天 [1] × 3 天 + 交通费 1100 元 [1] = 2900 元" in ans.text


def test_rows_beyond_the_limit_take_the_database_value(tmp_path):
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    cfg = load_config(None, home=tmp_path / "home", structured_row_limit=5,
                      structured_sources=sources(DATA, make_erp(tmp_path / "erp.db")))
    ans = ask(KnowledgeBase(cfg), "扬程大于30米的泵平均价格是多少")
    step = structured_step(ans)
    assert step.detail["value"] == pytest.approx(statistics.mean(r["价格(元)"] for r in P if r["扬程(m)"] > 30))
    assert step.detail["aggregate"]["complete"] is False and len(ans.citations) == 5
    assert "数值由数据库按全部记录计算" in ans.text

"""Units, the condition parser, SQL validation, read-only execution with a timeout, the
safe calculator, editable schemas and clear errors for bad sources."""

from __future__ import annotations

import sqlite3

import pytest

from tests.structured.conftest import DATA, make_erp
from zhiku.cli import main
from zhiku.config import load_config
from zhiku.errors import ZhikuError
from zhiku.structured.calc import evaluate
from zhiku.structured.conditions import parse
from zhiku.structured.schema import TableSchema, infer_columns, split_unit
from zhiku.structured.sources import build_catalog
from zhiku.structured.sql import SQLRejected, run_sqlite, validate
from zhiku.structured.units import convert, quantities, unit_of

pytestmark = pytest.mark.unit


def pump_schema() -> TableSchema:
    import csv

    rows = list(csv.reader(open(DATA / "pumps.csv", encoding="utf-8")))
    cols = infer_columns(tuple(rows[0]), tuple(tuple(r) for r in rows[1:]))
    return TableSchema("pumps", "pumps", "pumps", "csv", "pumps.csv", "型号", cols, len(rows) - 1,
                       synonyms=("泵",))


def test_units_normalise_written_forms():
    q = quantities("扬程30米，功率15千瓦，流量100立方米每小时，压力1.6兆帕，三天")
    assert [(x.value, x.unit.symbol) for x in q] == [(30, "m"), (15, "kW"), (100, "m³/h"),
                                                     (1.6, "MPa"), (3, "天")]
    assert convert(3000, unit_of("毫米"), unit_of("m")) == pytest.approx(3.0)
    assert convert(15, unit_of("升每秒"), unit_of("m³/h")) == pytest.approx(54.0)
    assert convert(1, unit_of("kW"), unit_of("m")) is None  # another dimension
    assert split_unit("住宿标准（元/人·天）") == ("住宿标准", "元/天")
    assert split_unit("扬程(m)") == ("扬程", "m") and split_unit("备注(选填)") == ("备注(选填)", "")


def test_schema_types_and_units():
    t = pump_schema()
    by = {c.name: c for c in t.columns}
    assert by["扬程"].type == "number" and by["扬程"].unit == "m"
    assert by["流量"].unit == "m³/h" and by["功率"].unit == "kW" and by["价格"].unit == "元"
    assert by["材质"].type == "text" and "不锈钢304" in by["材质"].values


@pytest.mark.parametrize("question,label", [
    ("扬程30米以上的泵", "扬程 ≥ 30 m"),
    ("扬程超过30米", "扬程 > 30 m"),
    ("扬程不低于30米", "扬程 ≥ 30 m"),
    ("扬程至少30米", "扬程 ≥ 30 m"),
    ("功率以下15千瓦", "功率 = 15 kW"),
    ("功率15千瓦以下", "功率 ≤ 15 kW"),
    ("功率不超过15千瓦", "功率 ≤ 15 kW"),
    ("功率<4kW的泵", "功率 < 4 kW"),
    ("扬程>=32m", "扬程 ≥ 32 m"),
    ("流量在20到60立方米每小时之间", "流量 在 20–60 m³/h 之间"),
    ("流量 between 10 and 30 m3/h", "流量 在 10–30 m³/h 之间"),
    ("扬程不低于3000毫米", "扬程 ≥ 3 m"),
    ("流量100立方米每小时以上", "流量 ≥ 100 m³/h"),
    ("30米以上的泵", "扬程 ≥ 30 m"),  # the only length column
    ("材质为不锈钢316L的泵", "材质 = 不锈钢316L"),
    ("耐腐蚀等级 A 的泵", "耐腐蚀等级 = A"),
    ("耐腐蚀等级B级以上的泵", "耐腐蚀等级 ∈ {A, B}"),
    ("材质不是铸铁的泵", "材质 ≠ 铸铁"),
    ("价格最低的泵", "价格 最低"),
])
def test_rule_parser(question, label):
    assert parse(question, pump_schema()).label() == label


def test_parser_ignores_model_numbers_and_plain_questions():
    t = pump_schema()
    p = parse("型号IS80-65-160的功率是多少", t)
    assert p.label() == "型号 = IS80-65-160"
    assert parse("试用期最长多久", t).label() == ""


@pytest.mark.parametrize("sql,why", [
    ("SELECT * FROM pumps; DROP TABLE pumps", "one statement"),
    ("DELETE FROM pumps", "only SELECT"),
    ("UPDATE pumps SET 价格 = 0", "only SELECT"),
    ("PRAGMA writable_schema = 1", "only SELECT"),
    ("ATTACH DATABASE '/tmp/x.db' AS x", "only SELECT"),
    ("SELECT * INTO copy FROM pumps", "INTO"),
    ("SELECT load_extension('/tmp/evil')", "load_extension"),
    ("SELECT readfile('/etc/passwd')", "readfile"),
    ("SELECT * FROM sqlite_master", "not one of"),
    ("SELEC * FROM pumps", "does not parse|only SELECT"),
])
def test_validation_rejects(sql, why):
    with pytest.raises(SQLRejected, match=why):
        validate(sql, ["pumps"], 100)


def test_validation_adds_a_row_limit():
    assert validate("SELECT * FROM pumps", ["pumps"], 50).endswith("LIMIT 50")
    assert validate("SELECT * FROM pumps LIMIT 5000", ["pumps"], 50).endswith("LIMIT 50")
    assert validate("SELECT * FROM pumps LIMIT 3", ["pumps"], 50).endswith("LIMIT 3")


def test_connections_are_read_only_and_time_out(tmp_path):
    db = make_erp(tmp_path / "erp.db")
    with pytest.raises(ZhikuError, match="failed"):  # even unvalidated DML cannot write
        run_sqlite(db, "DELETE FROM stock", 10, 5.0)
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM stock").fetchone()[0] == 8
    slow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c"
    with pytest.raises(ZhikuError, match="longer than 0.2 s"):
        run_sqlite(db, slow, 10, 0.2)


def test_safe_calculator():
    assert evaluate("v0 * v1 + v2", {"v0": 600, "v1": 3, "v2": 1100}) == 2900
    assert evaluate("max(v0, v1, 3)", {"v0": 1, "v1": 7.5}) == 7.5
    assert evaluate("(v0 + v1) / 2", {"v0": 1, "v1": 2}) == 1.5 and evaluate("min(v0)", {"v0": -2}) == -2
    for bad in ("__import__('os').system('id')", "v0.real", "[1][0]", "open('x')", "2 ** 99999",
                "max()", "max(*[1, 2])", "max(v0, key=v0)", "abs(v0)", "max.__self__"):
        with pytest.raises(ZhikuError, match="cannot calculate"):
            evaluate(bad, {"v0": 1})


def _cfg(tmp_path, **src):
    return load_config(None, home=tmp_path / "home", structured_sources=[{"name": "s", **src}])


def test_bad_sources_are_one_clear_sentence(tmp_path):
    cases = [
        (dict(path=str(tmp_path / "missing.csv")), "does not exist"),
        (dict(path=str(DATA / "docs" / "差旅报销办法.md")), "not .csv or .xlsx"),
        (dict(path=str(DATA / "pumps.csv"), key="编号"), "has no column '编号'"),
        (dict(path=str(DATA / "motors.xlsx"), table="泵"), "has no sheet"),
        (dict(url="sqlite:///" + str(tmp_path / "nope.db")), "does not exist"),
        (dict(url="not a url"), "not a database URL"),
    ]
    for src, msg in cases:
        with pytest.raises(ZhikuError, match=msg) as e:
            build_catalog(_cfg(tmp_path, **src))
        assert "\n" not in str(e.value)
    with pytest.raises(ZhikuError, match="exactly one of path"):
        _cfg(tmp_path, path="a.csv", url="sqlite:///b.db")


def test_schema_edits_are_honoured_on_the_next_run(tmp_path):
    import json

    cfg = _cfg(tmp_path, path=str(DATA / "pumps.csv"), key="型号")
    cat = build_catalog(cfg)
    path = tmp_path / "home" / "structured" / "schemas" / "s.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert parse("压头超过40的泵", cat.tables[0]).label() == ""  # no unit, no known column
    for c in data["columns"]:
        if c["name"] == "扬程":
            c["synonyms"] = ["压头"]
            c["description"] = "泵能把水提升的高度"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    t = build_catalog(cfg).tables[0]
    assert t.column("扬程").synonyms == ("压头",)
    assert parse("压头超过40的泵", t).label() == "扬程 > 40 m"  # the synonym names the column
    assert parse("提升的高度超过40米", t).label() == "扬程 > 40 m"  # found by description
    path.write_text("{broken", encoding="utf-8")
    with pytest.raises(ZhikuError, match="delete it to regenerate"):
        build_catalog(cfg)


def test_cli_tables(tmp_path, capsys):
    cfg = tmp_path / "zhiku.toml"
    cfg.write_text((DATA / "zhiku.toml").read_text(encoding="utf-8").replace(
        'path = "pumps.csv"', f'path = "{DATA / "pumps.csv"}"').replace(
        'path = "motors.xlsx"', f'path = "{DATA / "motors.xlsx"}"'), encoding="utf-8")
    assert main(["--config", str(cfg), "--home", str(tmp_path / "h"), "tables", "--describe"]) == 0
    out = capsys.readouterr().out
    assert "pumps › pumps：18 行" in out and "扬程" in out and "number; m" in out
    assert "motors › 电机：10 行" in out and "values IP54、IP55、IP65" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('[[structured_sources]]\nname = "x"\npath = "nope.csv"\n', encoding="utf-8")
    assert main(["--config", str(bad), "--home", str(tmp_path / "h2"), "tables"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: structured source 'x': file") and err.count("\n") == 1


def test_markdown_pipe_tables_are_extracted():
    from zhiku.ingest.loader import load_text, markdown_tables

    doc = load_text(DATA / "docs" / "差旅报销办法.md", DATA / "docs")
    (t,) = doc.tables
    assert t.columns == ("城市", "住宿标准（元/天）", "伙食补助（元/天）", "交通费（元）")
    assert len(t.rows) == 6 and t.rows[1] == ("上海", "600", "100", "1100")
    assert doc.body[t.start:t.end].startswith("| 城市 |") and doc.body[t.start:t.end].endswith("1000 |")
    assert markdown_tables("a | b\n不是表格") == ()
    assert markdown_tables("| a \\| b | c |\n|---|---|\n| 1 | 2 |")[0].columns == ("a | b", "c")

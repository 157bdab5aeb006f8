"""CSV dialects and table headers as exports write them: quoted commas, blank and merged headers."""

from __future__ import annotations

import pytest

from zhiku.chunk import chunk_document
from zhiku.ingest import load_file
from zhiku.ingest.builder import clean_cells
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit


def test_csv_with_quoted_commas_and_apostrophes_keeps_its_cells(tmp_path):
    # An issue tracker export: apostrophes in text made the sniffer take ' as the quote char.
    text = ('编号,标题,状态,描述\n'
            '101,"登录失败, 提示 \'密码错误\'",已关闭,"用户反馈: 输入正确密码后仍提示错误, 清缓存后恢复"\n'
            "102,导出报表超时,处理中,\"大于 10,000 行时导出超时\"\n"
            "103,'夜间模式' 颜色不对,待处理,按钮文字看不清\n")
    path = tmp_path / "问题.csv"
    path.write_text(text, encoding="utf-8")
    (table,) = load_file(path, tmp_path).tables
    assert table.columns == ("编号", "标题", "状态", "描述")
    assert table.rows[0] == ("101", "登录失败, 提示 '密码错误'", "已关闭",
                             "用户反馈: 输入正确密码后仍提示错误, 清缓存后恢复")
    assert table.rows[1][3] == "大于 10,000 行时导出超时"
    assert table.rows[2][1] == "'夜间模式' 颜色不对"


def test_semicolon_csv_is_still_read_by_its_delimiter(tmp_path):
    path = tmp_path / "欧式.csv"
    path.write_text("型号;功率;价格\nA1;1,5;200\nA2;2,2;260\n", encoding="utf-8")
    (table,) = load_file(path, tmp_path).tables
    assert table.columns == ("型号", "功率", "价格") and table.rows[0] == ("A1", "1,5", "200")


def test_blank_header_cells_are_never_named_col_n(tmp_path):
    path = tmp_path / "名单.csv"
    path.write_text(",姓名,部门,\n1,张三,财务部,备注甲\n2,李四,人事部,\n3,王五,技术部,备注乙\n",
                    encoding="utf-8")
    doc = load_file(path, tmp_path)
    (table,) = doc.tables
    assert table.columns == ("序号", "姓名", "部门", "")
    chunks = chunk_document(doc, build_tree(doc))
    text = " ".join(c.text for c in chunks)
    assert "列1" not in text and "列4" not in text
    row = next(c for c in chunks if c.kind == "table_row" and "张三" in c.text)
    assert "序号 1" in row.text and "备注甲" in row.text


def test_two_row_header_under_merged_cells_is_folded():
    raw = [["型号", "功率", None, "价格"], [None, "额定", "峰值", None],
           ["X1", "1.5", "2.0", "300"], ["X2", "2.2", "3.0", "360"]]
    cols, rows = clean_cells(raw)
    assert cols == ("型号", "功率 额定", "功率 峰值", "价格")
    assert rows == (("X1", "1.5", "2.0", "300"), ("X2", "2.2", "3.0", "360"))
    # Word repeats a merged cell's text in every cell it spans
    cols, _ = clean_cells([["型号", "功率", "功率"], ["型号", "额定", "峰值"], ["X1", "1", "2"]])
    assert cols == ("型号", "功率 额定", "功率 峰值")
    # an ordinary first data row is not folded into the header
    cols, rows = clean_cells([["型号", "功率"], ["X1", "1.5"], ["X2", "2"]])
    assert cols == ("型号", "功率") and len(rows) == 2

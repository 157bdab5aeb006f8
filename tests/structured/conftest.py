"""A knowledge base over the policy documents with the product CSV/XLSX and an ERP SQLite
database registered as structured sources (keyword index only: no model is needed)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

DATA = Path(__file__).parents[1] / "data" / "structured"

# An ERP inventory table: (物料编码, 名称, 库存数量, 单价, 仓库)
ERP_ROWS = [
    ("M-1001", "机械密封 IS80", 120, 380.0, "一号库"),
    ("M-1002", "机械密封 IH80", 35, 860.0, "一号库"),
    ("M-1003", "叶轮 IS100-80-160", 12, 1450.0, "二号库"),
    ("M-1004", "轴承 6309", 240, 95.0, "二号库"),
    ("M-1005", "轴承 6311", 80, 130.0, "二号库"),
    ("M-1006", "O 型圈 氟橡胶", 600, 12.5, "一号库"),
    ("M-1007", "泵壳 IH65", 4, 2600.0, "三号库"),
    ("M-1008", "联轴器 弹性柱销", 55, 420.0, "三号库"),
]


def make_erp(path: Path) -> Path:
    """Create the ERP database file with one table of real-looking stock records."""
    con = sqlite3.connect(path)
    con.execute('CREATE TABLE stock ("物料编码" TEXT PRIMARY KEY, "名称" TEXT, "库存数量" INTEGER, '
                '"单价(元)" REAL, "仓库" TEXT)')
    con.executemany("INSERT INTO stock VALUES (?, ?, ?, ?, ?)", ERP_ROWS)
    con.commit()
    con.close()
    return path


def sources(folder: Path, erp: Path) -> list[dict]:
    """The structured_sources setting the tests use (as a config file would give it)."""
    return [
        {"name": "pumps", "path": str(folder / "pumps.csv"), "key": "型号", "synonyms": ["泵", "水泵"],
         "columns": {"耐腐蚀等级": {"values": {"耐腐蚀": ["A"]}}}},
        {"name": "motors", "path": str(folder / "motors.xlsx"), "synonyms": ["电机"]},
        {"name": "erp", "url": f"sqlite:///{erp}", "table": "stock", "synonyms": ["物料", "库存"]},
    ]


@pytest.fixture(scope="module")
def skb(tmp_path_factory):
    """Knowledge base with the two policy documents ingested and three table sources."""
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    root = tmp_path_factory.mktemp("structured")
    folder = root / "data"
    shutil.copytree(DATA, folder)
    erp = make_erp(root / "erp.db")
    cfg = load_config(None, home=root / "home", structured_sources=sources(folder, erp))
    kb = KnowledgeBase(cfg)
    rep = kb.ingest([folder / "docs"], dense=False, progress=False)
    assert not rep.failed and rep.added == 2
    kb.test_folder, kb.test_erp = folder, erp  # where the sources live, for integrity checks
    return kb

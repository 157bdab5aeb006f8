"""A law cited by a shortened name (「按年休假条例」 for 职工带薪年休假条例) is searched as named."""

import shutil

import pytest

from zhiku.ask.lists import Mode
from zhiku.ask.search import retrieve
from zhiku.config import load_config
from zhiku.kb import KnowledgeBase

pytestmark = pytest.mark.integration
NAMES = "行政法规/职工带薪年休假条例(2007-12-14).md"


@pytest.fixture(scope="module")
def leave_kb(tmp_path_factory, laws_dir):
    root = tmp_path_factory.mktemp("docs")
    shutil.copytree(laws_dir / "社会法", root / "社会法")
    (root / "行政法规").mkdir()
    shutil.copy(laws_dir.parent / "names" / NAMES, root / "行政法规")
    kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("h")))
    assert not kb.ingest([root], dense=False, progress=False).failed
    return kb


def test_the_shortened_name_puts_its_law_first(leave_kb):
    r = retrieve(leave_kb, "公司说太忙不让休年假，按年休假条例没休的年假该怎么折算成钱？", Mode.BM25)
    resolved = next(s.detail for s in r.trace if s.stage == "resolve")
    assert resolved["names"] == ["年休假条例"]
    assert r.hits[0].chunk.doc_path == NAMES


def test_the_same_words_as_a_companys_rules_name_no_law(leave_kb):
    assert leave_kb.titles().resolve("我们公司的年休假条例说没休的年假不折算成钱，合法吗？").doc_ids == ()

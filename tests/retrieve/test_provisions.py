"""Laws before their judicial interpretations among close keyword hits (interpretation_weight):
民法典 婚姻家庭编 and the real 最高人民法院关于适用《民法典》婚姻家庭编的解释（一）."""

from pathlib import Path

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.provisions import interprets

DATA = Path(__file__).resolve().parents[1] / "data"
MARRIAGE = DATA / "laws" / "民法典"
INTERPRETATIONS = DATA / "interpretations"


@pytest.mark.unit
def test_interpretations_are_told_by_their_titles():
    for t in ("最高人民法院关于适用《中华人民共和国民法典》婚姻家庭编的解释（一）",
              "最高人民法院、最高人民检察院关于办理刑事赔偿案件适用法律若干问题的解释",
              "关于审理使用人脸识别技术处理个人信息相关民事案件适用法律若干问题的规定",
              "最高人民法院关于适用《中华人民共和国婚姻法》若干问题的解释（二）的补充规定"):
        assert interprets(t), t
    for t in ("中华人民共和国民法典 婚姻家庭编", "婚姻登记条例", "人民法院在线诉讼规则",
              "公安机关办理行政案件程序规定", "劳动仲裁和劳动诉讼的攻略"):
        assert not interprets(t), t


@pytest.fixture(scope="module")
def marriage_kb(tmp_path_factory):
    # the search's own order: the learned order (learned_rank) weighs interpretations down too
    cfg = load_config(home=tmp_path_factory.mktemp("home"), heading_similarity=0.0, learned_rank=False)
    kb = KnowledgeBase(cfg)
    assert not kb.ingest([MARRIAGE, INTERPRETATIONS], dense=False, progress=False).failed
    return kb


def _hits(kb, q, weight):
    kb = KnowledgeBase(kb.config.model_copy(update={"interpretation_weight": weight}))
    return retrieve(kb, q, Mode.BM25, route=False).hits


@pytest.mark.integration
def test_the_law_comes_before_the_interpretation_that_restates_it(marriage_kb):
    q = "夫妻一方婚前的财产婚后还是个人财产吗？"  # 民法典 第一千零六十三条: 一方的婚前财产
    off, on = _hits(marriage_kb, q, 1.0), _hits(marriage_kb, q, 0.7)
    assert interprets(off[0].chunk.title)  # off: the interpretation's articles lead
    assert (on[0].chunk.title, on[0].chunk.article) == ("中华人民共和国民法典 婚姻家庭编", "第一千零六十三条")
    assert on[0].sources["primary"] == (1, 1.0)
    assert {h.chunk.id for h in on} == {h.chunk.id for h in off}  # the same candidates, reordered


@pytest.mark.integration
def test_interpretations_alone_keep_their_order(tmp_path):
    kb = KnowledgeBase(load_config(home=tmp_path, heading_similarity=0.0))
    assert not kb.ingest([INTERPRETATIONS], dense=False, progress=False).failed
    q = "夫妻一方婚前的财产婚后还是个人财产吗？"
    off, on = _hits(kb, q, 1.0), _hits(kb, q, 0.7)
    assert [(h.chunk.id, h.score) for h in on] == [(h.chunk.id, h.score) for h in off]


def _restated(kb, q, weight):
    kb = KnowledgeBase(kb.config.model_copy(update={"restated_weight": weight}))
    return retrieve(kb, q, Mode.BM25, route=False).hits


@pytest.mark.integration
def test_an_interpretation_of_a_law_among_the_candidates_yields_to_it(marriage_kb):
    q = "夫妻一方婚前的财产婚后还是个人财产吗？"
    off, on = _restated(marriage_kb, q, 1.0), _restated(marriage_kb, q, 0.7)
    assert interprets(off[0].chunk.title)
    assert (on[0].chunk.title, on[0].chunk.article) == ("中华人民共和国民法典 婚姻家庭编", "第一千零六十三条")
    # its title names the law (《民法典》婚姻家庭编) whose articles are among the candidates; 盗窃's
    # interpretation among them names none and keeps its score
    assert all(h.sources["restated"][1] == (0.7 if "婚姻家庭编的解释" in h.chunk.title else 1.0) for h in on)
    assert any("盗窃" in h.chunk.title and h.sources["restated"][1] == 1.0 for h in on)
    assert {h.chunk.id for h in on} == {h.chunk.id for h in off}


@pytest.mark.integration
def test_an_interpretation_naming_no_candidate_law_keeps_its_score(tmp_path):
    """The twin: 盗窃's interpretation names no law in its title, so beside 刑法's articles it
    keeps its place (a blanket interpretation_weight would move it)."""
    kb = KnowledgeBase(load_config(home=tmp_path, heading_similarity=0.0))
    assert not kb.ingest([DATA / "criminal", INTERPRETATIONS], dense=False, progress=False).failed
    q = "在公交车上扒窃别人钱包，偷了多少钱才算盗窃罪？"
    off, on = _restated(kb, q, 1.0), _restated(kb, q, 0.5)
    theft = [h for h in off if "盗窃刑事案件" in h.chunk.title]
    assert theft and any(h.chunk.article and not interprets(h.chunk.title) for h in off)
    assert [(h.chunk.id, h.score) for h in on] == [(h.chunk.id, h.score) for h in off]
    assert [h.chunk.id for h in _hits(kb, q, 0.5)] != [h.chunk.id for h in off]  # the blanket weight moves it

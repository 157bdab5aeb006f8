"""With config ``confidence_terms`` on, confidence reads a long question's coverage on the
scale of a short one: a case narrative names people, places, dates and sums no article
states, so over every term its share falls with its length however well the evidence
matches; weighed as one of ``confidence_terms`` terms, it does not. A short question reads
as before; off (the default, 0), every term counts (real law text, keyword retrieval)."""

from __future__ import annotations

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.verify.confidence import content_terms, features
from tests.answer.conftest import with_config

NARRATIVE = ("2019年5月，张某入职本市某区某科技有限公司担任销售员，双方签订了为期三年的劳动合同，"
             "约定月工资六千元。2020年8月，公司人事部门负责人李某以经营困难为由口头通知张某即日起"
             "解除劳动合同，既未提前三十日书面通知，也未支付任何经济补偿。张某多次到公司协商未果，"
             "遂向当地劳动争议仲裁委员会申请仲裁。用人单位解除劳动合同应当向劳动者支付经济补偿吗？")
SHORT = "用人单位解除劳动合同应当向劳动者支付经济补偿吗？"


@pytest.mark.integration
def test_a_narrative_reads_on_the_scale_of_a_short_question(laws_kb):
    on = with_config(laws_kb, confidence_terms=16)
    off = with_config(laws_kb, confidence_terms=0)
    r = retrieve(laws_kb, NARRATIVE, Mode.BM25)
    assert len(content_terms(list(r.terms))) > 16
    weighed, whole = features(on, NARRATIVE, r), features(off, NARRATIVE, r)
    # the narrative's many names and dates no article holds no longer drag its shares down
    for name in ("coverage", "coverage1", "sentence", "named", "title"):
        assert getattr(weighed, name) >= getattr(whole, name)
    assert weighed.named > whole.named
    assert weighed.named <= 1.0 and weighed.coverage <= 1.0
    # off is the default: the shipped model is fitted on shares over every term
    assert laws_kb.config.confidence_terms == 0
    assert features(laws_kb, NARRATIVE, r) == whole
    # the short question (its positive twin) reads the same with the setting on and off
    s = retrieve(laws_kb, SHORT, Mode.BM25)
    assert len(content_terms(list(s.terms))) <= 16
    assert features(on, SHORT, s) == features(off, SHORT, s)


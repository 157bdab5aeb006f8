"""What a chunk's dense vector is computed from (config ``vector_text``): the recipe, its pin in
the index manifest, and ``reembed`` switching it while the keyword index stays as it was."""

from __future__ import annotations

import numpy as np
import pytest

from zhiku.chunk.context import VectorText, vector_text
from zhiku.config import load_config
from zhiku.errors import ZhikuError
from zhiku.kb import KnowledgeBase

pytestmark = pytest.mark.integration
LAW = "劳动合同法(2012-12-28).md"


@pytest.fixture()
def labour(tmp_path, laws_dir):
    """The real 劳动合同法 up to its 第四十二条 (its 第四章 holds 第三十六条 to 第四十一条)."""
    src = tmp_path / "docs" / "社会法"
    src.mkdir(parents=True)
    text = (laws_dir / "社会法" / LAW).read_text(encoding="utf-8")
    (src / LAW).write_text(text[: text.index("第四十二条")], encoding="utf-8")
    return tmp_path / "docs"


def _kb(tmp_path, **kw) -> KnowledgeBase:
    return KnowledgeBase(load_config(home=tmp_path / "h", embed_threads=2, **kw))


def _article(kb: KnowledgeBase, label: str):
    return next(c for c in kb.store.all_chunks() if c.article == label and c.kind != "parent")


def _stored(kb: KnowledgeBase, chunk) -> np.ndarray:
    return kb.store.vectors_of([chunk.id])[chunk.id]


def test_the_recipes_read_a_real_article_under_its_law_and_chapter(tmp_path, labour):
    """第四十条 (「有下列情形之一的，用人单位提前三十日…」 — no word of 辞退 or 劳动合同法's name)
    is read under 中华人民共和国劳动合同法 and 第四章 劳动合同的解除和终止; its text alone stays the
    text recipe's (the twin that must not change), and a part the text holds is not repeated."""
    kb = _kb(tmp_path)
    kb.ingest([labour], dense=False, progress=False)
    c = _article(kb, "第四十条")
    assert vector_text(c, "text") == c.text
    title, ctx = vector_text(c, VectorText.TITLE), vector_text(c, "context")
    head, _, body = ctx.partition("\n")
    assert body == c.text and title == f"{c.title}\n{c.text}"
    assert "劳动合同法" in head and "第四章 劳动合同的解除和终止" in head
    from dataclasses import replace

    named = replace(c, text=f"{c.section_path[-1]} {c.text}")  # a block repeating its heading
    assert vector_text(named, "context").partition("\n")[0] == c.title
    bare = replace(c, title="", section_path=())
    assert vector_text(bare, "context") == c.text  # nothing to add: the plain text's vector
    with pytest.raises(ZhikuError, match="vector_text"):
        load_config(vector_text="whole")


def test_a_new_index_pins_its_recipe_and_an_existing_one_keeps_its_own(tmp_path, labour):
    """An index built with ``context`` stores the context's vector and says so in its manifest;
    opened again under the default (``text``) it keeps working and embeds a new document with
    its own pinned recipe, never a mix of the two."""
    kb = _kb(tmp_path, vector_text="context")
    kb.ingest([labour], progress=False)
    assert kb.store.active.vector_text == "context"
    c = _article(kb, "第四十条")
    want = kb.embedder.embed_passages([vector_text(c, "context")])[0]
    assert np.allclose(_stored(kb, c), want, atol=1e-5)
    plain = kb.embedder.embed_passages([c.text])[0]
    assert not np.allclose(_stored(kb, c), plain, atol=1e-3)

    again = _kb(tmp_path)  # the default recipe: the index's own still holds
    assert again.store.active.vector_text == "context"
    more = labour.parent / "more"
    more.mkdir()
    (more / "劳动法(2018-12-29).md").write_text(
        "# 中华人民共和国劳动法\n\n## 第一章 总则\n\n第一条 为了保护劳动者的合法权益，制定本法。\n", encoding="utf-8")
    again.ingest([more], progress=False)
    new = next(c for c in again.store.all_chunks() if c.title.endswith("劳动法") and c.article == "第一条")
    assert np.allclose(_stored(again, new), again.embedder.embed_passages([vector_text(new, "context")])[0],
                       atol=1e-5)


def test_reembed_switches_the_recipe_and_leaves_the_keyword_index(tmp_path, labour):
    """``reembed`` with another ``vector_text`` builds the new vectors beside the old and
    switches; the chunks and the keyword ranking are those of before, a second run does nothing."""
    kb = _kb(tmp_path)
    kb.ingest([labour], progress=False)
    assert kb.store.active.vector_text == "text"  # the default, as every older index reads
    c = _article(kb, "第四十条")
    assert np.allclose(_stored(kb, c), kb.embedder.embed_passages([c.text])[0], atol=1e-5)
    terms = ["用人单位", "提前", "三十日", "解除", "劳动合同"]
    before = [(h.chunk.id, h.score) for h in kb.store.keyword(terms, 10)]
    assert before
    chunks = sorted(x.id for x in kb.store.all_chunks())
    rep = kb.reembed(kb.config.model_copy(update={"vector_text": "context"}), progress=False)
    assert rep.switched and (rep.old_text, rep.new_text) == ("text", "context")
    assert rep.embedded == len(chunks)
    assert kb.store.active.vector_text == "context"
    assert np.allclose(_stored(kb, c), kb.embedder.embed_passages([vector_text(c, "context")])[0], atol=1e-5)
    assert sorted(x.id for x in kb.store.all_chunks()) == chunks
    assert [(h.chunk.id, h.score) for h in kb.store.keyword(terms, 10)] == before
    reopened = _kb(tmp_path)
    assert reopened.store.active.vector_text == "context"
    assert not reopened.reembed(reopened.config.model_copy(update={"vector_text": "context"}),
                                progress=False).switched


def test_an_eval_index_of_another_recipe_is_another_index(tmp_path):
    from zhiku.eval.command import _eval_home

    plain = _eval_home(load_config(home=tmp_path), "corpus")
    assert _eval_home(load_config(home=tmp_path, vector_text="text"), "corpus") == plain
    assert _eval_home(load_config(home=tmp_path, vector_text="context"), "corpus") != plain

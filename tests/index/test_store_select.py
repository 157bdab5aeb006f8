"""Choosing the store from ``config.store``: names, URIs, Milvus parameters, clear refusals."""

from __future__ import annotations

import pytest

from zhiku.config import load_config
from zhiku.errors import ZhikuError
from zhiku.index.milvus_conn import MAX_TOKENS, encode_seg, pieces, token_key
from zhiku.index.select import locate
from zhiku.index.store import Scope

pytestmark = pytest.mark.unit


def _loc(tmp_path, value):
    return locate(load_config(home=tmp_path, store=value))


def test_lancedb_default_and_uri(tmp_path):
    assert _loc(tmp_path, "lancedb") == ("lancedb", tmp_path / "index")
    assert _loc(tmp_path, "lancedb:///srv/kb") == ("lancedb", __import__("pathlib").Path("/srv/kb"))
    assert _loc(tmp_path, "lancedb://kb2") == ("lancedb", tmp_path / "kb2")


def test_milvus_lite_forms(tmp_path):
    for value, want in [("kb.db", tmp_path / "kb.db"), ("/srv/x.db", "/srv/x.db"),
                        ("milvus-lite:///srv/y.db", "/srv/y.db"), ("milvus-lite://rel/z.db", tmp_path / "rel/z.db"),
                        ("milvus-lite", tmp_path / "index.db")]:
        name, t = _loc(tmp_path, value)
        assert name == "milvus" and t.is_lite and t.uri == str(want), value


def test_milvus_server_parameters(tmp_path, monkeypatch):
    monkeypatch.setenv("KB_TOKEN", "root:Milvus")
    name, t = _loc(tmp_path, "milvus://db.internal:19531?db=kb&token_env=KB_TOKEN&consistency=bounded&prefix=hr")
    assert name == "milvus" and not t.is_lite
    assert (t.uri, t.db, t.token, t.consistency, t.prefix, t.index) == (
        "http://db.internal:19531", "kb", "root:Milvus", "Bounded", "hr", "HNSW")  # vector_index
    assert "Milvus" not in t.label  # the token never reaches messages
    _, tls = _loc(tmp_path, "milvus+tls://db.internal?ca=/etc/ca.pem")
    assert (tls.uri, tls.ca) == ("https://db.internal:19530", "/etc/ca.pem")
    assert _loc(tmp_path, "milvus://h?tls=1")[1].uri == "https://h:19530"


@pytest.mark.parametrize("value, says", [
    ("postgres://x", "unknown store URI scheme"), ("elastic", "unknown store"),
    ("milvus://h?colour=red", "unknown Milvus store parameter 'colour'"),
    ("milvus://h?consistency=always", "consistency level"), ("milvus://h?prefix=1x", "prefix"),
    ("milvus://?db=x", "names no host"),
])
def test_bad_values_are_refused_with_the_valid_forms(tmp_path, value, says):
    with pytest.raises(ZhikuError, match=says):
        _loc(tmp_path, value)


def test_scope_translates_to_one_milvus_expression():
    s = Scope(doc_ids=("a", 'b"q'), subindexes=("社会法",), article="第十九条", section_id="2.3",
              version_date="2012-12-28")
    e = s.expr(exclude=("x",))
    assert e == ('doc_id not in ["x"] and doc_id in ["a", "b\\"q"] and subindex in ["社会法"] and '
                 'article == "第十九条" and version_date == "2012-12-28" and (section_id == "2.3" or '
                 'section_id like "2.3.%" or array_contains(section_ids, "2.3"))')
    assert Scope().expr() == ""


def test_named_documents_leave_out_the_excluded_ones_instead_of_a_not_in_list():
    s = Scope(doc_ids=("new", "old"), article="第一条")
    assert s.where(exclude=("old", "other")) == "doc_id IN ('new') AND article = '第一条'"
    # every named document excluded: nothing may match, so the exclusion stays
    assert Scope(doc_ids=("old",)).where(exclude=("old",)) == "doc_id NOT IN ('old') AND doc_id IN ('old')"
    assert Scope().where(exclude=("old",)) == "doc_id NOT IN ('old')"


def test_tokens_become_single_analyzer_words():
    assert token_key("劳动合同") == token_key("劳动合同") != token_key("劳动")
    assert len(token_key("x")) == 3 and all("\uac00" <= ch <= "\ud7a3" for ch in token_key("x"))
    assert encode_seg("劳动  合同 法") == " ".join(token_key(t) for t in ("劳动", "合同", "法"))
    huge = encode_seg(" ".join(str(i) for i in range(8000)))  # longer than one VARCHAR holds
    assert len(huge.encode("utf-8")) <= 65535 and huge.split()[-1] == token_key(str(MAX_TOKENS - 1))
    assert "".join(pieces("条" * 45000)) == "条" * 45000 and len(pieces("")) == 1

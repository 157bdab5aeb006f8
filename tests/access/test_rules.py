"""Groups of documents (rules, sidecars, the default), keys carrying groups, and the
permission condition every store query carries."""

from __future__ import annotations

import pytest

from zhiku.access import PUBLIC, AccessRule, as_groups, document_groups, parse_key_groups
from zhiku.errors import ZhikuError
from zhiku.index.store import Scope


def test_rules_globs_sidecar_and_default():
    rules = [AccessRule(paths=("hr/**",), groups=("hr",)),
             AccessRule(paths=("*/预算*.md", "finance/**"), groups=("finance", "board"))]
    assert document_groups("hr/薪酬/2024.md", {}, rules, "allow") == ("hr",)
    assert document_groups("hr.md", {}, rules, "allow") == (PUBLIC,)
    assert document_groups("行政/预算表.md", {}, rules, "allow") == ("board", "finance")
    assert document_groups("行政/子目录/预算表.md", {}, rules, "allow") == (PUBLIC,)  # * stays in one folder
    assert document_groups("public/手册.md", {}, rules, "deny") == ()
    assert document_groups("hr/a.md", {"groups": ["legal"]}, rules, "allow") == ("legal",)  # sidecar wins


def test_keys_and_cli_groups_are_checked():
    assert parse_key_groups("r2:finance+hr") == ("r2", ("finance", "hr"))
    assert parse_key_groups("plain") == ("plain", ())
    assert as_groups(None) is None and as_groups("") == () and as_groups("hr,人事") == ("hr", "人事")
    for bad in ("k:h r", "k:a'b"):
        with pytest.raises(ZhikuError, match="bad group name"):
            parse_key_groups(bad)
    with pytest.raises(ZhikuError, match="in \\[\\[access\\]\\] groups"):
        AccessRule(paths=("x/**",), groups=("no spaces",))


def test_the_scope_carries_groups_into_both_query_languages():
    assert Scope().where() is None and Scope().expr() == ""
    w = Scope(groups=("hr",)).where()
    assert w == "(array_has(groups, '*') OR array_has(groups, 'hr'))"
    assert Scope(groups=()).expr() == 'array_contains_any(groups, ["*"])'


def test_a_sidecar_sets_groups(tmp_path):
    from zhiku.ingest import load_file

    f = tmp_path / "a.md"
    f.write_text("# 甲\n\n正文。\n", encoding="utf-8")
    (tmp_path / "a.md.meta.toml").write_text('groups = ["hr", "legal"]\n', encoding="utf-8")
    assert load_file(f, tmp_path).metadata["groups"] == ["hr", "legal"]
    (tmp_path / "a.md.meta.toml").write_text('groups = "hr"\n', encoding="utf-8")
    with pytest.raises(ZhikuError, match="groups must be a list"):
        load_file(f, tmp_path)


def test_documents_indexed_under_older_rules_are_found():
    from zhiku.access import stale_documents
    from zhiku.index.store import DocRecord

    def rec(path, groups, meta=None):
        return DocRecord("d" + path, path, (), path, None, "x", 1, meta or {}, (), groups=groups)

    rules = [AccessRule(paths=("hr/**",), groups=("hr",))]
    docs = [rec("hr/a.md", ("hr",)), rec("hr/b.md", (PUBLIC,)), rec("p/c.md", (PUBLIC,)),
            rec("p/d.md", ("legal",), {"groups": ["legal"]})]
    assert stale_documents(docs, rules, "allow") == ["hr/b.md"]
    assert stale_documents(docs, rules, "deny") == ["hr/b.md", "p/c.md"]

"""Conversations: a three-turn chat with pronoun and 「…呢？」 follow-ups, sessions kept in
SQLite, and the `zhiku chat` command."""

from __future__ import annotations

import json

import pytest

from tests.asking import ask
from zhiku.ask.sessions import Sessions, history_for
from zhiku.cli import main

pytestmark = pytest.mark.integration


def _cited(ans):
    return {(c.doc_path.split("/")[-1].split("(")[0], c.article) for c in ans.citations}


class Chat:
    """Turns of a conversation as the doors run them: history from the session store,
    the one ask, the turn remembered."""

    def __init__(self, kb):
        self.kb, self.sessions = kb, Sessions(kb.config.sessions_path)

    def chat(self, question, sid=None):
        ans = ask(self.kb, question, history=history_for(self.sessions, sid, self.kb.config.history_turns))
        return self.sessions.add_turn(sid, question, ans.to_dict()), ans

    def close(self):
        self.sessions.close()


def _rewrite(ans):
    return next(t.detail for t in ans.trace if t.stage == "rewrite")


def test_three_turns_with_pronoun_follow_ups(kb_with):
    k = kb_with()
    orch = Chat(k)
    sid, a1 = orch.chat("劳动法对每日工作时间有什么规定？")
    assert ("劳动法", "第三十六条") in _cited(a1)
    assert _rewrite(a1) == {"how": "none"}  # a first question is left alone
    sid2, a2 = orch.chat("那它的试用期呢？", sid)
    assert sid2 == sid
    assert _rewrite(a2) == {"from": "那它的试用期呢？", "to": "那劳动法的试用期呢？", "how": "carry",
                            "carried": ["劳动法"]}
    assert ("劳动法", "第二十一条") in _cited(a2)
    orch.close()
    orch = Chat(k)  # history comes from the session store, not from memory
    _, a3 = orch.chat("劳动合同法呢？", sid)
    assert _rewrite(a3)["to"] == "那劳动合同法的试用期呢？"  # subject carried, law swapped
    assert ("劳动合同法", "第十九条") in _cited(a3)
    msgs = orch.sessions.history(sid)
    assert [m["role"] for m in msgs] == ["user", "assistant"] * 3
    assert msgs[2]["text"] == "那它的试用期呢？" and msgs[3]["answer"]["question"] == "那劳动法的试用期呢？"
    orch.close()


def test_new_topic_is_not_rewritten(kb_with):
    orch = Chat(kb_with())
    sid, _ = orch.chat("劳动法对每日工作时间有什么规定？")
    _, ans = orch.chat("离婚冷静期是多长时间？", sid)
    assert _rewrite(ans)["how"] == "none" and ans.question == "离婚冷静期是多长时间？"
    assert "婚姻家庭编" in ans.citations[0].doc_path


def test_short_question_the_last_document_never_mentions_is_a_new_question(kb_with):
    """A short question is carried into the last turn's document only when that document
    speaks of its words: 试用期 after a marriage question searches the whole library."""
    orch = Chat(kb_with())
    sid, a1 = orch.chat("结婚的法定年龄是多少？")
    assert "婚姻家庭编" in a1.citations[0].doc_path
    _, a2 = orch.chat("试用期最长多久？", sid)
    assert _rewrite(a2)["how"] == "none" and not a2.refused
    assert {"劳动法", "劳动合同法"} & {d for d, _ in _cited(a2)}
    law = _cited(a2) and a2.citations[0].doc_path.split("/")[-1].split("(")[0]
    _, a3 = orch.chat("年休假有几天？", sid)  # 劳动法 speaks of 年休假: a follow-up on it
    assert _rewrite(a3)["how"] == "carry" and law in _rewrite(a3)["to"]
    orch.close()


def test_marked_follow_up_the_last_document_never_mentions_is_a_new_question(kb_with):
    """A 「那…呢」 question is carried into the last turn's document only when that document
    speaks of its words: 离婚冷静期 after a 劳动法 question searches the whole library, while
    试用期 (which 劳动法 has) is still a follow-up on 劳动法."""
    orch = Chat(kb_with())
    sid, a1 = orch.chat("劳动法对每日工作时间有什么规定？")
    assert ("劳动法", "第三十六条") in _cited(a1)
    _, a2 = orch.chat("那离婚冷静期呢？", sid)
    assert _rewrite(a2)["how"] == "none" and a2.question == "那离婚冷静期呢？"
    assert "婚姻家庭编" in a2.citations[0].doc_path
    sid, _ = orch.chat("劳动法对每日工作时间有什么规定？")  # a new conversation
    _, a3 = orch.chat("那试用期呢？", sid)
    assert _rewrite(a3)["how"] == "carry" and _rewrite(a3)["to"] == "劳动法的试用期呢？"
    assert ("劳动法", "第二十一条") in _cited(a3)
    orch.close()


def test_chat_command_one_shot_turns_share_a_session(kb_with, capsys):
    home = str(kb_with().config.home)
    assert main(["--home", home, "chat", "--json", "劳动法对每日工作时间有什么规定？"]) == 0
    first = json.loads(capsys.readouterr().out)
    sid = first["session_id"]
    assert main(["--home", home, "chat", "--json", "--session", sid, "那它的试用期呢？"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["session_id"] == sid and second["question"] == "那劳动法的试用期呢？"
    assert main(["--home", home, "chat", "--session", "bad id!", "x"]) == 2
    assert "bad session id" in capsys.readouterr().err

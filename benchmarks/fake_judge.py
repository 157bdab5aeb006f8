"""A judge for the ``judge`` LLM role on the local fake OpenAI-compatible server (tests/llmserver.py),
so bench-quality runs the real judge path (client, HTTP, JSON parsing, the answerability and
verification steps) without a model.

The fake judge says a question is answerable exactly when its golden set says so, and finds
every checked sentence supported: its rows show the ceiling of the judge path on top of the
offline checks (which run first, so an offline refusal or removal stands), not a model's
skill. A real model is measured by pointing ``[llm_roles.judge]`` at it instead.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from _doc import ROOT

sys.path.insert(0, str(ROOT / "tests"))
from llmserver import fake_llm  # noqa: E402

_QUESTION = re.compile(r"问题：(.*?)\n\n证据：", re.S)
_STATEMENT = re.compile(r"^陈述 (\d+)：", re.M)


def labels(sets: list[str]) -> dict[str, bool]:
    """Question text → answerable, from golden sets in the shared format."""
    out: dict[str, bool] = {}
    for path in sets:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                out[item["question"].strip()] = bool(item.get("answerable", True))
    return out


def reply(body: dict, answerable: dict[str, bool]) -> str:
    """The judge's JSON reply to one request of the answerability or the verification
    prompt (an unknown question is judged answerable, as a judge that cannot tell would)."""
    user = next((m["content"] for m in reversed(body["messages"]) if m["role"] == "user"), "")
    m = _QUESTION.search(user)
    if m:
        ok = answerable.get(m.group(1).strip(), True)
        return json.dumps({"answerable": ok, "missing": "" if ok else "问题所问的内容"}, ensure_ascii=False)
    verdicts = [{"i": int(i), "supported": True, "reason": ""} for i in _STATEMENT.findall(user)]
    return json.dumps({"verdicts": verdicts}, ensure_ascii=False)


@contextmanager
def judge_env(sets: list[str]) -> Iterator[dict[str, str]]:
    """Serve the fake judge for ``sets`` on 127.0.0.1 and yield the environment that points
    the ``judge`` role (and only it) at it."""
    answerable = labels(sets)
    with fake_llm(lambda body: reply(body, answerable)) as srv:
        roles = {"judge": {"model": "fake-judge", "base_url": srv.base_url, "retries": 0}}
        yield {"ZHIKU_LLM_ROLES": json.dumps(roles)}

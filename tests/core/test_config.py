"""Config: defaults, file, environment, overrides, clear errors."""

import pytest

from zhiku.config import load_config
from zhiku.errors import ZhikuError

pytestmark = pytest.mark.unit


def test_precedence(tmp_path, monkeypatch):
    f = tmp_path / "c.toml"
    f.write_text('top_k = 7\nfusion = "weighted"\nalpha = 0.2\n', encoding="utf-8")
    monkeypatch.setenv("ZHIKU_ALPHA", "0.9")
    cfg = load_config(f, home=tmp_path / "h")
    assert cfg.answer_chunks == 7 and cfg.fusion == "weighted" and cfg.alpha == 0.9
    assert cfg.store_path == tmp_path / "h" / "index"


def test_table_keys_from_the_environment_are_json(tmp_path, monkeypatch):
    monkeypatch.setenv("ZHIKU_LLM_ROLES", '{"judge": {"model": "m", "base_url": "http://127.0.0.1:9/v1"}}')
    cfg = load_config(home=tmp_path)
    assert cfg.llm_roles == {"judge": {"model": "m", "base_url": "http://127.0.0.1:9/v1"}}
    monkeypatch.setenv("ZHIKU_LLM_ROLES", "judge")
    with pytest.raises(ZhikuError, match="ZHIKU_LLM_ROLES must be JSON"):
        load_config(home=tmp_path)


def test_home_file_is_found(tmp_path, monkeypatch):
    monkeypatch.setenv("ZHIKU_HOME", str(tmp_path))
    (tmp_path / "config.toml").write_text("top_k = 3\n", encoding="utf-8")
    assert load_config().answer_chunks == 3


@pytest.mark.parametrize("text,needle", [
    ('fusion = "borda"\n', "rrf, weighted"),
    ("top_k = 0\n", "answer_chunks"),
    ("nonsense = 1\n", "nonsense"),
    ("top_k = \n", "cannot read"),
])
def test_bad_values(tmp_path, text, needle):
    f = tmp_path / "c.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ZhikuError, match=needle):
        load_config(f)


def test_missing_file(tmp_path):
    with pytest.raises(ZhikuError, match="does not exist"):
        load_config(tmp_path / "nope.toml")

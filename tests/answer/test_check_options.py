"""The answerability check's options mirror the config: every field is an `answerability_*`
setting with the same default, and a `ZHIKU_` setting reaches the check through from_config."""

from dataclasses import fields

from zhiku.config import Config, load_config
from zhiku.verify.options import CheckOptions


def test_every_reading_is_a_setting_with_the_same_default():
    cfg = Config()
    for f in fields(CheckOptions):
        key = f"answerability_{f.name}"
        assert key in Config.model_fields, key
        assert getattr(cfg, key) == f.default, key
    assert CheckOptions.from_config(cfg) == CheckOptions()


def test_a_setting_reaches_the_check(monkeypatch):
    monkeypatch.setenv("ZHIKU_ANSWERABILITY_OPENING_PLACE", "0")
    monkeypatch.setenv("ZHIKU_ANSWERABILITY_WHICH_KIND", "0")
    opts = CheckOptions.from_config(load_config())
    assert opts.opening_place is False and opts.which_kind is False
    assert opts.clauses is True  # the others keep their defaults

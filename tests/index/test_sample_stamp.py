"""The sample index is opened without loading the sample corpus when its stamp (the sample's
files, the loaders' source, the schema, the model, the recorded settings) is unchanged, and
checked and rebuilt by the writer when anything in it differs."""

from __future__ import annotations

import pytest
from conftest import app_over

from situated.app import App
from situated.index import writer
from situated.index.store import SAMPLE_STAMP, sample_stamp
from situated.settings import Settings

pytestmark = pytest.mark.unit


class _Model:
    model_id = "test-model"


def test_the_stamp_follows_every_input_it_names():
    base = Settings(cache_dir="/tmp/x")
    stamp = sample_stamp(base, "m")
    assert stamp == sample_stamp(Settings(cache_dir="/tmp/y"), "m")  # where it lives: no input
    assert stamp != sample_stamp(base, "another model")
    assert stamp != sample_stamp(Settings(cache_dir="/tmp/x", timezone="Europe/Berlin"), "m")
    assert stamp != sample_stamp(Settings(cache_dir="/tmp/x", facets="region"), "m")
    assert stamp != sample_stamp(Settings(cache_dir="/tmp/x", window=8192), "m")  # blocks


def _app(tmp_path, monkeypatch) -> tuple[App, list]:
    app = app_over(Settings(cache_dir=tmp_path), _Model())
    calls = []
    monkeypatch.setattr(writer, "ensure_sample_index",
                        lambda settings, embeddings, *_: calls.append(settings) or tmp_path / "built")
    return app, calls


def test_an_equal_stamp_opens_the_index_without_the_writer(tmp_path, monkeypatch):
    app, calls = _app(tmp_path, monkeypatch)
    sample = app.settings.sample_index_dir()
    (sample / "generations" / "g1").mkdir(parents=True)
    (sample / "current").symlink_to(sample / "generations" / "g1")
    (sample / SAMPLE_STAMP).write_text(sample_stamp(app.settings, "test-model"))
    assert app.root == sample and calls == []


@pytest.mark.parametrize("broken", ["another stamp", None, "no current"])
def test_a_changed_or_missing_stamp_goes_through_the_writer(tmp_path, monkeypatch, broken):
    app, calls = _app(tmp_path, monkeypatch)
    sample = app.settings.sample_index_dir()
    sample.mkdir(parents=True)
    if broken == "another stamp":
        (sample / "current").symlink_to(tmp_path)
        (sample / SAMPLE_STAMP).write_text("0" * 64)
    elif broken == "no current":
        (sample / SAMPLE_STAMP).write_text(sample_stamp(app.settings, "test-model"))
    assert app.root == tmp_path / "built" and len(calls) == 1

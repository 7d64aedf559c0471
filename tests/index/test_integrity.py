"""A damaged index or cache is found and rebuilt or reported, never published or called
"unchanged" (issue 38, items 9 and 12)."""

from __future__ import annotations

import errno
import json
import sqlite3

import numpy as np
import pytest
from conftest import app_over, md, write

from situated import build_ask_chain
from situated.chains.contract import Status
from situated.errors import IndexError_
from situated.index.cache import EmbeddingCache
from situated.index.ingest import ingest
from situated.index.integrity import CHECKSUMS, damage
from situated.index.store import current_generation
from situated.settings import Settings

pytestmark = pytest.mark.integration
QUESTION = "How long may I return the kettle?"


def _corpus(root):
    docs = root / "docs"
    write(docs / "k.md", md("KETTLE", "## 1 Returns\n\nA kettle may be returned within 30 "
                            "days of purchase.\n"))
    write(docs / "t.md", md("TOASTER", "## 1 Cleaning\n\nEmpty the crumb tray of the toaster "
                            "every week.\n"))
    return docs


def _settings(root) -> Settings:
    return Settings(index_dir=root / "index", cache_dir=root / "cache")


def _answers(root, embeddings) -> Status:
    app = app_over(_settings(root), embeddings)
    try:
        return build_ask_chain(app).invoke({"question": QUESTION}).status
    finally:
        app.close()


@pytest.mark.parametrize("harm", ["truncate_column", "delete_bm25_vocab", "edit_store"])
def test_a_damaged_generation_is_rebuilt_by_the_next_ingest(tmp_path, embeddings, harm):
    docs, settings = _corpus(tmp_path), _settings(tmp_path)
    ingest([docs], settings.index_dir, embeddings, settings)
    gen = current_generation(settings.index_dir)
    assert (gen / CHECKSUMS).exists() and damage(settings.index_dir, gen, embeddings) is None
    if harm == "truncate_column":
        path = gen / "columns" / "piece_doc.npy"
        path.write_bytes(path.read_bytes()[:-8])
    elif harm == "delete_bm25_vocab":
        next((gen / "bm25").glob("vocab*")).unlink()
    else:
        with sqlite3.connect(gen / "store.sqlite") as db:
            db.execute("UPDATE blocks SET data = replace(data, '30 days', '90 days')")
    assert damage(settings.index_dir, gen, embeddings) is not None
    report = ingest([docs], settings.index_dir, embeddings, settings)
    assert report.published and report.repaired and report.embedded == 0  # from the cache
    fresh = current_generation(settings.index_dir)
    assert fresh != gen and damage(settings.index_dir, fresh, embeddings) is None
    assert _answers(tmp_path, embeddings) is Status.ANSWERED
    assert not ingest([docs], settings.index_dir, embeddings, settings).published  # intact now


def test_cached_vectors_of_the_wrong_size_are_computed_again(tmp_path, embeddings):
    docs, settings = _corpus(tmp_path), _settings(tmp_path)
    ingest([docs], settings.index_dir, embeddings, settings)
    cache = settings.cache_dir / "embeddings.sqlite"
    with sqlite3.connect(cache) as db:  # every cached vector cut to 25 dimensions
        rows = db.execute("SELECT key, v FROM vec").fetchall()
        db.executemany("UPDATE vec SET v = ? WHERE key = ?",
                       [(np.frombuffer(v, np.float32)[:25].tobytes(), k) for k, v in rows])
    other = tmp_path / "again"
    again = Settings(index_dir=other / "index", cache_dir=settings.cache_dir)
    report = ingest([docs], again.index_dir, embeddings, again)
    assert report.embedded > 0  # recomputed, not taken from the damaged cache
    lens = {len(v) // 4 for (v,) in sqlite3.connect(cache).execute("SELECT v FROM vec")}
    assert lens == {384}
    app = app_over(again, embeddings)
    assert build_ask_chain(app).invoke({"question": QUESTION}).status is Status.ANSWERED
    app.close()


def test_a_garbage_embedding_cache_is_an_error_naming_it_and_the_fix(tmp_path):
    path = tmp_path / "embeddings.sqlite"
    path.write_bytes(b"not a database at all" * 100)
    with pytest.raises(IndexError_, match="embedding cache .* is damaged.*delete it"):
        EmbeddingCache(path)


def test_a_full_disk_publishes_nothing_and_says_so(tmp_path, embeddings, monkeypatch):
    docs, settings = _corpus(tmp_path), _settings(tmp_path)
    ingest([docs], settings.index_dir, embeddings, settings)
    before = current_generation(settings.index_dir)
    write(docs / "n.md", md("NEW", "## 1 Descaling\n\nDescale the kettle monthly.\n"))

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(np, "save", full)
    with pytest.raises(IndexError_, match="No space left.*nothing was published"):
        ingest([docs], settings.index_dir, embeddings, settings)
    monkeypatch.undo()
    assert current_generation(settings.index_dir) == before
    assert not [g for g in (settings.index_dir / "generations").iterdir()
                if g.name.startswith(".building")]
    assert json.loads((before / CHECKSUMS).read_text())  # untouched, still verifiable

"""The sample corpus ships its vectors (`index.sample_vectors`): the first `situated ask` builds
the sample index without embedding a text, the shipped vectors are the model's own, and a
file that is not the one shipped is never read."""

from __future__ import annotations

import logging
import shutil

import numpy as np
import pytest

from situated.index import sample_vectors
from situated.index.cache import EmbeddingCache, text_key
from situated.index.writer import build_index, sample_corpus
from situated.settings import Settings

FIX = "python tools/sample_vectors.py"


@pytest.mark.slow
@pytest.mark.integration
def test_the_sample_builds_from_its_shipped_vectors_alone(tmp_path, embeddings):
    settings = Settings(index_dir=tmp_path / "index", cache_dir=tmp_path / "cache")
    cache = EmbeddingCache.of(settings)
    seeded = sample_vectors.seed_cache(cache)
    assert seeded > 100
    corpus = sample_corpus(settings, embeddings)
    build_index(corpus, settings.index_dir, embeddings, settings, cache=cache)
    assert cache.misses == 0, (f"the sample's build embedded {cache.misses_by_model} texts "
                               f"its shipped vectors lack: run `{FIX}`")
    # the shipped vectors are what the model computes for those texts
    texts = [p.search_text for d in corpus.documents for p in d.pieces][:6]
    held = cache.get_many([text_key(embeddings.model_id, t) for t in texts])
    fresh = embeddings.encode(texts)
    for text, vector in zip(texts, fresh, strict=True):
        np.testing.assert_allclose(held[text_key(embeddings.model_id, text)], vector,
                                   atol=1e-5, err_msg=f"stale vectors: run `{FIX}`")
    cache.close()


@pytest.mark.unit
def test_a_vectors_file_that_is_not_the_one_shipped_is_never_read(tmp_path, caplog):
    other = tmp_path / "vectors.npz"
    shutil.copy(sample_vectors.SAMPLE_VECTORS, other)
    with other.open("ab") as fh:
        fh.write(b"\0")
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    with caplog.at_level(logging.WARNING, logger="situated.index"):
        assert sample_vectors.seed_cache(cache, other) == 0
    assert "not the" in caplog.text and "reinstall" in caplog.text
    assert cache.items() == []
    assert sample_vectors.seed_cache(cache, tmp_path / "missing.npz") == 0
    cache.close()


@pytest.mark.unit
def test_seeding_keeps_what_the_cache_already_holds(tmp_path):
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    first = sample_vectors.seed_cache(cache)
    assert first > 100 and sample_vectors.seed_cache(cache) == 0
    key, vector = cache.items()[0]
    cache.put_many({key: np.full_like(vector, 0.5)})
    sample_vectors.seed_cache(cache)
    assert np.allclose(cache.get_many([key])[key], 0.5)  # a vector the user's cache holds wins
    cache.close()

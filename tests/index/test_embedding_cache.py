"""The embedding cache: a rebuild of an unchanged corpus embeds nothing."""

from __future__ import annotations

import numpy as np
import pytest

from situated.index.cache import EmbeddingCache
from situated.index.reader import Index
from situated.index.store import sample_docs_dir
from situated.index.writer import build_index
from situated.loaders.corpus import load_corpus
from situated.settings import Settings

pytestmark = pytest.mark.integration


class CountingEncoder:
    def __init__(self, inner):
        self.inner = inner
        self.model_id = inner.model_id
        self.texts = 0

    def encode(self, texts, show_progress=False):
        self.texts += len(texts)
        return self.inner.encode(texts)


@pytest.mark.slow
def test_reingesting_the_unchanged_sample_embeds_nothing(tmp_path, embeddings):
    corpus = load_corpus([sample_docs_dir()])
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    enc = CountingEncoder(embeddings)
    # the multilingual leg's own reuse of the cache is tested in test_multilingual
    settings = Settings(index_dir=tmp_path / "i", multilingual_leg=False)
    manifest = build_index(corpus, tmp_path / "i", enc, settings, cache=cache)
    first = enc.texts
    # pieces and evidence sentences, bare and under their sections' titles
    assert 0 < first <= corpus.n_pieces + manifest.sentences + manifest.titled
    assert manifest.titled > 0
    build_index(corpus, tmp_path / "i", enc, settings, cache=cache)
    assert enc.texts == first  # second build: every vector from the cache
    index = Index(tmp_path / "i", embeddings)
    got = index.collection.get(ids=["WARR-R2-2-p0"], include=["embeddings"])["embeddings"][0]
    text = next(p.search_text for p in index.pieces if p.piece_id == "WARR-R2-2-p0")
    assert np.allclose(got, embeddings.encode([text])[0], atol=1e-5)


def test_cache_is_keyed_by_model_id(tmp_path, embeddings):
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    a = CountingEncoder(embeddings)
    cache.encode(a, ["hello", "hello", "world"])
    assert a.texts == 2  # each distinct text once
    b = CountingEncoder(embeddings)
    b.model_id = "another-model"
    cache.encode(b, ["hello"])
    assert b.texts == 1


@pytest.mark.slow
def test_the_model_can_be_used_from_many_threads_at_once(embeddings):
    """A server encodes queries and answer sentences in a thread pool; the tokenizer underneath
    is not thread-safe (a /ask/batch under CPU load failed with ValueError in
    `convert_to_tensors`, 1 run in 3, before encodes were serialised). This does not reproduce
    that race on demand; it checks that concurrent use stays correct."""
    from concurrent.futures import ThreadPoolExecutor

    texts = [f"question number {i} about pump P-{i % 5} and its valve V-{i}" for i in range(96)]

    def work(i: int) -> tuple[int, int]:
        vec = embeddings.encode_few([texts[i], texts[-i - 1]])
        return vec.shape[0], embeddings.count_tokens(texts[i])

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(work, range(len(texts))))
    assert all(n == 2 and tokens > 5 for n, tokens in results)

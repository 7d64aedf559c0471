"""What a document file can do to an ingest (issue 27, items 5–10): every case is an error
naming the file and the fix, in bounded time and memory, and nothing is published or lost."""

from __future__ import annotations

import os
import time

import pytest
from conftest import md, write
from pypdf import PdfWriter

from situated.errors import DocumentError
from situated.index.ingest import ingest
from situated.index.reader import generation_documents
from situated.index.store import current_generation
from situated.loaders.corpus import MAX_PARAGRAPH_CHARS, MAX_TABLE_ROWS, load_corpus
from situated.settings import Settings


def _problems(paths) -> str:
    with pytest.raises(DocumentError) as err:
        load_corpus(paths, validate=False)
    return str(err.value)


def test_two_files_with_one_source_id_are_an_error_naming_both(tmp_path):
    write(tmp_path / "a.md", md("SAME", access="[technician]"))
    write(tmp_path / "sub" / "b.md", md("SAME"))
    text = _problems([tmp_path])
    assert "duplicate source_id 'SAME'" in text and "a.md" in text and "b.md" in text


def test_yaml_aliases_are_refused_before_expansion(tmp_path):
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    bomb += [f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]"
             for p, c in zip("abcdefghi", "bcdefghij", strict=True)]
    write(tmp_path / "bomb.md", "---\nsource_id: BOMB\n" + "\n".join(bomb) + "\n---\n\n# T\n\nx\n")
    started = time.monotonic()
    text = _problems([tmp_path])
    assert time.monotonic() - started < 30  # refused, never expanded (a bound, not a speed)
    assert "bomb.md" in text and "anchors or aliases" in text and "x, x" not in text


def test_oversized_front_matter_is_refused(tmp_path):
    write(tmp_path / "big.md", "---\nsource_id: BIG\nnote: " + "y" * 70_000 + "\n---\n\nx\n")
    assert "big.md: metadata is" in _problems([tmp_path])


@pytest.mark.parametrize("access", ["[]", '["", " "]', '""'])
def test_empty_access_is_an_error_never_public(tmp_path, access):
    write(tmp_path / "r.md", md("R", access=access))
    text = _problems([tmp_path])
    assert "r.md: access is empty" in text and "remove the key" in text


def test_a_mis_cased_key_is_an_error_naming_the_right_one(tmp_path):
    write(tmp_path / "r.md", md("R", Access="[technician]"))
    assert "key 'Access' is not 'access'" in _problems([tmp_path])


def test_a_fifo_named_md_is_refused_without_being_opened(tmp_path):
    os.mkfifo(tmp_path / "pipe.md")
    write(tmp_path / "ok.md", md("OK"))
    started = time.monotonic()
    text = _problems([tmp_path])
    assert time.monotonic() - started < 30  # never blocks on the pipe
    assert "pipe.md: not a regular file" in text


@pytest.mark.integration
def test_symlinks_in_a_tree_are_refused_and_prune_removes_nothing(tmp_path, embeddings):
    docs, root = tmp_path / "docs", tmp_path / "index"
    write(docs / "keep.md", md("KEEP"))
    for n in range(3):
        write(docs / "team" / f"t{n}.md", md(f"TEAM-{n}"))
    settings = Settings(index_dir=root, cache_dir=tmp_path / "cache")
    ingest([docs], root, embeddings, settings)
    moved = tmp_path / "elsewhere"
    (docs / "team").rename(moved)
    (docs / "team").symlink_to(moved, target_is_directory=True)
    with pytest.raises(DocumentError, match="team: a symbolic link to a folder"):
        ingest([docs], root, embeddings, settings, prune=True)
    kept = {d.meta.source_id for d in generation_documents(current_generation(root))}
    assert kept == {"KEEP", "TEAM-0", "TEAM-1", "TEAM-2"}
    (docs / "link.md").symlink_to(moved / "t0.md")
    assert "link.md: a symbolic link" in _problems([docs])


def test_work_limits_refuse_giant_tables_and_paragraphs_quickly(tmp_path):
    rows = "\n".join(f"| R{n} | value {n} |" for n in range(MAX_TABLE_ROWS + 1))
    write(tmp_path / "table.md", md("TAB", body=f"## 1 T\n\n| id | v |\n|---|---|\n{rows}\n"))
    write(tmp_path / "para.md", md("PARA", body="## 1 P\n\n" + "word " * (
        MAX_PARAGRAPH_CHARS // 5 + 10) + "\n"))
    started = time.monotonic()
    text = _problems([tmp_path])
    assert time.monotonic() - started < 60  # bounded, whatever the machine
    assert "table.md:" in text and "table rows, over the" in text
    assert "para.md:" in text and "characters in one paragraph" in text


def test_a_broken_pdf_is_an_error_naming_it_not_a_traceback(tmp_path):
    pdf = tmp_path / "broken.pdf"
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    with open(pdf, "wb") as fh:
        writer.write(fh)
    data = pdf.read_bytes()
    pdf.write_bytes(data[: len(data) // 2])  # truncated: pypdf cannot read it
    write(tmp_path / "broken.pdf.meta.yaml", "source_id: BROKEN\n")
    text = _problems([tmp_path])
    assert "broken.pdf: cannot read the PDF" in text and "re-export it" in text


def test_a_pdf_that_inflates_far_beyond_its_size_is_refused(tmp_path):
    from pypdf.generic import DictionaryObject, NameObject, StreamObject

    writer = PdfWriter()
    page = writer.add_blank_page(width=600, height=800)
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"),
                             NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica")})
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject(
        {NameObject("/F1"): writer._add_object(font)})})
    stream = StreamObject()
    stream.set_data(b"BT /F1 12 Tf 10 10 Td (The pump seal is checked weekly.) Tj ET\n" * 20000)
    page[NameObject("/Contents")] = writer._add_object(stream)
    page.compress_content_streams()  # a few KB on disk, ~0.7 MB of text
    with open(tmp_path / "bomb.pdf", "wb") as fh:
        writer.write(fh)
    write(tmp_path / "bomb.pdf.meta.yaml", "source_id: BOMB\n")
    text = _problems([tmp_path])
    assert "bomb.pdf: its text passes" in text and "compression bomb" in text


@pytest.mark.integration
def test_ingest_without_paths_is_an_error_and_recalibrating_nothing_too(tmp_path, embeddings):
    from situated.errors import IndexError_

    settings = Settings(index_dir=tmp_path / "index", cache_dir=tmp_path / "cache")
    with pytest.raises(IndexError_, match="no paths to ingest"):
        ingest([], tmp_path / "index", embeddings, settings)
    with pytest.raises(IndexError_, match="no paths to ingest"):
        ingest([], tmp_path / "index", embeddings, settings, prune=True, recalibrate=True)
    with pytest.raises(IndexError_, match="there is no index at .* to calibrate"):
        ingest([], tmp_path / "index", embeddings, settings, recalibrate=True)

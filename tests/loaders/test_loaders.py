"""Loaders: each format and block type, piece→block linkage, metadata handling."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from conftest import md, write

from situated.documents import BlockKind, ValidFor, extract_codes
from situated.index.store import sample_docs_dir
from situated.loaders.corpus import load_corpus, load_file
from situated.loaders.meta import MetaProblems

pytestmark = pytest.mark.unit
DOCS = sample_docs_dir()


def test_markdown_sections_keep_rule_and_exception_in_one_block():
    doc = load_file(DOCS / "c3-assembly.md")
    block = {b.block_id: b for b in doc.blocks}["MAN-C3-ASM-4.2"]
    assert block.kind is BlockKind.SECTION and block.section == "4.2"
    assert "must be fitted on every C-3" in block.text and "Exception" in block.text
    assert block.link == "/documents/MAN-C3-ASM#section-4.2"
    pieces = [p for p in doc.pieces if p.block_id == block.block_id]
    assert len(pieces) == 2  # one per paragraph, each with the section title
    assert all(
        p.search_text.startswith("Atlas Bikes C-3 assembly manual | Mudguards: ") for p in pieces
    )


def test_markdown_table_block_has_scope_header_and_rows_and_one_piece_per_row():
    doc = load_file(DOCS / "c3-spec.md")
    table = next(b for b in doc.blocks if b.kind is BlockKind.TABLE)
    assert table.scope.startswith("every C-3 battery pack")
    assert table.header == ("Check", "Requirement", "Tool")
    assert [r[0] for r in table.rows] == [f"R{n:02d}" for n in range(1, 12)]
    assert "Scope: every C-3 battery pack" in table.text and "| R07 |" in table.text
    rows = [p for p in doc.pieces if p.block_id == table.block_id]
    assert len(rows) == 11
    r07 = rows[6]
    assert r07.codes[0] == "R7"  # the record id comes first
    assert "scope: every C-3 battery pack" in r07.search_text
    assert "Battery safety checks" in r07.search_text and "battery seal" in r07.search_text


def test_markdown_figure_block_has_caption_description_image_and_page():
    doc = load_file(DOCS / "battery-test-report.md")
    fig = next(b for b in doc.blocks if b.kind is BlockKind.FIGURE)
    assert fig.caption == "Figure 2. Capacity after 500 cycles"
    assert fig.image == "figures/capacity-500-cycles.svg" and fig.page == 8
    assert "86%" in fig.description and "Page: 8" in fig.text
    (piece,) = [p for p in doc.pieces if p.block_id == fig.block_id]
    assert "Capacity after 500 cycles" in piece.search_text and "mean 86%" in piece.search_text


def test_slides_make_one_self_contained_block_and_piece_per_slide():
    doc = load_file(DOCS / "c3-launch-slides.md")
    assert [b.kind for b in doc.blocks] == [BlockKind.SLIDE] * 4
    assert len(doc.pieces) == 4
    assert all(p.search_text == f"C-3 dealer launch deck | {b.text}"
               for p, b in zip(doc.pieces, doc.blocks))


def test_pdf_keeps_pages_sections_and_sidecar_metadata():
    doc = load_file(DOCS / "pump-p2-maintenance.pdf")
    assert doc.meta.source_id == "MAN-P2" and doc.meta.assets == ("P-2",)
    pages = {b.section: b.page for b in doc.blocks}
    assert pages == {"1": 1, "2": 1, "3": 2, "4": 2}
    align = next(b for b in doc.blocks if b.section == "3")
    assert "0.05 mm" in align.text and align.title == "Coupling alignment"


def test_pdf_without_sidecar_is_rejected_with_the_fix(tmp_path):
    pdf = tmp_path / "x.pdf"
    pdf.write_bytes((DOCS / "pump-p2-maintenance.pdf").read_bytes())
    with pytest.raises(MetaProblems, match=r"x\.pdf\.meta\.yaml"):
        load_file(pdf)


def test_parsed_json_elements_become_typed_blocks():
    doc = load_file(DOCS / "charger-c3.json")
    kinds = [(b.block_id, b.kind) for b in doc.blocks]
    assert kinds == [
        ("CHG-CH4-1", BlockKind.SECTION), ("CHG-CH4-1-t1", BlockKind.TABLE),
        ("CHG-CH4-2", BlockKind.SECTION), ("CHG-CH4-2-f1", BlockKind.FIGURE),
    ]
    fig = doc.blocks[3]
    assert fig.page == 2 and fig.image == "figures/ch4-curve.png"
    assert doc.meta.extra == {"parser": "layout-parser 3.1"}  # unknown keys are kept


def test_parsed_json_bad_element_names_the_element(tmp_path):
    bad = {"metadata": {"source_id": "J"}, "sections": [
        {"title": "A", "elements": [{"type": "paragraph", "text": "ok"}, {"type": "chart"}]}]}
    path = write(tmp_path / "j.json", json.dumps(bad))
    with pytest.raises(MetaProblems, match=r"sections\[0\]\.elements\[1\].*unknown"):
        load_file(path)


def test_every_piece_points_at_a_block_of_its_document_and_carries_its_fields():
    corpus = load_corpus([DOCS])
    for doc in corpus.documents:
        ids = {b.block_id for b in doc.blocks}
        assert doc.pieces, doc.meta.source_id
        for p in doc.pieces:
            assert p.block_id in ids
            assert p.fields == doc.meta.filter_fields()
    all_blocks = [b.block_id for d in corpus.documents for b in d.blocks]
    assert len(all_blocks) == len(set(all_blocks))


def test_applies_through_becomes_exclusive_valid_to_and_unknown_keys_are_kept(tmp_path):
    path = write(tmp_path / "a.md", md("A", applies_through="2025-12-31", owner="legal",
                                       valid_for="request_date"))
    meta = load_file(path).meta
    assert meta.valid_to == dt.date(2026, 1, 1)
    assert meta.valid_for is ValidFor.REQUEST_DATE
    assert meta.extra == {"owner": "legal"}


def test_codes_are_normalised():
    assert extract_codes("E-417, e417, R07 and P‑2 but not 2026-03-15 or WARR-R2") == (
        "E417", "R7", "P2",
    )


def test_text_before_first_heading_is_an_introduction_section(tmp_path):
    path = write(tmp_path / "i.md", md("I", body="# Title\n\nIntro words here.\n\n## Next\n\nMore.\n"))
    doc = load_file(path)
    assert [b.title for b in doc.blocks] == ["Introduction", "Next"]
    assert doc.meta.title == "Title"

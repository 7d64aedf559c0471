"""PDF (pypdf) → `Section`s, with metadata from the sidecar `NAME.pdf.meta.yaml`.

Text is extracted page by page; a line that looks like a numbered heading (`3 Bearings`,
`4.2 Mudguards`: a number, then a short title without a final full stop) starts a section, and
every paragraph keeps the page it was read from. Lines inside a section are joined into one
paragraph per page, except that a line opening with a clause marker or bullet (`(a)`, `1.1.`,
`•`, see `loaders.structure`) starts a new paragraph, so a long page is split into blocks at its
clauses like a Markdown section (`loaders.sizing`).
"""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

from pypdf import PdfReader

from situated.loaders.forms import Paragraph, Section, split_heading
from situated.loaders.meta import MetaProblems, load_yaml_mapping
from situated.loaders.reading import decoded
from situated.loaders.structure import clause_marker

_HEADING_LINE = re.compile(r"^\d+(?:\.\d+)*\.?\s+\S.{0,78}$")


def sidecar_path(pdf: Path) -> Path:
    return pdf.with_name(pdf.name + ".meta.yaml")


def read_sidecar(pdf: Path, data: bytes | None) -> dict:
    """The sidecar's metadata from its bytes (`data`: read once by the caller, who hashes the
    same bytes; None: there is no sidecar)."""
    side = sidecar_path(pdf)
    if data is None:
        raise MetaProblems([
            (f"{pdf}: no sidecar metadata; create {side.name} beside it with at least "
            "`source_id: ...`")
        ])
    return load_yaml_mapping(decoded(data, side), str(side))


def _is_heading(line: str) -> bool:
    """A number and a short title: at most 8 words, no clause punctuation inside, no final
    full stop ("2.1. Step one: loosen the bolts and" is a clause that wraps, not a heading)."""
    line = line.strip()
    if not _HEADING_LINE.match(line) or line.endswith((".", ",", ";", ":")):
        return False
    _, title = split_heading(line)
    return len(title.split()) <= 8 and not any(p in title for p in (": ", "; ", ", "))


def _opens_clause(line: str, previous: str) -> bool:
    """A line starts a new clause when it opens with a marker and the line before it ended a
    sentence or clause (a wrapped "… exceeds / 4.5 mm/s" is one paragraph); a bullet always."""
    marker = clause_marker(line)
    if marker is None:
        return False
    return marker.style == "bullet" or previous.rstrip().endswith((".", ":", ";", "!", "?"))


MAX_PDF_PAGES = 2_000
MAX_PDF_TEXT = 5_000_000  # characters of extracted text (a small file can inflate enormously)
MAX_PDF_INFLATION = 50  # text characters per byte of file, above `INFLATION_FLOOR` characters
INFLATION_FLOOR = 200_000


def _read_pages(pdf: Path, data: bytes) -> tuple[str | None, list[tuple[int, str]]]:
    """The PDF's title and each page's text, within the bounds `parse_pdf` names. A file that
    does not open as a PDF (`%PDF-` in its first KB, as readers look for it) is refused before
    pypdf reads it, so its warnings never print above the error."""
    if b"%PDF-" not in data[:1024]:
        raise MetaProblems([f"{pdf}: not a PDF (no %PDF- header); export it as PDF, or "
                            "give it the suffix of what it is (.md, .json)"])
    try:
        reader = PdfReader(io.BytesIO(data))
        if len(reader.pages) > MAX_PDF_PAGES:
            raise MetaProblems([f"{pdf}: {len(reader.pages):,} pages, over the "
                                f"{MAX_PDF_PAGES:,} a document may have; split it"])
        pages, total = [], 0
        budget = min(MAX_PDF_TEXT, max(INFLATION_FLOOR, MAX_PDF_INFLATION * len(data)))
        for n, page in enumerate(reader.pages, start=1):
            # NFKC: ligatures ("ﬁxes", "Shuﬄe") and full-width forms as the words they are
            text = unicodedata.normalize("NFKC", page.extract_text() or "")
            total += len(text)
            if total > budget:
                raise MetaProblems([f"{pdf}: its text passes {budget:,} characters by page {n}, "
                                    f"more than {MAX_PDF_INFLATION} per byte of a "
                                    f"{len(data):,}-byte file (a compression bomb?); "
                                    "re-export it without it, or split it"])
            if total > MAX_PDF_TEXT:
                raise MetaProblems([f"{pdf}: its text passes {MAX_PDF_TEXT:,} characters by page "
                                    f"{n}; split it into smaller documents"])
            pages.append((n, text))
        title = unicodedata.normalize("NFKC", reader.metadata.title) \
            if reader.metadata and reader.metadata.title else None
    except MetaProblems:
        raise
    except Exception as exc:
        if isinstance(exc, (KeyboardInterrupt, MemoryError)):
            raise
        raise MetaProblems([f"{pdf}: cannot read the PDF ({type(exc).__name__}: {exc}); "
                            "re-export it"]) from None
    return title, pages


def parse_pdf(pdf: Path, data: bytes | None = None) -> tuple[str | None, list[Section]]:
    """(title from the PDF's metadata, sections). Bounded: at most `MAX_PDF_PAGES` pages,
    `MAX_PDF_TEXT` characters of text and `MAX_PDF_INFLATION` characters per byte of file
    (a 6 KB file whose streams inflate to 1 MB of text is refused), and pypdf's own
    decompression limits, each reported as an error naming the file, never a traceback."""
    title, pages = _read_pages(pdf, pdf.read_bytes() if data is None else data)
    sections: list[Section] = []
    current = Section(title=title or "Introduction")
    pending: list[str] = []
    pending_page: int | None = None

    def flush() -> None:
        nonlocal pending_page
        text = " ".join(x.strip() for x in pending if x.strip())
        if text:
            current.elements.append(Paragraph(text=text, page=pending_page))
        pending.clear()
        pending_page = None

    intro = current
    for page_no, text in pages:
        for line in text.splitlines():
            if _is_heading(line):
                flush()
                number, heading = split_heading(line)
                current = Section(title=heading, number=number, page=page_no,
                                  path=(f"{number} {heading}" if number else heading,))
                sections.append(current)
                continue
            if line.strip() and title and line.strip() == title and not sections:
                continue  # the title printed on page 1
            if pending and _opens_clause(line, pending[-1]):
                flush()
            if pending_page is None:
                pending_page = page_no
            elif pending_page != page_no:
                flush()
                pending_page = page_no
            pending.append(line)
        flush()
    if intro.elements:
        sections.insert(0, intro)
    return title, [s for s in sections if s.elements]

"""Parsed sections → parent blocks and child pieces (DESIGN "Two forms").

Every loader produces `Section`s of typed elements; this module alone decides what a block and a
piece are, so the three input formats behave the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from situated.documents import (
    Block,
    BlockKind,
    DocKind,
    DocumentMeta,
    Piece,
    extract_codes,
)
from situated.loaders.sizing import BlockLimit, group_paragraphs, split_sentences

PIPELINE_VERSION = "forms-4"  # bump when blocks or pieces change shape: cached indexes rebuild
MAX_PIECE_CHARS = 700  # MiniLM reads 256 word pieces; longer paragraphs are split by sentence


@dataclass(frozen=True)
class Paragraph:
    text: str
    page: int | None = None


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    scope: str | None = None
    page: int | None = None


@dataclass(frozen=True)
class Figure:
    caption: str
    image: str | None = None
    description: str | None = None
    page: int | None = None


Element = Paragraph | Table | Figure


@dataclass
class Section:
    """A heading and what follows it, up to the next heading."""

    title: str
    number: str | None = None
    page: int | None = None
    elements: list[Element] = field(default_factory=list)


_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+(\S.*)$")


def split_heading(text: str) -> tuple[str | None, str]:
    """`4.2 Mudguards` → ("4.2", "Mudguards"); an unnumbered heading keeps number None."""
    m = _NUMBERED.match(text.strip())
    return (m.group(1), m.group(2).strip()) if m else (None, text.strip())


def split_long(text: str, limit: int = MAX_PIECE_CHARS) -> list[str]:
    """Split text over `limit` characters at sentence ends (never inside a sentence)."""
    if len(text) <= limit:
        return [text]
    parts: list[str] = []
    current = ""
    for sentence in split_sentences(text):
        if current and len(current) + 1 + len(sentence) > limit:
            parts.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    if current:
        parts.append(current)
    return parts


def _table_markdown(header: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _heading(sec: Section) -> str:
    return f"{sec.number} {sec.title}" if sec.number else sec.title


class _Builder:
    def __init__(self, meta: DocumentMeta, timezone: str):
        self.meta = meta
        self.fields = meta.filter_fields(timezone)
        self.blocks: list[Block] = []
        self.pieces: list[Piece] = []
        self._ids: set[str] = set()
        self._piece_counts: dict[str, int] = {}

    def unique(self, wanted: str) -> str:
        candidate, n = wanted, 2
        while candidate in self._ids:
            candidate, n = f"{wanted}~{n}", n + 1
        self._ids.add(candidate)
        return candidate

    def link(self, anchor: str | None) -> str:
        return f"{self.meta.base_link}#{anchor}" if anchor else self.meta.base_link

    def add_block(self, **kw) -> Block:
        block = Block(source_id=self.meta.source_id, fields=self.fields, **kw)
        self.blocks.append(block)
        return block

    def add_piece(self, block: Block, text: str, extra_codes: tuple[str, ...] = ()) -> None:
        # the document title gives every piece its context ("which product's warranty?")
        if self.meta.title and not text.startswith(self.meta.title):
            text = f"{self.meta.title} | {text}"
        n = self._piece_counts.get(block.block_id, 0)
        self._piece_counts[block.block_id] = n + 1
        codes = tuple(dict.fromkeys(extra_codes + extract_codes(text)))
        self.pieces.append(Piece(
            piece_id=f"{block.block_id}-p{n}", block_id=block.block_id,
            source_id=self.meta.source_id, search_text=text, codes=codes, fields=self.fields,
        ))


def build_forms(meta: DocumentMeta, sections: list[Section], timezone: str = "UTC",
                limit: BlockLimit | None = None) -> tuple[list[Block], list[Piece]]:
    """Blocks (what the model reads) and pieces (what search matches) of one document; its
    date-only validity bounds are read in the index's `timezone`; no section block exceeds
    `limit` (see `loaders.sizing`)."""
    limit = limit or BlockLimit()
    b = _Builder(meta, timezone)
    sid = meta.source_id
    for index, sec in enumerate(sections, start=1):
        key = sec.number or f"s{index}"
        anchor = f"section-{sec.number}" if sec.number else f"s{index}"
        heading = _heading(sec)
        if meta.kind is DocKind.SLIDES:
            body = "\n\n".join(_element_text(e) for e in sec.elements)
            text = f"{heading}\n\n{body}".strip()
            block = b.add_block(
                block_id=b.unique(f"{sid}-slide{index}"), kind=BlockKind.SLIDE,
                section=str(index), title=sec.title, page=sec.page, text=text,
                link=b.link(f"slide-{index}"),
            )
            b.add_piece(block, text)
            continue
        paragraphs = [e for e in sec.elements if isinstance(e, Paragraph)]
        groups = group_paragraphs(heading, [p.text for p in paragraphs], limit) \
            if paragraphs else []
        for part, texts in enumerate(groups, start=1):
            # a section over the block limit becomes several blocks, each with its own anchor
            suffix = f"-part{part}" if part > 1 else ""
            text = heading + "\n\n" + "\n\n".join(texts)
            block = b.add_block(
                block_id=b.unique(f"{sid}-{key}{suffix}"), kind=BlockKind.SECTION,
                section=sec.number, title=sec.title,
                page=sec.page if sec.page is not None else paragraphs[0].page,
                text=text, link=b.link(f"{anchor}{suffix}"),
            )
            for t in texts:
                for chunk in split_long(t):
                    b.add_piece(block, f"{sec.title}: {chunk}")
        tables = [e for e in sec.elements if isinstance(e, Table)]
        for t_index, table in enumerate(tables, start=1):
            scope_line = f"Scope: {table.scope}\n" if table.scope else ""
            text = f"{heading}\n{scope_line}\n{_table_markdown(table.header, table.rows)}"
            block = b.add_block(
                block_id=b.unique(f"{sid}-{key}-t{t_index}"), kind=BlockKind.TABLE,
                section=sec.number, title=sec.title, page=table.page or sec.page, text=text,
                link=b.link(anchor), scope=table.scope, header=table.header, rows=table.rows,
            )
            for row in table.rows:
                cells = "; ".join(
                    f"{h}: {c}" if h else c for h, c in zip(table.header, row, strict=False)
                )
                scope = f" (scope: {table.scope})" if table.scope else ""
                record = _record_code(row[0]) if row else ()
                b.add_piece(block, f"{sec.title}{scope}: {cells}", extra_codes=record)
        figures = [e for e in sec.elements if isinstance(e, Figure)]
        for f_index, fig in enumerate(figures, start=1):
            lines = [fig.caption]
            if fig.image:
                lines.append(f"Image: {fig.image}")
            if fig.page is not None:
                lines.append(f"Page: {fig.page}")
            if fig.description:
                lines.append(f"Description: {fig.description}")
            block = b.add_block(
                block_id=b.unique(f"{sid}-{key}-f{f_index}"), kind=BlockKind.FIGURE,
                section=sec.number, title=sec.title, page=fig.page if fig.page else sec.page,
                text="\n".join(lines), link=b.link(anchor), caption=fig.caption,
                description=fig.description, image=fig.image,
            )
            b.add_piece(block, f"{fig.caption} {fig.description or ''}".strip())
    return b.blocks, b.pieces


def _record_code(cell: str) -> tuple[str, ...]:
    """The row's record id (first column), when it is a code."""
    return extract_codes(cell)[:1]


def _element_text(e: Element) -> str:
    if isinstance(e, Paragraph):
        return e.text
    if isinstance(e, Table):
        scope = f"Scope: {e.scope}\n" if e.scope else ""
        return scope + _table_markdown(e.header, e.rows)
    return "\n".join(x for x in (e.caption, e.description) if x)

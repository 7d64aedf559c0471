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
from situated.loaders.sentences import fit_text
from situated.loaders.sizing import BlockLimit, Unit, pack_units
from situated.loaders.structure import ClauseDepth

PIPELINE_VERSION = "forms-8"  # bump when blocks or pieces change shape: cached indexes rebuild
MAX_PIECE_CHARS = 700  # MiniLM reads 256 word pieces; longer paragraphs are split by sentence


@dataclass(frozen=True)
class Paragraph:
    """A paragraph, list item, clause or code block. `depth` orders the section's structure
    (list nesting, clause numbering; None = read it from the clause marker the text opens with)."""

    text: str
    page: int | None = None
    depth: int | None = None
    code: bool = False


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
    level: int = 2
    path: tuple[str, ...] = ()  # headings from the outermost open section down to this one


_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+(\S.*)$")


def split_heading(text: str) -> tuple[str | None, str]:
    """`4.2 Mudguards` → ("4.2", "Mudguards"); an unnumbered heading keeps number None."""
    m = _NUMBERED.match(text.strip())
    return (m.group(1), m.group(2).strip()) if m else (None, text.strip())


def _table_markdown(header: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _heading(sec: Section) -> str:
    return f"{sec.number} {sec.title}" if sec.number else sec.title


def _units(sec: Section) -> list[Unit]:
    clauses = ClauseDepth()
    return [Unit(p.text, p.depth if p.depth is not None else clauses.of(p.text), p.code)
            for p in sec.elements if isinstance(p, Paragraph)]


def _with_part(heading: str, part: int, parts: int) -> str:
    return f"{heading} (part {part} of {parts})" if parts > 1 else heading


class _Builder:
    def __init__(self, meta: DocumentMeta, timezone: str, limit: BlockLimit):
        self.meta = meta
        self.limit = limit
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

    def add_piece(self, block: Block, text: str, extra_codes: tuple[str, ...] = (),
                  label: str = "") -> None:
        """Pieces of `text`, each prefixed with the document title and `label` (the section
        title: "which product's warranty?") and cut to what the embedding model reads."""
        prefix = label
        if self.meta.title and not (label or text).startswith(self.meta.title):
            prefix = f"{self.meta.title} | {label}"
        body = text.strip()
        room = max(MAX_PIECE_CHARS - len(prefix), 100)
        limit = self.limit
        reach = limit.piece_tokens - (limit.count(prefix) if limit.piece_tokens else 0)

        def fits(t: str) -> bool:  # within 700 characters and what the model reads
            return len(t) <= room and (not limit.piece_tokens or limit.count(t) <= reach)
        chunks = [body] if fits(body) else fit_text(" ".join(body.split()), fits)
        for chunk in chunks:
            n = self._piece_counts.get(block.block_id, 0)
            self._piece_counts[block.block_id] = n + 1
            search_text = prefix + chunk
            codes = tuple(dict.fromkeys(extra_codes + extract_codes(search_text)))
            self.pieces.append(Piece(
                piece_id=f"{block.block_id}-p{n}", block_id=block.block_id,
                source_id=self.meta.source_id, search_text=search_text, codes=codes,
                fields=self.fields,
            ))


def anchor_slug(text: str) -> str:
    """`4.2` stays `4.2`; anything but letters, digits, `.`, `_` and `-` becomes `-`."""
    return re.sub(r"[^\w.-]+", "-", text, flags=re.ASCII).strip("-")[:40]


@dataclass(frozen=True)
class _Place:
    """Where a section's blocks go: its position, id key, link anchor and heading."""

    index: int
    key: str
    anchor: str
    heading: str


def build_forms(meta: DocumentMeta, sections: list[Section], timezone: str = "UTC",
                limit: BlockLimit | None = None) -> tuple[list[Block], list[Piece]]:
    """Blocks (what the model reads) and pieces (what search matches) of one document; its
    date-only validity bounds are read in the index's `timezone`; no section block exceeds
    `limit` (see `loaders.sizing`)."""
    limit = limit or BlockLimit()
    b = _Builder(meta, timezone, limit)
    for index, sec in enumerate(sections, start=1):
        # ids and link anchors only from a slug of the number (a parsed-JSON "number" is any
        # text: `1](http://evil.example) [x` must not reach a link or an id)
        slug = anchor_slug(sec.number) if sec.number else None
        at = _Place(index=index, key=slug or f"s{index}",
                    anchor=f"section-{slug}" if slug else f"s{index}",
                    heading=" › ".join(sec.path) if len(sec.path) > 1 else _heading(sec))
        if meta.kind is DocKind.SLIDES:
            _slide_blocks(b, sec, at, limit)
            continue
        _section_blocks(b, sec, at, limit)
        _table_blocks(b, sec, at, limit)
        _figure_blocks(b, sec, at, limit)
    return b.blocks, b.pieces


def _slide_blocks(b: _Builder, sec: Section, at: _Place, limit: BlockLimit) -> None:
    """A slide whole (split into parts only past the block limit)."""
    sid = b.meta.source_id
    groups = pack_units(at.heading, [Unit(_element_text(e)) for e in sec.elements], limit)
    for part, texts in enumerate(groups, start=1):
        suffix = f"-part{part}" if part > 1 else ""
        text = f"{_with_part(at.heading, part, len(groups))}\n\n" + "\n\n".join(texts)
        block = b.add_block(
            block_id=b.unique(f"{sid}-slide{at.index}{suffix}"), kind=BlockKind.SLIDE,
            section=str(at.index), title=sec.title, page=sec.page, text=text.strip(),
            link=b.link(f"slide-{at.index}{suffix}"), path=sec.path, part=part,
            parts=len(groups))
        b.add_piece(block, text.strip())


def _section_blocks(b: _Builder, sec: Section, at: _Place, limit: BlockLimit) -> None:
    """The section's text; a section over the block limit becomes several blocks, each with
    its own anchor."""
    sid = b.meta.source_id
    paragraphs = [e for e in sec.elements if isinstance(e, Paragraph)]
    groups = pack_units(at.heading, _units(sec), limit)
    for part, texts in enumerate(groups, start=1):
        suffix = f"-part{part}" if part > 1 else ""
        text = _with_part(at.heading, part, len(groups)) + "\n\n" + "\n\n".join(texts)
        block = b.add_block(
            block_id=b.unique(f"{sid}-{at.key}{suffix}"), kind=BlockKind.SECTION,
            section=sec.number, title=sec.title,
            page=sec.page if sec.page is not None else paragraphs[0].page,
            text=text, link=b.link(f"{at.anchor}{suffix}"), path=sec.path, part=part,
            parts=len(groups),
        )
        for t in texts:
            b.add_piece(block, t, label=f"{sec.title}: ")


def _table_blocks(b: _Builder, sec: Section, at: _Place, limit: BlockLimit) -> None:
    """Each table whole with its scope and header (split by rows past the limit); a piece per
    row, its first cell's code as the record id."""
    sid = b.meta.source_id
    tables = [e for e in sec.elements if isinstance(e, Table)]
    for t_index, table in enumerate(tables, start=1):
        scope_line = f"Scope: {table.scope}\n" if table.scope else ""
        row_groups = _row_groups(at.heading, scope_line, table, limit)
        for part, rows in enumerate(row_groups, start=1):
            suffix = f"-part{part}" if part > 1 else ""
            title_line = _with_part(at.heading, part, len(row_groups))
            text = f"{title_line}\n{scope_line}\n{_table_markdown(table.header, rows)}"
            block = b.add_block(
                block_id=b.unique(f"{sid}-{at.key}-t{t_index}{suffix}"), kind=BlockKind.TABLE,
                section=sec.number, title=sec.title, page=table.page or sec.page, text=text,
                link=b.link(at.anchor), scope=table.scope, header=table.header, rows=rows,
                path=sec.path, part=part, parts=len(row_groups),
            )
            for row in rows:
                cells = "; ".join(
                    f"{h}: {c}" if h else c for h, c in zip(table.header, row, strict=False)
                )
                scope = f" (scope: {table.scope})" if table.scope else ""
                record = _record_code(row[0]) if row else ()
                b.add_piece(block, cells, extra_codes=record, label=f"{sec.title}{scope}: ")


def _figure_blocks(b: _Builder, sec: Section, at: _Place, limit: BlockLimit) -> None:
    """Each figure by caption, image, page and description (the description split past the
    limit)."""
    sid = b.meta.source_id
    figures = [e for e in sec.elements if isinstance(e, Figure)]
    for f_index, fig in enumerate(figures, start=1):
        lines = [fig.caption]
        if fig.image:
            lines.append(f"Image: {fig.image}")
        if fig.page is not None:
            lines.append(f"Page: {fig.page}")
        head = "\n".join(lines)
        room = max(limit.tokens - limit.count(head + " (part 99 of 99)\nDescription: "), 16)
        described: list[str | None] = [None]
        if fig.description:
            def fits(t: str, room: int = room) -> bool:
                return limit.count(t) <= room
            described = list(fit_text(fig.description, fits))
        for part, description in enumerate(described, start=1):
            suffix = f"-part{part}" if part > 1 else ""
            text = _with_part(head, part, len(described))
            if description:
                text += f"\nDescription: {description}"
            block = b.add_block(
                block_id=b.unique(f"{sid}-{at.key}-f{f_index}{suffix}"), kind=BlockKind.FIGURE,
                section=sec.number, title=sec.title, page=fig.page if fig.page else sec.page,
                text=text, link=b.link(at.anchor), caption=fig.caption,
                description=fig.description, image=fig.image, path=sec.path, part=part,
                parts=len(described),
            )
            b.add_piece(block, f"{fig.caption} {description or ''}".strip())


def _row_groups(heading: str, scope_line: str, table: Table, limit: BlockLimit,
                ) -> list[tuple[tuple[str, ...], ...]]:
    """A table's rows in groups whose block (heading, scope, header and rows) fits the limit;
    every part repeats the header."""
    fixed = limit.count(f"{heading} (part 99 of 99)\n{scope_line}\n"
                        + _table_markdown(table.header, ())) + 2
    groups: list[list[tuple[str, ...]]] = [[]]
    used = fixed
    for row in (r for whole in table.rows for r in _fit_row(whole, limit.tokens - fixed, limit)):
        cost = limit.count(_table_markdown((), (row,))) + 1
        if groups[-1] and used + cost > limit.tokens:
            groups.append([])
            used = fixed
        groups[-1].append(row)
        used += cost
    return [tuple(g) for g in groups]


def _fit_row(row: tuple[str, ...], room: int, limit: BlockLimit) -> list[tuple[str, ...]]:
    """A row too large for a block on its own → continuation rows, each cell cut between
    sentences so every continuation fits; the first cell (the record id) is repeated."""
    if limit.count(_table_markdown((), (row,))) < room or not row:
        return [row]
    share = max(room // len(row) - 4, 8)
    cells = [fit_text(c, lambda t: limit.count(t) <= share) if c else [""] for c in row]
    height = max(len(c) for c in cells)
    out = []
    for k in range(height):
        cont = tuple((c[k] if k < len(c) else "") for c in cells)
        out.append((row[0], *cont[1:]) if k and len(cells[0]) == 1 else cont)
    return out


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

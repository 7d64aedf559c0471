"""Markdown with YAML front matter → `Section`s.

Conventions (DESIGN "Documents"): `## ` and deeper headings start sections (numbered ones keep
their number); `Scope: ...` directly above a pipe table is its scope; `![Figure N. Caption](path)`
followed by `Figure description: ...` (and optionally `Page: N`) is a figure; `# Title` is the
document title, and text before the first `## ` heading becomes an introduction section.
"""

from __future__ import annotations

import re

from situated.loaders.forms import Figure, Paragraph, Section, Table, split_heading
from situated.loaders.meta import MetaProblems, load_yaml_mapping

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_IMAGE = re.compile(r"^!\[(?P<caption>[^\]]*)\]\((?P<path>[^)\s]+)(?:\s+\"[^\"]*\")?\)\s*$")
_SCOPE = re.compile(r"^scope:\s*(.+)$", re.IGNORECASE)
_FIG_DESC = re.compile(r"^figure description:\s*(.*)$", re.IGNORECASE)
_PAGE = re.compile(r"^page:\s*(\d+)\s*$", re.IGNORECASE)


def split_front_matter(text: str, path: str) -> tuple[dict, str]:
    """Return (raw metadata, body). A file without front matter has no source_id: an error."""
    text = text.lstrip("\ufeff")
    if not text.startswith("---"):
        raise MetaProblems([
            (f"{path}: no YAML front matter; start the file with a `---` block holding at least "
            "`source_id: ...`")
        ])
    lines = text.splitlines()
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            return load_yaml_mapping("\n".join(lines[1:i]), path), "\n".join(lines[i + 1:])
    raise MetaProblems([f"{path}: front matter is not closed; add a line `---` after it"])


def _split_row(line: str) -> tuple[str, ...]:
    inner = line.strip()
    inner = inner.removeprefix("|")
    inner = inner.removesuffix("|")
    return tuple(c.strip() for c in inner.split("|"))


def _is_separator(line: str) -> bool:
    return bool(re.fullmatch(r"\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?", line.strip()))


def _blocks_of_lines(lines: list[str]) -> list[list[str]]:
    """Group lines into blank-line separated chunks, keeping pipe tables as their own chunk."""
    chunks: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        if not line.strip():
            if current:
                chunks.append(current)
                current = []
            continue
        is_row = line.lstrip().startswith("|")
        if current and current[-1].lstrip().startswith("|") != is_row:
            chunks.append(current)
            current = []
        current.append(line)
    if current:
        chunks.append(current)
    return chunks


def parse_body(body: str) -> tuple[str | None, list[Section]]:
    """Body → (document title from `# `, sections)."""
    doc_title: str | None = None
    sections: list[Section] = []
    intro = Section(title="Introduction")
    current = intro
    buffer: list[str] = []

    def flush() -> None:
        current.elements.extend(_elements(buffer))
        buffer.clear()

    for line in body.splitlines():
        m = _HEADING.match(line)
        if m:
            flush()
            level, text = len(m.group(1)), m.group(2)
            if level == 1 and doc_title is None and not sections:
                doc_title = text
                continue
            number, title = split_heading(text)
            current = Section(title=title, number=number)
            sections.append(current)
            continue
        buffer.append(line)
    flush()
    if intro.elements:
        sections.insert(0, intro)
    return doc_title, [s for s in sections if s.elements]


def _elements(lines: list[str]) -> list:
    out: list = []
    pending_scope: str | None = None
    chunks = _blocks_of_lines(lines)
    i = 0
    while i < len(chunks):
        chunk = chunks[i]
        first = chunk[0].strip()
        if first.startswith("|") and len(chunk) >= 2 and _is_separator(chunk[1]):
            header = _split_row(chunk[0])
            rows = tuple(_split_row(r) for r in chunk[2:])
            out.append(Table(header=header, rows=rows, scope=pending_scope))
            pending_scope = None
            i += 1
            continue
        if pending_scope is not None:  # a Scope: line not followed by a table is plain text
            out.append(Paragraph(f"Scope: {pending_scope}"))
            pending_scope = None
        scope = _SCOPE.match(first)
        if scope and len(chunk) == 1:
            pending_scope = scope.group(1).strip()
            i += 1
            continue
        image = _IMAGE.match(first)
        if image:
            caption, path = image.group("caption").strip(), image.group("path")
            rest = " ".join(x.strip() for x in chunk[1:])
            description, page = None, None
            j = i + 1
            desc_m = _FIG_DESC.match(rest) if rest else None
            if desc_m:
                description = desc_m.group(1)
            elif j < len(chunks) and _FIG_DESC.match(chunks[j][0].strip()):
                description = _FIG_DESC.match(" ".join(x.strip() for x in chunks[j])).group(1)
                j += 1
            if j < len(chunks) and len(chunks[j]) == 1 and _PAGE.match(chunks[j][0].strip()):
                page = int(_PAGE.match(chunks[j][0].strip()).group(1))
                j += 1
            out.append(Figure(caption=caption, image=path, description=description, page=page))
            i = j
            continue
        out.append(Paragraph(" ".join(x.strip() for x in chunk)))
        i += 1
    if pending_scope is not None:
        out.append(Paragraph(f"Scope: {pending_scope}"))
    return out

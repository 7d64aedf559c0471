"""Markdown with YAML front matter → `Section`s, parsed by markdown-it-py (CommonMark + tables,
front matter and definition lists from mdit-py-plugins).

Conventions (DESIGN "Documents"): the first `# ` heading is the document title; every other
heading (ATX `##` or setext underlined) starts a section at its level, numbered ones keep their
number; a paragraph that is bold as a whole and short (`**1.1. Your account**`, `**Section 3**`)
is a heading too, nested under the last real heading (by its number's depth when numbered);
text before the first heading is an introduction section. `Scope: ...` directly above a table is
its scope; an image alone in its paragraph followed by `Figure description: ...` (and optionally
`Page: N`) is a figure. List items, definition-list entries and clause-numbered paragraphs keep
their depth (used to split oversized sections at their own structure); fenced and indented code
is kept verbatim; HTML tags are dropped and their text kept. Nothing inside a code fence is
structure.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from situated.loaders.forms import Figure, Paragraph, Section, Table, split_heading
from situated.loaders.html import history_note, html_text
from situated.loaders.meta import MetaProblems, load_yaml_mapping
from situated.loaders.structure import ClauseDepth

_SCOPE = re.compile(r"^scope:\s*(.+)$", re.IGNORECASE | re.DOTALL)
_FIG_DESC = re.compile(r"^figure description:\s*(.*)$", re.IGNORECASE | re.DOTALL)
_PAGE = re.compile(r"^page:\s*(\d+)\s*$", re.IGNORECASE)
_PSEUDO_MAX_CHARS = 120


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table").use(front_matter_plugin).use(deflist_plugin)


def split_front_matter(text: str, path: str) -> tuple[dict, list[Token]]:
    """Return (raw metadata, the body's tokens). Without front matter there is no source_id:
    an error that says how to add it."""
    text = text.lstrip("\ufeff")
    if not text.startswith("---"):
        raise MetaProblems([
            (f"{path}: no YAML front matter; start the file with a `---` block holding at least "
            "`source_id: ...`")
        ])
    tokens = _parser().parse(text)
    if not tokens or tokens[0].type != "front_matter":
        raise MetaProblems([f"{path}: front matter is not closed; add a line `---` after it"])
    return load_yaml_mapping(tokens[0].content, path, first_line=2), tokens[1:]


# an admonition as MkDocs and Python-Markdown write it (`!!! warning "Title"`, `??? note`,
# `???+ tip`); its indented body is read as the paragraph's continuation
_ADMONITION = re.compile(r'^[!?]{3}\+?\s+([\w-]+)(?:\s+"([^"\n]*)")?\s*')


def admonition(text: str) -> str:
    """`text` with an admonition's marker written as words: "!!! warning In order …" →
    "Warning: In order …", `!!! tip "Gotcha" …` → "Gotcha: …" (an empty title, `""`, says
    nothing: the body alone)."""
    m = _ADMONITION.match(text)
    if m is None:
        return text
    body = text[m.end():]
    lead = m.group(1).replace("-", " ").capitalize() if m.group(2) is None else m.group(2).strip()
    return f"{lead}: {body}" if lead and body else body or lead


def inline_text(token: Token) -> str:
    """Plain text of an inline token: emphasis marks and tags dropped (a script or style
    element with its content), link text kept with an absolute target after it in
    parentheses, line breaks become spaces."""
    out: list[str] = []
    skipping = False
    target: str | None = None
    for c in token.children or []:
        if c.type == "html_inline":
            tag = c.content.lower()
            if re.match(r"<\s*(script|style)\b", tag):
                skipping = True
            elif re.match(r"<\s*/\s*(script|style)\b", tag):
                skipping = False
            elif tag.startswith("<br"):
                out.append(" ")
            continue
        if skipping:
            continue
        if c.type == "link_open":
            href = str(c.attrs.get("href") or "")
            target = href if re.match(r"^(?:https?|mailto|ftp):", href, re.IGNORECASE) else None
            start = len(out)
        elif c.type == "link_close":
            shown = "".join(out[start:]).strip()
            if target and target not in shown:
                out.append(f" ({target})")
            target = None
        elif c.type in ("text", "code_inline"):
            out.append(c.content)
        elif c.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif c.type == "image":
            out.append(c.content)
    return " ".join("".join(out).split())


def _pseudo_heading(inline: Token) -> str | None:
    """The text of a paragraph that is bold as a whole and short enough to be a heading."""
    kids = [c for c in inline.children or [] if not (c.type == "text" and not c.content.strip())]
    if len(kids) < 3 or kids[0].type != "strong_open" or kids[-1].type != "strong_close":
        return None
    if any(c.type in ("strong_open", "strong_close") for c in kids[1:-1]):
        return None  # **a** and **b**: two bold spans, not one heading
    text = inline_text(inline)
    _, title = split_heading(text)
    if not text or len(text) > _PSEUDO_MAX_CHARS or re.search(r"[.!?]\s+\S", title):
        return None  # one sentence at most: a bold sentence followed by another is emphasis
    return text.rstrip(":").strip() if not re.fullmatch(r"[\d.]+", text) else text


class _Walker:
    def __init__(self) -> None:
        self.title: str | None = None
        self.sections: list[Section] = []
        self.intro = Section(title="Introduction")
        self.current = self.intro
        self.heading_level = 1  # level of the last real heading
        self.open: list[tuple[int, str]] = []  # (level, heading) of the sections now open
        self.pending_scope: str | None = None
        self.lists: list[tuple[str, int]] = []  # (kind, next number) per open list
        self.item_depth = 0  # depth of the current top-level list item
        self.clauses = ClauseDepth()

    def start_section(self, level: int, text: str) -> None:
        self.flush_scope()
        number, title = split_heading(text)
        while self.open and self.open[-1][0] >= level:
            self.open.pop()
        heading = f"{number} {title}" if number else title
        path = (*(h for _, h in self.open), heading)
        self.open.append((level, heading))
        self.current = Section(title=title, number=number, level=level, path=path)
        self.sections.append(self.current)
        self.clauses = ClauseDepth()

    def add(self, element) -> None:
        self.current.elements.append(element)

    def flush_scope(self) -> None:
        if self.pending_scope is not None:  # a Scope: line not followed by a table is text
            self.add(Paragraph(f"Scope: {self.pending_scope}"))
            self.pending_scope = None

    def paragraph(self, text: str) -> None:
        self.flush_scope()
        text = admonition(text)
        if not text:
            return
        if self.lists:
            kind, n = self.lists[-1]
            marker = f"{n}." if kind == "ordered" else "-"
            self.lists[-1] = (kind, n + 1)
            if len(self.lists) == 1:  # a top-level item is a clause like "1." or "(a)" written out
                self.item_depth = self.clauses.of(f"{marker} {text}")
                depth = self.item_depth
            else:
                depth = self.item_depth + len(self.lists) - 1
            indent = "  " * (len(self.lists) - 1)
            self.add(Paragraph(f"{indent}{marker} {text}", depth=depth))
            return
        self.add(Paragraph(text, depth=self.clauses.of(text)))


def parse_tokens(tokens: list[Token]) -> tuple[str | None, list[Section]]:
    """Body tokens → (document title from the first `# `, sections)."""
    w = _Walker()
    i = 0
    item_started: list[bool] = []
    while i < len(tokens):
        t = tokens[i]
        kind = t.type
        if kind == "heading_open":
            text = inline_text(tokens[i + 1])
            level = int(t.tag[1])
            if level == 1 and w.title is None and not w.sections and not w.intro.elements:
                w.title = text
            elif text:
                w.heading_level = level
                w.start_section(level, text)
            i += 3
            continue
        if kind in ("bullet_list_open", "ordered_list_open"):
            start = int(t.attrs.get("start", 1)) if kind == "ordered_list_open" else 1
            w.lists.append(("ordered" if kind == "ordered_list_open" else "bullet", start))
        elif kind in ("bullet_list_close", "ordered_list_close"):
            w.lists.pop()
        elif kind == "list_item_open":
            item_started.append(False)
        elif kind == "list_item_close":
            item_started.pop()
        elif kind == "paragraph_open":
            inline = tokens[i + 1]
            i = _paragraph(w, tokens, i, inline, item_started)
            continue
        elif kind == "dt_open":
            i = _definition(w, tokens, i)
            continue
        elif kind in ("fence", "code_block"):
            w.flush_scope()
            fence = t.markup if kind == "fence" else "```"
            body = t.content.rstrip("\n")
            depth = w.item_depth + len(w.lists) if w.lists else w.clauses.of("")
            w.add(Paragraph(f"{fence}{t.info.strip()}\n{body}\n{fence}", depth=depth, code=True))
        elif kind == "html_block":
            w.paragraph(history_note(t.content) or html_text(t.content))
        elif kind == "table_open":
            i = _table(w, tokens, i)
            continue
        elif kind == "hr":
            w.flush_scope()
        i += 1
    w.flush_scope()
    if w.intro.elements:
        w.sections.insert(0, w.intro)
    return w.title, [s for s in w.sections if s.elements]


def _definition(w: _Walker, tokens: list[Token], i: int) -> int:
    """A definition-list term and its definitions as one paragraph ("term: definitions");
    returns the index after them."""
    term = inline_text(tokens[i + 1])
    j, defs = i + 3, []
    while j < len(tokens) and tokens[j].type == "dd_open":
        k = j + 1
        while tokens[k].type != "dd_close":
            if tokens[k].type == "inline":
                defs.append(inline_text(tokens[k]))
            k += 1
        j = k + 1
    w.paragraph(f"{term}: {' '.join(defs)}" if defs else term)
    return j


def _paragraph(w: _Walker, tokens: list[Token], i: int, inline: Token,
               item_started: list[bool]) -> int:
    """One paragraph (tokens[i] is its paragraph_open) → heading, scope, figure or text."""
    nxt = i + 3
    in_item_continuation = bool(item_started) and item_started[-1]
    if item_started:
        item_started[-1] = True
    heading = None if w.lists else _pseudo_heading(inline)
    if heading:
        number, _ = split_heading(heading)
        depth = number.count(".") + 1 if number else 1
        w.start_section(w.heading_level + depth, heading)
        return nxt
    kids = [c for c in inline.children or [] if not (c.type == "text" and not c.content.strip())]
    if kids and kids[0].type == "image":
        return _figure(w, tokens, nxt, kids)
    text = inline_text(inline)
    scope = _SCOPE.match(text)
    if scope and not w.lists and nxt < len(tokens) and tokens[nxt].type == "table_open":
        w.flush_scope()
        w.pending_scope = scope.group(1).strip()
        return nxt
    if in_item_continuation:  # a second paragraph of one list item: same depth, no marker
        w.flush_scope()
        depth = w.item_depth + len(w.lists)
        w.add(Paragraph("  " * len(w.lists) + text, depth=depth))
        return nxt
    w.paragraph(text)
    return nxt


def _figure(w: _Walker, tokens: list[Token], nxt: int, kids: list[Token]) -> int:
    image = kids[0]
    rest = " ".join(c.content for c in kids[1:] if c.type == "text").strip()
    description, page = None, None
    m = _FIG_DESC.match(rest)
    if m:
        description = m.group(1).strip()
    elif _next_paragraph(tokens, nxt, _FIG_DESC):
        described = _FIG_DESC.match(inline_text(tokens[nxt + 1]))
        description = described.group(1).strip() if described else None
        nxt += 3
    if _next_paragraph(tokens, nxt, _PAGE):
        paged = _PAGE.match(inline_text(tokens[nxt + 1]))
        page = int(paged.group(1)) if paged else None
        nxt += 3
    w.flush_scope()
    w.add(Figure(caption=image.content.strip(), image=str(image.attrs.get("src") or "") or None,
                 description=description, page=page))
    return nxt


def _next_paragraph(tokens: list[Token], j: int, pattern: re.Pattern) -> bool:
    return (j + 1 < len(tokens) and tokens[j].type == "paragraph_open"
            and bool(pattern.match(inline_text(tokens[j + 1]))))


def _table(w: _Walker, tokens: list[Token], i: int) -> int:
    header: list[str] = []
    rows: list[list[str]] = []
    row: list[str] = []
    in_head = False
    j = i + 1
    while tokens[j].type != "table_close":
        t = tokens[j]
        if t.type in ("thead_open", "thead_close"):
            in_head = t.type == "thead_open"
        elif t.type == "tr_open":
            row = []
        elif t.type == "inline":
            row.append(inline_text(t))
        elif t.type == "tr_close":
            if in_head:
                header = row
            else:
                rows.append(row)
        j += 1
    w.add(Table(header=tuple(header), rows=tuple(tuple(r) for r in rows), scope=w.pending_scope))
    w.pending_scope = None
    return j + 1


def parse_markdown(text: str, path: str) -> tuple[dict, str | None, list[Section]]:
    """A Markdown file's text → (raw metadata, document title, sections)."""
    raw, tokens = split_front_matter(text, path)
    title, sections = parse_tokens(tokens)
    return raw, title, sections

"""HTML inside Markdown, read in one linear pass: a page's own history notes (`<!-- YAML
added: v14.2.0 … -->`, as Node.js and other API references write them) become one line of
text, and other HTML remnants lose their tags and keep their text. A comment runs to the end of
the file in CommonMark, so no paragraph cap bounds what these read: each opening is looked at
once, and an unclosed comment is text."""

from __future__ import annotations

import html as html_lib
import re

from situated.loaders.meta import MetaProblems, load_yaml_mapping

MAX_NOTE_CHARS = 20_000  # a history note is searched for its end this far, no further
_NOTE_KINDS = ("added", "deprecated", "removed")
MAX_NOTES = 20


def history_note(html: str) -> str | None:
    """A page's own history note (`<!-- YAML added: v14.2.0 deprecated: v16.0.0 changes: … -->`,
    as Node.js and other API references write them) as one line of the section's text:
    "History: added in v14.2.0; deprecated in v16.0.0; changed in v18.0.0 (…).", kept as data
    the first-appearance answer reads (`chains.versions.appearance.history_notes`); None when the block
    is no such note (it is dropped as HTML, as before)."""
    body = _yaml_note(html)
    if body is None:
        return None
    try:  # bounded like front matter: no anchors or aliases, a size limit
        raw = load_yaml_mapping(body, "history note")
    except MetaProblems:
        return None
    said = []
    for kind in _NOTE_KINDS:
        for v in _strings(raw.get(kind)):
            said.append(f"{kind} in {v}")
    for change in raw.get("changes") or [] if isinstance(raw.get("changes"), list) else []:
        if isinstance(change, dict):
            why = " ".join(str(change.get("description") or "").split())[:200]
            said += [f"changed in {v}" + (f" ({why})" if why else "")
                     for v in _strings(change.get("version"))]
    return f"History: {'; '.join(said[:MAX_NOTES])}." if said else None


def _strings(value) -> list[str]:
    values = value if isinstance(value, list) else [value] if value else []
    return [" ".join(str(v).split())[:40] for v in values if isinstance(v, str) and v.strip()]


def _yaml_note(html: str) -> str | None:
    """The body of the first `<!-- YAML … -->` comment: every `<!--` is looked at once and
    the end of the first YAML one searched for once, within `MAX_NOTE_CHARS` (a regex over
    many unclosed openings was quadratic). An unclosed note is no note."""
    at = html.find("<!--")
    while at >= 0:
        head = html[at + 4:at + 4 + 200].lstrip()
        if head.startswith("YAML") and not (head[4:5].isalnum() or head[4:5] == "_"):
            start = html.index("YAML", at) + 4
            end = html.find("-->", start, start + MAX_NOTE_CHARS)
            return None if end < 0 else html[start:end]
        at = html.find("<!--", at + 4)
    return None


# what an HTML remnant holds besides text: a tag, a declaration, a processing instruction
_MARKUP = re.compile(r"""<(/?)([A-Za-z][A-Za-z0-9:-]*)(?:\s(?:[^<>"']|"[^"]*"|'[^']*')*)?/?>"""
                     r"|<![^<>]*>|<\?[^<>]*>")
_HIDDEN = ("script", "style")
_BREAKS = ("br", "p", "div", "li", "tr", "td", "th")


def _without_comments(html: str) -> str:
    """`html` without its comments, in one pass; an unclosed `<!--` is text."""
    out, at = [], 0
    while (start := html.find("<!--", at)) >= 0:
        end = html.find("-->", start + 4)
        if end < 0:
            break
        out.append(html[at:start])
        at = end + 3
    out.append(html[at:])
    return "".join(out)


def html_text(html: str) -> str:
    """The text of an HTML remnant, tags and comments dropped (and what `<script>` and
    `<style>` hold), entities read, whitespace collapsed; linear in the remnant's length
    (`html.parser` was quadratic over many unclosed comments or instructions)."""
    text = _without_comments(html)
    parts, hidden, at = [], 0, 0
    for m in _MARKUP.finditer(text):
        if not hidden:
            parts.append(text[at:m.start()])
        at = m.end()
        tag, closing = m.group(2), bool(m.group(1))
        if tag is None:
            continue
        tag = tag.lower()
        if tag in _HIDDEN:
            hidden = max(0, hidden - 1) if closing else hidden + 1
        elif tag in _BREAKS and not closing and not hidden:
            parts.append(" ")
    if not hidden:
        parts.append(text[at:])
    return " ".join(html_lib.unescape("".join(parts)).split())


__all__ = ["MAX_NOTE_CHARS", "history_note", "html_text"]

"""Parsed JSON (the output of an external layout parser) → `Section`s.

Schema (documented in docs/reference.md):

    {"metadata": {<front-matter keys>},
     "sections": [{"number": "2", "title": "Charging", "page": 3,
                   "elements": [
                     {"type": "paragraph", "text": "...", "page": 3},
                     {"type": "table", "scope": "...", "header": ["Code", ...],
                      "rows": [["E-1", ...]], "page": 4},
                     {"type": "figure", "caption": "Figure 1. ...", "image": "f.png",
                      "description": "...", "page": 4},
                     {"type": "slide", "text": "..."}]}]}

`metadata` may instead live in a sidecar `NAME.json.meta.yaml`. A `slide` element is read as a
paragraph; give `metadata.kind: slides` to make each section one slide.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from situated.loaders.forms import Figure, Paragraph, Section, Table
from situated.loaders.meta import (
    MAX_HEADING_CHARS,
    MAX_META_BYTES,
    MetaProblems,
    load_yaml_mapping,
)
from situated.loaders.reading import decoded


def _stringify(raw: Any) -> Any:
    """Metadata from JSON gets the same all-strings treatment as YAML front matter."""
    if isinstance(raw, dict):
        return {str(k): _stringify(v) for k, v in raw.items()}
    if isinstance(raw, list):
        return [_stringify(v) for v in raw]
    return None if raw is None else str(raw)


def _page(value: Any, where: str, problems: list[str]) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and value >= 1:
        return value
    problems.append(f"{where}: page must be a positive integer, got {value!r}")
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _text(value: Any, ew: str, field: str, problems: list[str],
          optional: bool = False) -> str | None:
    """A string field of an element, or None with the problem noted (a lone surrogate, from a
    `\\ud800` escape, is not text and would fail where it is stored)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        problems.append(f"{ew}: {field} must be text, got {str(value)[:40]!r}")
        return None
    if _SURROGATE.search(value):
        problems.append(f"{ew}: {field} holds a lone surrogate (an escape such as \\ud800 that "
                        "is no character); remove it or write the character itself")
        return None
    return value


def _rows(rows: list, ew: str, problems: list[str]) -> tuple[tuple[str, ...], ...] | None:
    """Table rows: lists of cells, each a scalar."""
    if not all(isinstance(r, list) and all(c is None or isinstance(c, (str, int, float))
                                           for c in r) for r in rows):
        problems.append(f"{ew}: rows must be lists of text or number cells, got "
                        f"{str(rows)[:60]!r}")
        return None
    out = tuple(tuple("" if c is None else str(c) for c in r) for r in rows)
    return out if all(_text(c, ew, "a cell", problems) is not None for r in out for c in r) \
        else None


def _element(el, ew: str, problems: list[str]):
    """One element of a section (a paragraph or slide, a table, a figure), or None with the
    problem noted."""
    if not isinstance(el, dict):
        problems.append(f"{ew}: an element must be an object, got {str(el)[:40]!r}")
        return None
    kind, page = el.get("type"), _page(el.get("page"), ew, problems)
    if kind in ("paragraph", "slide") and "text" in el:
        text = _text(el["text"], ew, "text", problems)
        return None if text is None else Paragraph(text=text.strip(), page=page)
    if kind == "table" and isinstance(el.get("header"), list) and isinstance(
            el.get("rows"), list):
        header = _rows([el["header"]], ew, problems)
        rows = _rows(el["rows"], ew, problems)
        scope = _text(el.get("scope"), ew, "scope", problems, optional=True)
        if header is None or rows is None or (el.get("scope") is not None and scope is None):
            return None
        return Table(header=header[0], rows=rows, scope=scope, page=page)
    if kind == "figure" and "caption" in el:
        texts = [_text(el.get(k), ew, k, problems, optional=k != "caption")
                 for k in ("caption", "image", "description")]
        if texts[0] is None or any(t is None and el.get(k) is not None
                                   for t, k in zip(texts, ("caption", "image", "description"),
                                                   strict=True)):
            return None
        return Figure(caption=texts[0], image=texts[1], description=texts[2], page=page)
    problems.append(
        f"{ew}: unknown or incomplete element {str(el)[:80]!r}; expected type "
        "paragraph/slide (text), table (header, rows) or figure (caption)"
    )
    return None


class _Repeated(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each given once (`json.loads`' hook)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Repeated(key)
        out[key] = value
    return out


def _metadata(path: Path, data: dict, side_raw: bytes | None) -> dict:
    """The document's raw metadata: its `metadata` object, else its sidecar's (`side_raw`)."""
    side = path.with_name(path.name + ".meta.yaml")
    if isinstance(data.get("metadata"), dict):
        size = len(json.dumps(data["metadata"], ensure_ascii=False).encode("utf-8"))
        if size > MAX_META_BYTES:
            raise MetaProblems([f"{path}: metadata is {size:,} bytes, over the "
                                f"{MAX_META_BYTES:,} allowed; metadata holds keys, not content"])
        return _stringify(data["metadata"])
    if side_raw is not None:
        return load_yaml_mapping(decoded(side_raw, side), str(side))
    raise MetaProblems([
        (f"{path}: no metadata; add a `metadata` object with at least `source_id` or a "
        f"sidecar {side.name}")
    ])


def parse_json(path: Path, content: bytes, side_raw: bytes | None,
               ) -> tuple[dict, str | None, list[Section], list[str]]:
    """(raw metadata, title, sections, warnings) from the file's bytes `content` and its
    sidecar's `side_raw` (None: none), each read once by the caller; raises `MetaProblems`
    naming the bad element."""
    try:
        data = json.loads(decoded(content, path), object_pairs_hook=_once)
    except _Repeated as exc:
        raise MetaProblems([f"{path}: key {exc.key[:80]!r} is given twice in one object; keep "
                            "one (JSON readers would silently use the last)"]) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MetaProblems([f"{path}: not valid JSON ({exc})"]) from None
    if not isinstance(data, dict) or not isinstance(data.get("sections"), list):
        raise MetaProblems([
            (f"{path}: parsed JSON must be an object with a `sections` list (see docs/reference.md "
            "'Parsed JSON schema')")
        ])
    raw_meta = _metadata(path, data, side_raw)
    problems: list[str] = []
    warnings: list[str] = []
    sections: list[Section] = []
    for s_i, raw in enumerate(data["sections"]):
        where = f"{path}: sections[{s_i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("elements", []), list):
            problems.append(f"{where} must be an object with an `elements` list")
            continue
        number = raw.get("number")
        number = None if number in (None, "") else str(number)
        title = str(raw.get("title") or f"Section {s_i + 1}")
        whole = None
        if len(title) > MAX_HEADING_CHARS:  # a heading is a title: cut, the text kept
            warnings.append(f"{where}: a title of {len(title):,} characters, over the "
                            f"{MAX_HEADING_CHARS} a heading may have, is cut in the heading "
                            "and kept as the section's first paragraph; shorten it")
            whole, title = title, title[:MAX_HEADING_CHARS - 1].rstrip() + "…"
        sec = Section(title=title, number=number, page=_page(raw.get("page"), where, problems),
                      path=(f"{number} {title}" if number else title,))  # as a heading reads
        if whole is not None:
            sec.elements.append(Paragraph(text=whole, page=sec.page))
        for e_i, el in enumerate(raw.get("elements", [])):
            ew = f"{where}.elements[{e_i}]"
            element = _element(el, ew, problems)
            if element is not None:
                sec.elements.append(element)
        if sec.elements:
            sections.append(sec)
    if problems:
        raise MetaProblems(problems)
    return raw_meta, data.get("title"), sections, warnings

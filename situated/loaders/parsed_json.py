"""Parsed JSON (the output of an external layout parser) → `Section`s.

Schema (documented in the README):

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
from pathlib import Path
from typing import Any

from situated.loaders.forms import Figure, Paragraph, Section, Table
from situated.loaders.meta import MetaProblems, load_yaml_mapping


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


def _element(el, ew: str, problems: list[str]):
    """One element of a section (a paragraph or slide, a table, a figure), or None with the
    problem noted."""
    kind = el.get("type") if isinstance(el, dict) else None
    page = _page(el.get("page"), ew, problems) if isinstance(el, dict) else None
    if kind in ("paragraph", "slide") and isinstance(el.get("text"), str):
        return Paragraph(text=el["text"].strip(), page=page)
    if kind == "table" and isinstance(el.get("header"), list) and isinstance(
            el.get("rows"), list):
        return Table(header=tuple(str(h) for h in el["header"]),
                     rows=tuple(tuple(str(c) for c in row) for row in el["rows"]),
                     scope=el.get("scope"), page=page)
    if kind == "figure" and isinstance(el.get("caption"), str):
        return Figure(caption=el["caption"], image=el.get("image"),
                      description=el.get("description"), page=page)
    problems.append(
        f"{ew}: unknown or incomplete element {str(el)[:80]!r}; expected type "
        "paragraph/slide (text), table (header, rows) or figure (caption)"
    )
    return None


def parse_json(path: Path) -> tuple[dict, str | None, list[Section]]:
    """(raw metadata, title, sections); raises `MetaProblems` naming the bad element."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MetaProblems([f"{path}: not valid JSON ({exc})"]) from None
    if not isinstance(data, dict) or not isinstance(data.get("sections"), list):
        raise MetaProblems([
            (f"{path}: parsed JSON must be an object with a `sections` list (see README "
            "'Parsed JSON schema')")
        ])
    side = path.with_name(path.name + ".meta.yaml")
    if isinstance(data.get("metadata"), dict):
        raw_meta = _stringify(data["metadata"])
    elif side.exists():
        raw_meta = load_yaml_mapping(side.read_text(encoding="utf-8"), str(side))
    else:
        raise MetaProblems([
            (f"{path}: no metadata; add a `metadata` object with at least `source_id` or a "
            f"sidecar {side.name}")
        ])
    problems: list[str] = []
    sections: list[Section] = []
    for s_i, raw in enumerate(data["sections"]):
        where = f"{path}: sections[{s_i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("elements", []), list):
            problems.append(f"{where} must be an object with an `elements` list")
            continue
        number = raw.get("number")
        sec = Section(
            title=str(raw.get("title") or f"Section {s_i + 1}"),
            number=None if number in (None, "") else str(number),
            page=_page(raw.get("page"), where, problems),
        )
        for e_i, el in enumerate(raw.get("elements", [])):
            ew = f"{where}.elements[{e_i}]"
            element = _element(el, ew, problems)
            if element is not None:
                sec.elements.append(element)
        if sec.elements:
            sections.append(sec)
    if problems:
        raise MetaProblems(problems)
    return raw_meta, data.get("title"), sections

"""Output parser: `[S1]` → `[WARR-R2, section 2](/documents/WARR-R2#section-2)`.

Any label that was not in the prompt withholds the whole answer and names the unknown labels.
An answer with no label at all is withheld too: every statement must point at a source the
model was given, and an uncited answer cannot be checked (a model that finds no answer should
say so, and the app reports that as withheld with the reason). So is one that is labels and
nothing else (`[S3] [S4]`, a small model's habit): it states nothing to check.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from langchain_core.output_parsers import BaseOutputParser
from pydantic import ConfigDict

from situated.chains.contract import Citation, Evidence, Status
from situated.chains.say.wording import Lang, fixed
from situated.loaders.neutralise import LABEL_LETTER, defang_links, escape_html

# every form a model may write a label in: [S1], [S1, S2], [S1–S3], (S1), [s1], and a bare S1
# next to punctuation ("… applies S1."); a range is read as every label in it
_NUM = rf"{LABEL_LETTER}\d+"
_GROUP = re.compile(
    rf"[\[(]\s*({_NUM}(?:\s*(?:[,;]|[–—-]|\bto\b|\band\b)\s*(?:[Ss])?\d+)*)\s*[\])]")
_BARE = re.compile(rf"(?<![\w\[(\u2060-])({_NUM})(?=[.,;:!?)\]]|\s*$)")
_PART = re.compile(r"([Ss])?(\d+)")
_RANGE = re.compile(r"([Ss]?\d+)\s*[–—-]\s*([Ss]?\d+)|([Ss]?\d+)\s+to\s+([Ss]?\d+)")


def _part_number(label: str) -> int:
    """The number of a label the range pattern matched ("S12" → 12)."""
    part = _PART.search(label)
    if part is None:
        raise ValueError(f"{label!r} matched as a label but holds no number")
    return int(part.group(2))


def _labels(group: str) -> list[str]:
    """`S1–S3, s5` → [S1, S2, S3, S5]."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    for m in _RANGE.finditer(group):
        a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        lo, hi = _part_number(a), _part_number(b)
        if lo <= hi <= lo + 50:
            out += [f"S{n}" for n in range(lo, hi + 1)]
        else:
            out += [f"S{lo}", f"S{hi}"]
        spans.append(m.span())
    rest = "".join(ch if not any(s <= i < e for s, e in spans) else " "
                   for i, ch in enumerate(group))
    out += [f"S{int(m.group(2))}" for m in _PART.finditer(rest)]
    return list(dict.fromkeys(out))


def safe_text(text: str) -> str:
    """A model's answer as text only: HTML escaped, a link it wrote shown as text."""
    return defang_links(escape_html(text))


@dataclass(frozen=True)
class Parsed:
    status: Status
    answer: str
    citations: list[Citation]
    unknown: list[str]


def link_text(text: str) -> str:
    """`text` as the visible text of a link made by code, every Markdown-active character
    escaped (a section "number" from a parsed-JSON file, a source id, is any text)."""
    return re.sub(r"([\\`*_{}\[\]()<>#!|])", r"\\\1", text)


def _anchor_text(e: Evidence) -> str:
    return link_text(f"{e.source_id}, section {e.section}" if e.section else e.source_id)


def parse_citations(text: str, evidence: list[Evidence], links: Mapping[str, str],
                    lang: Lang = Lang.EN) -> Parsed:
    """`text`'s labels → links (`links`: block id → its link); withheld (in `lang`) when a
    label is unknown or none is used."""
    by_label = {e.label: e for e in evidence}
    text = safe_text(text)
    found: list[tuple[int, int, list[str]]] = []  # (start, end, labels) of every label form
    for m in _GROUP.finditer(text):
        found.append((m.start(), m.end(), _labels(m.group(1))))
    for m in _BARE.finditer(text):
        if not any(s <= m.start() < e for s, e, _ in found):
            found.append((m.start(), m.end(), [m.group(1).upper()]))
    found.sort()
    used: list[str] = []
    unknown: list[str] = []
    for _, _, labels in found:
        for label in labels:
            target = used if label in by_label else unknown
            if label not in target:
                target.append(label)
    if unknown:
        return Parsed(Status.WITHHELD,
                      fixed("withheld_unknown", lang, labels=", ".join(unknown)), [], unknown)
    if not used:
        return Parsed(Status.WITHHELD, fixed("withheld_uncited", lang), [], [])
    if not _says_something(text, found):  # "[S3] [S4]": labels, no statement to check
        return Parsed(Status.WITHHELD, fixed("withheld_empty", lang), [], [])

    def link(label: str) -> str:
        e = by_label[label]
        return f"[{_anchor_text(e)}]({links[e.block_id]})"

    parts, last = [], 0
    for start, end, labels in found:  # only the parser makes links
        before = text[last:start]
        if before.endswith("!"):  # "![link](…)" would render the parser's link as an image
            before = before[:-1] + "\\!"
        parts += [before, " ".join(link(lb) for lb in labels)]
        last = end
    rendered = "".join([*parts, text[last:]])
    citations = [
        Citation(label=lb, source_id=by_label[lb].source_id, section=by_label[lb].section,
                 link=links[by_label[lb].block_id])
        for lb in used
    ]
    return Parsed(Status.ANSWERED, rendered, citations, [])


def _says_something(text: str, found: list[tuple[int, int, list[str]]]) -> bool:
    """Whether `text`, its labels taken out, holds a word (two letters or more in a row)."""
    rest, last = [], 0
    for start, end, _ in found:
        rest.append(text[last:start])
        last = end
    rest.append(text[last:])
    return re.search(r"[^\W\d_]{2,}", " ".join(rest)) is not None


class CitationParser(BaseOutputParser[Parsed]):
    """The citation check as a LangChain output parser, bound to one prompt's evidence:
    `CitationParser(evidence=..., links=...).invoke(reply)` → `Parsed` (a chat message or its
    text). Composes after a chat model like any stock parser."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    evidence: list[Evidence]
    links: dict[str, str]  # block id → the link a citation of it points at
    lang: Lang = Lang.EN  # the question's: the withheld message is written in it

    def parse(self, text: str) -> Parsed:
        return parse_citations(text, self.evidence, self.links, self.lang)

    @property
    def _type(self) -> str:
        return "situated_citations"

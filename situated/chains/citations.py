"""Output parser: `[S1]` → `[WARR-R2, section 2](/documents/WARR-R2#section-2)`.

Any label that was not in the prompt withholds the whole answer and names the unknown labels.
An answer with no label at all is withheld too: every statement must point at a source the
model was given, and an uncited answer cannot be checked (a model that finds no answer should
say so, and the app reports that as withheld with the reason).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from situated.chains.contract import Citation, Evidence, Status
from situated.index.reader import Index

_LABEL_GROUP = re.compile(r"\[((?:S\d+)(?:\s*[,;]\s*S\d+)*)\]")
_LABEL = re.compile(r"S\d+")


@dataclass(frozen=True)
class Parsed:
    status: Status
    answer: str
    citations: list[Citation]
    unknown: list[str]


def _anchor_text(e: Evidence) -> str:
    return f"{e.source_id}, section {e.section}" if e.section else e.source_id


def parse_citations(text: str, evidence: list[Evidence], index: Index) -> Parsed:
    by_label = {e.label: e for e in evidence}
    used: list[str] = []
    unknown: list[str] = []
    for group in _LABEL_GROUP.finditer(text):
        for label in _LABEL.findall(group.group(1)):
            target = used if label in by_label else unknown
            if label not in target:
                target.append(label)
    if unknown:
        return Parsed(Status.WITHHELD,
                      "The answer was withheld: it cites sources that were not given to the "
                      f"model ({', '.join(unknown)}).", [], unknown)
    if not used:
        return Parsed(Status.WITHHELD,
                      "The answer was withheld: it cites no source, so it cannot be checked.",
                      [], [])

    def link(label: str) -> str:
        e = by_label[label]
        return f"[{_anchor_text(e)}]({index.blocks[e.block_id].link})"

    rendered = _LABEL_GROUP.sub(
        lambda m: " ".join(link(lb) for lb in _LABEL.findall(m.group(1))), text)
    citations = [
        Citation(label=lb, source_id=by_label[lb].source_id, section=by_label[lb].section,
                 link=index.blocks[by_label[lb].block_id].link)
        for lb in used
    ]
    return Parsed(Status.ANSWERED, rendered, citations, [])

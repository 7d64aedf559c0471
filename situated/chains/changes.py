"""What changed between two versions of a document, computed from their blocks (no changelog).

Each version is read as its quotable units (`loaders.sentences.evidence_units`: sentences and
table rows) in document order, each with the block and section path it stands in. The two unit
sequences are aligned whole (`difflib`, on each unit's *substance*), not section by section:
real pages repeat, rename and re-split sections, and a sentence that moved between two parts of
one section is no change, nor is the same text split into lines another way. A unit's substance is its words and numbers, lower-cased, without
dates, punctuation or markup, so versions that differ only in formatting or in the dates they
print ("Last updated: …") differ in nothing: "no change in substance". Numbers other than dates
count ("14 дней" → "30 дней" is a change).

The differing units are grouped by section into `SectionChange`s (`added`, `removed` or
`changed`), each naming the old and the new blocks that hold them, so an answer can cite the
old side and the new side with labels of their own.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from situated.documents import Block
from situated.loaders.neutralise import neutralise
from situated.loaders.sentences import evidence_units
from situated.modes import Mode

_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\b|"
    r"\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|"
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Za-zА-Яа-яЁё]{3,}\.?,?\s+\d{4}\b|"
    r"\b[A-Za-z]{3,}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b|"
    r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{4}\b",
    re.IGNORECASE)
_WORDS = re.compile(r"[^\W_]+", re.UNICODE)


def substance(text: str) -> tuple[str, ...]:
    """The words and numbers of `text` without its dates: what a change must touch to count.
    A line that is a date and a label ("Last updated: 3 March 2025", "Effective date: …") has
    none."""
    undated, dates = _DATE.subn(" ", text)
    words = tuple(_WORDS.findall(undated.lower()))
    return () if dates and len(words) <= 3 else words


class ChangeKind(Mode):
    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"


@dataclass
class SectionChange:
    """One section's differences: the units that left (`removed`, from `old_blocks`) and came
    (`added`, in `new_blocks`); `pairs` are removed/added units that replace one another, one
    for one (shown as a word change)."""

    kind: ChangeKind
    path: tuple[str, ...]
    old_blocks: list[str] = field(default_factory=list)
    new_blocks: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    pairs: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class _Unit:
    text: str  # neutralised, as an answer may quote it
    key: tuple[str, ...]
    block: Block


def _units(blocks: list[Block]) -> list[_Unit]:
    out = []
    for b in blocks:
        for text in evidence_units(neutralise(b.text)):
            key = substance(text)
            if key:
                out.append(_Unit(text, key, b))
    return out


def diff_blocks(old: list[Block], new: list[Block]) -> list[SectionChange]:
    """The sections that differ in substance between `old` and `new` (each a version's blocks
    in document order), in the new version's order; empty: no change in substance."""
    a, b = _units(old), _units(new)
    old_paths = {u.block.path for u in a}
    new_paths = {u.block.path for u in b}
    sections: dict[tuple[str, ...], SectionChange] = {}

    def section(path: tuple[str, ...]) -> SectionChange:
        if path not in sections:
            kind = (ChangeKind.ADDED if path not in old_paths else
                    ChangeKind.REMOVED if path not in new_paths else ChangeKind.CHANGED)
            sections[path] = SectionChange(kind, path)
        return sections[path]

    matcher = difflib.SequenceMatcher(None, [u.key for u in a], [u.key for u in b],
                                      autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        gone, came = a[i1:i2], b[j1:j2]
        if sum((u.key for u in gone), ()) == sum((u.key for u in came), ()):
            continue  # the same words, split into lines or sentences another way
        for u in gone:
            s = section(u.block.path)
            s.removed.append(u.text)
            _add(s.old_blocks, u.block.block_id)
        for u in came:
            s = section(u.block.path)
            s.added.append(u.text)
            _add(s.new_blocks, u.block.block_id)
        if op == "replace":
            for x, y in _replacing(gone, came):
                section(y.block.path).pairs.append((x.text, y.text))
    order = {p: i for i, p in enumerate(dict.fromkeys([u.block.path for u in b]))}
    return sorted(sections.values(), key=lambda s: order.get(s.path, -1))


def _replacing(gone: list[_Unit], came: list[_Unit]) -> list[tuple[_Unit, _Unit]]:
    """Removed and added units of one section that read as one sentence edited (in order, most
    words kept, at most three edits): shown as a word change rather than as two sentences."""
    out = []
    for path in dict.fromkeys(u.block.path for u in gone):
        olds = [u for u in gone if u.block.path == path]
        news = [u for u in came if u.block.path == path]
        for x, y in zip(olds, news, strict=False):
            m = difflib.SequenceMatcher(None, x.key, y.key, autojunk=False)
            edits = sum(op != "equal" for op, *_ in m.get_opcodes())
            if m.ratio() >= 0.5 and edits <= 3:
                out.append((x, y))
    return out


def _add(ids: list[str], block_id: str) -> None:
    if block_id not in ids:
        ids.append(block_id)


_TOKEN = re.compile(r"\S+")


def word_change(old: str, new: str, context: int = 3) -> str:
    """The words that differ between two sentences, with a little context:
    "в течение 14 → 30 дней с даты"; spans far apart are joined with "…"."""
    x, y = _TOKEN.findall(old), _TOKEN.findall(new)
    m = difflib.SequenceMatcher(None, [t.lower() for t in x], [t.lower() for t in y],
                                autojunk=False)
    ops = [o for o in m.get_opcodes() if o[0] != "equal"]
    parts: list[str] = []
    last = 0
    for n, (_, i1, i2, j1, j2) in enumerate(ops):
        start = max(i1 - context, last)
        if parts and start > last:
            parts.append("…")
        parts += x[start:i1]
        parts.append(f"{' '.join(x[i1:i2]) or '∅'} → {' '.join(y[j1:j2]) or '∅'}")
        stop = min(i2 + context, ops[n + 1][1] if n + 1 < len(ops) else len(x))
        parts += x[i2:stop]
        last = stop
    return " ".join(parts)


__all__ = ["ChangeKind", "SectionChange", "diff_blocks", "substance", "word_change"]

"""What changed between two versions of a document, computed from their blocks (no changelog).

Each version is read as its quotable units (`loaders.sentences.evidence_units`: sentences and
table rows) in document order, each with the block and section path it stands in. The two unit
sequences are aligned whole (`difflib`, on each unit's *substance*), not section by section:
real pages repeat, rename and re-split sections, and a sentence that moved between two parts of
one section is no change, nor is the same text split into lines another way; headings count
(a renamed section is a change). A unit's substance is its words and numbers, lower-cased,
without dates, punctuation or markup, so versions that differ only in formatting or in the
dates they print ("Last updated: …") differ in nothing: "no change in substance". Numbers other
than dates count ("14 дней" → "30 дней" is a change).

The differing units are grouped by section into `SectionChange`s (`added`, `removed` or
`changed`), each naming the old and the new blocks that hold them, so an answer can cite the
old side and the new side with labels of their own; for a pure addition the old side is the
block it was inserted into or after (and for a pure removal the new side likewise), so both
versions are always cited.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain

from situated.documents import Block
from situated.loaders.neutralise import neutralise
from situated.loaders.sentences import evidence_units
from situated.modes import Mode
from situated.substance import section_key, substance


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
    section: tuple[str, ...]  # `section_key(block.path)`, read once per block


_PART = re.compile(r"\s*\(part \d+ of \d+\)$")  # `loaders.forms`: a split section's parts


def _units(blocks: list[Block]) -> list[_Unit]:
    """Every block's heading (on its first part: a renamed section is a change) and its
    quotable units, in document order."""
    out = []
    for b in blocks:
        text = neutralise(b.text)
        heading = [_PART.sub("", text.splitlines()[0].lstrip("#").strip())] \
            if text and b.part == 1 else []
        section = section_key(b.path)
        for unit in [*heading, *evidence_units(text)]:
            key = substance(unit)
            if key:
                out.append(_Unit(unit, key, b, section))
    return out


def diff_blocks(old: list[Block], new: list[Block],
                unaligned: list[int] | None = None) -> list[SectionChange]:
    """The sections that differ in substance between `old` and `new` (each a version's blocks
    in document order), in the new version's order; empty: no change in substance.
    `unaligned`: gets the number of units compared by content when the pair was too long to
    align (`MAX_DIFF_WORK`), so the answer can say so."""
    a, b = _units(old), _units(new)
    old_paths = {u.section for u in a}
    new_paths = {u.section for u in b}
    sections: dict[tuple[str, ...], SectionChange] = {}
    where: dict[tuple[str, ...], tuple[int, int]] = {}  # a section's first differing place

    def section(unit: _Unit) -> SectionChange:
        if unit.section not in sections:
            key = unit.section
            kind = (ChangeKind.ADDED if key not in old_paths else
                    ChangeKind.REMOVED if key not in new_paths else ChangeKind.CHANGED)
            sections[key] = SectionChange(kind, unit.block.path)
        return sections[unit.section]

    ops = _differing([u.key for u in a], [u.key for u in b])
    if unaligned is not None and len(ops) == 1 and (ops[0][1] - ops[0][0]) * (
            ops[0][3] - ops[0][2]) > MAX_DIFF_WORK:
        unaligned.append(ops[0][1] - ops[0][0] + ops[0][3] - ops[0][2])
    moved = Counter(u.key for i1, i2, _, _ in ops for u in a[i1:i2]) & Counter(
        u.key for _, _, j1, j2 in ops for u in b[j1:j2])  # in both: moved, not changed
    moved_old, moved_new = moved.copy(), moved  # each side drops its own copies
    for i1, i2, j1, j2 in ops:
        gone = _unmoved(a[i1:i2], moved_old)
        came = _unmoved(b[j1:j2], moved_new)
        if _words(gone) == _words(came):
            continue  # the same words, split into lines or sentences another way
        for u in gone:
            s = section(u)
            s.removed.append(u.text)
            _add(s.old_blocks, u.block.block_id)
        for u in came:
            s = section(u)
            s.added.append(u.text)
            _add(s.new_blocks, u.block.block_id)
        for x, y in _replacing(gone, came):
            section(y).pairs.append((x.text, y.text))
        for u in [*gone, *came]:
            where.setdefault(u.section, (i1, j1))
    for key, s in sections.items():  # a side with no differing unit: where the change goes
        i, j = where[key]
        if not s.old_blocks and (anchor := _anchor(a, i, key)) is not None:
            s.old_blocks.append(anchor.block.block_id)
        if not s.new_blocks and (anchor := _anchor(b, j, key)) is not None:
            s.new_blocks.append(anchor.block.block_id)
    order = {p: i for i, p in enumerate(dict.fromkeys(u.section for u in b))}
    return sorted(sections.values(), key=lambda s: order.get(section_key(s.path), -1))


MAX_DIFF_WORK = 4_000_000  # units × units one alignment may compare (a pair of ~2,000 units)


def _differing(a: list, b: list) -> list[tuple[int, int, int, int]]:
    """The ranges where `a` and `b` differ, as (i1, i2, j1, j2). The common head and tail are
    cut first (linear); the middle is aligned by `difflib` (quadratic in the worst case: two
    long versions over a tiny vocabulary) only while its size allows, else it is one range —
    so the changes are read by content (what left, what came; a unit in both moved), which is
    what the alignment decides for a moved unit anyway."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    i2, j2 = len(a) - tail, len(b) - tail
    if head == i2 and head == j2:
        return []
    if (i2 - head) * (j2 - head) > MAX_DIFF_WORK:
        return [(head, i2, head, j2)]
    matcher = difflib.SequenceMatcher(None, a[head:i2], b[head:j2], autojunk=False)
    return [(head + x1, head + x2, head + y1, head + y2)
            for op, x1, x2, y1, y2 in matcher.get_opcodes() if op != "equal"]


def _unmoved(units: list[_Unit], moved: Counter) -> list[_Unit]:
    """`units` without those that also stand on the other side (a sentence that moved),
    spending `moved` as they are dropped."""
    out = []
    for u in units:
        if moved[u.key] > 0:
            moved[u.key] -= 1
            continue
        out.append(u)
    return out


def _anchor(units: list[_Unit], at: int, section: tuple[str, ...]) -> _Unit | None:
    """The unit beside position `at` of the other version: one of the same section if either
    neighbour is, else the one before (else after)."""
    near = [units[i] for i in (at - 1, at) if 0 <= i < len(units)]
    return next((u for u in near if u.section == section), near[0] if near else None)


def _words(units: list[_Unit]) -> list[str]:
    return list(chain.from_iterable(u.key for u in units))


def _replacing(gone: list[_Unit], came: list[_Unit]) -> list[tuple[_Unit, _Unit]]:
    """Removed and added units of one section that read as one sentence edited (in order, most
    words kept, at most three edits): shown as a word change rather than as two sentences.
    Grouped in one pass; all the word alignments of one diff together compare at most
    `MAX_DIFF_WORK` word pairs, and past that a sentence is shown whole (removed and added),
    which says the same change in more words (docs/design.md "Every answer path is bounded")."""
    news: dict[tuple[str, ...], list[_Unit]] = {}
    for u in came:
        news.setdefault(u.section, []).append(u)
    olds: dict[tuple[str, ...], list[_Unit]] = {}
    for u in gone:
        olds.setdefault(u.section, []).append(u)
    out, budget = [], MAX_DIFF_WORK
    for section, units in olds.items():
        for x, y in zip(units, news.get(section, ()), strict=False):
            work = len(x.key) * len(y.key)
            if work > MAX_DIFF_WORK // 16 or work > budget:
                continue  # a giant sentence, or the diff's budget spent: shown whole
            budget -= work
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


__all__ = ["ChangeKind", "SectionChange", "diff_blocks", "word_change"]

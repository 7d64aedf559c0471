"""Blocks that fit: a section longer than the block limit is split at its own structure.

The limit is in tokens of the budget's tokenizer and derived from the evidence allowance
(`Settings.block_limit`), so the best block can always be supplied. A section is a run of units
(paragraphs, list items, clauses, code) with a depth (`loaders.structure`). An oversized run is
cut first between its shallowest units (top-level clauses or list items with everything under
them), then one level deeper, and so on; a unit that opens with an exception ("unless",
"however", «кроме», «за исключением», …) is never cut from the unit before it unless the two do
not fit together; a single unit too large on its own is cut between sentences, and a sentence
too large between clauses and words (`loaders.sentences.fit_text`). Without a tokenizer (tests,
tools) the count is a conservative two characters per token.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from situated.loaders.sentences import fit_text, is_exception


def _approx_tokens(text: str) -> int:
    return len(text) // 2 + 1


@dataclass(frozen=True)
class BlockLimit:
    """Largest block in tokens of `count`; `piece_tokens` (when > 0) also bounds every piece by
    the same count — what the embedding model reads (MiniLM: 256 word pieces with its two
    special tokens), beside the 700-character bound pieces always have."""

    tokens: int = 1492
    count: Callable[[str], int] = field(default=_approx_tokens, compare=False)
    piece_tokens: int = 0

    def __post_init__(self) -> None:
        if self.tokens < 32:
            raise ValueError(f"the block limit must be at least 32 tokens, got {self.tokens}; "
                             "raise the window or lower the reserves")


@dataclass(frozen=True)
class Unit:
    """One paragraph, list item, clause or code block of a section, as the block will show it."""

    text: str
    depth: int = 0
    code: bool = False


_JOIN = 2  # the blank line between two units in a block


class _Packer:
    def __init__(self, budget: int, limit: BlockLimit):
        self.budget = budget
        self.limit = limit
        self._costs: dict[str, int] = {}

    def cost(self, units: list[Unit]) -> int:
        total = 0
        for u in units:
            if u.text not in self._costs:
                self._costs[u.text] = self.limit.count(u.text)
            total += self._costs[u.text] + _JOIN
        return total

    def fits(self, text: str) -> bool:
        return self.limit.count(text) + _JOIN <= self.budget

    def pack(self, units: list[Unit], level: int) -> list[list[str]]:
        if self.cost(units) <= self.budget:
            return [[u.text for u in units]]
        if len(units) == 1:
            return [[t] for t in self._split_unit(units[0])]
        deepest = max(u.depth for u in units)
        glue = level <= deepest + 1  # past the deepest level even a rule and its exception part
        cuts = [i for i in range(1, len(units))
                if (units[i].depth <= level or level > deepest)
                and not (glue and is_exception(units[i].text))]
        if not cuts:
            return self.pack(units, level + 1)
        segments = [units[a:b] for a, b in zip([0, *cuts], [*cuts, len(units)], strict=True)]
        groups: list[list[str]] = []
        current: list[Unit] = []
        for seg in segments:
            if self.cost(seg) > self.budget:
                if current:
                    groups.append([u.text for u in current])
                    current = []
                groups += self.pack(seg, level + 1)
                continue
            if current and self.cost(current) + self.cost(seg) > self.budget:
                groups.append([u.text for u in current])
                current = []
            current += seg
        if current:
            groups.append([u.text for u in current])
        return groups

    def _split_unit(self, unit: Unit) -> list[str]:
        if not unit.code:
            return fit_text(unit.text, self.fits)
        parts: list[str] = []  # code is cut between lines, never reflowed
        current: list[str] = []
        for line in unit.text.split("\n"):
            if current and not self.fits("\n".join([*current, line])):
                parts.append("\n".join(current))
                current = []
            if self.fits(line):
                current.append(line)
            else:
                parts += fit_text(line, self.fits)
        if current:
            parts.append("\n".join(current))
        return parts


def pack_units(heading: str, units: list[Unit], limit: BlockLimit) -> list[list[str]]:
    """Units → groups of unit texts; each group with the heading (and a "part k of n" note)
    stays within the limit."""
    note = " (part 99 of 99)"  # the longest note a part's heading can get
    budget = max(limit.tokens - limit.count(heading + note) - _JOIN, 16)
    return _Packer(budget, limit).pack(units, 0) if units else []

"""Blocks that fit: a section longer than the block limit is split at its own structure.

The limit is in tokens of the budget's tokenizer and derived from the evidence allowance
(`Settings.block_limit`), so the best block can always be supplied. A section is split between
paragraphs; a paragraph that opens with an exception ("unless", "except", "however", «кроме»,
«за исключением», «однако», …) stays in one block with the rule before it; a paragraph longer
than the limit on its own is split between sentences. Without a tokenizer (tests, tools) the
count is a conservative two characters per token.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"»”)]?\s+(?=[\"«“(\[]?[A-ZА-ЯЁ0-9])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|cf|no|nos|art|sec|para|p|pp|fig|mr|mrs|ms|dr|inc|ltd|co|corp|"
    r"approx|incl|т\.е|т\.д|т\.п|г|гг|ст|п|см|др)\.|\b[A-ZА-ЯЁ]\.|\b\d+(?:\.\d+)*\.)$",
    re.IGNORECASE)


def split_sentences(text: str) -> list[str]:
    """Sentences of English or Russian text; no break after "e.g.", "i.e.", «т.е.», initials or
    clause numbers ("1.1."), nor before a lower-case word."""
    out: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        head = text[start:m.start() + len(m.group(0).rstrip())].rstrip()
        if _ABBREVIATION.search(head.rstrip("\"»”)")):
            continue
        out.append(head.strip())
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out

_EXCEPTION = re.compile(
    r"^\W*(?:unless|except|excepting|however|but|notwithstanding|provided\s+that|"
    r"this\s+does\s+not\s+apply|кроме|за\s+исключением|однако|но\b|если\s+только|"
    r"это\s+не\s+распространяется)", re.IGNORECASE)


def _approx_tokens(text: str) -> int:
    return len(text) // 2 + 1


@dataclass(frozen=True)
class BlockLimit:
    tokens: int = 1492
    count: Callable[[str], int] = field(default=_approx_tokens, compare=False)

    def __post_init__(self) -> None:
        if self.tokens < 32:
            raise ValueError(f"the block limit must be at least 32 tokens, got {self.tokens}; "
                             "raise the window or lower the reserves")


def _split_paragraph(text: str, budget: int, limit: BlockLimit) -> list[str]:
    parts: list[str] = []
    current = ""
    for sentence in split_sentences(text):
        candidate = f"{current} {sentence}".strip()
        if current and limit.count(candidate) > budget:
            parts.append(current)
            current = sentence
        else:
            current = candidate
    if current:
        parts.append(current)
    # a single sentence longer than the budget is cut between words as a last resort
    out: list[str] = []
    for p in parts:
        while limit.count(p) > budget:
            words = p.split(" ")
            cut = max(1, len(words) // 2)
            head = " ".join(words[:cut])
            while cut > 1 and limit.count(head) > budget:
                cut = max(1, cut // 2)
                head = " ".join(words[:cut])
            out.append(head)
            p = " ".join(words[cut:])
        if p:
            out.append(p)
    return out


def group_paragraphs(heading: str, paragraphs: list[str], limit: BlockLimit) -> list[list[str]]:
    """Paragraphs → groups whose text (with the heading) stays within the limit."""
    budget = limit.tokens - limit.count(heading) - 4
    budget = max(budget, 16)
    units: list[str] = []
    for p in paragraphs:
        units += [p] if limit.count(p) <= budget else _split_paragraph(p, budget, limit)
    groups: list[list[str]] = []
    current: list[str] = []
    used = 0
    for unit in units:
        cost = limit.count(unit) + 2
        if current and used + cost > budget:
            # keep an exception with the rule before it when both fit together
            if _EXCEPTION.match(unit) and len(current) > 1:
                prev = current.pop()
                if limit.count(prev) + cost <= budget:
                    groups.append(current)
                    current, used = [prev], limit.count(prev) + 2
                else:
                    current.append(prev)
                    groups.append(current)
                    current, used = [], 0
            else:
                groups.append(current)
                current, used = [], 0
        current.append(unit)
        used += cost
    if current:
        groups.append(current)
    return groups

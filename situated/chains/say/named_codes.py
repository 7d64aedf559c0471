"""A code the question names leads the offline answer wherever the evidence holds it
(docs/design.md "A named code leads the answer"): a table row, a list item, an entry headed by
it (an error catalogue's `### ERR_X` and its paragraph), a sentence of prose. A long code the
evidence holds only under another code of its kind is never substituted ("What was fixed in
SPARK-31967?" never quotes SPARK-50987)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from situated.chains.say.entries import EntryFocus, entry_leads, units_of
from situated.documents import extract_codes
from situated.loaders.sentences import evidence_units


@dataclass(frozen=True)
class Focus:
    """What the named codes and entries decide: the units kept (rank, unit) and how each
    leads."""

    dropped: frozenset[tuple[int, str]]  # units never quoted: other rows, codes, entries
    # 3: the line of the named entry that carries the asked property (`chains.say.entries`);
    # 2: the unit holds the code; 1: its entry's heading does
    lead: dict[tuple[int, str], int]
    unheld: bool = False  # a long code no unit or heading holds: nothing answers
    entry: EntryFocus = field(default_factory=EntryFocus)

    def units(self, rank: int, body: str) -> list[str]:
        """The units block `rank` offers (its title too where that is the answer)."""
        return units_of(rank, body, self.entry)


def focus(question: str, evidence: list[tuple[str, str]]) -> Focus:
    """What the codes (`coded`) and the entries (`chains.say.entries`) the question names
    decide of `evidence`: the named entry leads, its property line first; other entries'
    units are never quoted in its place."""
    coded = _coded(question, evidence)
    leads = entry_leads(question, evidence, [evidence_units(body) for _, body in evidence])
    if not leads.lead and not leads.dropped:
        return coded
    lead = dict(coded.lead)
    for key, level in leads.lead.items():
        lead[key] = max(lead.get(key, 0), level)
    return Focus(coded.dropped | leads.dropped, lead, coded.unheld, leads.entry)


def _kind(code: str) -> str | None:
    """A long code's kind, the part before its number or name (`SPARK`, `ERR`, `CVE`); None
    for a short code (`E417`, `S2`: products and row ids, too common to exclude by)."""
    head = re.split(r"[-_]", code, maxsplit=1)[0]
    return head if head != code and len(code) > 6 else None


def _coded(question: str, evidence: list[tuple[str, str]]) -> Focus:
    """The units of `evidence` — (label, body) pairs — the question's codes keep, drop and
    put first. A code leads only where it picks units out: one most units name (a product's
    name) leads nothing."""
    named = extract_codes(question)
    if not named:
        return Focus(frozenset(), {})
    kinds = {k.casefold() for c in named if (k := _kind(c))}
    blocks = [(rank, body.split("\n", 1)[0], [(u, _codes(u)) for u in evidence_units(body)],
               _table_rows(body)) for rank, (_, body) in enumerate(evidence)]
    every = [codes for _, _, units, _ in blocks for _, codes in units]
    held = {c.casefold(): sum(c.casefold() in codes for codes in every) for c in named}
    # a long code leads where it picks units out; a short one (`E-417`, a product's `C-3`)
    # focuses table rows only: in prose it names the product as often as the thing asked
    picking = {c.casefold() for c in named
               if _kind(c) and held[c.casefold()] <= max(3, len(every) // 5)}
    dropped: set[tuple[int, str]] = set()
    lead: dict[tuple[int, str], int] = {}
    for rank, heading, units, rows in blocks:
        carrying = {u for u in rows if set(held) & _codes(u)}
        if carrying and carrying != rows:  # a row-focused answer: the other rows go
            dropped |= {(rank, u) for u in rows - carrying}
        entry = bool(picking & _codes(heading))
        for u, codes in units:
            if picking & codes:
                lead[(rank, u)] = 2
            elif not set(held) & codes and any((k := _kind(c.upper())) and k.casefold() in kinds
                                               for c in codes):
                dropped.add((rank, u))  # another code of the asked kind: never a substitute
            elif entry:
                lead.setdefault((rank, u), 1)
    unheld = any(_kind(c) and not held[c.casefold()] and not any(
        c.casefold() in _codes(h) for _, h, _, _ in blocks) for c in named)
    return Focus(frozenset(dropped), lead, unheld=unheld)


def _codes(text: str) -> set[str]:
    return {c.casefold() for c in extract_codes(text)}


def _table_rows(body: str) -> set[str]:
    """The units of a block that are rows of its tables (as `evidence_units` writes them)."""
    lines = body.split("\n")
    table = [line for line in lines[1:] if line.strip().startswith("|")]
    return set(evidence_units("\n".join([lines[0], *table]))) if table else set()


__all__ = ["Focus", "focus"]

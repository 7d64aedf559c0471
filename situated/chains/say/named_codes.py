"""A code the question names leads the offline answer wherever the evidence holds it
(docs/design.md "A named code leads the answer"): a table row, a list item, an entry headed by
it (an error catalogue's `### ERR_X` and its paragraph), a sentence of prose. A long code the
evidence holds only under another code of its kind is never substituted ("What was fixed in
SPARK-31967?" never quotes SPARK-50987)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from situated.chains.say.entries import (
    EntryFocus,
    defines,
    entry_focus,
    named_things,
    own_heading,
    property_lines,
    units_of,
)
from situated.documents import extract_codes
from situated.index.text import STOP_WORDS
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
    entry = entry_focus(question, evidence)
    names = named_things(question)
    defined = {(r, u) for r, (_, body) in enumerate(evidence) for u in evidence_units(body)
               if names and defines(u, names)}
    stating = property_lines(question, evidence) if not entry.entries else set()
    if not entry.entries and not defined and not stating:
        return coded
    dropped, lead = set(coded.dropped), dict(coded.lead)
    for key in stating:  # "after 5 seconds" for "the default timeout"
        lead[key] = max(lead.get(key, 0), 2)
    words = {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", question)
             if w.casefold() not in STOP_WORDS}
    for rank, unit in defined:  # the named thing's definition item leads, wherever it stands;
        # first where its section is the one the question names ("CORS" in CORSMiddleware)
        heading = evidence[rank][1].split("\n", 1)[0].casefold()
        own = {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", unit.split(" - ", 1)[0])}
        lead[(rank, unit)] = 3 if any(w in heading for w in words - own) else 2
    for rank, (_, body) in enumerate(evidence):
        if rank in entry.entries:
            for u in units_of(rank, body, entry):
                heading = body.split("\n", 1)[0]
                first = entry.carries(u) or entry.titled(rank, heading) and \
                    u == own_heading(heading)
                lead[(rank, u)] = max(lead.get((rank, u), 0), 3 if first else 1)
        elif rank in entry.others:
            dropped |= {(rank, u) for u in evidence_units(body)}
    return Focus(frozenset(dropped), lead, coded.unheld, entry)


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

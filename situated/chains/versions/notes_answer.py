"""What changed in a release, from its release notes (docs/design.md "Two kinds of versioned
family"): "What changed in 0.23.3?" naming no document, where the index holds release notes
for 0.23.3 (a changelog split per release, or notes documents), quotes those notes, each line
cited; and a line of notes alone is never diffed against itself (notes are not versions of one
text). No model call; only what the caller may read."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from situated.chains.budget import Budget
from situated.chains.contract import Answer, BudgetOut, Status
from situated.chains.say import assemble
from situated.chains.say import wording as w
from situated.chains.say.citations import parse_citations
from situated.chains.say.evidence import evidence_of, links_of, pack
from situated.chains.say.wording import Lang
from situated.documents import DocKind, DocumentMeta
from situated.index.versions import Versions
from situated.loaders.neutralise import inline
from situated.loaders.sentences import evidence_units
from situated.retrievers.filter import Filter
from situated.situation import Situation

MAX_NOTE_UNITS = 12  # lines of the notes quoted; the rest are counted


def notes_at(versions: Versions, readable: Filter, product: str | None,
             version: str | None) -> DocumentMeta | None:
    """The readable release notes of `version` (the latest notes when it is None)."""
    notes = [m for m in versions.released(readable, product)
             if m.kind is DocKind.NOTES and m.version is not None]
    if version is None:
        return notes[-1] if notes else None  # `released` is oldest first
    return next((m for m in notes if m.version == version), None)


def answer_notes(versions: Versions, meta: DocumentMeta, situation: Situation, lang: Lang,
                 readable: Filter, budget: Budget, shown: BudgetOut,
                 asked: Asked | None = None) -> Answer:
    """The notes' lines, in their order, each cited; its page chrome never (`index.template`).
    `asked`: what the question asks about: the lines that match it are quoted (`matching`),
    all of them when none does."""
    supplied = pack(versions.blocks_of(meta.source_id, readable), budget, versions.content)
    units = [(unit, s.evidence.label) for s in supplied
             for unit in evidence_units(s.evidence.text)]
    units = matching(units, asked)
    lines = [f"{unit} [{label}]" for unit, label in units[:MAX_NOTE_UNITS]]
    left = max(0, len(units) - MAX_NOTE_UNITS)
    if not lines:
        return assemble.unanswered(Status.NO_EVIDENCE, w.no_evidence_text(situation, lang),
                                 situation)
    head = w.fixed("notes_lead", lang, line=inline(meta.family or meta.source_id),
                   v=meta.version)
    tail = [w.fixed("notes_more", lang, n=left)] if left else []
    evidence = evidence_of(supplied)
    parsed = parse_citations("\n".join([head, *lines, *tail]), evidence, links_of(supplied),
                             lang)
    return assemble.cited(parsed.status, parsed.answer, parsed.citations, situation, evidence,
                          budget=shown.model_copy(update={"used": sum(e.tokens for e in evidence)}),
                  releases=[meta.version] if meta.version else [])


@dataclass(frozen=True)
class Asked:
    """What a notes question asks about: its terms, and the tokenizer that made them (a line's
    terms are read by the same one)."""

    terms: frozenset[str]
    tokenize: Callable[[str], list[str]]


def speaks_of(versions: Versions, meta: DocumentMeta, readable: Filter, asked: Asked) -> bool:
    """Some line of the notes `meta` (chrome aside) holds most of what is asked (two thirds
    of its terms: "the proxies argument" both words, never "default" alone for "the default
    timeout")."""
    need = max(1, math.ceil(2 * len(asked.terms) / 3))
    return bool(asked.terms) and any(
        len(set(asked.tokenize(u)) & asked.terms) >= need for b in versions.blocks_of(
            meta.source_id, readable) for u in evidence_units(versions.content(b)))


def matching(units: list[tuple[str, str]], asked: Asked | None) -> list[tuple[str, str]]:
    """The notes lines about what is asked: each line scored by the question's terms it holds,
    each weighing log(lines / lines holding it) (a word every line has says nothing); the
    lines scoring at least half the best, in their order; every line when none scores."""
    if asked is None or len(units) < 2 or not asked.terms:
        return units
    held = [set(asked.tokenize(u)) & asked.terms for u, _ in units]
    n = len(units)
    idf = {t: math.log(n / df) for t in asked.terms if (df := sum(t in h for h in held))}
    scores = [sum(idf.get(t, 0.0) for t in h) for h in held]
    best = max(scores, default=0.0)
    if best <= 0:
        return units
    return [u for u, sc in zip(units, scores, strict=True) if sc >= best / 2]


__all__ = ["MAX_NOTE_UNITS", "Asked", "answer_notes", "matching", "notes_at", "speaks_of"]

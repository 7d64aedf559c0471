"""What changed in a release, from its release notes (docs/design.md "Two kinds of versioned
family"): "What changed in 0.23.3?" naming no document, where the index holds release notes
for 0.23.3 (a changelog split per release, or notes documents), quotes those notes, each line
cited; and a line of notes alone is never diffed against itself (notes are not versions of one
text). No model call; only what the caller may read."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from situated import releases
from situated.chains.budget import Budget
from situated.chains.contract import Answer, BudgetOut, Status
from situated.chains.read.release import ReleaseReading
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


def _notes(versions: Versions, readable: Filter, product: str | None) -> list[DocumentMeta]:
    """The readable release notes with a release, oldest first (`released`)."""
    return [m for m in versions.released(readable, product)
            if m.kind is DocKind.NOTES and m.version is not None]


def notes_at(versions: Versions, readable: Filter, product: str | None,
             version: str | None) -> DocumentMeta | None:
    """The readable release notes of `version` (the latest notes when it is None)."""
    notes = _notes(versions, readable, product)
    if version is None:
        return notes[-1] if notes else None
    return next((m for m in notes if m.version == version), None)


def notes_asked(versions: Versions, readable: Filter, product: str | None, version: str | None,
                read: ReleaseReading) -> tuple[DocumentMeta, ...]:
    """The readable release notes a change question asks about, oldest first: of each release
    after the first it names up to the last, where it names two ("between 0.27.2 and 0.28.1":
    0.28.0 and 0.28.1); of each release of the series it names ("What changed in httpx
    0.28?": 0.28.0 and 0.28.1, where the pages have 0.28.1 only); else of its release (the
    latest notes when it names none). Empty where none is readable."""
    notes = _notes(versions, readable, product)
    named = sorted({v for v in map(releases.parse_or_none, (version, *read.others))
                    if v is not None})
    asked = releases.asked(read.said or "") if read.series else None
    if len(named) > 1:
        window = [m for m in notes if named[0] < releases.parse(m.declared_version) <= named[-1]]
    elif asked is not None:
        series = releases.Asked(asked.text, asked.version, series=True)
        window = [m for m in notes if series.covers(releases.parse(m.declared_version))]
    else:
        window = []
    if window:
        return tuple(window)
    return tuple(notes[-1:] if version is None else [m for m in notes if m.version == version][:1])


def answer_notes(versions: Versions, metas: tuple[DocumentMeta, ...], situation: Situation,
                 lang: Lang, readable: Filter, budget: Budget, shown: BudgetOut,
                 asked: Asked | None = None) -> Answer:
    """The notes' lines, release by release in their order, each cited; their page chrome
    never (`index.template`). `asked`: what the question asks about: the lines that match it
    are quoted (`matching`), all of them when none does. Notes of several releases each open
    with their release."""
    supplied = pack([b for m in metas for b in versions.blocks_of(m.source_id, readable)],
                    budget, versions.content)
    release = {m.source_id: m.declared_version for m in metas}
    units = matching([(unit, s.evidence.label, release[s.evidence.source_id])
                      for s in supplied for unit in evidence_units(s.evidence.text)], asked)
    quoted = _shared(units, len(metas))
    lines: list[str] = []
    several = len({at for _, _, at in quoted}) > 1
    for i, (unit, label, at) in enumerate(quoted):
        if several and (i == 0 or quoted[i - 1][2] != at):
            lines.append(f"{at}:")
        lines.append(f"{unit} [{label}]")
    left = len(units) - len(quoted)
    if not lines:
        return assemble.unanswered(Status.NO_EVIDENCE, w.no_evidence_text(situation, lang),
                                 situation)
    meta = metas[0]
    said = list(dict.fromkeys(at for _, _, at in quoted))  # the releases quoted, in order
    head = w.fixed("notes_lead", lang, line=inline(meta.family or meta.source_id),
                   v=w.listing(said, lang, w.fixed("and", lang)))
    tail = [w.fixed("notes_more", lang, n=left)] if left else []
    evidence = evidence_of(supplied)
    parsed = parse_citations("\n".join([head, *lines, *tail]), evidence, links_of(supplied),
                             lang)
    return assemble.cited(parsed.status, parsed.answer, parsed.citations, situation, evidence,
                          budget=shown.model_copy(update={"used": sum(e.tokens for e in evidence)}),
                  releases=said)


def _shared(units: list[tuple[str, str, str]], releases_: int) -> list[tuple[str, str, str]]:
    """At most `MAX_NOTE_UNITS` lines, each release's first ones given an equal share (a long
    release does not hide the next), the rest of the room to the earliest; in their order."""
    share = max(1, MAX_NOTE_UNITS // max(1, releases_))
    seen: dict[str, int] = {}
    first: set[int] = set()
    for i, (_, _, at) in enumerate(units):
        seen[at] = seen.get(at, 0) + 1
        if seen[at] <= share:
            first.add(i)
    rest = [i for i in range(len(units)) if i not in first]
    keep = sorted(first)[:MAX_NOTE_UNITS]
    keep = sorted(keep + rest[:MAX_NOTE_UNITS - len(keep)])
    return [units[i] for i in keep]


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


def matching(units: list[tuple[str, str, str]], asked: Asked | None,
             ) -> list[tuple[str, str, str]]:
    """The notes lines about what is asked: each line scored by the question's terms it holds,
    each weighing log(lines / lines holding it) (a word every line has says nothing); the
    lines scoring at least half the best, in their order; every line when none scores."""
    if asked is None or len(units) < 2 or not asked.terms:
        return units
    held = [set(asked.tokenize(u)) & asked.terms for u, _, _ in units]
    n = len(units)
    idf = {t: math.log(n / df) for t in asked.terms if (df := sum(t in h for h in held))}
    scores = [sum(idf.get(t, 0.0) for t in h) for h in held]
    best = max(scores, default=0.0)
    if best <= 0:
        return units
    return [u for u, sc in zip(units, scores, strict=True) if sc >= best / 2]


__all__ = ["MAX_NOTE_UNITS", "Asked", "answer_notes", "matching", "notes_asked", "notes_at",
           "speaks_of"]

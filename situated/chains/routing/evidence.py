"""The version rules over one search (DESIGN "Routing"): clarify, no evidence, or answer.

The rule is about the evidence, not about scores: a fact is asked for only when the answer
depends on it. A block *depends* on a missing fact when its document is one of several versions
of a family in the index and that fact decides which version applies:

* a facet — the product, or one the index declares — is unknown and the family's versions
  (of the block's case on the facets before it) hold more than one value of it;
* the date its `valid_for` names (resolved by `Situation.date_for`: the as-of date stands in)
  is unknown and the family has more than one version for the block's case.

When the best block depends on a missing fact, the router asks for it, naming what separates
the candidates ("Which product: C-3 or S-2?", "Was it bought before or from 1 April 2026?"), so
a one-word reply completes the carried situation. When the best block applies whatever the
missing fact, the answer is built from the blocks that do not depend on it, and says which
date- or product-dependent documents were left out and what would bring them in.

`no_evidence` when no block is relevant (`retrievers.relevance`: the search returns only
relevant blocks, so a clarification is only ever asked about blocks the question is about), or
when the question is about a family none of whose versions was in force on the asked day (the
best block *without* the date filter comes from such a family): the message names the first date
the family applies from. On these routes the model is never called.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from zoneinfo import ZoneInfo

from situated.chains.decision import Decision
from situated.chains.routing.same_text import same_in_every_version
from situated.chains.say import wording as w
from situated.chains.say.wording import FACT_NAMES, Lang
from situated.documents import DocumentMeta, ValidFor, end_of_day, instant
from situated.index.versions import Versions
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import SearchResult
from situated.situation import Situation
from situated.substance import section_key


def deciding(versions: Versions, meta: DocumentMeta, situation: Situation,
             flt: Filter) -> list[str]:
    """The missing facts that decide whether this document is the version that applies,
    counting only the versions the caller may read (`flt`'s scope): a version only another
    role may read must not turn an answer into a clarification (that would tell the caller
    it exists).

    The facets come first, the product then the index's declared ones in their order: one the
    asker has not given decides when the family's readable versions that match this document
    on the facets before it hold more than one set of values for it ("product" when the
    versions name different products; "region" when this product has an EU and a US version).
    Then the date, when the versions of this document's case on every facet are more than one.
    """
    facts = []
    family = versions.admitted(meta, flt.readable())
    names: list[str] = []  # the facets compared so far
    for name, values in versions.fields_of(meta.source_id).every_facet:
        if values and situation.facet(name) is None and len(
                {versions.fields_of(m.source_id).facet(name) for m in family
                 if versions.same_case(m, meta, names)}) > 1:
            facts.append(name)
        names.append(name)
    if (meta.date_scoped and situation.date_for(meta.valid_for) is None
            and sum(1 for m in family if versions.same_case(m, meta, names)) > 1):
        facts.append(FACT_NAMES[meta.valid_for])
    return facts


def facet_candidates(versions: Versions, members: list[DocumentMeta], name: str) -> list[str]:
    return sorted({v for m in members for v in versions.fields_of(m.source_id).facet(name)})


def order_facts(facts: set[str], facets: list[str]) -> list[str]:
    """The facets first, in their order (`facets`: the product, then the declared ones), then
    the dates."""
    dates = list(FACT_NAMES.values())
    return [*(f for f in facets if f in facts),
            *sorted(f for f in facts if f not in facets and f not in dates),
            *(n for n in dates if n in facts)]


def facets_of(versions: Versions, meta: DocumentMeta) -> list[str]:
    return [name for name, _ in versions.fields_of(meta.source_id).every_facet]


def _boundaries(versions: Versions, members: list[DocumentMeta], lang: Lang,
                within: tuple[int, int] | None = None) -> list[str]:
    """The instants where one version gives way to another (or to nothing): every start but
    the first, and every end not followed at once by another start (`within`: only those in
    (start, end] of a period, in epoch seconds; a period's first version counts too)."""
    tz = versions.timezone
    spans = [(*versions.bounds(m), m) for m in members if m.date_scoped]
    spans.sort(key=lambda x: (x[0] is not None, x[0] or 0))
    starts = {s for s, _, _ in spans if s is not None}
    bounds: dict[int, dt.date | dt.datetime] = {}
    for i, (start, end, m) in enumerate(spans):
        if start is not None and m.valid_from is not None and (i > 0 or within is not None):
            bounds.setdefault(start, m.valid_from)
        if end is not None and m.valid_to is not None and end not in starts:
            bounds.setdefault(end, m.valid_to)
    keys = sorted(k for k in bounds if within is None or within[0] < k <= within[1])
    return [w.bound_text(bounds[k], lang, tz) for k in keys]


def period_change(versions: Versions, supply: list[DocumentMeta], situation: Situation,
                   periods: Mapping[str, tuple[dt.date, dt.date]], flt: Filter,
                   lang: Lang) -> Decision | None:
    """A month, quarter or year was asked about and the version that applies at its end did
    not apply at its start: the rule changed inside the period. Ask which side, naming the
    change ("before or from 15 August 2025?"), never for the period the asker gave."""
    tz = versions.timezone
    for meta in supply:
        if not meta.date_scoped:
            continue
        role = meta.valid_for.value if situation.given(meta.valid_for) else ValidFor.AS_OF.value
        period = periods.get(role)
        if period is None:
            continue
        at_start = flt.model_copy(update={
            "situation": situation.model_copy(update={role: period[0]}), "sources": None})
        if at_start.admits(versions.fields_of(meta.source_id)):
            continue  # one version covers the whole period
        members = [m for m in versions.admitted(meta, flt.model_copy(update={
            "situation": Situation(product=situation.product, facets=situation.facets),
            "sources": None}))
                   if m.valid_for is meta.valid_for
                   and versions.same_case(m, meta, facets_of(versions, meta))]
        window = (instant(period[0], tz), end_of_day(period[1], tz))
        inside = _boundaries(versions, members, lang, within=window)
        fact = FACT_NAMES[meta.valid_for]
        return Decision.clarify([fact], f"{w.clarify_lead([fact], lang)} "
                        f"{w.ask_within(meta.valid_for, inside, period, lang)}")
    return None


def clarify(versions: Versions, best: DocumentMeta, facts: list[str], flt: Filter,
             lang: Lang, partial: Mapping[str, str], unplaced: Sequence[str]) -> Decision:
    members = versions.admitted(best, flt)
    facets = facets_of(versions, best)
    asks = [w.ask_facet(f, facet_candidates(versions, members, f), lang) for f in facts
            if f not in FACT_NAMES.values()]
    asked_facet = any(f in facets for f in facts)
    for vf in ValidFor:
        if FACT_NAMES[vf] not in facts:
            continue
        if unplaced:
            asks.append(w.fixed("ask_unplaced", lang, dates=w.listing(list(unplaced), lang)))
            continue
        same_case = [m for m in members  # a facet asked too: its versions' dates may differ
                     if not asked_facet and versions.same_case(m, best, facets)]
        asks.append(w.ask_date(vf, _boundaries(versions, same_case, lang), lang,
                               partial.get(vf.value) or partial.get(ValidFor.AS_OF.value)))
    return Decision.clarify(facts, f"{w.clarify_lead(facts, lang)} {' '.join(asks)}")


def not_in_force(versions: Versions, shadow: SearchResult | None, result: SearchResult,
                  situation: Situation, lang: Lang, named: AbstractSet[str]) -> Decision | None:
    """The question is about a family none of whose versions applies on the asked day: the
    family the question names, else the one of the best block without the date filter."""
    if shadow is None or not shadow.blocks:
        return None
    metas = [versions.meta(b.source_id) for b in shadow.blocks]
    meta = next((m for m in metas if versions.family_of(m) in named), metas[0])
    day = situation.date_for(meta.valid_for)
    if not meta.date_scoped or day is None:
        return None
    if versions.family_of(meta) in {b.family for b in result.blocks}:
        return None
    tz = versions.timezone
    moment = end_of_day(day, tz)
    members = [m for m in versions.admitted(meta, shadow.filter) if m.valid_for is meta.valid_for]
    if any(result.filter.admits(versions.fields_of(m.source_id)) for m in members):
        return None  # a version applies (corrections, "as known on" included); it did not rank
    starts = [m for m in members if m.valid_from is not None]
    first = min(starts, key=versions.start).valid_from if starts else None
    if first is not None and moment < instant(first, tz):
        text = w.before_first_text(versions.label(meta), w.bound_text(first, lang, tz), day, lang)
    else:
        text = w.not_in_force_text(versions.label(meta), day, lang)
    return Decision.no_evidence(text)


_NUMBERED = re.compile(r"(?<![\w-])[\w-]*\d[\w-]*(?![\w-])")


def _numbers(text: str) -> set[str]:
    return {t.lower() for t in _NUMBERED.findall(text)}


def not_yet_recorded(versions: Versions, unlimited: SearchResult | None, result: SearchResult,
                     situation: Situation, question: str, lang: Lang) -> Decision | None:
    """"As known on D" about a record made after D: the same search without that limit
    (`unlimited`, same scope) ranks first a document recorded after D, or finds one whose title
    carries a number the question gives and no document on record carries ("service ticket
    4711"). The question is about a record that did not exist yet: say so, with the day it was
    recorded, rather than answer from what was on record then. Only documents the caller may
    read are ever named, and only records outside version families (a family's later version
    is a correction, decided by the filter and `_not_in_force`)."""
    known = situation.known_on
    if known is None or unlimited is None or not unlimited.blocks:
        return None
    tz, on_record = ZoneInfo(versions.timezone), {b.source_id for b in result.blocks}
    held = set().union(*(_numbers(versions.meta(s).title or "") for s in on_record))
    asked = _numbers(question) - held
    for rank, block in enumerate(unlimited.blocks):
        fields = versions.fields_of(block.source_id)
        if block.source_id in on_record or result.filter.admits(fields):
            continue
        meta = versions.meta(block.source_id)
        if meta.family:  # a version of a family: corrections and "not in force" decide it
            continue
        recorded = dt.datetime.fromtimestamp(fields.recorded_s, tz).date()
        if recorded > known and (rank == 0 or asked & _numbers(meta.title or "")):
            return Decision.no_evidence(w.not_recorded_text(
                meta.title or versions.label(meta), meta.source_id, recorded, known, lang))
    return None


def same_day_notes(versions: Versions, supply: list[DocumentMeta], situation: Situation,
                    lang: Lang) -> list[str]:
    tz = versions.timezone
    notes = []
    for meta in supply:
        day = situation.date_for(meta.valid_for)
        if day is None or not isinstance(meta.valid_from, dt.datetime):
            continue
        start = versions.start(meta)
        if instant(day, tz) < start <= end_of_day(day, tz):
            notes.append(w.same_day_text(day, w.bound_text(meta.valid_from, lang, tz), lang))
    return list(dict.fromkeys(notes))


def date_does_not_decide(versions: Versions, result: SearchResult, metas: list[DocumentMeta],
                          facts_of: list[list[str]], facts: set[str],
                          lang: Lang) -> Decision | None:
    """Only a date is missing and the best block's section says the same in every readable
    version (`same_text`): answer from that block and the blocks that depend on nothing, and
    say the text stands in every version, instead of asking for the date."""
    if not facts <= set(FACT_NAMES.values()):
        return None  # a product or a facet decides: ask
    best = result.blocks[0]
    block = versions.read_blocks([best.block_id]).get(best.block_id)
    if block is None:
        return None
    members = same_in_every_version(versions, metas[0], block, result.filter)
    if not members:
        return None
    # the same section in the latest version found (the one in force now, as a rule)
    same = [(b, m) for b, m in zip(result.blocks, metas, strict=True)
            if b.family == best.family and b.source_id in {x.source_id for x in members}]
    read = versions.read_blocks([b.block_id for b, _ in same])
    same = [(b, m) for b, m in same
            if b.block_id in read and section_key(read[b.block_id].path) == section_key(block.path)]
    latest = max(same, key=lambda bm: versions.start(bm[1]))[0] if same else best
    supply = [latest.block_id, *(b.block_id for b, f in zip(result.blocks, facts_of, strict=True)
                                 if not f)]
    note = w.same_in_versions_text(versions.label(metas[0]), len(members), lang)
    return Decision.answer(tuple(dict.fromkeys(supply)), (note,))


def answer_from(versions: Versions, supply: list[tuple[str, DocumentMeta]],
                found: SearchResult, metas: list[DocumentMeta], facts_of: list[list[str]],
                situation: Situation, lang: Lang) -> Decision:
    """Answer from the blocks that depend on nothing missing (`supply`), saying which versions
    began that day and which documents were left out and what would bring them in: those
    whose block holds the question's words as fully as the best block supplied (`needed`), so
    that the answer is incomplete without them."""
    notes = same_day_notes(versions, [m for _, m in supply], situation, lang)
    needed = left_out_needed(found, facts_of)
    left = sorted({m.source_id for m, f, n in zip(metas, facts_of, needed, strict=True)
                   if f and n})
    if left:
        facts = order_facts({x for f, n in zip(facts_of, needed, strict=True) if n for x in f},
                            facets_of(versions, metas[0]))
        notes.append(w.left_out_text(left, facts, lang))
    return Decision.answer(tuple(b for b, _ in supply), tuple(notes))


def left_out_needed(found: SearchResult, facts_of: list[list[str]]) -> list[bool]:
    """Per block, whether leaving it out leaves the answer incomplete: it covers the question's
    content words (`Signals.cover`) at least as fully as the best block supplied. A block the
    relevance decision did not measure, or an answer with no measured block, counts as
    needed. "Which battery check applies when the casing was opened?" names the warranty's
    check (it covers every word, as the spec supplied does); "When is the customer service line
    open?" does not name the returns procedure (it covers a quarter of them)."""
    supplied = [b.signals.cover for b, f in zip(found.blocks, facts_of, strict=True)
                if not f and b.signals is not None]
    bar = max(supplied, default=0.0) - COVER_TIE
    return [b.signals is None or b.signals.cover >= bar for b in found.blocks]


# two covers this close are the same (cover is a ratio of float sums)
COVER_TIE = 1e-6

"""Questions about versions (DESIGN "Questions about change"): which versions a family has, and
what changed between consecutive ones. Both are answered by code from the index's metadata and
the versions' own blocks, never by the model and never from a changelog.

* `find_lines`: the family the question is about — one it names, else the product's only
  versioned family, else the family of the best relevant block of a search without dates — and
  its *lines* (one per product), counting only the versions the caller may read: a version only
  another role may read is never listed, diffed or counted. A question that leaves the product
  (or the document) open among several is asked about, naming them; one nothing is relevant to
  gets `no_evidence`.
* `change_window` reads the period the question gives: a month, quarter, year or range (the
  changes inside it), "since D" / «с D» (from D on), a day (the change that day), or none (the
  latest change).
* `answer_changes` diffs each pair (`chains.changes`), packs the old-side and new-side blocks
  of the changed sections into the evidence allowance (changed sections first, whole blocks),
  labels them so each side is cited on its own, and writes the answer; `answer_versions` lists.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import zip_longest

from situated.chains import wording as w
from situated.chains.budget import TokenCounter, pack
from situated.chains.changes import ChangeKind, SectionChange, diff_blocks, word_change
from situated.chains.citations import link_text, parse_citations, safe_text
from situated.chains.contract import (
    Answer,
    BudgetOut,
    ChangeOut,
    Evidence,
    SectionChangeOut,
    Status,
    VersionOut,
    situation_out,
)
from situated.chains.dates import DateMention
from situated.chains.intent import names_nothing, since_cue
from situated.chains.route import Decision, Route, Versions
from situated.chains.wording import Lang
from situated.documents import OPEN_END, OPEN_START, DocumentMeta, end_of_day, instant
from situated.loaders.neutralise import neutralise
from situated.modes import Mode
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import SearchResult
from situated.settings import BudgetPolicy
from situated.situation import Situation

MAX_PAIRS = 50  # changes diffed for one answer (the latest); earlier ones are counted
_SHOWN = 3  # differing units quoted per section


@dataclass(frozen=True)
class Line:
    """The versions of one family for one product that the caller may read, oldest first."""

    family: str  # `Versions.family_of` key
    name: str
    products: tuple[str, ...]
    members: tuple[DocumentMeta, ...]


@dataclass(frozen=True)
class Found:
    lines: list[Line]
    stop: Decision | None = None  # clarify or no evidence instead of an answer


def _start(meta: DocumentMeta, tz: str) -> int:
    """When a version starts, in epoch seconds (an open start: before everything)."""
    return instant(meta.valid_from, tz) if meta.valid_from is not None else OPEN_START


def lines_of(versions: Versions, family: str, readable: Filter,
             product: str | None = None) -> list[Line]:
    """The family's readable versions grouped by product (and `valid_for`), each oldest first;
    only the lines that apply to `product` when it is given."""
    tz = versions.index.timezone
    groups: dict[tuple, list[DocumentMeta]] = {}
    for m in versions.families.get(family, ()):
        if not readable.admits(versions.fields_of(m.source_id)):
            continue
        if product and m.product and product not in m.product:
            continue
        groups.setdefault((m.product, m.valid_for), []).append(m)
    out = []
    for (products, _), members in groups.items():
        members.sort(key=lambda m: _start(m, tz))
        out.append(Line(family, versions.label(members[-1]), products, tuple(members)))
    return sorted(out, key=lambda line: line.products)


def find_lines(versions: Versions, named: set[str], product: str | None, readable: Filter,
               query: str, lang: Lang, search: Callable[[Filter], SearchResult]) -> Found:
    """The lines the question is about (see the module docstring), or why none."""
    families = sorted(f for f in named if lines_of(versions, f, readable, product))
    if not families and product:  # the product's versioned families; its own ones first
        own = _versioned(versions, readable, product)
        named_for = [f for f, lines in own.items() if any(product in x.products for x in lines)]
        families = next((c for c in (named_for, list(own)) if len(c) == 1), None) or _searched(
            versions, search, readable, product, list(own))
        if not families and own:
            return Found([], _ask_document(own, lang))
    if not families and not product and names_nothing(query):
        return Found([], _ask_document(_versioned(versions, readable), lang))
    if not families:
        families = _searched(versions, search, readable, product, None)
    if not families:
        return Found([], Decision(Route.NO_EVIDENCE, [], w.no_evidence_text(
            Situation(product=product), lang)))
    lines = lines_of(versions, families[0], readable, product)
    if len({x.products for x in lines}) > 1 and product is None:
        names = sorted({p for x in lines for p in x.products})
        return Found([], Decision(Route.CLARIFY, ["product"], w.ask_product(names, lang)))
    return Found(lines)


def _versioned(versions: Versions, readable: Filter, product: str | None = None,
               ) -> dict[str, list[Line]]:
    """Family → its lines (for `product`), for the families with a line of two versions or
    more the caller may read."""
    out = {}
    for family in sorted(versions.index.store.family_names()):
        lines = lines_of(versions, family, readable, product)
        if any(len(x.members) > 1 for x in lines):
            out[family] = lines
    return out


def _searched(versions: Versions, search: Callable[[Filter], SearchResult], readable: Filter,
              product: str | None, among: list[str] | None) -> list[str]:
    """The family of the best relevant block with versions (`among` those, when given), from a
    search without dates."""
    result = search(readable.model_copy(update={"situation": Situation(product=product)}))
    index = versions.index
    for b in result.blocks:
        family = versions.family_of(index.documents[index.blocks[b.block_id].source_id])
        if (among is None or family in among) and lines_of(versions, family, readable, product):
            return [family]
    return []


def _ask_document(versioned: dict[str, list[Line]], lang: Lang) -> Decision:
    """Which document: the versioned families the caller may read, named so that a reply can
    say one; none at all → no evidence."""
    names = sorted({x.name for lines in versioned.values() for x in lines
                    if len(x.members) > 1})
    if not names:
        return Decision(Route.NO_EVIDENCE, [], w.no_evidence_text(Situation(), lang))
    shown = names if len(names) <= 8 else [*names[:8], "…"]
    return Decision(Route.CLARIFY, ["document"], w.fixed(
        "ask_document", lang, names=w.listing([neutralise(n) for n in shown], lang)))


class WindowKind(Mode):
    PERIOD = "period"  # a month, quarter, year or range: the changes inside it
    SINCE = "since"  # "since D", «с D»: from D on
    ON = "on"  # a day: the change that took effect that day
    LATEST = "latest"  # no date: the latest change


@dataclass(frozen=True)
class Window:
    """The period of a change question: changes whose newer version starts in [start, end]."""

    kind: WindowKind
    start: int | None = None
    end: int | None = None
    said: str = ""  # as the answer says it, after the family: " since 1 April 2026"


def change_window(periods: dict[str, tuple[dt.date, dt.date]], mentions: list[DateMention],
                  question: str, tz: str, lang: Lang) -> Window:
    def window(kind: WindowKind, start=None, end=None, **days) -> Window:
        said = w.fixed(f"window_{kind.value}", lang, **{k: w.day_text(d, lang)
                                                         for k, d in days.items()})
        return Window(kind, start, end, said)

    for first, last in periods.values():
        return window(WindowKind.PERIOD, instant(first, tz), end_of_day(last, tz),
                      a=first, b=last)
    for m in mentions:
        if m.value is None:
            continue
        if since_cue(question[m.span[0]:m.start]):
            return window(WindowKind.SINCE, instant(m.value, tz), a=m.value)
        return window(WindowKind.ON, instant(m.value, tz), end_of_day(m.value, tz), a=m.value)
    return window(WindowKind.LATEST)


Pair = tuple[DocumentMeta | None, DocumentMeta]


def pairs_in(line: Line, window: Window, tz: str) -> tuple[list[Pair], int]:
    """The consecutive pairs whose newer version starts inside `window` (the first version with
    no older one is a pair `(None, first)`), and how many other changes the line has."""
    members = line.members
    pairs = [(members[i - 1] if i else None, m) for i, m in enumerate(members)
             if m.valid_from is not None]
    if window.kind is WindowKind.LATEST:
        real = [p for p in pairs if p[0] is not None]
        return (real[-1:], len(real) - 1) if real else (pairs[-1:], 0)
    lo = window.start if window.start is not None else OPEN_START
    hi = window.end if window.end is not None else OPEN_END
    inside = [p for p in pairs if lo <= _start(p[1], tz) <= hi]
    return inside, len([p for p in pairs if p[0] is not None]) - len(inside)


@dataclass(frozen=True)
class Budget:
    """What packs the evidence of a change answer: the chat model's token counter (the same
    allowance a model answer has, so the evidence could be handed to one), the policy."""

    count: TokenCounter
    policy: BudgetPolicy
    window: BudgetOut  # the contract's budget (its `allowance`); `used` is filled in


def answer_changes(versions: Versions, line: Line, pairs: list[Pair], earlier: int,
                   window: Window, situation: Situation, lang: Lang, readable: Filter,
                   budget: Budget) -> Answer:
    """The changes of `pairs`, each side cited with its own label (old, then new)."""
    tz = versions.index.timezone
    name = neutralise(line.name)
    cut = max(0, len(pairs) - MAX_PAIRS)  # the latest are compared, earlier ones counted
    diffs = [(old, new, _diff(versions, old, new, readable)) for old, new in pairs[cut:]]
    evidence = _pack(versions, [d for *_, d in diffs], budget)
    label = {e.block_id: e.label for e in evidence}
    if not pairs:
        current = _in_force(line, window, tz)
        if current is None:  # the window ends before the first version
            return Answer.unanswered(Status.NO_EVIDENCE, w.fixed(
                "none_yet", lang, line=name, window=window.said,
                date=_when(line.members[0], lang, tz)), situation)
        text = w.fixed("none_in", lang, line=name, window=window.said,
                              date=_when(current, lang, tz), new=current.source_id)
        return _history_answer(text, [], [], situation, lang, versions, line, budget)
    parts = [w.fixed("changes_lead", lang, line=name, window=window.said)]
    if cut:
        parts.append(w.fixed("not_compared", lang, n=cut))
    unshown = 0
    for old, new, sections in diffs:
        if old is None:
            parts.append(w.fixed("first", lang, date=_when(new, lang, tz),
                                        new=new.source_id))
            continue
        head = w.fixed("pair", lang, date=_when(new, lang, tz), old=old.source_id,
                              new=new.source_id)
        if not sections:
            parts.append(f"{head} {w.fixed('no_substance', lang)}")
            continue
        lines = [_section_line(s, label, lang) for s in sections]
        unshown += sum(x is None for x in lines)
        if any(lines):  # a pair none of whose blocks fit is only counted
            parts.append("\n".join([head, *(x for x in lines if x)]))
    if unshown:
        parts.append(w.fixed("unshown", lang, n=unshown))
    if window.kind is WindowKind.LATEST and earlier:
        parts.append(w.fixed("latest_only", lang, n=earlier))
    changes = [_change_out(line, old, new, sections, label) for old, new, sections in diffs]
    return _history_answer("\n\n".join(parts), evidence, changes, situation, lang, versions,
                           line, budget)


def _diff(versions: Versions, old: DocumentMeta | None, new: DocumentMeta,
          readable: Filter) -> list[SectionChange]:
    if old is None:
        return []
    blocks = versions.index.blocks

    def readable_blocks(sid: str):
        return [b for b in blocks.of_document(sid) if readable.admits(b.fields)]

    return diff_blocks(readable_blocks(old.source_id), readable_blocks(new.source_id))


_ORDER = {ChangeKind.CHANGED: 0, ChangeKind.ADDED: 1, ChangeKind.REMOVED: 2}


def _pack(versions: Versions, pairs: list[list[SectionChange]], budget: Budget,
          ) -> list[Evidence]:
    """Whole blocks within the allowance, labelled S1… in this order: for each pair of
    versions its first old-side and first new-side block (so both versions are cited), then
    the blocks of the changed sections, then of added and removed ones, each section's old and
    new blocks in turn, old first."""
    ranked = [sorted(sections, key=lambda s: _ORDER[s.kind]) for sections in pairs]
    first = [b for sections in ranked for side in ("old_blocks", "new_blocks")
             for b in next((getattr(s, side)[:1] for s in sections if getattr(s, side)), [])]
    ids = list(dict.fromkeys([*first, *(b for sections in ranked for s in sections
                                        for pair in zip_longest(s.old_blocks, s.new_blocks)
                                        for b in pair if b)]))
    blocks = versions.index.blocks.many(ids)
    chosen = [blocks[i] for i in ids if i in blocks]
    texts = [neutralise(b.text) for b in chosen]
    costs = [budget.count(t) for t in texts]
    kept = pack(costs, budget.window.allowance, budget.policy)
    return [Evidence(label=f"S{n}", block_id=chosen[i].block_id, source_id=chosen[i].source_id,
                     section=chosen[i].section, page=chosen[i].page, tokens=costs[i],
                     text=texts[i]) for n, i in enumerate(kept, start=1)]


def _quote(text: str, lang: Lang, limit: int = 240) -> str:
    """A sentence as the answer quotes it: one line, at most `limit` characters (the whole
    sentence is in `changes`)."""
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0] + " …"
    return f"«{text}»" if lang is Lang.RU else f"“{text}”"


def _section_line(s: SectionChange, label: dict[str, str], lang: Lang) -> str | None:
    """"- 1 Срок возврата: «в течение 14 → 30 дней» [S1] → [S2]", or None when none of the
    section's blocks fit the allowance."""
    old = [label[b] for b in s.old_blocks if b in label]
    new = [label[b] for b in s.new_blocks if b in label]
    if not old and not new:
        return None
    paired = {x for pair in s.pairs for x in pair}
    items = [_quote(word_change(a, b), lang) for a, b in s.pairs]
    items += [f"{w.fixed('removed', lang)}: {_quote(x, lang)}" for x in s.removed
              if x not in paired]
    items += [f"{w.fixed('added', lang)}: {_quote(x, lang)}" for x in s.added
              if x not in paired]
    shown = "; ".join(items[:_SHOWN])
    if len(items) > _SHOWN:
        shown += " " + w.fixed("more", lang, n=len(items) - _SHOWN)
    cites = " → ".join(" ".join(f"[{x}]" for x in side) for side in (old, new) if side)
    title = " › ".join(s.path) or ("(начало)" if lang is Lang.RU else "(opening)")
    return f"- {title}: {shown} {cites}"


def _change_out(line: Line, old: DocumentMeta | None, new: DocumentMeta,
                sections: list[SectionChange], label: dict[str, str]) -> ChangeOut:
    return ChangeOut(
        family=line.name, products=list(line.products),
        from_version=old.source_id if old else None, to_version=new.source_id,
        effective=new.valid_from.isoformat(), substance=bool(sections) or old is None,
        sections=[SectionChangeOut(
            kind=s.kind.value, section=" › ".join(s.path), old_blocks=s.old_blocks,
            new_blocks=s.new_blocks, old_labels=[label[b] for b in s.old_blocks if b in label],
            new_labels=[label[b] for b in s.new_blocks if b in label], removed=s.removed,
            added=s.added) for s in sections])


def _in_force(line: Line, window: Window, tz: str) -> DocumentMeta | None:
    """The line's version in force at the end of the window (or now, for an open one)."""
    at = window.end if window.end is not None else OPEN_END - 1
    current = [m for m in line.members if _start(m, tz) <= at]
    return current[-1] if current else None


def _when(meta: DocumentMeta, lang: Lang, tz: str) -> str:
    return w.bound_text(meta.valid_from, lang, tz) if meta.valid_from else "—"


def _history_answer(text: str, evidence: list[Evidence], changes: list[ChangeOut],
                    situation: Situation, lang: Lang, versions: Versions, line: Line,
                    budget: Budget) -> Answer:
    """Labels → links when the text cites blocks (an unknown label withholds, as for a model's
    reply); a text that cites none (no change in substance, nothing in the period) links the
    versions instead."""
    if evidence:
        parsed = parse_citations(text, evidence, versions.index, lang)
        status, text, citations = parsed.status, parsed.answer, parsed.citations
    else:
        status, text, citations = Status.ANSWERED, safe_text(text), []
        text += "\n\n" + _listing_lines(versions, line, lang)
    return Answer(status=status, answer=text, missing=[], situation=situation_out(situation),
                  citations=citations, evidence=evidence if status is Status.ANSWERED else [],
                  hits=[], budget=budget.window.model_copy(
                      update={"used": sum(e.tokens for e in evidence)}), changes=changes,
                  versions=_versions_out(versions, line))


def answer_versions(versions: Versions, lines: list[Line], situation: Situation,
                    lang: Lang) -> Answer:
    """Each line's readable versions, oldest first, each linked: from metadata, no model."""
    parts = []
    for line in lines:
        lead = w.fixed("versions_lead", lang, line=neutralise(line.name),
                              n=len(line.members))
        parts.append(f"{safe_text(lead)}\n{_listing_lines(versions, line, lang)}")
    return Answer(status=Status.ANSWERED, answer="\n\n".join(parts), missing=[],
                  situation=situation_out(situation), citations=[], evidence=[], hits=[],
                  budget=None, versions=[v for x in lines for v in _versions_out(versions, x)])


def _listing_lines(versions: Versions, line: Line, lang: Lang) -> str:
    tz = versions.index.timezone
    out = []
    for n, m in enumerate(line.members, start=1):
        anchor = link_text(m.source_id)
        bits = [w.fixed("revision", lang, r=neutralise(m.revision))] if m.revision else []
        end = m.valid_to
        if isinstance(end, dt.date) and not isinstance(end, dt.datetime):
            end = end - dt.timedelta(days=1)  # valid_to is exclusive: say the last day
        span = w.span_text(_when(m, lang, tz) if m.valid_from else None,
                           w.bound_text(end, lang, tz) if end else None, lang)
        bits.append(span or w.fixed("undated", lang))
        if m.valid_to is None and m.valid_from is not None and n == len(line.members):
            bits.append(w.fixed("in_force", lang))
        recorded = versions.fields_of(m.source_id).recorded_s
        if recorded > OPEN_START:
            when = dt.datetime.fromtimestamp(recorded, dt.UTC)
            bits.append(w.fixed("recorded", lang, t=w.bound_text(when, lang, tz)))
        out.append(f"{n}. [{anchor}]({m.base_link}): {safe_text(', '.join(bits))}")
    return "\n".join(out)


def _versions_out(versions: Versions, line: Line) -> list[VersionOut]:
    out = []
    for m in line.members:
        recorded = versions.fields_of(m.source_id).recorded_s
        out.append(VersionOut(
            source_id=m.source_id, title=m.title, revision=m.revision, family=m.family,
            products=list(m.product), valid_for=m.valid_for.value,
            valid_from=m.valid_from.isoformat() if m.valid_from else None,
            valid_to=m.valid_to.isoformat() if m.valid_to else None,
            recorded_at=dt.datetime.fromtimestamp(recorded, dt.UTC).isoformat()
            if recorded > OPEN_START else None, link=m.base_link))
    return out

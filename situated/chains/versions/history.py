"""Questions about versions (DESIGN "Questions about change"): which versions a family has, and
what changed between consecutive ones. Both are answered by code from the index's metadata and
the versions' own blocks, never by the model; release notes are read as notes
(`chains.versions.notes_answer`), never diffed.

* `find_lines`: the family the question is about — one it names, else the product's only
  versioned family, else the family of the best relevant block of a search without dates — and
  its *lines* (one per product), counting only the versions the caller may read: a version only
  another role may read is never listed, diffed or counted. A question that leaves the product
  (or the document) open among several is asked about, naming them; one nothing is relevant to
  gets `no_evidence`.
* `change_window` reads the period the question gives and `pairs_in` the changes inside it
  (`chains.versions.change_window`).
* `answer_changes` diffs each pair (`chains.versions.changes`), packs the old-side and new-side blocks
  of the changed sections into the evidence allowance (changed sections first, whole blocks),
  labels them so each side is cited on its own, and writes the answer; `answer_versions` lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from itertools import zip_longest

from situated.chains.budget import Budget
from situated.chains.contract import (
    Answer,
    BudgetOut,
    ChangeOut,
    SectionChangeOut,
    Status,
)
from situated.chains.read.intent import names_nothing
from situated.chains.say import assemble
from situated.chains.say import wording as w
from situated.chains.say.citations import parse_citations, safe_text
from situated.chains.say.evidence import evidence_of, links_of, pack
from situated.chains.say.wording import Lang
from situated.chains.state import Line, Lines, LinesStop, Supplied
from situated.chains.versions.change_window import Pair, Window, WindowKind
from situated.chains.versions.changes import ChangeKind, SectionChange, diff_blocks, word_change
from situated.chains.versions.listing import last_day, listing_lines, versions_out, when
from situated.documents import (
    OPEN_END,
    Block,
    DocKind,
    DocumentMeta,
)
from situated.index.versions import Versions
from situated.loaders.neutralise import inline
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import SearchResult
from situated.situation import Situation

MAX_PAIRS = 50  # changes diffed for one answer (the latest); earlier ones are counted
_SHOWN = 3  # differing units quoted per section


def one_version_each(found: Lines) -> tuple[str, ...]:
    """The documents of a question about change that each have one version, with no dates and
    no release (no history is recorded, so there is no change to show), or () when some
    document has a history."""
    if found.stop is not None or not found.lines or not all(
            len(x.members) == 1 and x.members[0].valid_from is None
            and x.members[0].valid_to is None and not x.members[0].release_scoped
            for x in found.lines):
        return ()
    return tuple(" ".join(x.name.split()) for x in found.lines)  # neutralised when said


def lines_of(versions: Versions, family: str, readable: Filter,
             product: str | None = None) -> list[Line]:
    """The family's readable versions grouped by product (and `valid_for`), each oldest first;
    only the lines that apply to `product` when it is given."""
    groups: dict[tuple, list[DocumentMeta]] = {}
    for m in versions.versions_of(family, readable, product):
        groups.setdefault((m.product, m.valid_for), []).append(m)
    out = []
    for (products, _), members in groups.items():
        members.sort(key=versions.order)
        out.append(Line(family, versions.label(members[-1]), products, tuple(members)))
    return sorted(out, key=lambda line: line.products)


def find_lines(versions: Versions, named: AbstractSet[str], product: str | None, readable: Filter,
               query: str, search: Callable[[Filter], SearchResult]) -> Lines:
    """The lines the question is about (see the module docstring), or why none (`LinesStop`:
    the version router says it)."""
    families = sorted(f for f in named if lines_of(versions, f, readable, product))
    if not families and product:  # the product's versioned families; its own ones first
        own = _versioned(versions, readable, product)
        named_for = [f for f, lines in own.items() if any(product in x.products for x in lines)]
        families = next((c for c in (named_for, list(own)) if len(c) == 1), []) or _searched(
            versions, search, readable, product, list(own))
        if not families and own:
            return _ask_document(own)
    if not families and not product and names_nothing(query):
        versioned = _versioned(versions, readable)
        if len(versioned) != 1:  # asked only when there are several it could mean
            return _ask_document(versioned)
        families = list(versioned)
    if not families:
        families = _searched(versions, search, readable, product, None)
    if not families:
        return Lines(stop=LinesStop.NOTHING)
    lines = lines_of(versions, families[0], readable, product)
    if len({x.products for x in lines}) > 1 and product is None:
        return Lines(stop=LinesStop.ASK_PRODUCT,
                     names=tuple(sorted({p for x in lines for p in x.products})))
    return Lines(tuple(lines))


def _versioned(versions: Versions, readable: Filter, product: str | None = None,
               ) -> dict[str, list[Line]]:
    """Family → its lines (for `product`), for the families with a line of two versions or
    more the caller may read."""
    out = {}
    for family in versions.family_names():
        lines = lines_of(versions, family, readable, product)
        if any(len(x.members) > 1 for x in lines):
            out[family] = lines
    reference = {f: lines for f, lines in out.items() if not is_notes_line(lines)}
    return reference or out  # a changelog's family is read when it is the only one


def is_notes_line(lines: list[Line]) -> bool:
    """The lines are release notes (`loaders.notes`): what changed in each release, not
    versions of one text."""
    return all(m.kind is DocKind.NOTES for x in lines for m in x.members)


def _searched(versions: Versions, search: Callable[[Filter], SearchResult], readable: Filter,
              product: str | None, among: list[str] | None) -> list[str]:
    """The family of the best relevant block with versions (`among` those, when given), from a
    search without dates."""
    result = search(readable.model_copy(update={"situation": Situation(product=product)}))
    found = [lines for b in result.blocks if among is None or b.family in among
             for lines in [lines_of(versions, b.family, readable, product)] if lines]
    best = next((x for x in found if not is_notes_line(x)), None) or next(iter(found), None)
    return [best[0].family] if best else []


def _ask_document(versioned: dict[str, list[Line]]) -> Lines:
    """Which document: the versioned families the caller may read, named so that a reply can
    say one; none at all → nothing."""
    names = sorted({x.name for lines in versioned.values() for x in lines
                    if len(x.members) > 1})
    return Lines(stop=LinesStop.ASK_DOCUMENT, names=tuple(names)) if names else \
        Lines(stop=LinesStop.NOTHING)


def answer_changes(versions: Versions, line: Line, pairs: list[Pair], earlier: int,
                   window: Window, situation: Situation, lang: Lang, readable: Filter,
                   budget: Budget, shown: BudgetOut) -> Answer:
    """The changes of `pairs`, each side cited with its own label (old, then new); `budget`
    packs their blocks (the same allowance a model answer has), `shown` is the contract's
    budget (its `used` is filled in)."""
    tz = versions.timezone
    name = inline(line.name)
    cut = max(0, len(pairs) - MAX_PAIRS)  # the latest are compared, earlier ones counted
    read: dict[str, list[Block]] = {}  # the compared versions' readable blocks, read once
    unaligned: list[int] = []  # pairs too long to align: compared by content (`changes`)
    diffs = [(old, new, _diff(versions, old, new, readable, read, unaligned))
             for old, new in pairs[cut:]]
    by_id = {b.block_id: b for blocks in read.values() for b in blocks}
    supplied = pack(_changed_blocks(by_id, [d for *_, d in diffs]), budget)
    label = {s.evidence.block_id: s.evidence.label for s in supplied}
    if not pairs and window.kind is WindowKind.RELEASE:
        return _history_answer(w.fixed("no_release", lang, line=name, v=situation.version),
                               [], [], situation, lang, versions, line, shown)
    if not pairs:
        started = _started(versions, line, window)
        if started is None:  # the window ends before the first version
            return assemble.unanswered(Status.NO_EVIDENCE, w.fixed(
                "none_yet", lang, line=name, window=window.said,
                date=when(line.members[0], lang, tz)), situation)
        if versions.end(started) <= _window_end(window):  # ended: a gap, nothing in force
            ended = last_day(started)  # it ended (its end is before the window's)
            text = w.fixed("none_then", lang, line=name, window=window.said,
                           old=started.source_id,
                           date=w.bound_text(ended, lang, tz) if ended else "—")
        else:
            text = w.fixed("none_in", lang, line=name, window=window.said,
                           date=when(started, lang, tz), new=started.source_id)
        return _history_answer(text, [], [], situation, lang, versions, line, shown)
    parts = [w.fixed("changes_lead", lang, line=name, window=window.said)]
    if cut:
        parts.append(w.fixed("not_compared", lang, n=cut))
    unshown = 0
    for old, new, sections in diffs:
        if old is None:
            parts.append(_first_text(new, lang, tz))
            continue
        head = _pair_text(old, new, lang, tz)
        if not sections:
            parts.append(f"{head} {w.fixed('no_substance', lang)}")
            continue
        lines = [_section_line(s, label, lang) for s in sections]
        unshown += sum(x is None for x in lines)
        if any(lines):  # a pair none of whose blocks fit is only counted
            parts.append("\n".join([head, *(x for x in lines if x)]))
    if unshown:
        parts.append(w.fixed("unshown", lang, n=unshown))
    if unaligned:
        parts.append(w.fixed("by_content", lang, n=len(unaligned), units=sum(unaligned)))
    if window.kind is WindowKind.LATEST and earlier:
        parts.append(w.fixed("latest_only", lang, n=earlier))
    changes = [_change_out(line, old, new, sections, label) for old, new, sections in diffs]
    return _history_answer("\n\n".join(parts), supplied, changes, situation, lang, versions,
                           line, shown)


def _first_text(new: DocumentMeta, lang: Lang, tz: str) -> str:
    if new.valid_from is None and new.version is not None:
        return w.fixed("first_release", lang, v=new.version, new=new.source_id)
    return w.fixed("first", lang, date=when(new, lang, tz), new=new.source_id)


def _pair_text(old: DocumentMeta, new: DocumentMeta, lang: Lang, tz: str) -> str:
    """"From 1 April 2026 (A → B):", or for releases "Version 0.23.0 against 0.22.0 (A → B):"."""
    if new.valid_from is None and new.version is not None:
        return w.fixed("pair_release", lang, v=new.version, prev=old.version or old.source_id,
                       old=old.source_id, new=new.source_id)
    return w.fixed("pair", lang, date=when(new, lang, tz), old=old.source_id,
                   new=new.source_id)


def _diff(versions: Versions, old: DocumentMeta | None, new: DocumentMeta,
          readable: Filter, read: dict[str, list[Block]],
          unaligned: list[int] | None = None) -> list[SectionChange]:
    """The two versions' differences; their readable blocks are kept in `read` by source id
    (a version in two pairs is read once)."""
    if old is None:
        return []
    for sid in (old.source_id, new.source_id):
        if sid not in read:
            read[sid] = versions.blocks_of(sid, readable)
    return diff_blocks(read[old.source_id], read[new.source_id], unaligned)


_ORDER = {ChangeKind.CHANGED: 0, ChangeKind.ADDED: 1, ChangeKind.REMOVED: 2}


def _changed_blocks(read: dict[str, Block], pairs: list[list[SectionChange]]) -> list[Block]:
    """The blocks of the changes in the order they are packed: for each pair of versions its
    first old-side and first new-side block (so both versions are cited), then the blocks of
    the changed sections, then of added and removed ones, each section's old and new blocks in
    turn, old first."""
    ranked = [sorted(sections, key=lambda s: _ORDER[s.kind]) for sections in pairs]
    first = [b for sections in ranked for side in ("old_blocks", "new_blocks")
             for b in next((getattr(s, side)[:1] for s in sections if getattr(s, side)), [])]
    ids = list(dict.fromkeys([*first, *(b for sections in ranked for s in sections
                                        for pair in zip_longest(s.old_blocks, s.new_blocks)
                                        for b in pair if b)]))
    return [read[i] for i in ids if i in read]


def _quote(text: str, lang: Lang, limit: int = 240) -> str:
    """A sentence as the answer quotes it: one line, at most `limit` characters (the whole
    sentence is in `changes`)."""
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0] + " …"
    return w.quoted(text, lang)


def section_title(s: SectionChange) -> str:
    """A changed section's heading path as an answer may show it: neutralised, one line."""
    return inline(" › ".join(s.path))


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
    # a heading is document text: neutralised (no label a parser reads, no link) and on one line
    title = section_title(s) or w.fixed("opening", lang)
    return f"- {title}: {shown} {cites}"


def _change_out(line: Line, old: DocumentMeta | None, new: DocumentMeta,
                sections: list[SectionChange], label: dict[str, str]) -> ChangeOut:
    return ChangeOut(
        family=line.name, products=list(line.products),
        from_version=old.source_id if old else None, to_version=new.source_id,
        effective=new.valid_from.isoformat() if new.valid_from else None,
        from_release=old.version if old else None, to_release=new.version, substance=bool(sections) or old is None,
        sections=[SectionChangeOut(
            kind=s.kind.value, section=section_title(s), old_blocks=s.old_blocks,
            new_blocks=s.new_blocks, old_labels=[label[b] for b in s.old_blocks if b in label],
            new_labels=[label[b] for b in s.new_blocks if b in label], removed=s.removed,
            added=s.added) for s in sections])


def _window_end(window: Window) -> int:
    return window.end if window.end is not None else OPEN_END - 1


def _started(versions: Versions, line: Line, window: Window) -> DocumentMeta | None:
    """The line's latest version started by the end of the window (or now, for an open one);
    it may have ended since (a gap)."""
    current = [m for m in line.members if versions.start(m) <= _window_end(window)]
    return current[-1] if current else None


def _history_answer(text: str, supplied: list[Supplied], changes: list[ChangeOut],
                    situation: Situation, lang: Lang, versions: Versions, line: Line,
                    shown: BudgetOut) -> Answer:
    """Labels → links when the text cites blocks (an unknown label withholds, as for a model's
    reply); a text that cites none (no change in substance, nothing in the period) links the
    versions instead."""
    evidence = evidence_of(supplied)
    if evidence:
        parsed = parse_citations(text, evidence, links_of(supplied), lang)
        status, text, citations = parsed.status, parsed.answer, parsed.citations
    else:
        status, text, citations = Status.ANSWERED, safe_text(text), []
        text += "\n\n" + listing_lines(versions, line, lang)
    return assemble.cited(status, text, citations, situation, evidence,
                          budget=shown.model_copy(
                      update={"used": sum(e.tokens for e in evidence)}), changes=changes,
                  versions=versions_out(versions, line, only={
                      sid for c in changes for sid in (c.from_version, c.to_version) if sid}
                      if changes else None))

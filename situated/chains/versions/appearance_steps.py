"""The first-appearance step of the ask chain (`chains.versions.appearance`): search every version,
walk the found families' versions in order, cite the version found and the one before it, and
show the documents' own notes beside them. No model call."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from situated import releases
from situated.chains.context import StepContext
from situated.chains.contract import Answer, AppearanceOut, NoteOut
from situated.chains.decision import Route
from situated.chains.read.change_kind import Kind, says_kind
from situated.chains.read.subject import Subject, carries_line
from situated.chains.routing import version_rules
from situated.chains.say import assemble
from situated.chains.say import wording as w
from situated.chains.say.citations import parse_citations
from situated.chains.say.evidence import evidence_of, links_of, pack
from situated.chains.say.wording import Lang
from situated.chains.state import Reading
from situated.chains.versions.appearance import (
    Basis,
    Found,
    Unseen,
    axis_steps,
    heads,
    is_note,
    noted,
    page_notes,
    sentences_of,
    states,
    unseen_before,
    walk,
)
from situated.chains.versions.described import named_by_meaning, read_as
from situated.chains.versions.listing import when
from situated.documents import DocKind, DocumentMeta
from situated.loaders.notes import notes_release, path_release
from situated.retrievers.hybrid import SearchResult
from situated.retrievers.spelling import as_typed
from situated.situation import Situation

if TYPE_CHECKING:
    from situated.documents import Block
    from situated.index.versions import Versions
    from situated.retrievers.filter import Filter

MAX_SCANNED = 2000  # release documents read whole to find where a named identifier appears

@dataclass(frozen=True)
class Sought:
    """What the first-appearance search found (`AppearanceSteps.find`): the question's own
    search, the version it first appears in (None: no version shows it), the notes that
    mention it, the note that states it (`_stating`), the subject as an answer says it, the kind
    of change asked, and whether some version holds the subject at all."""

    found: SearchResult
    result: Found | None
    notes: list
    stated: tuple | None
    said: str
    kind: Kind
    held: bool
    described: bool = False  # the question described it in other words, read as the name a
    # note gives it (`described.named_by_meaning`)
    unseen: Unseen | None = None  # found where the pages begin (`appearance.unseen_before`)

    @property
    def nothing(self) -> bool:
        """Neither a version nor a note shows it."""
        return self.result is None and not self.notes


def version_name(meta: DocumentMeta, lang: Lang, tz: str) -> str:
    """"version 0.18.2", or for a dated family "the version from 1 April 2026"."""
    if meta.version is not None:
        return w.fixed("version_release", lang, v=meta.version)
    return w.fixed("version_dated", lang, date=when(meta, lang, tz))


def _verb(kind: Kind, lang: Lang) -> str:
    return w.fixed(f"verb_{kind.value}", lang)


class AppearanceSteps:
    """Bound to one chain's `StepContext`."""

    def __init__(self, ctx: StepContext):
        self.ctx = ctx
        self.versions = ctx.versions
        self.router = version_rules.appearance(ctx, self)

    def answer(self, reading: Reading) -> Answer:
        """Where the thing asked first appears: the finding (`find`, the router's probe), the
        appearance router's decision (`routing.version_rules.appearance`), then the answer."""
        probes = self.router.probe(reading)
        decision = self.router.decide(reading, probes)
        _, sought = probes.get("sought")
        situation, lang = reading.validated.situation, reading.question.lang
        relevance = self.ctx.relevance(sought.found)
        if decision.route is not Route.ANSWER:
            return assemble.stopped(decision, situation, neutralised=True, relevance=relevance)
        if sought.result is None:
            built = self._notes_only(sought.notes, sought.stated, sought.said, sought.kind,
                                     situation, lang, sought.found)
        elif sought.stated is not None and not _same_release(sought.result, sought.stated[0]):
            built = self._stated(sought.result, sought.stated, sought.notes, sought.said,
                                 situation, lang, sought.found, sought.unseen)
        else:
            built = self._answer(sought.result, sought.notes, sought.said, situation, lang,
                                 sought.found, sought.unseen)
        return read_as(built, sought.said, lang) if sought.described else built

    def find(self, reading: Reading) -> Sought:
        """Search every version for the thing asked (`_find`). A thing described in words no
        version holds ("compress without losing any quality") is looked for once more as the
        identifier of the unit that says it in other words (`described.named_by_meaning`: "Add
        `--lossless` to compress without any loss")."""
        sought = self._find(reading, reading.subject)
        if not sought.nothing or not reading.subject.words:
            return sought
        named = named_by_meaning(self.ctx, sought.found, reading.subject, sought.kind)
        if named is None:
            return sought
        again = self._find(reading, named, sought.found)
        return sought if again.nothing else replace(again, described=True)

    def _find(self, reading: Reading, subject: Subject,
              found: SearchResult | None = None) -> Sought:
        """The families that hold `subject`, walked in version order, and the documents' own
        notes about it (`found`: the question's own search, where it was made already)."""
        q, v = reading.question, reading.validated
        query = reading.query
        readable = self.ctx.readable(q.scope)
        product = v.situation.product
        every = readable.model_copy(update={"situation": Situation(product=product)})
        top = self.ctx.settings.top_blocks
        found = found or self.ctx.search(query, every, 3 * top)
        # the families that hold the subject itself, in every release (a page split or
        # renamed is followed), then those of the question's best blocks
        # where the subject is named, in any release: the ranking alone locates candidate
        # families (no relevance decision); each version is then checked to name it
        held = self.ctx.engine.rank(" ".join(subject.terms), every, top=8 * top) \
            if subject else found
        if subject:  # "… are scheduled tasks possible?": no candidate page says
            # "possible", so it is how the question asks, not what it asks about
            read = self.versions.read_blocks([b.block_id for b in held.blocks[:2 * top]])
            subject = subject.held_by(list(read.values()))
        families = list(dict.fromkeys(b.family for b in [*held.blocks, *found.blocks]))
        metas = [m for f in families for m in self.versions.versions_of(f, readable, product)
                 if (m.release_scoped or m.date_scoped) and m.kind is not DocKind.NOTES]
        line = [m for m in self.versions.released(readable, product)
                if m.kind is not DocKind.NOTES]  # notes are read as notes (`_notes`)
        if subject.identifiers and len(line) <= MAX_SCANNED:  # a name is read in every page
            metas = list({m.source_id: m for m in [*metas, *line]}.values())
        kind = q.said.change_kind
        steps = axis_steps(self.versions, metas, subject, readable) if metas and subject else []
        pages = page_notes(steps, kind)
        noted_ = _notes(self.versions, [*held.blocks, *found.blocks], subject, readable)
        stating = [n for n in noted_ if states(n[1], subject, kind)]
        notes = [*pages, *_of_kind(noted_, stating, kind, subject)]
        result = walk(steps, kind)
        unseen = unseen_before(self.versions, result, subject, readable) if result else None
        notes = _with_mention(notes, unseen)
        return Sought(found, result, notes,
                      _stating([*(n for n in pages if heads(n[1], subject)), *stating], kind),
                      as_typed(subject.said(), q.slips), kind, any(x.block for x in steps),
                      unseen=unseen)

    def _notes_only(self, notes: list, stated: tuple | None, subject: str, kind: Kind,
                    situation: Situation, lang: Lang, result: SearchResult) -> Answer:
        """The versions do not show it; the documents' own notes do: say both. A note that
        states the change leads with its release ("“proxies” was deprecated in version 0.26.0,
        as the documents' own notes say"), the others' mentions after it."""
        others = [n for n in notes if stated is None or n[0] != stated[0]]
        supplied = pack([b for _, b in ([stated] if stated else []) + others[:3]],
                        self.ctx.budget_of)
        label = {s.evidence.block_id: s.evidence.label for s in supplied}
        text = _unshown_text(stated, others, subject, _verb(kind, lang), label, lang)
        out = AppearanceOut(
            kind=kind.value, subject=subject, release=stated[0] if stated else None,
            source_id=(stated or notes[0])[1].source_id, basis=Basis.NOTES.value,
            pages_release=None, previous_release=None, previous_source_id=None,
            effective=None, notes=_notes_out(notes, label), agrees=None)
        return self._cited(text, supplied, out, situation, lang, result)

    def _stated(self, found: Found, stated: tuple, notes: list, subject: str,
                situation: Situation, lang: Lang, result: SearchResult,
                unseen: Unseen | None) -> Answer:
        """A note states the change at a release the pages do not show it at, outside their
        window or inside it (a release with no page of its own): the note leads, the pages' own
        finding follows, all cited."""
        release, note = stated
        supplied = pack([note, *_shown(found)], self.ctx.budget_of)
        label = {s.evidence.block_id: s.evidence.label for s in supplied}
        lead = w.fixed("notes_state", lang, x=subject, verb=_verb(found.kind, lang), v=release,
                       ref=_ref(note, label))
        text = lead + _pages_text(found, subject, label, lang, self.versions.timezone,
                                  unseen and Unseen(None))  # the note said how far back
        out = AppearanceOut(
            kind=found.kind.value, subject=subject, release=release, source_id=note.source_id,
            basis=Basis.NOTES.value, pages_release=found.at.meta.version,
            previous_release=None, previous_source_id=None, effective=None,
            notes=_notes_out(notes, label), agrees=_agrees(found, [release]))
        return self._cited(text, supplied, out, situation, lang, result)

    def _cited(self, text: str, supplied: list, out: AppearanceOut, situation: Situation,
               lang: Lang, result: SearchResult) -> Answer:
        """The answer's labels made links by the citation parser (an unknown one withholds),
        with the appearance beside it."""
        evidence = evidence_of(supplied)
        parsed = parse_citations(text, evidence, links_of(supplied), lang)
        return assemble.cited(parsed.status, parsed.answer, parsed.citations, situation,
                              evidence, budget=self.ctx.budget_out(evidence), appearance=out,
                      relevance=self.ctx.relevance(result))

    def _answer(self, found: Found, notes: list, subject: str, situation: Situation, lang: Lang,
                result: SearchResult, unseen: Unseen | None) -> Answer:
        at, before = found.at, found.before
        supplied = pack([*_shown(found), *(b for _, b in notes[:2])], self.ctx.budget_of)
        label = {s.evidence.block_id: s.evidence.label for s in supplied}
        text = _pages_text(found, subject, label, lang, self.versions.timezone, unseen)
        agrees = _agrees(found, [r for r, _ in notes]) if notes else None
        if notes:
            disagrees = not agrees and _contradicts(found, [r for r, _ in notes])
            text += " " + _notes_text(notes, label, disagrees, lang)
        out = AppearanceOut(
            kind=found.kind.value, subject=subject, release=at.meta.version,
            source_id=at.meta.source_id, basis=Basis.PAGES.value, pages_release=at.meta.version,
            previous_release=before.meta.version if before else None,
            previous_source_id=before.meta.source_id if before else None,
            effective=at.meta.valid_from.isoformat() if at.meta.valid_from else None,
            notes=_notes_out(notes, label), agrees=agrees)
        return self._cited(text, supplied, out, situation, lang, result)


def _notes(versions: Versions, ranked: list, subject: Subject, readable: Filter) -> list:
    """(release, block) of the notes among the ranked blocks' documents: release notes
    (`loaders.notes`), and the sections of an unversioned document headed by a release."""
    sources = list(dict.fromkeys(b.source_id for b in ranked))
    metas = {sid: versions.meta(sid) for sid in sources if is_note(versions, sid)}
    blocks = [b for sid in metas for b in versions.blocks_of(sid, readable)]
    return noted(blocks, subject, lambda b: notes_release(
        metas[b.source_id], (*b.path, b.title)) or path_release((*b.path, b.title)))


def _with_mention(notes: list, unseen: Unseen | None) -> list:
    """The notes, the oldest that names a thing found where the pages begin first."""
    mention = unseen.mention if unseen is not None else None
    return [mention, *notes] if mention is not None and mention not in notes else notes


def _shown(found: Found) -> list[Block]:
    """The blocks a finding cites: the version's that carries it (else its first), and the
    version before's and the version it is gone from, where there are those."""
    steps = [found.at, *(s for s in (found.before, found.gone) if s is not None)]
    return [b for b in (step.block or step.first for step in steps) if b is not None]


def _ref(block: Block, label: dict[str, str]) -> str:
    return f" [{label[block.block_id]}]" if block.block_id in label else ""


def _unshown_text(stated: tuple | None, others: list, subject: str, verb: str, label: dict,
                  lang: Lang) -> str:
    """No page shows it: the note that states it leads with its release, else the pages are
    said not to show it; the other notes' mentions follow."""
    lead = w.fixed("pages_unshown", lang, x=subject, verb=verb) if stated is None else w.fixed(
        "notes_state_alone", lang, x=subject, verb=verb, v=stated[0], ref=_ref(stated[1], label))
    return f"{lead} {_notes_text(others, label, False, lang)}" if others else lead


def _pages_text(found: Found, subject: str, label: dict, lang: Lang, tz: str,
                unseen: Unseen | None) -> str:
    """What the pages show: “X” first appears in version 0.23.3 [S1]; version 0.22.0, the
    version before it, does not have it [S2]. Or, found where they begin (`unseen`): “X” is
    already in version 0.13.3, the oldest version the pages show [S1]; the release notes go
    back to version 0.6.0, so it may be older."""
    at, before = found.at, found.before
    a_block = at.block or at.first
    a = label.get(a_block.block_id, "") if a_block is not None else ""
    if unseen is not None:
        older = w.fixed("older_notes", lang, v=unseen.notes_from) if unseen.notes_from else ""
        return w.fixed("appears_oldest", lang, x=subject, at=version_name(at.meta, lang, tz),
                       a=a, older=older) + _gone_text(found, label, lang, tz)
    b_block = ((before.block or before.first) if before is not None else None)
    before_text = w.fixed(
        f"before_{found.kind.value}", lang, at=version_name(before.meta, lang, tz),
        a=label.get(b_block.block_id, "")) \
        if before is not None and b_block is not None and b_block.block_id in label else ""
    return w.fixed(f"appears_{found.kind.value}", lang, x=subject,
                   at=version_name(at.meta, lang, tz), a=a,
                   before=before_text) + _gone_text(found, label, lang, tz)


def _gone_text(found: Found, label: dict, lang: Lang, tz: str) -> str:
    """" It is gone again from version 0.28.1 [S3]." where the pages stop showing it for good."""
    gone = found.gone
    block = (gone.block or gone.first) if gone is not None else None
    if gone is None or block is None or block.block_id not in label:
        return ""
    return " " + w.fixed("gone_from", lang, at=version_name(gone.meta, lang, tz),
                         a=label[block.block_id])


def _stating(notes: list, kind: Kind) -> tuple | None:
    """The (release, block) of the note whose release answers, among those that state the
    change (their releases are versions already: `noted`, `page_notes`): the earliest, but
    for a removal the latest, after which it is gone (httpx dropped `proxies` from its
    top-level functions in 0.7.6, took it back in 0.14.2 and removed it in 0.28.0)."""
    if not notes:
        return None
    pick = max if kind is Kind.REMOVED else min
    return pick(notes, key=lambda n: releases.parse(n[0]))


def _notes_out(notes: list, label: dict[str, str]) -> list[NoteOut]:
    return [NoteOut(release=r, source_id=b.source_id, label=label.get(b.block_id))
            for r, b in notes]


def _same_release(found: Found, release: str) -> bool:
    """The note's release is the version the pages first show it at."""
    at = releases.parse_or_none(found.at.meta.version)
    return at is not None and at == releases.parse_or_none(release)


def _agrees(found: Found, stated: list[str]) -> bool:
    """A note agrees when its release (`stated`) lies after the version before and up to the
    version found (the pages exist at some releases only)."""
    hi, lo = releases.parse_or_none(found.at.meta.version), releases.parse_or_none(
        found.before.meta.version if found.before else None)
    named = [releases.parse_or_none(r) for r in stated]
    return hi is not None and any(r is not None and (lo is None or lo < r) and r <= hi
                                  for r in named)


def _contradicts(found: Found, mentioned: list[str]) -> bool:
    """Every note that mentions it is at or before the version before, which the pages show
    without it. A mention after the version found says it still exists, which is no
    disagreement ("The default quality is now 80" under 2.0 for a `--quality` of 1.0)."""
    lo = releases.parse_or_none(found.before.meta.version if found.before else None)
    named = [releases.parse_or_none(r) for r in mentioned]
    return lo is not None and all(r is not None and r <= lo for r in named)


def _notes_text(notes: list, label: dict, disagrees: bool, lang: Lang) -> str:
    """The releases the first notes mention it under, each once (the cited block of it)."""
    first: dict[str, str] = {}
    for r, b in notes[:3]:
        if not first.get(r):
            first[r] = _ref(b, label)
    said = ", ".join(r + ref for r, ref in first.items())
    tail = w.fixed("notes_disagree", lang) if disagrees else ""
    return w.fixed("notes_mention", lang, said=said, tail=tail)


def _of_kind(notes: list, stating: list, kind: Kind, subject: Subject) -> list:
    """The notes that state the change (`stating`, decided by `states`) or have a line that
    says the subject and this kind of change together ("The deprecated `proxies` argument has
    now been removed" for "removed"); for "added", else every note that carries the
    subject."""
    def says(block: Block) -> bool:
        return any(says_kind(line, kind) and carries_line(line, subject)
                   for line in sentences_of(block.text))
    said = [n for n in notes if n in stating or says(n[1])]  # `stating`: decided once
    return said or (notes if kind is Kind.ADDED else [])


__all__ = ["AppearanceSteps", "Sought"]

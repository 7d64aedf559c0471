"""The routers of the questions about versions (docs/design.md "The router"), `Router`s like the
evidence router:

* `versions`: what changed, which versions there are. Its rules read a `VersionContext` (the
  question's reading and the probes the version steps answer: the release only notes hold, the
  lines asked about, the notes that say what a release changed, the release line asked about)
  and decide, in order: the release line itself, a date without its year, a release or product
  the caller has none of, the release notes, which document, which product, nothing
  versioned, one version each, answer.
* `appearance`: where something first appears. Its rules read what the search for it found
  (`AppearanceContext`): nothing holds it, or answer.

The version steps (`chains.versions.history_steps`, `appearance_steps`) compute the facts; every
stop is said here."""

from __future__ import annotations

import dataclasses
from functools import cached_property, partial
from typing import Protocol

from situated.chains.context import StepContext
from situated.chains.decision import Decision, Probes
from situated.chains.read.change_kind import Kind
from situated.chains.read.intent import Intent
from situated.chains.routing.probing import ProbeContext
from situated.chains.routing.release_rules import ReleaseLines, unbound_product, unknown_release
from situated.chains.routing.router import Router
from situated.chains.routing.rules import Rule
from situated.chains.say import wording as w
from situated.chains.state import Lines, LinesStop, Reading
from situated.documents import PRODUCT, DocumentMeta
from situated.loaders.neutralise import inline
from situated.situation import Situation

SHOWN_DOCUMENTS = 8  # documents a "which document" question names (then "…")


class VersionFacts(Protocol):
    """What the version rules read of the version steps (`versions.history_steps.HistorySteps`,
    wired in by `chains.steps`), each run as a probe."""

    @property
    def releases(self) -> ReleaseLines: ...

    def noted(self, reading: Reading) -> str | None:
        """The release a change question names that only readable notes hold, or None."""

    def lines(self, reading: Reading) -> Lines:
        """The lines the question is about, or why none (`versions.history.find_lines`)."""

    def notes(self, reading: Reading, lines: Lines) -> tuple[DocumentMeta, ...]:
        """The release notes that say what the asked releases changed, where they answer."""

    def release_line(self, reading: Reading) -> tuple | None:
        """The release lines a question about the line itself reads, or None."""

    def one_version_each(self, lines: Lines) -> tuple[str, ...]:
        """The documents asked about, where each has one version and no dates (else ())."""


class VersionContext(ProbeContext):
    """One question about versions as its rules read it (built before the decision to run the
    probes, and again to decide)."""

    PROBES = ("noted", "lines", "notes", "release_line")

    def __init__(self, step: StepContext, reading: Reading, probes: Probes = Probes(),
                 searching: bool = False, *, facts: VersionFacts):
        self.step, self.asked, self.facts = step, reading, facts
        self.question, self.validated = reading.question, reading.validated
        self.lang = reading.question.lang
        super().__init__(probes, searching)

    @cached_property
    def unknown(self) -> Decision | None:
        """The release or product the question gives that the caller has none of (said with
        the nearest releases, or the products there are)."""
        q, v = self.question, self.validated
        return unbound_product(q, v) or unknown_release(self.facts.releases, q, v)

    @cached_property
    def noted(self) -> str | None:
        """The unknown release of a change question, where readable notes hold it."""
        v = self.validated
        if self.unknown is None or v.intent is not Intent.CHANGES or v.release.unknown is None:
            return None
        return self.probe("noted", lambda: self.facts.noted(self.asked))

    @cached_property
    def reading(self) -> Reading:
        """The reading the lines are read by: about the release the notes hold, if they do."""
        return self.asked if self.noted is None else with_release(self.asked, self.noted)

    @cached_property
    def lines(self) -> Lines:
        return self.probe("lines", lambda: self.facts.lines(self.reading))

    @cached_property
    def notes(self) -> tuple[DocumentMeta, ...]:
        if self.validated.intent is not Intent.CHANGES:
            return ()
        return self.probe("notes", lambda: self.facts.notes(self.reading, self.lines))

    @cached_property
    def release_line(self) -> tuple | None:
        if self.validated.intent is not Intent.VERSIONS:
            return None
        return self.probe("release_line", lambda: self.facts.release_line(self.asked))


def with_release(reading: Reading, release: str) -> Reading:
    """`reading` about `release`, which the notes hold though no page was written at it."""
    v = reading.validated
    return dataclasses.replace(reading, validated=dataclasses.replace(
        v, situation=v.situation.model_copy(update={"version": release}),
        release=dataclasses.replace(v.release, version=release, unknown=None)))


class TheReleaseLine(Rule[VersionContext]):
    """Which versions, the latest, does X exist, asked of the release line itself (no document
    named): answered from the line's metadata."""

    name = "the release line"
    probes = ("release_line",)

    def decide(self, ctx: VersionContext) -> Decision | None:
        return Decision.answer(()) if ctx.release_line else None


class YearUnsaid(Rule[VersionContext]):
    """A date without its year ("What changed in March?"): asked before anything is read."""

    name = "a date without its year"

    def decide(self, ctx: VersionContext) -> Decision | None:
        v, q = ctx.validated, ctx.question
        if not v.partial or v.periods or any(m.value for m in q.mentions):
            return None
        return Decision.clarify(["year"], w.fixed("ask_change_year", q.lang,
                                                  period=next(iter(v.partial.values()))))


class UnknownAsked(Rule[VersionContext]):
    """A release or product the caller has none of (`release_rules.unknown_release`), unless
    the question asks what changed in a release only the notes hold: read on at it."""

    name = "unknown release or product"
    probes = ("noted",)

    def decide(self, ctx: VersionContext) -> Decision | None:
        return None if ctx.noted is not None else ctx.unknown


class FromNotes(Rule[VersionContext]):
    """What changed in a release, from its release notes (`HistorySteps.notes`)."""

    name = "the release notes"
    probes = ("notes",)

    def decide(self, ctx: VersionContext) -> Decision | None:
        return Decision.answer(()) if ctx.notes else None


class WhichDocument(Rule[VersionContext]):
    """Several versioned documents could be meant and none is named: ask which, naming them."""

    name = "which document"
    probes = ("lines",)

    def decide(self, ctx: VersionContext) -> Decision | None:
        if ctx.lines.stop is not LinesStop.ASK_DOCUMENT:
            return None
        names = list(ctx.lines.names)
        shown = names if len(names) <= SHOWN_DOCUMENTS else [*names[:SHOWN_DOCUMENTS], "…"]
        return Decision.clarify(["document"], w.fixed(
            "ask_document", ctx.lang, names=w.listing([inline(n) for n in shown], ctx.lang)))


class WhichProduct(Rule[VersionContext]):
    """The document's lines belong to several products and the question names none."""

    name = "which product"
    probes = ("lines",)

    def decide(self, ctx: VersionContext) -> Decision | None:
        if ctx.lines.stop is not LinesStop.ASK_PRODUCT:
            return None
        return Decision.clarify(["product"], w.ask_facet(PRODUCT, list(ctx.lines.names),
                                                         ctx.lang))


class NothingVersioned(Rule[VersionContext]):
    """No versioned document the caller may read is relevant."""

    name = "nothing versioned"
    probes = ("lines",)

    def decide(self, ctx: VersionContext) -> Decision | None:
        if ctx.lines.stop is not LinesStop.NOTHING:
            return None
        product = ctx.reading.validated.situation.product
        return Decision.no_evidence(w.no_evidence_text(Situation(product=product), ctx.lang))


class OneVersionEach(Rule[VersionContext]):
    """A question about change whose documents each have one version, with no dates and no
    release: no history is recorded, so there is no change to show (said as such, not as a
    version that "took effect" on no date)."""

    name = "one version each"
    probes = ("lines",)

    def decide(self, ctx: VersionContext) -> Decision | None:
        if ctx.validated.intent is not Intent.CHANGES:
            return None
        names = ctx.facts.one_version_each(ctx.lines)
        if not names:
            return None
        return Decision.no_evidence(w.fixed("one_version", ctx.lang, line=w.listing(
            list(names), ctx.lang, w.fixed("and", ctx.lang))))


class AnswerVersions(Rule[VersionContext]):
    """The changes between the lines' versions, or their list."""

    name = "answer from the versions"

    def decide(self, ctx: VersionContext) -> Decision | None:
        return Decision.answer(())


class Sought(Protocol):
    """What the first-appearance search found, as its rules read it
    (`versions.appearance_steps.Sought`)."""

    @property
    def nothing(self) -> bool:
        """Neither a version nor a note shows the thing asked."""

    @property
    def held(self) -> bool:
        """Some version holds the thing, though none shows the asked change."""

    @property
    def said(self) -> str:
        """The thing as an answer says it (neutralised)."""

    @property
    def kind(self) -> Kind: ...


class AppearanceFinder(Protocol):
    """The first-appearance search (`versions.appearance_steps.AppearanceSteps.find`)."""

    def find(self, reading: Reading) -> Sought: ...


class AppearanceContext(ProbeContext):
    """One first-appearance question as its rules read it."""

    PROBES = ("sought",)

    def __init__(self, step: StepContext, reading: Reading, probes: Probes = Probes(),
                 searching: bool = False, *, finder: AppearanceFinder):
        self.step, self.reading, self.finder = step, reading, finder
        self.lang = reading.question.lang
        super().__init__(probes, searching)

    @cached_property
    def sought(self) -> Sought:
        return self.probe("sought", lambda: self.finder.find(self.reading))


class NothingHoldsIt(Rule[AppearanceContext]):
    """No version and no note shows the thing asked: no version has it at all, or versions
    have it but none shows the asked change. Said plainly, never the product's first
    release. The message quotes the thing neutralised (`Sought.said`)."""

    name = "nothing holds it"
    probes = ("sought",)

    def decide(self, ctx: AppearanceContext) -> Decision | None:
        sought = ctx.sought
        if not sought.nothing:
            return None
        if sought.held:
            return Decision.no_evidence(w.fixed("held_unshown", ctx.lang, x=sought.said,
                                                verb=w.fixed(f"verb_{sought.kind.value}",
                                                             ctx.lang)))
        return Decision.no_evidence(w.fixed("none_has", ctx.lang, x=sought.said))


class AnswerAppearance(Rule[AppearanceContext]):
    """Where the pages or the notes show it."""

    name = "answer where it appears"

    def decide(self, ctx: AppearanceContext) -> Decision | None:
        return Decision.answer(())


def appearance(step: StepContext, finder: AppearanceFinder) -> Router[AppearanceContext]:
    """The rules of a first-appearance question in their order."""
    return Router(step, (NothingHoldsIt(), AnswerAppearance()),
                  context=partial(AppearanceContext, finder=finder))


def versions(step: StepContext, facts: VersionFacts) -> Router[VersionContext]:
    """The rules of the questions about versions in their order (docs/design.md prints it)."""
    return Router(step, (
        TheReleaseLine(),
        YearUnsaid(),
        UnknownAsked(),
        FromNotes(),
        WhichDocument(),
        WhichProduct(),
        NothingVersioned(),
        OneVersionEach(),
        AnswerVersions(),
    ), context=partial(VersionContext, facts=facts))


__all__ = ["AnswerAppearance", "AnswerVersions", "AppearanceContext", "AppearanceFinder",
           "FromNotes", "NothingHoldsIt", "OneVersionEach", "Sought", "TheReleaseLine",
           "VersionContext", "VersionFacts", "appearance", "versions", "with_release"]

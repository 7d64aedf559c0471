"""The router's rules about releases (docs/design.md "Releases"): a release no readable document
has; an identifier the asked (or latest) release lacks while others have it; nothing relevant
in that release while others hold something; and, under `unnamed_release=clarify`, which version
when the releases say different things. Other releases are named, never quoted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from packaging.version import Version

from situated import releases
from situated.chains.decision import Decision, Route
from situated.chains.read.extract import Validated
from situated.chains.read.release import holds
from situated.chains.routing.context import RouteContext
from situated.chains.routing.rules import Rule
from situated.chains.say import wording as w
from situated.chains.say.release_text import ReleaseText
from situated.chains.say.release_words import ask_version_text, elsewhere_text, unknown_text
from situated.chains.state import Question
from situated.documents import DocumentMeta
from situated.loaders.axes import line_of
from situated.loaders.notes import pages_first
from situated.retrievers.filter import Filter
from situated.settings import UnnamedRelease

if TYPE_CHECKING:
    from situated.retrievers.hybrid import SearchResult


class ReleaseLines(Protocol):
    """What the release rules read of the release steps (`versions.release_steps.ReleaseSteps`,
    wired in by `chains.steps`): the caller's line of a product, its name, the hint that notes
    hold a release, and how far back a release text stands."""

    text: ReleaseText

    def line(self, q: Question, product: str | None) -> tuple[list[Version], list[tuple]]: ...

    def line_name(self, q: Question, product: str | None) -> str: ...

    def notes_hint(self, q: Question, product: str | None, said: str) -> str: ...


def unknown_release(steps: ReleaseLines, q: Question, v: Validated) -> Decision | None:
    """A question about a release no readable document has: say so, with the nearest (the
    first rule here, and the first stop of a question about versions). A release of a product
    the caller has none of ("Django version 5.0") names the products there are."""
    if v.release.said or v.release.unknown:
        unbound = unbound_product(q, v)
        if unbound is not None:
            return unbound
    said, product = v.release.unknown, v.situation.product
    if said is None or v.release.version is not None:
        return None
    declared, _ = steps.line(q, product)
    return Decision.no_evidence(unknown_text(said, steps.line_name(q, product), declared,
                                             q.lang) + steps.notes_hint(q, product, said))


def unbound_product(q: Question, v: Validated) -> Decision | None:
    """The question gives its release (or its versions) a product the caller has none of
    ("Django version 5.0", "the versions of Django"): no evidence naming the products there
    are, never another product's line."""
    if v.release.unbound is None:
        return None
    return Decision.no_evidence(w.fixed("unbound_product", q.lang, product=v.release.unbound,
                                        products=w.listing(list(q.matcher.products), q.lang,
                                                           w.fixed("and", q.lang))))


class UnknownRelease(Rule):
    """`unknown_release`."""

    name = "unknown release"

    def __init__(self, steps: ReleaseLines):
        self.steps = steps

    def decide(self, ctx: RouteContext) -> Decision | None:
        return unknown_release(self.steps, ctx.question, ctx.validated)


def _every_release(ctx: RouteContext) -> Filter:
    """The question's filter at every release (same scope and situation otherwise)."""
    return ctx.step.snap.filter(ctx.situation.model_copy(update={"version": None}),
                                ctx.question.scope)


def _released(ctx: RouteContext) -> bool:
    return bool(ctx.versions.released(ctx.step.readable(ctx.question.scope),
                                      ctx.situation.product))


def _latest(ctx: RouteContext, holding: list[DocumentMeta]) -> str | None:
    """The latest release the caller may read of the lines `holding` belong to (a line is a
    family: another family's higher numbers are not this one's latest)."""
    lines = {line_of(m) for m in holding if m.release_scoped}
    declared = [releases.parse(m.version)
                for m in ctx.versions.released(ctx.step.readable(ctx.question.scope))
                if m.version is not None and line_of(m) in lines]
    return str(max(declared)) if declared else None


def _elsewhere(ctx: RouteContext, holding: list[DocumentMeta]) -> Decision | None:
    """No evidence for the asked (or latest) release, naming the other releases that hold it."""
    asked = ctx.situation.version or _latest(ctx, holding)
    having = sorted({releases.parse(m.version) for m in holding if m.version is not None}
                    - ({releases.parse(asked)} if asked else set()))
    if asked is None or not having:
        return None
    return Decision.no_evidence(elsewhere_text(asked, ctx.situation.version is None, having,
                                               ctx.lang))


class LackingInRelease(Rule):
    """Where the router would answer or find nothing, the question names an identifier no
    release document of the asked (or latest) release holds — among the found blocks'
    families and a ranking for it — while other releases' documents do: no evidence for that
    release, naming those releases (the answer would quote something else). An unversioned
    document (a changelog written at the last release) says nothing of what a release has."""

    name = "the release lacks it"

    def _applies(self, ctx: RouteContext) -> list[str]:
        if not ctx.release_read or ctx.evidence_route is Route.CLARIFY:
            return []
        names = list(ctx.question.said.identifiers)
        return names if names and _released(ctx) else []

    def _ranked(self, ctx: RouteContext, name: str) -> SearchResult:
        top = 3 * ctx.step.settings.top_blocks
        # the ranking alone locates candidates (no relevance decision): each is then checked
        # to name it, word for word, before it counts
        return ctx.probe(f"ranked {name}", lambda: ctx.step.engine.rank(
            name, _every_release(ctx), top=top))

    def probe(self, ctx: RouteContext) -> None:
        for name in self._applies(ctx):
            self._ranked(ctx, name)

    def decide(self, ctx: RouteContext) -> Decision | None:
        readable = ctx.step.readable(ctx.question.scope)
        found = ctx.evidence_found
        families = list(dict.fromkeys(b.family for b in found.blocks))
        for name in self._applies(ctx):
            ranked = self._ranked(ctx, name)
            among = list(dict.fromkeys([*families, *(b.family for b in ranked.blocks)]))
            holding = pages_first([
                m for f in among for m in ctx.versions.versions_of(f, readable)
                if m.release_scoped and any(holds(b.text, name) for b in
                                            ctx.versions.blocks_of(m.source_id, readable))])
            if any(found.filter.admits(ctx.versions.fields_of(m.source_id)) for m in holding):
                continue
            decision = _elsewhere(ctx, holding)
            if decision is not None:
                return decision
        return None


class ElsewhereRelease(Rule):
    """Nothing relevant in the asked (or latest) release: when other releases hold something
    relevant, no evidence *for that release*, naming the releases that do."""

    name = "in other releases"

    def _applies(self, ctx: RouteContext) -> bool:
        return (ctx.release_read and ctx.evidence_route is Route.NO_EVIDENCE
                and _released(ctx))

    def _other(self, ctx: RouteContext) -> SearchResult:
        top = 3 * ctx.step.settings.top_blocks
        return ctx.probe("every release", lambda: ctx.step.search(
            ctx.reading.query, _every_release(ctx), top, topic=ctx.reading.topic))

    def probe(self, ctx: RouteContext) -> None:
        if self._applies(ctx):
            self._other(ctx)

    def decide(self, ctx: RouteContext) -> Decision | None:
        if not self._applies(ctx):
            return None
        other = self._other(ctx)
        return _elsewhere(ctx, pages_first([ctx.versions.meta(b.source_id)
                                            for b in other.blocks]))


class WhichRelease(Rule):
    """`unnamed_release=clarify`: a question that names no release, answered from release
    documents of which one of the first three blocks does not stand word for word in every
    readable release of its line, asks which version instead of reading the latest (the
    setting is for documents where quoting the wrong release is dangerous)."""

    name = "which release"

    def __init__(self, steps: ReleaseLines):
        self.steps = steps

    def decide(self, ctx: RouteContext) -> Decision | None:
        if (ctx.step.settings.unnamed_release is not UnnamedRelease.CLARIFY
                or not ctx.release_read or ctx.situation.version is not None):
            return None
        supply = ctx.answer.supply[:3]
        read = ctx.versions.read_blocks(list(supply))
        for block_id in supply:  # any release text the answer would quote
            stands = self.steps.text.stands(ctx.question, [read[block_id]]
                                            if block_id in read else [])
            if stands is not None and not stands.everywhere:
                return Decision.clarify(["version"], ask_version_text(
                    stands.meta.family or stands.meta.source_id,
                    [releases.parse(m.declared_version) for m in stands.members], ctx.lang))
        return None  # no release document, or the same text in every release


__all__ = ["ElsewhereRelease", "LackingInRelease", "ReleaseLines", "UnknownRelease", "WhichRelease",
           "unbound_product", "unknown_release"]

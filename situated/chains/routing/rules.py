"""The router's rules about the search itself (docs/design.md "The router"), one class each: a
rule reads the `RouteContext` and decides, or passes (None). `router.standard` gives their
order; the rules about releases are in `release_rules`."""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from situated.chains.decision import Decision
from situated.chains.routing import evidence as ev
from situated.chains.routing.context import RouteContext
from situated.chains.routing.probing import ProbeContext
from situated.chains.say import wording as w

Ctx = TypeVar("Ctx", bound=ProbeContext)


class Rule(Generic[Ctx]):
    """One rule of a router whose context is `Ctx` (`RouteContext` by default, the questions
    about versions' `version_rules.VersionContext`): `probe` asks for the searches `decide`
    will read (run before the decision); `decide` returns a decision or None to pass to the
    next rule."""

    name: ClassVar[str]
    # the context's probes `decide` reads, by name (`ProbeContext.PROBES`)
    probes: ClassVar[tuple[str, ...]] = ()

    def probe(self, ctx: Ctx) -> None:
        """Run the searches `decide` will read: the declared `probes` (a rule whose searches
        depend on the question declares them here instead)."""
        for name in self.probes:
            ctx.run_probe(name)

    def decide(self, ctx: Ctx) -> Decision | None:
        raise NotImplementedError


class NotRecorded(Rule):
    """"As known on D" about a record made after D (`evidence.not_yet_recorded`)."""

    name = "not yet recorded"
    probes = ("unlimited",)  # the search without "as known on"

    def decide(self, ctx: RouteContext) -> Decision | None:
        return ev.not_yet_recorded(ctx.versions, ctx.unlimited, ctx.found, ctx.situation,
                                   ctx.reading.query, ctx.lang)


class NotInForce(Rule):
    """The question is about a family none of whose versions applies on the asked day."""

    name = "not in force"
    probes = ("undated",)  # the search without the dates

    def decide(self, ctx: RouteContext) -> Decision | None:
        return ctx.gone


class NothingRelevant(Rule):
    """No block the caller may read is relevant: say so, naming what nothing holds."""

    name = "nothing relevant"

    def decide(self, ctx: RouteContext) -> Decision | None:
        if ctx.found.blocks:
            return None
        return Decision.no_evidence(w.no_evidence_text(
            ctx.situation, ctx.lang, list(ctx.found.missing), list(ctx.found.absent)))


class AboutSomethingElse(Rule):
    """Where the router would ask, a question naming something, in more than one word, that no
    readable document spells out is about something else: no product or date the asker could
    give answers it ("What does the Apple Music subscription agreement say about family
    sharing?"). Only where it would ask: where it answers, a name spelt otherwise ("East
    Germany" for "East German") is for the relevance rule."""

    name = "about something else"
    probes = ("unspelt",)  # the names no readable document spells out

    def decide(self, ctx: RouteContext) -> Decision | None:
        if not (ctx.evidence_clarifies and ctx.unspelt):
            return None
        return Decision.no_evidence(w.no_evidence_text(ctx.situation, ctx.lang,
                                                       list(ctx.unspelt)), unheld=ctx.unspelt)


class WhichOne(Rule):
    """The best block depends on a missing fact (a product, a facet, a date): ask for it,
    naming what separates the candidates."""

    name = "which one"

    def decide(self, ctx: RouteContext) -> Decision | None:
        if not ctx.dependent or ctx.same_text is not None:
            return None
        best = ctx.metas[0]
        facts = ev.order_facts(ctx.dependent, ev.facets_of(ctx.versions, best))
        return ev.clarify(ctx.versions, best, facts, ctx.found.filter, ctx.lang,
                          ctx.validated.partial, ctx.validated.unplaced)


class PeriodChange(Rule):
    """A month, quarter or year was asked about and the rule changed inside it: ask which
    side of the change."""

    name = "changed within the period"

    def decide(self, ctx: RouteContext) -> Decision | None:
        return ctx.period


class SameText(Rule):
    """Only a date is missing and the best block says the same in every readable version:
    answer, saying the text stands in every version."""

    name = "the same in every version"

    def decide(self, ctx: RouteContext) -> Decision | None:
        return ctx.same_text


class AnswerFromWhatApplies(Rule):
    """Answer from the blocks that depend on nothing missing, saying what was left out."""

    name = "answer"

    def decide(self, ctx: RouteContext) -> Decision | None:
        return ctx.answer


class EveryRelevantBlock(Rule):
    """An evaluation baseline's one rule: every relevant block may be used, nothing asked."""

    name = "every relevant block"

    def decide(self, ctx: RouteContext) -> Decision | None:
        return Decision.answer(tuple(b.block_id for b in ctx.found.blocks))


__all__ = ["AboutSomethingElse", "AnswerFromWhatApplies", "EveryRelevantBlock",
           "NotInForce", "NotRecorded", "NothingRelevant", "PeriodChange", "Rule", "SameText",
           "WhichOne"]

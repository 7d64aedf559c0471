"""What every rule of the evidence router reads (`RouteContext`): the question's reading, its
search, the facts the version rules derive from them (each computed once, when a rule first
asks), and the probes (`probing.ProbeContext`): the searches a rule needs beyond the question's
own, run in the retrieve step and read back in the route step.
"""

from __future__ import annotations

from functools import cached_property

from situated.chains.context import StepContext
from situated.chains.decision import Decision, Probes, Route
from situated.chains.routing import evidence as ev
from situated.chains.routing.probing import ProbeContext
from situated.chains.state import Reading
from situated.documents import DocumentMeta, ValidFor
from situated.retrievers.hybrid import SearchResult
from situated.situation import Situation


class RouteContext(ProbeContext):
    """One question's reading and search, read by every rule (built in the retrieve step to
    run the probes and in the route step to decide)."""

    def __init__(self, step: StepContext, reading: Reading, found: SearchResult,
                 probes: Probes = Probes(), searching: bool = False):
        self.step, self.reading, self.found = step, reading, found
        self.versions, self.lang = step.versions, reading.question.lang
        self.question, self.validated = reading.question, reading.validated
        self.situation: Situation = reading.validated.situation
        super().__init__(probes, searching)

    # -- the probes (`PROBES`: what a rule may declare, `Rule.probes`) ------------------------

    PROBES = ("undated", "unlimited", "unspelt")

    @cached_property
    def undated(self) -> SearchResult | None:
        """The search without the dates given, unless its result holds every family named."""
        named = self.question.named
        if not any(self.situation.given(vf) for vf in ValidFor) or (
                named and named <= {b.family for b in self.found.blocks}):
            return None
        return self.probe("undated", lambda: self.step.search(
            self.reading.query, self.step.snap.filter(Situation(product=self.situation.product),
                                                      self.question.scope),
            self.step.settings.top_blocks, topic=self.reading.topic))

    @cached_property
    def unlimited(self) -> SearchResult | None:
        """The same search without "as known on" (same scope), when the question gives it."""
        if self.situation.known_on is None:
            return None
        unlimited = self.situation.model_copy(update={"known_on": None})
        return self.probe("unlimited", lambda: self.step.search(
            self.reading.query, self.step.snap.filter(unlimited, self.question.scope,
                                                      latest_release=True),
            self.step.settings.top_blocks, topic=self.reading.topic))

    @cached_property
    def unspelt(self) -> tuple[str, ...]:
        """Names of several words nothing readable spells out, where the router would ask."""
        if not self.evidence_clarifies:
            return ()
        return tuple(self.probe("unspelt", lambda: self.step.engine.named.unspelt(
            self.reading.query, self.question.scope)))

    # -- what the version rules derive ---------------------------------------------------------

    @cached_property
    def release_read(self) -> bool:  # the search read one release (named, or the latest)
        return self.found.filter.release is not None or self.found.filter.latest_only

    @cached_property
    def metas(self) -> list[DocumentMeta]:
        return [self.versions.meta(b.source_id) for b in self.found.blocks]

    @cached_property
    def facts_of(self) -> list[list[str]]:
        """Per block, the missing facts that decide whether its document applies."""
        return [ev.deciding(self.versions, m, self.situation, self.found.filter)
                for m in self.metas]

    @cached_property
    def dependent(self) -> set[str]:
        """The facts the best block and its family's versions found depend on (empty: none)."""
        if not self.found.blocks or not self.facts_of[0]:
            return set()
        best = self.found.blocks[0].family
        return {x for b, f in zip(self.found.blocks, self.facts_of, strict=True)
                if b.family == best for x in f}

    @cached_property
    def same_text(self) -> Decision | None:
        """Only a date is missing and the best block says the same in every version."""
        if not self.dependent:
            return None
        return ev.date_does_not_decide(self.versions, self.found, self.metas, self.facts_of,
                                       self.dependent, self.lang)

    @cached_property
    def period(self) -> Decision | None:
        """A period was asked about and the rule changed inside it."""
        if not self.found.blocks or self.dependent:
            return None
        return ev.period_change(self.versions, [m for _, m in self._supply], self.situation,
                                self.validated.periods, self.found.filter, self.lang)

    @cached_property
    def gone(self) -> Decision | None:
        """The question is about a family none of whose versions was in force that day."""
        return ev.not_in_force(self.versions, self.undated, self.found, self.situation,
                               self.lang, self.question.named)

    @cached_property
    def evidence_clarifies(self) -> bool:
        """The search alone would have the router ask for a missing fact."""
        return (self.gone is None and bool(self.found.blocks)
                and ((bool(self.dependent) and self.same_text is None)
                     or self.period is not None))

    @cached_property
    def evidence_route(self) -> Route:
        """What the search alone decides, before the release rules have their say."""
        if self.gone is not None or not self.found.blocks or (
                self.evidence_clarifies and self.unspelt):
            return Route.NO_EVIDENCE
        return Route.CLARIFY if self.evidence_clarifies else Route.ANSWER

    @cached_property
    def evidence_found(self) -> SearchResult:
        """The search as the release rules read it: dropped when it is about something else."""
        if self.evidence_clarifies and self.unspelt:
            return SearchResult.empty(self.found.filter, self.unspelt)
        return self.found

    @cached_property
    def _supply(self) -> list[tuple[str, DocumentMeta]]:
        return [(b.block_id, m) for b, m, f in
                zip(self.found.blocks, self.metas, self.facts_of, strict=True) if not f]

    @cached_property
    def answer(self) -> Decision:
        """The same text's answer, or the blocks that depend on nothing missing."""
        if self.same_text is not None:
            return self.same_text
        return ev.answer_from(self.versions, self._supply, self.found, self.metas,
                              self.facts_of, self.situation, self.lang)


__all__ = ["RouteContext"]

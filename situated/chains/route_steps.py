"""Search and route (`EvidenceSteps`): one search for the question, then the one router
(`route.decide`) with the checks that need a search of their own (a family not in force on the
asked day, "as known on" a day before the record, an identifier the asked release lacks)."""

from __future__ import annotations

import logging

from situated.chains.context import StepContext
from situated.chains.release_steps import ReleaseSteps
from situated.chains.route import Decision, Route, about_something_else, decide, not_yet_recorded
from situated.chains.state import Reading, Retrieved, Routed
from situated.documents import ValidFor
from situated.retrievers.hybrid import SearchResult
from situated.situation import Situation

log = logging.getLogger("situated.ask")


class EvidenceSteps:
    """Bound to one chain's `StepContext` and its release steps."""

    def __init__(self, ctx: StepContext, releases: ReleaseSteps):
        self.ctx, self.releases = ctx, releases

    def retrieve(self, reading: Reading) -> Retrieved:
        """One search; a document family the question names ("… Privacy Policy say …") leads
        the evidence with its best blocks, taken from that search's candidates when it has
        them, else searched within the same filter."""
        top, q = self.ctx.settings.top_blocks, reading.question
        flt = self.ctx.snap.filter(reading.validated.situation, q.scope, latest_release=True)
        lead = (top + 1) // 2
        result = self.ctx.search(reading.query, flt, top + lead if q.named else top,
                                 further=self.ctx.settings.fill_blocks)
        if not q.named:
            return self._with_deeper(reading, result, result.head(top))
        found = result.only([b.block_id for b in result.blocks if b.family in q.named][:lead])
        if not found.blocks:
            sources = self.ctx.versions.sources(q.named)
            found = self.ctx.search(reading.query,
                                    flt.model_copy(update={"sources": sources}), lead)
        return self._with_deeper(reading, result, result.head(top).led_by(found, top))

    def _with_deeper(self, reading: Reading, result: SearchResult,
                     found: SearchResult) -> Retrieved:
        """`found` routed on; `result`'s other blocks, relevant first, then those ranked below
        them (at most `fill_blocks`), kept as further evidence."""
        kept = {b.block_id for b in found.blocks}
        deeper = [b for b in [*result.blocks, *result.further] if b.block_id not in kept]
        return Retrieved(reading, found, deeper=tuple(deeper[: self.ctx.settings.fill_blocks]))

    def route(self, retrieved: Retrieved) -> Routed:
        reading, found = retrieved.reading, retrieved.found
        v, q = reading.validated, reading.question
        shadow = None
        if any(v.situation.given(vf) for vf in ValidFor) and not _holds(found, q.named):
            # the same search without the dates: was the question about a family not in force?
            undated = self.ctx.snap.filter(Situation(product=v.situation.product), q.scope)
            shadow = self.ctx.search(reading.query, undated, self.ctx.settings.top_blocks)
        decision = self.releases.unknown(q, v) or self._not_recorded(reading, found)
        if decision is None:
            decision = decide(self.ctx.versions, found, v, q.lang, q.named, shadow)
            if decision.route is Route.CLARIFY:
                unspelt = self.ctx.engine.named.unspelt(reading.query, q.scope)
                decision, found = about_something_else(decision, found, unspelt, v.situation,
                                                       q.lang)
            decision = self.releases.redirect(reading, found, decision)
        log.debug("route=%s blocks=%s", decision.route.value, [b.block_id for b in found.blocks])
        return Routed(reading, found, decision, deeper=retrieved.deeper)

    def _not_recorded(self, reading: Reading, found: SearchResult) -> Decision | None:
        """"As known on D" about a record made after D (`route.not_yet_recorded`)."""
        v, q = reading.validated, reading.question
        if v.situation.known_on is None:
            return None
        unlimited = self.ctx.snap.filter(v.situation.model_copy(update={"known_on": None}),
                                         q.scope, latest_release=True)
        shadow = self.ctx.search(reading.query, unlimited, self.ctx.settings.top_blocks)
        return not_yet_recorded(self.ctx.versions, shadow, found, v.situation, reading.query,
                                q.lang)


def _holds(found: SearchResult, named: frozenset[str]) -> bool:
    """The dated result holds a version of every family the question names: those families
    are in force on the asked day, so no search without the dates is needed to tell."""
    return bool(named) and named <= {b.family for b in found.blocks}


__all__ = ["EvidenceSteps"]

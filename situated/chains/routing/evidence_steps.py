"""Search and route (`EvidenceSteps`): one search for the question and the searches the router's
rules declare (their probes: a family not in force on the asked day, "as known on" a day before
the record, an identifier the asked release lacks), then the router's first rule to decide."""

from __future__ import annotations

import logging

from situated.chains.context import StepContext
from situated.chains.routing.router import Router
from situated.chains.state import Reading, Retrieved, Routed
from situated.retrievers.hybrid import SearchResult

log = logging.getLogger("situated.ask")


class EvidenceSteps:
    """Bound to one chain's `StepContext` and its router."""

    def __init__(self, ctx: StepContext, router: Router):
        self.ctx, self.router = ctx, router

    def retrieve(self, reading: Reading) -> Retrieved:
        """One search; a document family the question names ("… Privacy Policy say …") leads
        the evidence with its best blocks, taken from that search's candidates when it has
        them, else searched within the same filter."""
        top, q = self.ctx.settings.top_blocks, reading.question
        flt = self.ctx.snap.filter(reading.validated.situation, q.scope, latest_release=True)
        lead = (top + 1) // 2
        result = self.ctx.search(reading.query, flt, top + lead if q.named else top,
                                 further=self.ctx.settings.fill_blocks, topic=reading.topic)
        if not q.named:
            return self._with_deeper(reading, result, result.head(top))
        found = result.only([b.block_id for b in result.blocks if b.family in q.named][:lead])
        if not found.blocks:
            sources = self.ctx.versions.sources(q.named)
            found = self.ctx.search(reading.query,
                                    flt.model_copy(update={"sources": sources}), lead,
                                    topic=reading.topic)
        return self._with_deeper(reading, result, result.head(top).led_by(found, top))

    def _with_deeper(self, reading: Reading, result: SearchResult,
                     found: SearchResult) -> Retrieved:
        """`found` routed on; `result`'s other blocks, relevant first, then those ranked below
        them (at most `fill_blocks`), kept as further evidence."""
        kept = {b.block_id for b in found.blocks}
        deeper = [b for b in [*result.blocks, *result.further] if b.block_id not in kept]
        return Retrieved(reading, found, deeper=tuple(deeper[: self.ctx.settings.fill_blocks]),
                         probes=self.router.probe(reading, found))

    def route(self, retrieved: Retrieved) -> Routed:
        """The router's first rule to decide, over the search and its probes."""
        reading, found = retrieved.reading, retrieved.found
        decision = self.router.decide(reading, found, retrieved.probes)
        if decision.unheld:  # about something else: the evidence is dropped
            found = SearchResult.empty(found.filter, decision.unheld)
        log.debug("route=%s rule=%s blocks=%s", decision.route.value, decision.rule,
                  [b.block_id for b in found.blocks])
        return Routed(reading, found, decision, deeper=retrieved.deeper,
                      probes=retrieved.probes)


__all__ = ["EvidenceSteps"]

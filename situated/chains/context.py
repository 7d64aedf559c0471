"""What every step of one chain reads (`StepContext`): the settings, one index generation (its
`Snapshot`), the budget answers are counted in, and the one search the steps run.

The step components (`reader`, `evidence_steps`, `reply_steps`, `history_steps`, `release_steps`,
`appearance_steps`) are each built with this record and nothing else of one another's, so no
component reaches back into the chain that composes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from situated.chains.budget import Budget
from situated.chains.contract import BudgetOut, RelevanceOut
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import HybridSearch, SearchResult
from situated.situation import Scope, Situation

if TYPE_CHECKING:
    from situated.app import Snapshot
    from situated.index.versions import Versions
    from situated.settings import Settings

# another retrieval in place of the generation's engine (an evaluation baseline): the question
# and the filter in, a result at its own depth out
Searcher = Callable[[str, Filter], SearchResult]


@dataclass(frozen=True)
class StepContext:
    settings: Settings
    snap: Snapshot
    budget_of: Budget
    searcher: Searcher | None = None

    @property
    def engine(self) -> HybridSearch:
        return self.snap.engine

    @property
    def versions(self) -> Versions:
        return self.snap.versions

    def search(self, query: str, flt: Filter, top: int, further: int = 0,
               topic: str | None = None) -> SearchResult:
        """`topic`: what relevance is judged on where it is not the query (`Reading.topic`)."""
        if self.searcher is not None:
            return self.searcher(query, flt)  # its own depth, no further blocks
        return self.engine.search(query, flt, top=top, further=further, topic=topic)

    def readable(self, scope: Scope) -> Filter:
        """Everything the caller may read, at any date and release."""
        return self.snap.filter(Situation(), scope)

    def budget_out(self, evidence: list) -> BudgetOut:
        s = self.settings
        return BudgetOut(window=s.window, reserved_input=s.reserved_input,
                         reserved_output=s.reserved_output, allowance=s.allowance,
                         used=sum(e.tokens for e in evidence))

    def relevance(self, found: SearchResult | None = None) -> RelevanceOut:
        """The thresholds that decided, and what the question named that nothing held (every
        answer but a comparison's merge carries it: a question stopped before any search
        too)."""
        th = (self.engine.thresholds if found is None
              else self.engine.thresholds_of(found.filter, found.admitted))
        leg = self.snap.index.multilingual is not None
        return RelevanceOut(source=th.source.value, min_cosine=th.min_cosine,
                            min_sentence=th.min_sentence, min_cover=th.min_cover, note=th.note,
                            min_multilingual=th.min_multilingual if leg else None,
                            min_multilingual_across=th.min_multilingual_across if leg else None,
                            min_standing_across=th.min_standing_across if leg else None,
                            unheld=list(found.missing) if found is not None else [])


__all__ = ["Searcher", "StepContext"]

"""The public retriever: filter inside every leg → RRF fusion on block ids → relevance floor →
parent blocks, each once, in the rank of its best piece.

`SituatedRetriever` is a plain `BaseRetriever` (only `_get_relevant_documents` is implemented,
so tracing, callbacks, batch and async come from LangChain). Its caller scope is fixed when it
is built (from authentication); the situation and an optional narrowing to some sources can be
bound per request with `with_situation(...)` or passed as invoke kwargs
(`retriever.invoke(q, situation=Situation(...))`). Nothing passed at invoke time can change the
scope, so the permission clauses are always in the filter.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import ConfigDict, Field

from situated.documents import Block
from situated.index.reader import Index
from situated.retrievers.filter import Filter
from situated.retrievers.fusion import Floor, PieceHit, RankedBlock, fuse, mostly_latin
from situated.retrievers.legs import BM25Leg, ExactLeg, Leg, VectorLeg
from situated.settings import Settings
from situated.situation import Scope, Situation


@dataclass(frozen=True)
class SearchResult:
    """Blocks that cleared the floor (best first) and the eligible pieces that ranked them."""

    filter: Filter
    blocks: list[RankedBlock]
    hits: list[PieceHit]
    leg_hits: dict[str, int]  # how many pieces each leg returned (for traces and benchmarks)

    def led_by(self, first: SearchResult, top: int) -> SearchResult:
        """`first`'s blocks (a search narrowed within this one's filter), then this one's."""
        seen = {b.block_id for b in first.blocks}
        blocks = [*first.blocks, *(b for b in self.blocks if b.block_id not in seen)][:top]
        kept = {b.block_id for b in blocks}
        hits = {h.pos: h for h in [*first.hits, *self.hits] if h.block_id in kept}
        return SearchResult(filter=self.filter, blocks=blocks, hits=list(hits.values()),
                            leg_hits=self.leg_hits)


class HybridSearch:
    """The engine behind the retriever; also used directly by chains and benchmarks."""

    def __init__(self, index: Index, settings: Settings, legs: tuple[Leg, ...] = tuple(Leg)):
        self.index = index
        self.settings = settings
        self.legs = legs
        self.weights = {
            Leg.EXACT: settings.weight_exact, Leg.BM25: settings.weight_bm25,
            Leg.VECTOR: settings.weight_vector,
        }
        self.floor = Floor(settings.min_vector_similarity, settings.min_bm25_score)
        self._exact, self._bm25, self._vector = ExactLeg(), BM25Leg(settings.bm25_block_weight), VectorLeg()

    def search(
        self, query: str, flt: Filter, k: int | None = None, top: int | None = None
    ) -> SearchResult:
        """`k` pieces per leg, then at most `top` blocks that clear the relevance floor."""
        k = self.settings.leg_k if k is None else k
        top = self.settings.top_blocks if top is None else top
        if k < 1 or top < 1:
            raise ValueError(f"k and top must be at least 1, got k={k}, top={top}")
        k = max(k, top)
        mask = flt.mask(self.index.columns)
        admitted = int(mask.sum())
        results = {}
        if Leg.EXACT in self.legs:
            results[Leg.EXACT] = self._exact.search(self.index, query, flt, mask, k)
        if Leg.BM25 in self.legs:
            results[Leg.BM25] = self._bm25.search(self.index, query, flt, mask, k)
        if Leg.VECTOR in self.legs:
            qvec = self.index.embeddings.encode_query(query) if admitted else None
            results[Leg.VECTOR] = self._vector.search(self.index, qvec, flt, admitted, k, mask)
        floor = replace(self.floor, trust_vector=mostly_latin(query))
        ranked, hits = fuse(self.index, results, self.weights, self.settings.rrf_k, floor)
        kept = [b for b in ranked if b.clears_floor][:top]
        kept_ids = {b.block_id for b in kept}
        return SearchResult(
            filter=flt, blocks=kept, hits=[h for h in hits if h.block_id in kept_ids],
            leg_hits={leg.value: len(h) for leg, h in results.items()},
        )

    def block_document(self, rb: RankedBlock) -> Document:
        """A fresh `Document` for a ranked block (the stored block is never mutated)."""
        block: Block = self.index.blocks[rb.block_id]
        return Document(
            id=block.block_id, page_content=block.text,
            metadata={
                "block_id": block.block_id, "source_id": block.source_id,
                "kind": block.kind.value, "section": block.section, "title": block.title,
                "page": block.page, "link": block.link, "score": rb.score,
                "best_piece_id": self.index.pieces[rb.best_piece].piece_id,
                "leg_ranks": dict(rb.leg_ranks), "leg_scores": dict(rb.leg_scores),
            },
        )


class SituatedRetriever(BaseRetriever):
    """Hybrid retriever over a `situated` index returning parent blocks with fused scores."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    engine: HybridSearch
    scope: Scope = Field(default_factory=Scope)
    situation: Situation = Field(default_factory=Situation)
    sources: frozenset[str] | None = None
    k: int | None = Field(default=None, ge=1, description="Blocks to return (default: settings).")

    def with_situation(
        self, situation: Situation, sources: frozenset[str] | None = None
    ) -> SituatedRetriever:
        """A copy bound to one request's situation (the scope is kept as it is)."""
        return self.model_copy(update={"situation": situation, "sources": sources})

    def make_filter(
        self, situation: Situation | None = None, sources: frozenset[str] | None = None
    ) -> Filter:
        narrowed = self.sources if sources is None else (
            sources if self.sources is None else self.sources & sources
        )
        return Filter(situation=situation or self.situation, scope=self.scope, sources=narrowed,
                      timezone=self.engine.index.timezone)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
        situation: Situation | None = None, sources: frozenset[str] | None = None,
        k: int | None = None,
    ) -> list[Document]:
        top = k or self.k
        result = self.engine.search(query, self.make_filter(situation, sources), top=top)
        return [self.engine.block_document(b) for b in result.blocks]


def search_runnable(engine: HybridSearch) -> Runnable[dict[str, Any], list[Document]]:
    """A Runnable over `{question, situation, scope}` for notebooks and trusted code.

    The scope here is taken from the input, so only pass one that came from authentication; the
    server builds it from the API key, never from the request body.
    """

    def _run(inp: dict[str, Any]) -> list[Document]:
        scope = inp.get("scope") or Scope()
        situation = inp.get("situation") or Situation()
        if isinstance(scope, dict):
            scope = Scope.model_validate(scope)
        if isinstance(situation, dict):
            situation = Situation.model_validate(situation)
        retriever = SituatedRetriever(engine=engine, scope=scope, situation=situation)
        return retriever.invoke(inp["question"])

    return RunnableLambda(_run, name="situated_search")

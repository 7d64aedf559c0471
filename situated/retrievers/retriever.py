"""The public LangChain adapter over `HybridSearch`.

`SituatedRetriever` is a plain `BaseRetriever` (only `_get_relevant_documents` is implemented,
so tracing, callbacks, batch and async come from LangChain). Its caller scope is fixed when it
is built (from authentication); the situation and an optional narrowing to some sources can be
bound per request with `with_situation(...)` or passed as invoke kwargs
(`retriever.invoke(q, situation=Situation(...))`). Nothing passed at invoke time can change the
scope, so the permission clauses are always in the filter. The ask chain reads the engine's
`SearchResult` itself, not these documents.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import ConfigDict, Field

from situated.documents import Block
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import HybridSearch, SearchResult
from situated.situation import Scope, Situation


def block_document(block: Block) -> Document:
    """A fresh `Document` for a stored block (the block itself is never handed out)."""
    return Document(id=block.block_id, page_content=block.text, metadata={
        "block_id": block.block_id, "source_id": block.source_id, "kind": block.kind.value,
        "section": block.section, "title": block.title, "page": block.page,
        "link": block.link})


def result_documents(engine: HybridSearch, result: SearchResult) -> list[Document]:
    """The result's blocks as fresh `Document`s for LangChain callers (`SituatedRetriever`):
    the block's text and metadata, its fused score, leg ranks and scores, its relevance
    signals. The ask chain reads the `SearchResult` itself, not these."""
    blocks = engine.index.read_blocks([rb.block_id for rb in result.blocks])
    docs = []
    for rb in result.blocks:
        doc = block_document(blocks[rb.block_id])
        doc.metadata.update({
            "score": rb.score, "leg_ranks": dict(rb.leg_ranks),
            "leg_scores": dict(rb.leg_scores),
            "signals": asdict(rb.signals) if rb.signals else None})
        docs.append(doc)
    return docs


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
        index = self.engine.index
        return Filter(situation=(situation or self.situation).declared(index.facets),
                      scope=self.scope, sources=narrowed, timezone=index.timezone)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
        situation: Situation | None = None, sources: frozenset[str] | None = None,
        k: int | None = None,
    ) -> list[Document]:
        top = k or self.k
        result = self.engine.search(query, self.make_filter(situation, sources), top=top)
        return result_documents(self.engine, result)


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

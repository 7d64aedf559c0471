"""The retrieval parts as stock LangChain components, for developers who compose their own
chains: each leg a `BaseRetriever` that filters inside the leg, the blocks a read-only
`BaseStore`, the pieces a `langchain_chroma.Chroma`.

    legs = [LegRetriever(engine=engine, leg=leg).configurable() for leg in Leg]
    ensemble = EnsembleRetriever(retrievers=legs, id_key="parent_id")   # langchain-classic
    blocks = ensemble | parent_swap(BlockStore(index))
    blocks.invoke(question, config={"configurable": {"situated_scope": scope_from_auth,
                                                     "situated_situation": situation}})

The scope comes from the run config (`configurable.situated_scope`, what the server puts there
from the API key) or is bound when the leg is built; a leg with no scope refuses to run, so a
composition that forgot the scope fails closed instead of searching everything. The pieces
carry `parent_id`, so the stock ensemble fuses them per block and a stock
`MultiVectorRetriever` (`parent_retriever`) swaps them for blocks from the `BlockStore`.

The product path composes the same legs itself (`HybridSearch`), for reasons measured, not
taste: see the docstring of `situated.retrievers.hybrid`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, cast

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import ConfigurableField, Runnable, RunnableLambda
from langchain_core.stores import BaseStore
from pydantic import ConfigDict, Field

from situated.documents import Block
from situated.index.reader import Index
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import HybridSearch
from situated.retrievers.legs import Leg
from situated.retrievers.retriever import block_document
from situated.situation import Scope, Situation

if TYPE_CHECKING:
    from langchain_chroma import Chroma
    from langchain_classic.retrievers.multi_vector import MultiVectorRetriever

SCOPE_KEY, SITUATION_KEY = "situated_scope", "situated_situation"


class LegRetriever(BaseRetriever):
    """One search leg (exact codes, BM25 or vector) over the pieces, the request's filter
    applied inside the leg before its top-k. Returns pieces (`metadata.parent_id` = block)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    engine: HybridSearch
    leg: Leg
    scope: Scope | None = Field(default=None, description="The caller's scope, from "
                                "authentication; None refuses to search.")
    situation: Situation = Field(default_factory=Situation)
    k: int = Field(default=20, ge=1)

    def configurable(self) -> Runnable[str, list[Document]]:
        """This leg with `scope` and `situation` read from the run config
        (`configurable.situated_scope` / `configurable.situated_situation`)."""
        return self.configurable_fields(
            scope=ConfigurableField(id=SCOPE_KEY, name="caller scope",
                                    description="From authentication, never from the question"),
            situation=ConfigurableField(id=SITUATION_KEY, name="asker's situation"))

    def _get_relevant_documents(self, query: str, *,
                                run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        if self.scope is None:
            raise PermissionError(
                f"the {self.leg.value} leg has no caller scope; build it with scope=... from "
                f"authentication or pass config={{'configurable': {{'{SCOPE_KEY}': scope}}}}")
        index = self.engine.index
        flt = Filter(situation=self.situation.declared(index.facets),
                     scope=self.scope, timezone=index.timezone)
        docs = []
        hits = self.engine.leg_search(self.leg, query, flt, self.k)
        pieces = index.pieces.many([h.pos for h in hits])
        for hit in hits:
            piece = pieces[hit.pos]
            docs.append(Document(id=piece.piece_id, page_content=piece.search_text, metadata={
                "parent_id": piece.block_id, "piece_id": piece.piece_id,
                "source_id": piece.source_id, "leg": self.leg.value, "score": hit.score}))
        return docs


class BlockStore(BaseStore[str, Document]):
    """The parent blocks of one opened generation by block id, as `Document`s (fresh objects:
    the stored blocks are never handed out). Read-only: blocks change only through ingest."""

    def __init__(self, index: Index):
        self.index = index

    def mget(self, keys: Sequence[str]) -> list[Document | None]:
        found = self.index.blocks.many(keys)
        return [block_document(found[k]) if k in found else None for k in keys]

    def mset(self, key_value_pairs: Sequence[tuple[str, Document]]) -> None:
        raise NotImplementedError("the block store is read-only; blocks change only through "
                                  "`situated ingest`, which publishes a new generation")

    def mdelete(self, keys: Sequence[str]) -> None:
        self.mset([])

    def yield_keys(self, *, prefix: str | None = None) -> Iterator[str]:
        return (k for k in self.index.blocks if prefix is None or k.startswith(prefix))


def parent_swap(store: BlockStore, id_key: str = "parent_id") -> Runnable[list[Document],
                                                                          list[Document]]:
    """Pieces → their blocks from the store, each once, in the rank of its first piece."""

    def swap(pieces: list[Document]) -> list[Document]:
        ids = list(dict.fromkeys(d.metadata[id_key] for d in pieces))
        return [d for d in store.mget(ids) if d is not None]

    return RunnableLambda(swap, name="parent_swap")


def pieces_vectorstore(index: Index) -> Chroma:
    """The generation's pieces collection as a `langchain_chroma.Chroma` (queries embedded with
    the index's MiniLM, never Chroma's default embedding function)."""
    from langchain_chroma import Chroma

    return Chroma(client=index.client, collection_name=index.manifest.collection,
                  embedding_function=cast(Embeddings, index.embeddings))


def parent_retriever(index: Index, flt: Filter, k: int = 20) -> MultiVectorRetriever:
    """A stock `MultiVectorRetriever`: the pieces collection searched with the filter compiled
    to a Chroma `where`, pieces swapped for their blocks from the `BlockStore`. Build one per
    request: the stock class takes its `search_kwargs` at construction and ignores them at
    invoke time."""
    from langchain_classic.retrievers.multi_vector import MultiVectorRetriever

    return MultiVectorRetriever(vectorstore=pieces_vectorstore(index), docstore=BlockStore(index),
                                id_key="parent_id",
                                search_kwargs={"k": k, "filter": flt.declared(
                                    index.facets).chroma_where()})


def block_of(index: Index, doc: Document) -> Block:
    """The stored block a composed result stands for (tests and notebooks check its fields)."""
    return index.blocks[doc.metadata.get("block_id") or doc.metadata["parent_id"]]


__all__ = ["SCOPE_KEY", "SITUATION_KEY", "BlockStore", "LegRetriever", "block_of",
           "parent_retriever", "parent_swap", "pieces_vectorstore"]


"""The systems an evaluation compares: `situated` and the baselines, all answering through the
same budget, prompt, offline model and citation parser so that only retrieval differs.

* `situated`: the product chain.
* `hybrid_unfiltered`: the same three legs and fusion with no applicability and no permission
  filter (a scope holding every role and asset of the index), and no clarification step.
* `bm25_only`, `dense_only`: one leg, with the product's filter; no clarification step.
* `stock_langchain`: `EnsembleRetriever([BM25Retriever, ParentDocumentRetriever over Chroma])`
  with default settings and no filter.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from langchain_core.runnables import Runnable

from situated.chains.ask import ask_steps, build_ask_chain, per_generation
from situated.chains.context import Searcher, StepContext
from situated.chains.read.extract import today_in
from situated.chains.read.intent import Intent
from situated.chains.read.reader import QuestionReader
from situated.chains.routing.router import Router
from situated.chains.routing.rules import EveryRelevantBlock
from situated.chains.say.models import ExtractiveChatModel
from situated.chains.steps import AskSteps
from situated.retrievers.filter import Filter
from situated.retrievers.fusion import RankedBlock
from situated.retrievers.hybrid import HybridSearch, SearchResult
from situated.retrievers.legs import Leg
from situated.settings import ModelKind
from situated.situation import Scope

System = tuple[str, Runnable]


def _admin_scope(index) -> Scope:
    return Scope(roles=list(index.columns.roles), assets=list(index.columns.assets))


def stock_search(app) -> Searcher:
    from langchain_chroma import Chroma
    from langchain_classic.retrievers import EnsembleRetriever, ParentDocumentRetriever
    from langchain_classic.storage import InMemoryStore
    from langchain_community.retrievers import BM25Retriever
    from langchain_core.documents import Document
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    index, k = app.index, app.settings.leg_k
    children = [Document(page_content=p.search_text,
                         metadata={"doc_id": p.block_id, "piece_id": p.piece_id})
                for p in index.pieces]
    store = InMemoryStore()
    store.mset([(b.block_id, Document(page_content=b.text, metadata={"block_id": b.block_id}))
                for b in index.blocks.values()])
    folder = tempfile.TemporaryDirectory(prefix="situated-stock-", ignore_cleanup_errors=True)
    vs = Chroma(collection_name="stock-baseline", embedding_function=index.embeddings,
                persist_directory=folder.name)
    vs.add_documents(children, ids=[c.metadata["piece_id"] for c in children])
    pdr = ParentDocumentRetriever(vectorstore=vs, docstore=store, search_kwargs={"k": k},
                                  child_splitter=RecursiveCharacterTextSplitter(chunk_size=400))
    ensemble = EnsembleRetriever(retrievers=[BM25Retriever.from_documents(children, k=k), pdr],
                                 weights=[0.5, 0.5])
    first_piece: dict = {}
    for pos, p in enumerate(index.pieces):
        first_piece.setdefault(p.block_id, pos)
    everything = app.engine.filter_for(_admin_scope(index))

    def search(question: str, _flt: Filter) -> SearchResult:
        docs = ensemble.invoke(question)
        ids = list(dict.fromkeys(d.metadata.get("block_id") or d.metadata.get("doc_id")
                                 for d in docs))[: app.settings.top_blocks]
        blocks = [RankedBlock(b, 1.0 / (n + 1), first_piece[b])
                  for n, b in enumerate(ids) if b in index.blocks]
        return SearchResult(filter=everything, blocks=tuple(blocks), hits=(), leg_hits={})

    return _StockSearch(search, folder)


class _StockSearch:
    """A stock retriever's search, holding Chroma's folder (removed when it is dropped)."""

    def __init__(self, run: Searcher, folder: tempfile.TemporaryDirectory):
        self.run, self.folder = run, folder

    def __call__(self, question: str, flt: Filter) -> SearchResult:
        return self.run(question, flt)


class _PlainReader(QuestionReader):
    """Every question is about a moment, names no family and compares nothing."""

    def question(self, text: str, follows: str, carried, scope, slice_of: bool = False):
        q = super().question(text, follows, carried, scope, slice_of=True)
        return replace(q, named=frozenset(), comparison=None, cue=Intent.AT)


def _all_relevant(step: StepContext, _releases) -> Router:
    """No clarification step: every relevant block may be used."""
    return Router(step, (EveryRelevantBlock(),))


class BaselineSteps(AskSteps):
    """The product's steps as plain RAG over another retriever (`searcher`, required)."""

    reader_kind, routing = _PlainReader, staticmethod(_all_relevant)

    def __init__(self, *args: Any, searcher: Searcher, **extra: Any):
        super().__init__(*args, **{**extra, "searcher": searcher})


def _extractive(app) -> Callable:
    """The offline model over the sentence vectors of the generation it answers from."""
    return lambda snap: ExtractiveChatModel(embeddings=app.embeddings,
                                            sentences=snap.sentence_vectors,
                                            multilingual=snap.index.multilingual)


def baseline_chain(app, search: Searcher, clock=None) -> Runnable:
    clock = clock or today_in(app.settings.timezone)
    return per_generation(app, lambda snap: ask_steps(
        app, snap, _extractive(app), clock, kind=BaselineSteps, searcher=search).chain())


def systems(app, baselines: bool = True, clock=None) -> list[System]:
    """`situated` answers with the settings' chat model; when that is not the offline one, the
    offline model answers beside it (`situated_offline`), so a real model is compared with it
    in one report. The baselines answer with the offline model: they compare retrieval."""
    offline = app.settings.model is ModelKind.EXTRACTIVE
    out: list[System] = [("situated", build_ask_chain(
        app, model=_extractive(app) if offline else None, clock=clock))]
    if not offline:
        out.append(("situated_offline", build_ask_chain(app, model=_extractive(app),
                                                        clock=clock)))
    if not baselines:
        return out
    index, settings = app.index, app.settings
    admin = _admin_scope(index)
    hybrid = HybridSearch(index, settings)
    bm25 = HybridSearch(index, settings, legs=(Leg.BM25,))
    dense = HybridSearch(index, settings, legs=(Leg.VECTOR,))
    out += [
        ("hybrid_unfiltered", baseline_chain(
            app, lambda q, f: hybrid.search(q, hybrid.filter_for(admin)), clock)),
        ("bm25_only", baseline_chain(app, bm25.search, clock)),
        ("dense_only", baseline_chain(app, dense.search, clock)),
    ]
    out.append(("stock_langchain", baseline_chain(app, stock_search(app), clock)))
    return out

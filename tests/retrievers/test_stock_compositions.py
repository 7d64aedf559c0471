"""The stock LangChain compositions over `situated`'s parts never return anything the caller
may not read or that does not apply: `EnsembleRetriever` over the three legs (scope and
situation from the run config) with the parent swap, a stock `MultiVectorRetriever` over the
pieces collection and the block store, and each leg alone — for scopes and situations drawn by
hypothesis, `k` up to past the admitted set, callers with no roles or assets, documents with and
without `access`/`assets`."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_classic.retrievers import EnsembleRetriever
from langchain_core.callbacks import BaseCallbackHandler

from situated.chains.ask import build_ask_chain
from situated.retrievers.filter import Filter
from situated.retrievers.legs import Leg
from situated.retrievers.parts import (
    BlockStore,
    LegRetriever,
    block_of,
    parent_retriever,
    parent_swap,
    pieces_vectorstore,
)
from situated.retrievers.retriever import SituatedRetriever
from situated.situation import Scope, Situation

pytestmark = pytest.mark.integration
QUERIES = ["replace the valve seal", "battery warranty", "error E-417", "return period",
           "salary bands", "P-4 barrier fluid", "срок возврата", "dispatcher ticket"]
ROLES = ["technician", "hr", "dispatcher", "dealer"]
ASSETS = ["P-2", "P-4", "P-9"]
DATES = st.one_of(st.none(), st.dates(dt.date(2024, 6, 1), dt.date(2027, 6, 1)))
scopes = st.builds(lambda r, a: Scope(roles=frozenset(r), assets=frozenset(a)),
                   st.sets(st.sampled_from(ROLES)), st.sets(st.sampled_from(ASSETS)))
situations = st.builds(
    lambda p, b, r, a: Situation(product=p, purchase_date=b, request_date=r, as_of=a),
    st.sampled_from([None, "C-3", "S-2", "Старт"]), DATES, DATES, DATES)
SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _inadmissible(index, flt: Filter, docs) -> list[str]:
    return [d.metadata.get("block_id") or d.metadata["parent_id"] for d in docs
            if not flt.admits(block_of(index, d).fields)]


@SETTINGS
@given(scope=scopes, situation=situations, query=st.sampled_from(QUERIES),
       k=st.integers(1, 400))
def test_the_stock_ensemble_over_the_legs_never_leaks(sample_app, scope, situation, query, k):
    engine, index = sample_app.engine, sample_app.index
    legs = [LegRetriever(engine=engine, leg=leg, k=k).configurable() for leg in Leg]
    ensemble = EnsembleRetriever(retrievers=legs, id_key="parent_id")
    blocks = ensemble | parent_swap(BlockStore(index))
    docs = blocks.invoke(query, config={"configurable": {"situated_scope": scope,
                                                         "situated_situation": situation}})
    flt = Filter(situation=situation, scope=scope, timezone=index.timezone)
    assert not _inadmissible(index, flt, docs)
    assert len({d.id for d in docs}) == len(docs)  # each block once


@SETTINGS
@given(scope=scopes, situation=situations, query=st.sampled_from(QUERIES),
       k=st.integers(1, 400))
def test_the_stock_multi_vector_retriever_never_leaks(sample_app, scope, situation, query, k):
    index = sample_app.index
    flt = Filter(situation=situation, scope=scope, timezone=index.timezone)
    docs = parent_retriever(index, flt, k=k).invoke(query)
    assert not _inadmissible(index, flt, docs)


@SETTINGS
@given(scope=scopes, situation=situations, query=st.sampled_from(QUERIES),
       leg=st.sampled_from(list(Leg)), k=st.integers(1, 400))
def test_each_leg_alone_returns_only_admitted_pieces(sample_app, scope, situation, query, leg, k):
    index = sample_app.index
    docs = LegRetriever(engine=sample_app.engine, leg=leg, scope=scope, situation=situation,
                        k=k).invoke(query)
    flt = Filter(situation=situation, scope=scope, timezone=index.timezone)
    assert len(docs) <= k
    assert all(flt.admits(index.pieces[index.piece_pos[d.id]].fields) for d in docs)


def test_a_leg_without_a_scope_refuses_to_search(sample_app):
    leg = LegRetriever(engine=sample_app.engine, leg=Leg.BM25)
    with pytest.raises(PermissionError, match="no caller scope"):
        leg.invoke("P-4 barrier fluid")
    ensemble = EnsembleRetriever(retrievers=[leg.configurable()], id_key="parent_id")
    with pytest.raises(PermissionError, match="situated_scope"):
        ensemble.invoke("P-4 barrier fluid")  # a composition that forgot the scope fails closed


def test_the_restricted_manual_reaches_only_its_technician(sample_app):
    index = sample_app.index
    legs = [LegRetriever(engine=sample_app.engine, leg=leg, k=50).configurable() for leg in Leg]
    chain = EnsembleRetriever(retrievers=legs, id_key="parent_id") | parent_swap(
        BlockStore(index))

    def sources(scope: Scope) -> set[str]:
        docs = chain.invoke("P-4 barrier fluid pressure",
                            config={"configurable": {"situated_scope": scope}})
        return {d.metadata["source_id"] for d in docs}
    assert "MAN-P4" in sources(Scope(roles=frozenset({"technician"}), assets=frozenset({"P-4"})))
    assert "MAN-P4" not in sources(Scope(roles=frozenset({"technician"}),
                                         assets=frozenset({"P-2"})))
    assert "MAN-P4" not in sources(Scope())


def test_the_block_store_is_read_only_and_hands_out_copies(sample_app):
    store = BlockStore(sample_app.index)
    [doc, missing] = store.mget(["WARR-R2-2", "NOPE"])
    assert missing is None and doc.page_content == sample_app.index.blocks["WARR-R2-2"].text
    doc.metadata["source_id"] = "changed"
    assert store.mget(["WARR-R2-2"])[0].metadata["source_id"] == "WARR-R2"
    with pytest.raises(NotImplementedError, match="read-only"):
        store.mset([("X", doc)])
    assert "WARR-R2-2" in set(store.yield_keys(prefix="WARR-"))


def test_the_pieces_collection_is_a_langchain_chroma(sample_app):
    store = pieces_vectorstore(sample_app.index)
    flt = Filter(scope=Scope(), timezone=sample_app.index.timezone)
    docs = store.similarity_search("P-4 barrier fluid", k=50, filter=flt.chroma_where())
    assert docs and all(d.metadata["parent_id"] for d in docs)
    assert "MAN-P4" not in {d.metadata["source_id"] for d in docs}


class Runs(BaseCallbackHandler):
    def __init__(self):
        self.retrievers: list[str] = []
        self.parsers: list[str] = []

    def on_retriever_start(self, serialized, query, **kwargs):
        self.retrievers.append(kwargs.get("name") or "")

    def on_chain_start(self, serialized, inputs, **kwargs):
        if (kwargs.get("name") or "") == "CitationParser":
            self.parsers.append("CitationParser")


def test_ask_runs_the_citation_parser_and_the_retriever_adapts_the_same_engine(sample_app):
    runs = Runs()
    question = "What does error E-417 mean?"
    answer = build_ask_chain(sample_app).invoke({"question": question},
                                                config={"callbacks": [runs]})
    assert answer.status.value == "answered"
    assert runs.parsers == ["CitationParser"]
    assert runs.retrievers == []  # the chain asks the engine itself, no adapter round trip
    docs = sample_app.retriever().invoke(question, config={"callbacks": [runs]})
    assert runs.retrievers == ["SituatedRetriever"]  # the adapter is a retriever run
    # the adapter returns the blocks the chain's search ranked, best first
    assert [d.metadata["block_id"] for d in docs][:1] == [answer.evidence[0].block_id]


@pytest.mark.integration
@pytest.mark.parametrize("leg", list(Leg))
def test_an_undeclared_facet_narrows_no_leg_and_no_composition(sample_app, leg):
    """A situation naming a facet the index does not declare: no document holds it, so the
    reference filter admits every document for it. Every LangChain path drops it, as the
    chain does (`Situation.declared`); the vector leg's Chroma `where` once required a key
    never stored and came back empty while the other legs answered."""
    engine = sample_app.engine
    q = "What does error E-417 mean?"
    odd = Situation(facets={"planet": "Mars"})
    assert "planet" not in sample_app.index.facets

    def ids(docs):
        return [d.id or d.metadata.get("block_id") for d in docs]

    plain = LegRetriever(engine=engine, leg=leg, k=5, scope=Scope())
    with_odd = plain.model_copy(update={"situation": odd})
    assert ids(with_odd.invoke(q)) == ids(plain.invoke(q))
    if leg is Leg.VECTOR:
        assert plain.invoke(q), "the vector leg finds the error catalogue"
        stock = parent_retriever(sample_app.index, Filter(situation=odd, scope=Scope()), k=5)
        assert ids(stock.invoke(q)) == ids(parent_retriever(
            sample_app.index, Filter(scope=Scope()), k=5).invoke(q))
        retriever = SituatedRetriever(engine=engine, scope=Scope())
        assert ids(retriever.invoke(q, situation=odd)) == ids(retriever.invoke(q))

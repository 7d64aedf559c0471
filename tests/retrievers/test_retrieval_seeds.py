"""Seed cases on the sample corpus, and LangChain's standard retriever suite."""

from __future__ import annotations

import datetime as dt

import pytest
from langchain_tests.integration_tests import RetrieversIntegrationTests

from situated.retrievers.filter import Filter
from situated.retrievers.retriever import SituatedRetriever, search_runnable
from situated.situation import Scope, Situation

pytestmark = pytest.mark.integration


def blocks(app, question, situation=None, scope=None):
    result = app.engine.search(question, Filter(situation=situation or Situation(),
                                                scope=scope or Scope()))
    return [b.block_id for b in result.blocks]


def test_error_code_question_ranks_the_catalogue_first(sample_app):
    got = blocks(sample_app, "What does error E-417 mean, and what should I check?")
    assert got[0] == "ERR-CAT-1-t1"
    assert "| E-417 | Battery management system" in sample_app.index.blocks[got[0]].text


def test_exact_leg_finds_the_code_even_when_other_legs_prefer_a_check_table(sample_app):
    result = sample_app.engine.search("E-417 check", Filter())
    top = result.blocks[0]
    assert top.block_id == "ERR-CAT-1-t1" and top.leg_ranks.get("exact") == 1


def test_mudguard_question_supplies_section_4_2_whole(sample_app):
    got = blocks(sample_app, "Do I need to fit a rear mudguard on a C-3?")
    assert got[0] == "MAN-C3-ASM-4.2"
    text = sample_app.index.blocks[got[0]].text
    assert "must be fitted on every C-3" in text and "C-3 Cargo version" in text


def test_casing_question_supplies_the_whole_table_with_its_scope(sample_app):
    got = blocks(sample_app, "Which battery check applies when the battery casing has been opened?")
    assert got[0] == "SPEC-C3-3-t1"
    text = sample_app.index.blocks[got[0]].text
    assert text.count("\n| R") == 11 and "Scope: every C-3 battery pack" in text
    assert "| R07 | Replace the battery seal wherever the casing has been opened" in text


@pytest.mark.parametrize("bought, keep, gone", [
    (dt.date(2026, 3, 15), "WARR-R2", "WARR-R1"),
    (dt.date(2025, 3, 15), "WARR-R1", "WARR-R2"),
])
def test_warranty_revisions_are_separated_by_purchase_date(sample_app, bought, keep, gone):
    q = f"What battery warranty applies to a C-3 bought on {bought:%d %B %Y}?"
    result = sample_app.engine.search(q, Filter(situation=Situation(product="C-3",
                                                                    purchase_date=bought)))
    sources = {sample_app.index.pieces[h.pos].source_id for h in result.hits}
    assert keep in sources
    assert gone not in sources and "WARR-S2" not in sources  # gone, not ranked lower
    assert result.leg_hits["vector"] > 0


def test_start_tariff_switches_version_on_first_of_april(sample_app):
    q = "Какой срок возврата по тарифу Старт?"
    for day, expected in [(dt.date(2026, 3, 31), "TAR-START-1"), (dt.date(2026, 4, 1), "TAR-START-2")]:
        got = blocks(sample_app, q, Situation(product="Старт", purchase_date=day))
        assert got and {b.rsplit("-", 1)[0] for b in got} == {expected}


def test_unrelated_question_yields_nothing(sample_app):
    assert blocks(sample_app, "What is the capital of France?") == []
    assert blocks(sample_app, "Как приготовить борщ?") == []


def test_search_runnable_takes_question_situation_scope(sample_app):
    run = search_runnable(sample_app.engine)
    docs = run.invoke({"question": "How do I align the coupling of pump P-2?",
                       "situation": {}, "scope": {"roles": ["technician"], "assets": ["P-2"]}})
    assert docs[0].metadata["source_id"] == "MAN-P2"
    assert all(d.metadata["source_id"] != "MAN-P4" for d in docs)
    anonymous = run.invoke({"question": "How do I align the coupling of pump P-2?"})
    assert all(d.metadata["source_id"] not in {"MAN-P2", "TCK-4711"} for d in anonymous)


def test_documents_are_fresh_copies_with_fused_scores(sample_app):
    r = sample_app.retriever()
    first = r.invoke("battery warranty")
    first[0].metadata["score"] = -1
    second = r.invoke("battery warranty")
    assert second[0].metadata["score"] > 0
    assert [d.metadata["score"] for d in second] == sorted(
        (d.metadata["score"] for d in second), reverse=True)


async def test_async_path_matches_sync(sample_app):
    r = sample_app.retriever()
    sync = [d.id for d in r.invoke("E-417")]
    assert [d.id for d in await r.ainvoke("E-417")] == sync


class TestStandardRetriever(RetrieversIntegrationTests):
    @pytest.fixture(autouse=True)
    def _app(self, sample_app):
        type(self)._engine = sample_app.engine

    @property
    def retriever_constructor(self) -> type[SituatedRetriever]:
        return SituatedRetriever

    @property
    def retriever_constructor_params(self) -> dict:
        return {"engine": type(self)._engine}

    @property
    def retriever_query_example(self) -> str:
        return "battery warranty period and exclusions"

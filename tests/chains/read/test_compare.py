"""Comparing two periods: each slice answered from the version in force then, labelled with its
period; the JSON lists the slices; a missing year or product is asked for."""

from __future__ import annotations

import datetime as dt

import jsonschema
import pytest

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status, shipped_answer_schema
from situated.chains.read.compare import find_comparison

pytestmark = pytest.mark.integration
SCHEMA = shipped_answer_schema()


@pytest.fixture
def ask(sample_app):
    chain = build_ask_chain(sample_app, clock=lambda: dt.date(2026, 11, 29))
    return lambda q: chain.invoke({"question": q})


@pytest.mark.parametrize("question, labels, facts", [
    ("How did the return period of Старт change between March and May 2026?",
     ["March 2026", "May 2026"], ["14 дней", "30 дней"]),
    ("Сравни срок возврата по тарифу Старт в марте и в мае 2026",
     ["март 2026", "май 2026"], ["14 дней", "30 дней"]),
    ("What changed in the Старт return period between 15 March 2026 and 15 May 2026?",
     ["15 March 2026", "15 May 2026"], ["14 дней", "30 дней"]),
])
def test_each_period_is_answered_from_its_own_version(ask, question, labels, facts):
    a = ask(question)
    jsonschema.validate(a.model_dump(mode="json"), SCHEMA)
    assert a.status is Status.ANSWERED
    assert [s.label for s in a.slices] == labels
    first, second = a.slices
    by_label = {e.label: e.source_id for e in a.evidence}
    assert {by_label[x] for x in first.evidence} == {"TAR-START-1"}
    assert {by_label[x] for x in second.evidence} == {"TAR-START-2"}
    assert first.citations and second.citations  # the model quoted from each
    assert [e.label for e in a.evidence] == [f"S{i}" for i in range(1, len(a.evidence) + 1)]
    part1, part2 = a.answer.split("\n\n")[:2]
    assert part1.startswith(labels[0]) and facts[0] in part1
    assert part2.startswith(labels[1]) and facts[1] in part2
    assert {c.label for c in a.citations} == {*first.citations, *second.citations}


def test_a_comparison_without_a_year_asks_for_it(ask):
    a = ask("Compare the return period of Старт in March and in April.")
    assert a.status is Status.CLARIFY and a.missing == ["year"]
    assert "“March” of which year" in a.answer and not a.evidence


def test_a_comparison_without_a_product_asks_which(ask):
    a = ask("Сравни срок возврата в марте и в мае 2026")
    assert a.status is Status.CLARIFY and a.missing == ["product"]
    assert "Старт" in a.answer and not a.evidence


@pytest.mark.parametrize("question", [
    "What does error E-417 mean?",
    "What battery warranty applies to a C-3 bought on 15 March 2026?",
    "What was the battery warranty of a C-3 on 15 March 2025 and on 15 March 2026?",
    "What did the ticket say, as known on 1 May 2026, about the change on 3 May 2026?",
])
def test_questions_that_are_not_comparisons(question):
    assert find_comparison(question) is None


@pytest.mark.slow
def test_history_questions_work_from_the_cli():
    import json

    from typer.testing import CliRunner

    from situated.cli import app

    r = CliRunner().invoke(app, ["ask", "How did the return period of Старт change between "
                                 "March and May 2026?", "--json"])
    assert r.exit_code == 0, r.output
    body = json.loads(r.stdout)  # the first use says on stderr that it builds the sample
    assert [s["label"] for s in body["slices"]] == ["March 2026", "May 2026"]
    r = CliRunner().invoke(app, ["ask", "What did service ticket 4711 report about pump P-2, as "
                                 "known on 1 May 2026?", "--role", "technician", "--asset",
                                 "P-2", "--json"])
    body = json.loads(r.stdout)
    assert body["situation"]["known_on"] == "2026-05-01"
    assert "TCK-4711" not in {e["source_id"] for e in body["evidence"]}


def test_history_questions_work_from_the_server(sample_app):
    import httpx
    from conftest import running_server

    from situated.auth import KeyStore, Principal, hash_key
    from situated.server import create_app

    keys = KeyStore([Principal(name="t", key_sha256=hash_key("k"), roles=("technician",),
                               assets=("P-2",))])
    with running_server(create_app(sample_app, keys)) as base:
        def invoke(body):
            r = httpx.post(f"{base}/ask/invoke", json={"input": body}, timeout=120,
                           headers={"Authorization": "Bearer k"})
            assert r.status_code == 200, r.text
            return r.json()["output"]
        out = invoke({"question": "Сравни срок возврата по тарифу Старт в марте и в мае 2026"})
        assert [s["label"] for s in out["slices"]] == ["март 2026", "май 2026"]
        question = "What did service ticket 4711 report about pump P-2?"
        known = invoke({"question": question, "situation": {"known_on": "2026-05-01"}})
        later = invoke({"question": question, "situation": {"known_on": "2026-05-10"}})
        assert "TCK-4711" not in {e["source_id"] for e in known["evidence"]}
        assert "TCK-4711" in {e["source_id"] for e in later["evidence"]}

"""Extraction (rules and structured output) and validation in code."""

from __future__ import annotations

import datetime as dt

import pytest
from fakes import FakeOpenAIServer
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_openai import ChatOpenAI

from situated.chains.read.dates import find_dates
from situated.chains.read.extract import (
    ExtractedSituation,
    ProductMatcher,
    rule_extract,
    validate_extraction,
)
from situated.chains.read.proposal import extraction_runnable
from situated.documents import FilterFields, ValidFor, instant
from situated.retrievers.filter import Filter
from situated.situation import Situation

pytestmark = pytest.mark.unit
PRODUCTS = frozenset({"C-3", "S-2", "Старт", "Базовый"})
TODAY = dt.date(2026, 11, 29)
MATCHER = ProductMatcher(PRODUCTS)


def run(question, carried=None, clock=lambda: TODAY):
    return extraction_runnable(PRODUCTS, clock).invoke(
        {"question": question, "situation": carried})


@pytest.mark.parametrize("text", [
    "bought on 15 March 2026", "bought on March 15, 2026", "bought on 2026-03-15",
    "bought on 15.03.2026", "bought on the 15th of March 2026", "куплен 15 марта 2026 года",
    "купил 15/03/2026",
])
def test_every_supported_date_form_reads_as_the_same_purchase_date(text):
    assert run(text).situation.purchase_date == dt.date(2026, 3, 15)


@pytest.mark.parametrize("text, partial", [
    ("bought in March", "in March"), ("куплен в марте", "в марте"),
    ("bought on 15 March", "15 March"),
])
def test_dates_without_a_year_are_missing_and_reported(text, partial):
    v = run(text)
    assert v.situation.purchase_date is None and v.partial == {"purchase_date": partial}


def test_impossible_date_is_missing_not_corrected():
    v = run("bought on 31 February 2026")
    assert v.situation.purchase_date is None
    assert any("not a valid date" in n for n in v.notes)


def test_purchase_and_request_dates_are_kept_apart():
    s = run("bought 15 March 2026, return requested 10 April 2026").situation
    assert (s.purchase_date, s.request_date) == (dt.date(2026, 3, 15), dt.date(2026, 4, 10))
    s = run("Я купил 1 марта 2026 года, а заявку на возврат подал 5 апреля 2026 года").situation
    assert (s.purchase_date, s.request_date) == (dt.date(2026, 3, 1), dt.date(2026, 4, 5))


def test_today_is_used_only_when_the_question_asks_about_now():
    assert run("Can I return my C-3?").situation.request_date is None
    s = run("Can I return my C-3 today?", clock=lambda: TODAY).situation
    assert s.as_of == TODAY and s.date_for(ValidFor.REQUEST_DATE) == TODAY
    assert run("Какие правила действуют сейчас?", clock=lambda: TODAY).situation.as_of == TODAY


@pytest.mark.parametrize("question, product", [
    ("warranty of a C-3", "C-3"), ("warranty of my c3", "C-3"),
    ("срок возврата по тарифу «Старт»", "Старт"), ("возврат на тарифе Базовом", "Базовый"),
    ("What does error E-417 mean?", None), ("warranty for a bike", None),
    ("compare the C-3 and the S-2", None),  # two products: not guessed
])
def test_products_are_matched_against_the_index(question, product):
    assert run(question).situation.product == product


def test_unknown_or_ungrounded_proposals_count_as_missing():
    proposed = ExtractedSituation(product="E-417", purchase_date="2026-03-15")
    v = validate_extraction(proposed, "What does error E-417 mean?", MATCHER, lambda: TODAY)
    assert v.situation == Situation()
    assert any("not a product" in n for n in v.notes)
    assert any("not in the question" in n for n in v.notes)
    proposed = ExtractedSituation(product="S-2")  # a real product the question never names
    assert validate_extraction(proposed, "warranty of a C-3", MATCHER,
                               lambda: TODAY).situation.product is None


def test_a_new_turn_completes_the_carried_situation():
    carried = Situation(product="C-3")
    s = run("bought on 15 March 2026", carried=carried).situation
    assert s == Situation(product="C-3", purchase_date=dt.date(2026, 3, 15))


def test_structured_output_path_over_http_gets_the_same_validation():
    tool = {"tool": "ExtractedSituation", "arguments": {
        "product": "E-417", "purchase_date": "2026-02-30", "request_date": "2026-04-10",
        "as_of": None, "partial_dates": [], "asks_about_now": False}}
    with FakeOpenAIServer([tool]) as server:
        model = ChatOpenAI(base_url=server.base_url, api_key="test", model="fake", max_retries=0)
        v = extraction_runnable(PRODUCTS, lambda: TODAY, model).invoke(
            {"question": "E-417 on my C-3: bought 2026-02-30, return requested 10 April 2026"})
    # the model's product (an error code) is not the question's: the rules' C-3 wins, noted
    assert v.situation == Situation(product="C-3", request_date=dt.date(2026, 4, 10))
    assert any("product 'E-417'" in n and "'C-3'" in n for n in v.notes), v.notes
    body = server.requests[0]["body"]
    assert body["tools"][0]["function"]["name"] == "ExtractedSituation"
    system = body["messages"][0]["content"]
    assert "return null" in system.lower() and "never substitute today's date" in system.lower()


WORDS = ["warranty", "battery", "bought", "return", "the", "on", "my", "C-3", "S-2", "E-417",
         "Старт", "тариф", "15", "March", "2026", "марта", "today", "requested", "in", "April",
         "10.04.2026", "2025-12-20", "bike", "купил", "возврат"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=0, max_size=14))
def test_extractor_never_invents_a_value_absent_from_the_text(words):
    text = " ".join(words)
    v = run(text)
    s = v.situation
    if s.product is not None:
        assert s.product in MATCHER.find(text)
    stated = {m.value for m in find_dates(text) if m.value}
    stated |= {m.period[1] for m in find_dates(text) if m.period}  # a month: its last day
    for value in (s.purchase_date, s.request_date):
        assert value is None or value in stated or value == TODAY
    if s.as_of is not None:
        assert s.as_of in stated or ("today" in words and s.as_of == TODAY)
    proposed = rule_extract(text, MATCHER)
    assert proposed.product is None or proposed.product in text


@settings(max_examples=300, deadline=None)
@given(start=st.dates(dt.date(2020, 1, 1), dt.date(2030, 1, 1)),
       length=st.integers(1, 2000), day=st.dates(dt.date(2019, 1, 1), dt.date(2036, 1, 1)),
       role=st.sampled_from(list(ValidFor)))
def test_validity_is_the_half_open_interval(start, length, day, role):
    end = start + dt.timedelta(days=length)
    fields = FilterFields(source_id="X", valid_for=role, valid_from_s=instant(start),
                          valid_to_s=instant(end))
    flt = Filter(situation=Situation(**{role.value: day}))
    assert flt.admits(fields) == (start <= day < end)
    for other in ValidFor:
        if other is role:
            continue
        # another role's date never decides; the as-of date stands in for a role without one
        expected = (start <= day < end) if other is ValidFor.AS_OF else True
        assert Filter(situation=Situation(**{other.value: day})).admits(fields) == expected
    if role is not ValidFor.AS_OF:  # a date of its own beats the stand-in
        own = Situation(**{role.value: start, "as_of": day})
        assert Filter(situation=own).admits(fields)


def test_model_extraction_with_the_extractive_model_is_a_configuration_error(monkeypatch):
    from pydantic import ValidationError
    from typer.testing import CliRunner

    from situated.cli import app
    from situated.settings import Settings

    with pytest.raises(ValidationError, match="offline extractive model has none"):
        Settings(use_model_for_extraction=True)
    monkeypatch.setenv("SITUATED_USE_MODEL_FOR_EXTRACTION", "true")
    result = CliRunner().invoke(app, ["ask", "What does error E-417 mean?"])
    assert result.exit_code == 1 and "SITUATED_MODEL=openai" in result.output
    assert "Traceback" not in result.output

"""A real small model's extraction replies, recorded from a llama.cpp server serving
SmolLM2-135M-Instruct (`python benchmarks/local_model.py --record ...`), replayed over HTTP:
whatever the model proposes, only what the question grounds is kept, and the rules' reading
wins where the model contradicts it."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from fakes import FakeOpenAIServer
from langchain_openai import ChatOpenAI

from situated.chains.read.intent import Intent
from situated.chains.read.proposal import extraction_runnable

pytestmark = pytest.mark.unit
TODAY = dt.date(2026, 11, 29)
RECORDED = json.loads((Path(__file__).parent / "fixtures" / "smollm2_replies.json")
                      .read_text(encoding="utf-8"))
D = dt.date

# what the question itself grounds, whatever the model said (its raw reply is in the fixture)
EXPECTED = {
    "What battery warranty applies to a C-3 bought on 15 March 2026?": (
        {"product": "C-3", "purchase_date": D(2026, 3, 15)}, Intent.AT, {}),
    "What does error E-417 mean on my S-2?": ({"product": "S-2"}, Intent.AT, {}),
    "List the versions of the Старт tariff": ({"product": "Старт"}, Intent.VERSIONS, {}),
    "Я подключаю тариф «Старт» сегодня. Сколько дней на возврат?": (
        {"product": "Старт", "as_of": TODAY}, Intent.AT, {}),
    "How long is the battery warranty if I bought it on 15 March?": (
        {}, Intent.AT, {"purchase_date": "15 March"}),
}


def _replay(entry):
    responses = [{"raw": x["reply"]} for x in entry["exchanges"] if x["status"] == 200]
    with FakeOpenAIServer(responses) as server:
        model = ChatOpenAI(base_url=server.base_url, api_key="k", model="smollm2-135m",
                           max_retries=0)
        return extraction_runnable(frozenset(entry["products"]), lambda: TODAY, model).invoke(
            {"question": entry["question"]})


@pytest.mark.parametrize("entry", RECORDED, ids=[e["question"][:40] for e in RECORDED])
def test_a_recorded_reply_keeps_only_what_the_question_grounds(entry):
    facts, intent, partial = EXPECTED[entry["question"]]
    v = _replay(entry)
    got = {k: val for k, val in v.situation.model_dump().items() if val is not None and val != ()}
    assert got == facts, (entry["exchanges"][0]["reply"], v.notes)
    assert v.intent is intent and v.partial == partial


def test_the_recorded_replies_are_a_real_models_not_the_rules():
    """The fixture holds what the model said: some of it contradicts or exceeds the question."""
    proposed = [json.loads(x["reply"]["choices"][0]["message"]["tool_calls"][0]["function"]
                           ["arguments"]) for e in RECORDED for x in e["exchanges"]]
    assert any(p.get("asks_about_now") for p in proposed)  # "now" where no question says it
    assert any("2023" in str(p.get("request_date")) for p in proposed)  # a year never written

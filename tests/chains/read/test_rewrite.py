"""A question in another script than the documents' is searched by a chat model's rewrite of it
(`Settings.rewrite_into`, `chains.read.rewrite`); its situation is read from the question as asked,
the request carries the question alone, and the offline model cannot be asked to rewrite."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import app_over
from fakes import DownChatModel, ScriptedChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import ValidationError

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status
from situated.errors import ConfigError, ModelError
from situated.settings import Settings

Q_RU = "Какая гарантия на аккумулятор C-3, купленный 15 марта 2026?"
REWRITE = "What battery warranty applies to a C-3?"


def _app(sample_app, into: str | None) -> App:
    app = app_over(sample_app.settings.model_copy(update={"rewrite_into": into}), sample_app.embeddings)
    return app


def _ask(sample_app, into, replies, question=Q_RU):
    model = ScriptedChatModel(replies=replies)
    answer = build_ask_chain(_app(sample_app, into), model=model).invoke({"question": question})
    return answer, model.calls


@pytest.mark.integration
def test_a_russian_question_over_english_documents_is_searched_by_its_rewrite(sample_app):
    answer, calls = _ask(sample_app, "English", [REWRITE, "It is covered [S1]."])
    system, human = calls[0]
    assert isinstance(system, SystemMessage) and "English" in system.content
    assert isinstance(human, HumanMessage) and "аккумулятор" in human.content
    assert "2026" not in human.content and len(calls[0]) == 2  # the question alone, no dates
    assert len(calls) == 2 and "Evidence:" in calls[1][-1].content
    assert answer.status is Status.ANSWERED
    assert any(e.source_id.startswith("WARR") for e in answer.evidence)
    as_asked, _ = _ask(sample_app, None, ["It is covered [S1]."])
    assert [h.block_id for h in answer.hits] != [h.block_id for h in as_asked.hits]  # searched
    # by the rewrite: the warranty's own blocks come up where the Russian words found the spec
    assert {"WARR-R2-1", "WARR-R2-2"} <= {h.block_id for h in answer.hits[:4]}
    # the situation is the question's as asked, and the reply's language is its own
    assert answer.situation.product == "C-3"
    assert answer.situation.purchase_date == dt.date(2026, 3, 15)


@pytest.mark.integration
def test_a_question_in_latin_script_is_not_rewritten(sample_app):
    _, calls = _ask(sample_app, "English", ["It is covered [S1]."],
                    question="What battery warranty applies to a C-3 bought on 15 March 2026?")
    assert len(calls) == 1 and "Evidence:" in calls[0][-1].content


@pytest.mark.integration
def test_a_rewrite_not_in_the_documents_script_is_not_used(sample_app):
    unused, _ = _ask(sample_app, "English", ["Какая гарантия?", "Covered [S1]."])
    off, calls = _ask(sample_app, None, ["Covered [S1]."])
    assert len(calls) == 1  # without the setting no rewrite is asked for
    assert [e.block_id for e in unused.evidence] == [e.block_id for e in off.evidence]
    assert [h.block_id for h in unused.hits] == [h.block_id for h in off.hits]


@pytest.mark.integration
def test_the_offline_model_cannot_be_asked_to_rewrite(sample_app):
    with pytest.raises(ConfigError, match="SITUATED_REWRITE_INTO='English'.*SITUATED_MODEL=openai"):
        build_ask_chain(_app(sample_app, "English"))



@pytest.mark.integration
def test_a_rewrite_whose_endpoint_fails_is_an_error_or_with_the_fallback_the_question_as_asked(
        sample_app):
    down = DownChatModel()
    with pytest.raises(ModelError, match="SITUATED_OPENAI_BASE_URL.*SITUATED_MODEL_FALLBACK"):
        build_ask_chain(_app(sample_app, "English"), model=down).invoke({"question": Q_RU})
    assert len(down.calls) == 1  # the rewrite failed; nothing else was asked
    fallback = app_over(sample_app.settings.model_copy(update={"rewrite_into": "English",
                                                          "model_fallback": True}), sample_app.embeddings)
    got = build_ask_chain(fallback, model=DownChatModel()).invoke({"question": Q_RU})
    as_asked, _ = _ask(sample_app, None, ["It is covered [S1]."])
    assert [h.block_id for h in got.hits] == [h.block_id for h in as_asked.hits]
    assert got.status is Status.ANSWERED  # the offline model answered


@pytest.mark.unit
def test_a_language_name_too_long_for_a_language_is_refused_by_name():
    with pytest.raises(ValidationError, match="rewrite_into"):
        Settings(rewrite_into="English " * 10)

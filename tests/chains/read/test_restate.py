"""A question the relevance rule refused is searched once more by a chat model's restatement of
it in plain words (`Settings.restate_refused`, `chains.routing.restate`): the rule decides again,
the second search stands only where it answers, the request carries the question alone, a
question answered as asked is never restated, and the offline model cannot be asked to."""

from __future__ import annotations

import pytest
from conftest import app_over, indexed_app, md, write
from fakes import DownChatModel, ScriptedChatModel
from langchain_core.messages import HumanMessage

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status
from situated.errors import ConfigError, ModelError

CLASSES = ("# Group classes\n\n## 1 Booking\n\nClasses are booked in the app up to seven days in "
           "advance. Each class holds at most 20 people.\n\n## 2 Personal training\n\nA personal "
           "training session of 60 minutes costs 45. Packs of ten sessions cost 400.\n")
HOURS = ("# Facilities\n\n## 1 Opening hours\n\nThe club opens from 6:00 to 22:00 on weekdays "
         "and from 8:00 to 20:00 at weekends.\n\n## 2 Sauna\n\nThe sauna is for members over 18 "
         "only. Sessions should not exceed 15 minutes.\n")
ASKED = "Is the steam box ok for my 16-year-old?"  # the text: "The sauna is for members over 18"
RESTATED = "Can a 16-year-old use the sauna?"


@pytest.fixture(scope="module")
def gym(tmp_path_factory, embeddings):
    root = tmp_path_factory.mktemp("restate")
    write(root / "docs" / "classes.md", md("RF-CLASSES", CLASSES, title="Riverside classes"))
    write(root / "docs" / "hours.md", md("RF-HOURS", HOURS, title="Riverside facilities"))
    return root, indexed_app(root, embeddings)


def _ask(gym, restate: bool, replies: list[str], question: str = ASKED, model=None,
         **settings):
    app = app_over(gym[1].settings.model_copy(update={"restate_refused": restate, **settings}),
                   gym[1].embeddings)
    model = model or ScriptedChatModel(replies=replies)
    return build_ask_chain(app, model=model).invoke({"question": question}), model.calls


@pytest.mark.integration
def test_a_refused_paraphrase_is_answered_through_its_restatement(gym):
    as_asked, calls = _ask(gym, False, ["unused"])
    assert as_asked.status is Status.NO_EVIDENCE and calls == []  # the rule refuses it alone
    answer, calls = _ask(gym, True, [RESTATED, "The sauna is for members over 18 [S1]."])
    assert answer.status is Status.ANSWERED
    assert [e.source_id for e in answer.evidence][:1] == ["RF-HOURS"]
    request = calls[0]
    assert isinstance(request[-1], HumanMessage) and request[-1].content == ASKED
    words = " ".join(str(m.content) for m in request)
    assert "18" not in words and "Riverside" not in words  # the question alone, no evidence
    assert len(calls) == 2 and "Evidence:" in calls[1][-1].content


@pytest.mark.integration
def test_a_question_answered_as_asked_is_not_restated(gym):
    answer, calls = _ask(gym, True, ["The club opens at 6:00 [S1]."],
                         question="What are the opening hours on weekdays?")
    assert answer.status is Status.ANSWERED
    assert len(calls) == 1 and "Evidence:" in calls[0][-1].content


@pytest.mark.integration
def test_a_restatement_that_finds_nothing_leaves_the_refusal(gym):
    answer, calls = _ask(gym, True, ["What is the capital city of Portugal?", "unused"],
                         question="What's Portugal's capital?")
    assert answer.status is Status.NO_EVIDENCE and len(calls) == 1
    echoed, calls = _ask(gym, True, ["What's Portugal's capital?"],
                         question="What's Portugal's capital?")
    assert echoed.status is Status.NO_EVIDENCE and len(calls) == 1


@pytest.mark.integration
def test_an_empty_restatement_or_a_failing_endpoint_leaves_the_refusal_or_is_an_error(gym):
    empty, calls = _ask(gym, True, ["   "])
    assert empty.status is Status.NO_EVIDENCE and len(calls) == 1  # not searched again
    down = DownChatModel()
    with pytest.raises(ModelError, match="SITUATED_OPENAI_BASE_URL.*SITUATED_MODEL_FALLBACK"):
        _ask(gym, True, [], model=down)
    assert len(down.calls) == 1  # the restatement failed; nothing else was asked
    kept, calls = _ask(gym, True, [], model=DownChatModel(), model_fallback=True)
    assert kept.status is Status.NO_EVIDENCE and len(calls) == 1  # the refusal as asked



@pytest.mark.integration
def test_the_offline_model_cannot_be_asked_to_restate(gym):
    app = app_over(gym[1].settings.model_copy(update={"restate_refused": True}),
                   gym[1].embeddings)
    with pytest.raises(ConfigError, match="SITUATED_RESTATE_REFUSED=true.*SITUATED_MODEL=openai"):
        build_ask_chain(app)

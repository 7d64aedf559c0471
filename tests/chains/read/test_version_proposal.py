"""Questions about versions in words no rule reads (issue 53, item 1): the rules first, then
the chat model's proposal (`intent`, `line_fact`), validated in code. A proposed intent stands
only where the question uses a word of change or versions ("version", "updates", "new"):
naming a product with releases is not enough, because a small model proposes an intent for
nearly every question that names one. The question's own words still win over the proposal.
The model is a local fake server speaking the OpenAI protocol."""

from __future__ import annotations

import datetime as dt

import pytest
from fakes import FakeOpenAIServer

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status
from situated.chains.read.extract import ExtractedSituation, validate_extraction
from situated.chains.read.intent import Intent, LineFact, find_intent
from situated.chains.read.products import ProductMatcher
from situated.chains.say.models import make_chat_model
from situated.settings import ModelKind
from situated.situation import Scope

TODAY = dt.date(2026, 12, 4)


def _asked(app, monkeypatch, question: str, proposal: dict, replies: tuple[dict, ...] = ()):
    """`question` through the chain with a model proposing `proposal`; the answer and the
    requests the server saw."""
    monkeypatch.setenv("FAKE_KEY", "sk-test")
    with FakeOpenAIServer([{"tool": "ExtractedSituation", "arguments": proposal},
                           *replies]) as server:
        settings = app.settings.model_copy(update={
            "model": ModelKind.OPENAI, "openai_base_url": server.base_url,
            "openai_api_key_env": "FAKE_KEY"})
        chain = build_ask_chain(app, model=make_chat_model(settings), clock=lambda: TODAY)
        answer = chain.invoke({"question": question, "scope": Scope()})
    return answer, server.requests


@pytest.mark.integration
@pytest.mark.parametrize(("question", "fact", "releases"), [
    ("Where do your quickq versions begin?", "oldest", ["1.0.0"]),
    # ("… does your coverage extend?" is read by the rules: "extend" is a word of
    # asking)
    ("What quickq version is at the leading edge of your coverage?", "latest", ["2.0.0"]),
    # ("Walk me through …" is read by the rules: walking through is asking)
    ("Rattle off the quickq versions you know.", "list", ["1.0.0", "1.1.0", "2.0.0"]),
])
def test_the_model_reads_a_question_about_the_line_the_rules_do_not(quickq, monkeypatch,
                                                                    question, fact, releases):
    assert find_intent(question, lambda q: q.replace("quickq", " ")) is None  # no rule reads it
    a, requests = _asked(quickq, monkeypatch, question,
                         {"product": "quickq", "intent": "versions", "line_fact": fact})
    assert a.status is Status.ANSWERED and a.releases == releases, a.answer
    assert len(requests) == 1  # the extraction alone: the line is answered from metadata


@pytest.mark.integration
def test_the_question_s_own_words_win_over_the_proposed_fact(quickq, monkeypatch):
    a, _ = _asked(quickq, monkeypatch, "Which is the oldest quickq release you hold?",
                  {"product": "quickq", "intent": "versions", "line_fact": "latest"})
    assert a.releases == ["1.0.0"], a.answer


@pytest.mark.integration
def test_a_proposed_change_question_reads_that_release_s_notes(quickq, monkeypatch):
    a, _ = _asked(quickq, monkeypatch, "Which updates came with quickq 1.1.0?",
                  {"product": "quickq", "version": "1.1.0", "intent": "changes"})
    assert a.status is Status.ANSWERED, a.answer
    assert "queue.schedule" in a.answer
    # the guide's diff into 1.1.0 (or 1.1.0's notes): never 2.0.0's
    assert a.changes and a.changes[-1].to_release == "1.1.0", a.answer
    cited = {c.source_id for c in a.citations}
    assert cited <= {"QQ-GUIDE-1.0.0", "QQ-GUIDE-1.1.0", "QQ-LOG@1.1.0"}, cited


@pytest.mark.integration
def test_a_proposed_first_appearance_is_answered_as_one(quickq, monkeypatch):
    question = "With which quickq version did scheduling become an option?"
    assert find_intent(question, lambda q: q.replace("quickq", " ")) is None
    a, _ = _asked(quickq, monkeypatch, question, {"product": "quickq", "intent": "since"})
    assert a.appearance is not None and a.appearance.release == "1.1.0", a.answer


@pytest.mark.unit
def test_a_proposal_stands_only_where_the_question_speaks_of_versions():
    matcher = ProductMatcher({"quickq", "Старт"})
    proposed = ExtractedSituation(intent="versions", line_fact="oldest")
    v = validate_extraction(proposed, "Where do your quickq versions begin?", matcher,
                            lambda: TODAY)
    assert v.intent is Intent.VERSIONS and v.line_fact is LineFact.OLDEST
    # naming a product with releases is not enough, nor the word "release" (Qwen proposed
    # `versions` for "What does the guide say about X in release 0.16.1?"): about a moment
    for question in ("How old is the quickq guide?",
                     "What does the guide say about retries in release 1.1.0?"):
        v = validate_extraction(proposed, question, matcher, lambda: TODAY)
        assert v.intent is Intent.AT and v.line_fact is None, question
    assert any("says nothing of change or versions" in n for n in v.notes)
    assert any("line fact 'oldest' belongs to a question about versions" in n for n in v.notes)
    # a fact that is not one is named in the note, and dropped
    bad = ExtractedSituation(intent="versions", line_fact="the middle one")
    v = validate_extraction(bad, "Which quickq version is in the middle?", matcher,
                            lambda: TODAY)
    assert v.intent is Intent.VERSIONS and v.line_fact is None
    assert any("'the middle one' is not one of list, count, oldest, latest, exists" in n
               for n in v.notes)


@pytest.mark.integration
def test_a_proposed_version_without_a_number_is_not_a_release(quickq, monkeypatch):
    """Qwen2.5-Coder-1.5B proposed `version: "latest"` for this question; it was reported as
    a version that does not exist. An order word is not a release: the words decide."""
    a, _ = _asked(quickq, monkeypatch, "Which version of quickq is the latest in the index?",
                  {"product": "quickq", "version": "latest", "intent": "versions"})
    assert a.status is Status.ANSWERED and a.releases == ["2.0.0"], a.answer


@pytest.mark.integration
def test_naming_a_product_with_releases_does_not_ground_a_proposal(quickq, monkeypatch):
    """Qwen2.5-Coder-1.5B proposed `versions` for "How do I install quickq?" (and an intent
    for 14 of 14 such questions): without a word of versions the rules' reading stands."""
    a, requests = _asked(quickq, monkeypatch, "How do I install quickq?",
                         {"product": "quickq", "intent": "versions", "line_fact": "exists"},
                         ({"content": "Install quickq with pip install quickq. [S1]"},))
    assert not a.releases and not a.versions
    assert len(requests) in (1, 2)  # extraction, then the answer unless nothing relevant


@pytest.mark.integration
def test_a_proposer_beside_the_offline_answer(quickq, monkeypatch):
    """`build_ask_chain(proposer=...)`: a model proposes, the offline model answers (no answer
    request reaches the server); a proposer without structured output is refused by name."""
    from situated.chains.say.models import ExtractiveChatModel
    from situated.errors import ConfigError

    monkeypatch.setenv("FAKE_KEY", "sk-test")
    with FakeOpenAIServer([{"tool": "ExtractedSituation", "arguments": {
            "product": "quickq", "version": "1.0.0"}}]) as server:
        settings = quickq.settings.model_copy(update={
            "model": ModelKind.OPENAI, "openai_base_url": server.base_url,
            "openai_api_key_env": "FAKE_KEY"})
        chain = build_ask_chain(quickq, proposer=make_chat_model(settings), clock=lambda: TODAY)
        a = chain.invoke({"question": "How many tasks does one quickq worker run in 1.0.0?",
                          "scope": Scope()})
    assert len(server.requests) == 1 and server.requests[0]["body"].get("tools")
    assert a.status is Status.ANSWERED and "4 tasks" in a.answer, a.answer
    assert {c.source_id for c in a.citations} <= {"QQ-GUIDE-1.0.0", "QQ-LOG@1.0.0"}
    with pytest.raises(ConfigError, match="ExtractiveChatModel has no structured output"):
        build_ask_chain(quickq, proposer=ExtractiveChatModel())


@pytest.mark.unit
def test_a_tool_call_written_as_text_is_read():
    """Qwen2.5-Coder-1.5B in llama.cpp's server (`--jinja`) answered a function call with its
    call as text, braces doubled (recorded 2026-12-04); its arguments are the proposal."""
    from situated.chains.read.proposal import lenient

    notes: list[str] = []
    reply = ('{{"name": "ExtractedSituation", "arguments": {"product": "quickq", '
             '"purchase_date": null, "partial_dates": [], "asks_about_now": false, '
             '"version": null, "intent": "versions", "line_fact": "exists"}}}}')
    got = lenient(reply, notes)
    assert got is not None and got.product == "quickq" and got.intent == "versions"
    assert notes == ["the model wrote its tool call as text; its arguments are read"]
    assert lenient("{{not json}}", notes) is None and notes[-1].endswith("is not JSON; ignored")

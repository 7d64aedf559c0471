"""The `units` evidence form (`Settings.model_evidence`, `chains.say.focus`): a reading model gets
the best units of the packed blocks, relabelled, and can cite only what it was shown."""

from __future__ import annotations

import re

import pytest
from conftest import app_over
from fakes import ScriptedChatModel
from pydantic import ValidationError

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.chains.budget import Budget
from situated.chains.contract import Evidence, Status
from situated.chains.say.focus import EvidenceFocus
from situated.chains.say.models import ExtractiveChatModel
from situated.chains.state import Supplied
from situated.loaders.sentences import evidence_units
from situated.prompts.answer import read_answer_request
from situated.settings import EvidenceForm, Settings

Q = "What battery warranty applies to a C-3 bought on 15 March 2026?"


def _units_app(sample_app, units: int) -> App:
    app = app_over(sample_app.settings.model_copy(update={"model_evidence": EvidenceForm.UNITS,
                                                     "model_units": units}), sample_app.embeddings)
    return app


@pytest.mark.integration
def test_a_model_reads_the_best_units_relabelled_and_the_answer_shows_what_it_read(sample_app):
    scripted = ScriptedChatModel(replies=["The battery is covered [S1]."])
    whole = build_ask_chain(sample_app, model=ScriptedChatModel(
        replies=["It is covered [S1]."])).invoke({"question": Q})
    a = build_ask_chain(_units_app(sample_app, 3), model=scripted).invoke({"question": Q})
    request = read_answer_request(scripted.calls[0])
    labels = [label for label, _ in request.evidence]
    assert labels == [f"S{n}" for n in range(1, len(labels) + 1)]  # S1, S2, … in order
    assert [(e.label, e.text) for e in a.evidence] == request.evidence  # what it read
    shown = [u for _, text in request.evidence for u in evidence_units(text)]
    assert 1 <= len(shown) <= 3 < sum(len(evidence_units(e.text)) for e in whole.evidence)
    stored = {e.block_id: evidence_units(e.text) for e in whole.evidence}
    for e in a.evidence:  # each shown unit is its block's own, in the block's order
        own = stored[e.block_id]
        positions = [own.index(u) for u in evidence_units(e.text)]
        assert positions == sorted(positions)
        assert e.text.split("\n", 1)[0] == next(
            x.text for x in whole.evidence if x.block_id == e.block_id).split("\n", 1)[0]
    assert a.status is Status.ANSWERED
    assert [(c.label, c.source_id, c.section) for c in a.citations] == [
        ("S1", a.evidence[0].source_id, a.evidence[0].section)]


@pytest.mark.integration
def test_a_label_of_a_block_the_model_was_not_shown_is_withheld(sample_app):
    """In the blocks form the sample question's evidence has nine labels; in the units form
    with two units a reply citing [S7] cites nothing it was given."""
    whole = build_ask_chain(sample_app, model=ScriptedChatModel(
        replies=["It is covered [S7]."])).invoke(
        {"question": Q})
    assert whole.status is Status.ANSWERED and len(whole.evidence) >= 7
    a = build_ask_chain(_units_app(sample_app, 2),
                        model=ScriptedChatModel(replies=["Covered [S7]."])).invoke(
        {"question": Q})
    assert len(a.evidence) <= 2 and a.status is Status.WITHHELD and not a.citations


def _supplied(sample_index, block_id: str, label: str, text: str) -> Supplied:
    block = sample_index.blocks.many(["WARR-R2-1"])["WARR-R2-1"]  # any stored block
    block = block.model_copy(update={"block_id": block_id, "text": text})
    return Supplied(Evidence(label=label, block_id=block_id, source_id=block.source_id,
                             section=None, page=None, tokens=len(text.split()), text=text),
                    block)


@pytest.mark.integration
def test_a_unit_that_announces_a_list_brings_its_list(sample_index):
    lead = "The warranty excludes four kinds of damage:"
    items = ["- a crash", "- water in the casing", "- an opened casing", "- frost"]
    blocks = [_supplied(sample_index, "B-1", "S1", "Exclusions\nThe shop opens at nine.\n"
                        + lead + "\n" + "\n".join(items)),
              _supplied(sample_index, "B-2", "S2", "Other\nBikes are blue.")]
    focus = EvidenceFocus(ExtractiveChatModel(), units=1,
                          budget=Budget(lambda t: len(t.split()), 1000))
    (only,) = focus("Which damage does the warranty exclude?", blocks)
    assert only.evidence.label == "S1" and only.block.block_id == "B-1"
    assert only.evidence.text.splitlines() == ["Exclusions", lead, *items]
    assert only.evidence.tokens == len(only.evidence.text.split())


@pytest.mark.unit
def test_the_units_settings_name_what_is_wrong(monkeypatch):
    with pytest.raises(ValidationError, match="model_units"):
        Settings(model_units=0)
    with pytest.raises(ValidationError, match="model_quotes"):
        Settings(model_quotes=0)
    monkeypatch.setenv("SITUATED_MODEL_EVIDENCE", "paragraphs")
    with pytest.raises(ValidationError) as err:
        Settings()
    assert re.search(r"model_evidence.*'blocks'.*'units'.*'choice'|blocks.*units.*choice",
                     str(err.value), re.DOTALL)


def _choice_app(sample_app, units: int = 6, quotes: int = 3) -> App:
    app = app_over(sample_app.settings.model_copy(update={
        "model_evidence": EvidenceForm.CHOICE, "model_units": units, "model_quotes": quotes}), sample_app.embeddings)
    return app


def _units_of(evidence) -> list[str]:
    return [" ".join(e.text.split("\n")[1:]) for e in evidence]


@pytest.mark.integration
def test_in_the_choice_form_the_model_names_labels_and_code_quotes_their_units(sample_app):
    scripted = ScriptedChatModel(replies=["S2 S1"])
    a = build_ask_chain(_choice_app(sample_app), model=scripted).invoke({"question": Q})
    system, request = scripted.calls[0][0].content, read_answer_request(scripted.calls[0])
    assert "labels only" in system and "NONE" in system  # the choice prompt, not the writer's
    assert 2 <= len(request.evidence) <= 6
    assert [(e.label, e.text) for e in a.evidence] == request.evidence
    for e in a.evidence:  # one unit (or a lead and its list) a label, under its heading
        assert len(evidence_units(e.text)) - 1 <= 1 or e.text.split("\n")[1].endswith(":")
    assert a.status is Status.ANSWERED
    words = _units_of(a.evidence)
    assert a.answer.index(words[1][:40]) < a.answer.index(words[0][:40])  # in its order
    assert [c.label for c in a.citations] == ["S2", "S1"]
    assert [c.source_id for c in a.citations] == [a.evidence[1].source_id,
                                                  a.evidence[0].source_id]


@pytest.mark.integration
@pytest.mark.parametrize(("reply", "status", "shown"), [
    ("NONE", Status.NO_EVIDENCE, None),  # its "nothing answers": said without a quote
    ("S1 S9", Status.WITHHELD, "S9"),  # a label it was not shown withholds, named
    ("The battery is covered for 36 months [S1].", Status.ANSWERED, "36 months"),  # as written
    ("S1, S2, S3 and S4", Status.ANSWERED, None),  # the first `model_quotes` (2) of them
])
def test_a_choice_reply_is_quoted_refused_or_read_as_written(sample_app, reply, status, shown):
    a = build_ask_chain(_choice_app(sample_app, quotes=2),
                        model=ScriptedChatModel(replies=[reply])).invoke({"question": Q})
    assert a.status is status, a.answer
    if shown:
        assert shown in a.answer
    if reply.startswith("S1,"):
        assert [c.label for c in a.citations] == ["S1", "S2"]
        assert _units_of(a.evidence)[2][:40] not in a.answer


@pytest.mark.integration
def test_a_question_the_document_asks_is_quoted_with_its_answer_and_a_contents_line_never(
        sample_index):
    faq = _supplied(sample_index, "B-1", "S1", "Questions\nWhat does the warranty cover? "
                    "What does it cost? How long does the warranty cover the battery? "
                    "The battery is covered for three years.")
    model = ExtractiveChatModel()
    reply = model.answer("How long does the warranty cover the battery?",
                         [("S1", faq.evidence.text)])
    assert reply.startswith("How long does the warranty cover the battery? The battery is "
                            "covered for three years. [S1]")
    assert "What does it cost?" not in reply and "What does the warranty cover?" not in reply

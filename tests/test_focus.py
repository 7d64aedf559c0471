"""The `units` evidence form (`Settings.model_evidence`, `chains.focus`): a reading model gets
the best units of the packed blocks, relabelled, and can cite only what it was shown."""

from __future__ import annotations

import re

import pytest
from fakes import ScriptedChatModel
from pydantic import ValidationError

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.chains.budget import Budget
from situated.chains.contract import Evidence, Status
from situated.chains.evidence import Supplied
from situated.chains.focus import EvidenceFocus
from situated.chains.models import ExtractiveChatModel
from situated.loaders.sentences import evidence_units
from situated.prompts.answer import read_answer_request
from situated.settings import EvidenceForm, Settings

Q = "What battery warranty applies to a C-3 bought on 15 March 2026?"


def _units_app(sample_app, units: int) -> App:
    app = App(sample_app.settings.model_copy(update={"model_evidence": EvidenceForm.UNITS,
                                                     "model_units": units}))
    app.__dict__["embeddings"] = sample_app.embeddings
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
    monkeypatch.setenv("SITUATED_MODEL_EVIDENCE", "paragraphs")
    with pytest.raises(ValidationError) as err:
        Settings()
    assert re.search(r"model_evidence.*'blocks'.*'units'|blocks.*units", str(err.value), re.DOTALL)

"""Questions about change: intents read by rules (then the model, validated), changes computed
from consecutive versions (each side cited with its own label), listings from metadata, no
model call on either, and permission on every version shown."""

from __future__ import annotations

import datetime as dt
import json

import jsonschema
import pytest
from conftest import app_over, indexed_app, md, write
from fakes import FakeOpenAIServer, ScriptedChatModel

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status, shipped_answer_schema
from situated.chains.read.intent import Intent, find_intent, names_nothing, read_cue
from situated.chains.versions.changes import diff_blocks, word_change
from situated.eval.cases import load_cases
from situated.settings import ModelKind
from situated.situation import Scope
from situated.substance import substance

SCHEMA = shipped_answer_schema()
TODAY = dt.date(2026, 11, 29)


# -- intent rules (unit; the table of phrasings is tests/chains/read/test_intent.py) ----------------------
@pytest.mark.unit
def test_no_sample_question_about_a_moment_reads_as_a_change_question():
    for case in load_cases():
        if not {"changes", "versions", "compare"} & set(case.tags):  # a comparison: two periods
            assert find_intent(case.question) is None, case.question


@pytest.mark.unit
def test_a_proposed_intent_is_validated_in_code():
    from situated.chains.read.extract import validate_intent

    notes: list[str] = []
    no_cue = read_cue("Старт: the timeline?")
    assert no_cue is None
    assert validate_intent("versions", no_cue, notes) is Intent.VERSIONS
    assert validate_intent("compare", no_cue, notes) is Intent.AT
    assert validate_intent("delete it", no_cue, notes) is Intent.AT
    assert len(notes) == 2 and "two periods" in notes[0] and "'delete it'" in notes[1]
    # the question's own cue wins over the proposal; a reply inherits its question's
    assert validate_intent("versions", read_cue("What changed in Старт?"), []) is Intent.CHANGES
    assert read_cue("C-3", follows="What changed in the warranty?") is Intent.CHANGES
    assert read_cue("How did it change between March and May?", compared=True) \
        is Intent.COMPARE
    # fixed by the chain (a comparison's slice): wins over the proposal
    assert validate_intent("versions", Intent.AT, []) is Intent.AT


@pytest.mark.unit
def test_a_question_that_names_nothing():
    assert names_nothing("What changed?") and names_nothing("Что изменилось?")
    assert not names_nothing("What changed in the fees?")
    assert not names_nothing("Что изменилось в тарифе Старт?")


# -- the diff (unit) -------------------------------------------------------------------------
@pytest.mark.unit
def test_substance_ignores_dates_formatting_and_case_not_other_numbers():
    assert substance("Last updated: **March 3, 2025**.") == substance("Last updated: 4 May 2026")
    assert substance("Within 14 days.") != substance("Within 30 days.")
    assert word_change("return it within 14 days of purchase",
                       "return it within 30 days of purchase") == "return it within 14 → 30 " \
                                                                  "days of purchase"


# -- the seed tariff -------------------------------------------------------------------------
@pytest.fixture
def chain(sample_app):
    model = ScriptedChatModel(replies=["From the evidence [S1]."])
    return model, build_ask_chain(sample_app, model=model, clock=lambda: TODAY)


@pytest.mark.integration
def test_what_changed_in_start_cites_both_versions_and_states_14_to_30(chain):
    model, ch = chain
    a = ch.invoke({"question": "Что изменилось в тарифе Старт с 1 апреля 2026?"})
    jsonschema.validate(a.model_dump(mode="json"), SCHEMA)
    assert a.status is Status.ANSWERED and not model.calls  # written by code from the versions
    assert "14 → 30 дней" in a.answer and "10 → 5 рабочих дней" in a.answer
    assert {c.source_id for c in a.citations} == {"TAR-START-1", "TAR-START-2"}
    (change,) = a.changes
    assert (change.from_version, change.to_version, change.effective) == (
        "TAR-START-1", "TAR-START-2", "2026-04-01")
    assert change.substance and [s.kind for s in change.sections] == ["changed", "changed"]
    by_label = {e.label: e.source_id for e in a.evidence}
    for s in change.sections:  # each side cited with its own label
        assert {by_label[x] for x in s.old_labels} == {"TAR-START-1"}
        assert {by_label[x] for x in s.new_labels} == {"TAR-START-2"}
    first = change.sections[0]
    assert any("14 дней" in x for x in first.removed) and any("30 дней" in x for x in first.added)
    assert [e.label for e in a.evidence] == ["S1", "S2", "S3", "S4"]
    assert a.budget.used == sum(e.tokens for e in a.evidence) <= a.budget.allowance
    assert "(/documents/TAR-START-1#section-1)" in a.answer  # labels became links
    assert [v.source_id for v in a.versions] == ["TAR-START-1", "TAR-START-2"]


@pytest.mark.integration
def test_listing_the_start_versions_comes_from_metadata(chain):
    model, ch = chain
    a = ch.invoke({"question": "List the versions of the Старт tariff"})
    jsonschema.validate(a.model_dump(mode="json"), SCHEMA)
    assert a.status is Status.ANSWERED and not model.calls and a.budget is None
    assert [(v.source_id, v.valid_from, v.valid_to) for v in a.versions] == [
        ("TAR-START-1", "2026-01-01", "2026-04-01"), ("TAR-START-2", "2026-04-01", None)]
    assert "[TAR-START-1](/documents/TAR-START-1)" in a.answer
    assert "from 1 January 2026 to 31 March 2026" in a.answer  # valid_to is exclusive
    assert "from 1 April 2026, in force" in a.answer


@pytest.mark.integration
def test_a_period_picks_its_changes_and_a_period_without_one_says_so(chain):
    _, ch = chain
    a = ch.invoke({"question": "What changed in the Старт return rules in 2026?"})
    assert [(c.from_version, c.to_version) for c in a.changes] == [
        (None, "TAR-START-1"), ("TAR-START-1", "TAR-START-2")]
    b = ch.invoke({"question": "What changed in the Старт return rules in May 2026?"})
    assert b.status is Status.ANSWERED and not b.changes and not b.evidence
    assert "No version of return-rules (Старт) took effect from 1 May 2026 to 31 May 2026" \
        in b.answer and "TAR-START-2" in b.answer
    c = ch.invoke({"question": "What changed in the Старт return rules in 2025?"})
    assert c.status is Status.NO_EVIDENCE and "first applies from 1 January 2026" in c.answer


@pytest.mark.integration
def test_a_change_question_that_leaves_the_product_open_asks_naming_them(chain):
    model, ch = chain
    a = ch.invoke({"question": "What changed in the battery warranty?"})
    assert a.status is Status.CLARIFY and a.missing == ["product"]
    assert "C-3" in a.answer and "S-2" in a.answer and not model.calls
    b = ch.invoke({"question": "C-3", "follows": "What changed in the battery warranty?",
                   "situation": a.situation.model_dump()})
    assert b.status is Status.ANSWERED
    assert [(c.from_version, c.to_version) for c in b.changes] == [("WARR-R1", "WARR-R2")]


@pytest.mark.integration
def test_nothing_named_asks_which_document_and_nothing_relevant_is_no_evidence(chain):
    model, ch = chain
    a = ch.invoke({"question": "Что изменилось?"})
    assert a.status is Status.CLARIFY and a.missing == ["document"]
    assert "return-rules (Старт)" in a.answer and "HR" not in a.answer
    reply = ch.invoke({"question": "return-rules, Старт", "follows": "Что изменилось?"})
    assert reply.status is Status.ANSWERED  # a reply naming the document completes it
    assert [(c.from_version, c.to_version) for c in reply.changes] == [
        ("TAR-START-1", "TAR-START-2")]
    b = ch.invoke({"question": "What changed in the Mars colony charter?"})
    assert b.status is Status.NO_EVIDENCE and not b.evidence and not b.changes
    c = ch.invoke({"question": "What changed in the Старт return rules on 1 April?"})
    assert c.status is Status.CLARIFY and c.missing == ["year"] and "1 April" in c.answer
    assert not model.calls


@pytest.mark.integration
def test_a_comparison_of_two_periods_is_still_a_comparison(chain):
    _, ch = chain
    a = ch.invoke({"question": "How did the return period of Старт change between March and "
                               "May 2026?"})
    assert [s.label for s in a.slices] == ["March 2026", "May 2026"] and not a.changes


# -- permission and substance on a corpus of our own -----------------------------------------
def _fees(version: int, days: int, extra: str = "") -> str:
    return (f"## 1 Fees\n\nThe Orbit plan costs 10 euros a month.\n\n## 2 Cancellation\n\n"
            f"A subscriber may cancel within {days} days.{extra}\n")


@pytest.fixture(scope="module")
def fee_app(tmp_path_factory, embeddings):
    root = tmp_path_factory.mktemp("fees")
    docs = root / "docs"
    common = {"product": "Orbit", "family": "plan-terms", "valid_for": "as_of"}
    write(docs / "v1.md", md("TERMS-1", _fees(1, 14), valid_from="2025-01-01",
                             valid_to="2025-06-01", **common))
    write(docs / "v2.md", md("TERMS-2", _fees(2, 21, " Staff discount code SECRET-77 applies."),
                             valid_from="2025-06-01", valid_to="2025-09-01",
                             access="[staff]", **common))
    write(docs / "v3.md", md("TERMS-3", _fees(3, 30), valid_from="2025-09-01",
                             valid_to="2026-01-01", **common))
    # the same terms again: reflowed, bold, a new "last updated" date — nothing of substance
    write(docs / "v4.md", md("TERMS-4", "## 1 Fees\n\nLast updated: 1 January 2026.\n\nThe "
                             "**Orbit plan** costs 10 euros\na month.\n\n## 2 Cancellation\n\n"
                             "A subscriber may cancel within 30 days.\n",
                             valid_from="2026-01-01", **common))
    return indexed_app(root, embeddings)


STAFF = Scope(roles=["staff"])


@pytest.mark.integration
def test_a_restricted_version_is_never_listed_or_diffed_for_a_caller_who_may_not_read_it(
        fee_app):
    ch = build_ask_chain(fee_app, clock=lambda: TODAY)
    public = ch.invoke({"question": "List the versions of the Orbit plan-terms"})
    assert [v.source_id for v in public.versions] == ["TERMS-1", "TERMS-3", "TERMS-4"]
    staff = ch.invoke({"question": "List the versions of the Orbit plan-terms", "scope": STAFF})
    assert [v.source_id for v in staff.versions] == ["TERMS-1", "TERMS-2", "TERMS-3", "TERMS-4"]
    q = {"question": "What changed in the Orbit plan-terms in 2025?"}
    a = ch.invoke(q)
    assert [(c.from_version, c.to_version) for c in a.changes] == [
        (None, "TERMS-1"), ("TERMS-1", "TERMS-3")]
    assert "14 → 30 days" in a.answer
    body = json.dumps(a.model_dump(mode="json"), ensure_ascii=False)
    assert "TERMS-2" not in body and "SECRET-77" not in body and "21 days" not in body
    b = ch.invoke({**q, "scope": STAFF})
    assert [(c.from_version, c.to_version) for c in b.changes] == [
        (None, "TERMS-1"), ("TERMS-1", "TERMS-2"), ("TERMS-2", "TERMS-3")]
    assert "SECRET-77" in json.dumps(b.model_dump(mode="json"))


@pytest.mark.integration
def test_versions_that_differ_only_in_formatting_or_dates_are_no_change_in_substance(fee_app):
    ch = build_ask_chain(fee_app, clock=lambda: TODAY)
    a = ch.invoke({"question": "What changed in the Orbit plan-terms on 1 January 2026?"})
    (change,) = a.changes
    assert (change.from_version, change.to_version, change.substance) == (
        "TERMS-3", "TERMS-4", False)
    assert not change.sections and not a.evidence and a.status is Status.ANSWERED
    assert "no change in substance" in a.answer


@pytest.mark.integration
def test_blocks_over_the_allowance_are_listed_not_cited(fee_app, embeddings):
    settings = fee_app.settings.model_copy(update={"window": 630, "reserved_input": 600,
                                                    "reserved_output": 0})
    app = app_over(settings, embeddings)
    a = build_ask_chain(app, clock=lambda: TODAY).invoke(
        {"question": "What changed in the Orbit plan-terms in 2025?", "scope": STAFF})
    cited = {e.label for e in a.evidence}
    assert 0 < a.budget.used <= a.budget.allowance == 30
    labels = {x for c in a.changes for s in c.sections for x in [*s.old_labels, *s.new_labels]}
    assert labels == cited and 0 < len(a.evidence) < 3  # three blocks differ
    assert "did not fit the evidence allowance" in a.answer


@pytest.mark.unit
def test_a_moved_sentence_is_no_change_and_a_new_section_is_added(fee_app):
    index = fee_app.index
    old, new = index.blocks.of_document("TERMS-1"), index.blocks.of_document("TERMS-3")
    assert diff_blocks(old, old) == []
    assert diff_blocks(old, [old[1], old[0]]) == []  # sections moved, nothing changed
    kinds = [(s.kind.value, s.path) for s in diff_blocks(old, new)]
    assert kinds == [("changed", ("2 Cancellation",))]
    assert [s.kind.value for s in diff_blocks(old[:1], new)] == ["added"]
    assert [s.kind.value for s in diff_blocks(old, new[:1])] == ["removed"]


# -- the model's proposal, validated ---------------------------------------------------------
@pytest.mark.integration
def test_the_model_proposes_an_intent_the_rules_did_not_find(sample_app, monkeypatch):
    from situated.chains.say.models import make_chat_model

    monkeypatch.setenv("FAKE_KEY", "sk-test")
    with FakeOpenAIServer([
            {"tool": "ExtractedSituation", "arguments": {"product": "Старт",
                                                         "intent": "versions"}},
            {"tool": "ExtractedSituation", "arguments": {
                "product": "Старт", "purchase_date": "2026-05-02", "intent": "rewrite the index"}},
            {"content": "Within 30 days [S1]."}]) as server:
        settings = sample_app.settings.model_copy(update={
            "model": ModelKind.OPENAI, "openai_base_url": server.base_url,
            "openai_api_key_env": "FAKE_KEY"})
        ch = build_ask_chain(sample_app, model=make_chat_model(settings), clock=lambda: TODAY)
        a = ch.invoke({"question": "Старт return rules: the timeline of editions?"})
        b = ch.invoke({"question": "Какой срок возврата по тарифу Старт при покупке 2 мая 2026?"})
    assert a.status is Status.ANSWERED and [v.source_id for v in a.versions] == [
        "TAR-START-1", "TAR-START-2"]
    assert len(server.requests) == 3  # the listing called no model after extraction
    assert b.status is Status.ANSWERED and not b.versions  # an invalid intent is ignored
    assert {e.source_id for e in b.evidence} == {"TAR-START-2"}


# -- CLI and server --------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.integration
def test_the_cli_shows_the_changes_as_a_diff():
    from typer.testing import CliRunner

    from situated.cli import app

    r = CliRunner().invoke(app, ["ask", "Что изменилось в тарифе Старт с 1 апреля 2026?"])
    assert r.exit_code == 0, r.output
    assert "TAR-START-1 → TAR-START-2" in r.output
    assert "- Клиент тарифа «Старт» может вернуть" in r.output and "+ Клиент" in r.output
    j = CliRunner().invoke(app, ["ask", "List the versions of the Старт tariff", "--json"])
    body = json.loads(j.stdout)
    jsonschema.validate(body, SCHEMA)
    assert [v["source_id"] for v in body["versions"]] == ["TAR-START-1", "TAR-START-2"]


@pytest.mark.integration
def test_a_long_period_compares_the_latest_changes_and_counts_the_rest(fee_app, monkeypatch):
    from situated.chains.versions import history

    monkeypatch.setattr(history, "MAX_PAIRS", 1)
    a = build_ask_chain(fee_app, clock=lambda: TODAY).invoke(
        {"question": "What changed in the Orbit plan-terms in 2025?", "scope": STAFF})
    assert [(c.from_version, c.to_version) for c in a.changes] == [("TERMS-2", "TERMS-3")]
    assert "2 earlier change(s) in this period were not compared" in a.answer


@pytest.mark.integration
def test_a_change_question_about_one_undated_document_says_there_is_nothing_to_compare(
        tmp_path, embeddings):
    """One version, no dates, no release: no history is recorded. Said as such, not as "No
    version … took effect (the latest); the one in force applies from —"."""
    write(tmp_path / "docs" / "policy.md", md("POLICY", title="Privacy Policy",
                                              body="## 1 Changes\n\nWe post every change to "
                                                   "this policy on this page.\n"))
    app = indexed_app(tmp_path, embeddings)
    answer = build_ask_chain(app).invoke({"question": "What changed in the privacy policy?"})
    assert answer.status is Status.NO_EVIDENCE
    assert answer.answer == ("Privacy Policy has one version, with no validity dates and no "
                             "release: there is no earlier version to compare it with.")


@pytest.mark.integration
def test_a_first_appearance_question_without_versions_is_asked_of_the_text(tmp_path,
                                                                            embeddings):
    """"When did Newcastle's first indoor market open?" over articles with no versions was
    answered "No version of the documents you may read has …": with no line to walk it is a
    question about what the documents say. Versions only a restricted reader may read do not
    make a line for anyone else."""

    write(tmp_path / "docs" / "city.md", md(
        "CITY", title="Newcastle", body="## 1 Markets\n\nThe Grainger Market opened in 1835 "
        "and was Newcastle's first indoor market.\n"))
    for v in ("1.0.0", "2.0.0"):  # a versioned guide only staff may read
        write(tmp_path / "docs" / f"ops-{v}.md", md(
            f"OPS-{v}", title="Operations guide", family="ops", version=v, access="[staff]",
            body="## 1 Markets\n\nIndoor market checks run weekly.\n"))
    chain = build_ask_chain(indexed_app(tmp_path, embeddings))
    a = chain.invoke({"question": "When did Newcastle's first indoor market open?",
                      "scope": Scope()})
    assert a.status is Status.ANSWERED and "1835" in a.answer, a.answer
    assert a.appearance is None
    staff = chain.invoke({"question": "When did indoor market checks first appear?",
                          "scope": Scope(roles=["staff"])})
    assert staff.appearance is not None, staff.answer  # staff read a line: first appearance


@pytest.mark.integration
def test_a_change_question_about_a_topic_without_versions_is_asked_of_the_text(tmp_path,
                                                                               embeddings):
    """«Какие изменения были внесены при производстве малолитражных автомобилей?» over
    articles with no versions was answered "… has one version": a change question naming a
    topic, not a document, where the caller reads no line, asks what the text tells of a
    change. Naming the document keeps the answer about its versions."""
    write(tmp_path / "docs" / "cars.md", md(
        "CARS", title="Small cars", body="## 1 Production\n\nIn the 1970s makers changed "
        "small-car production: front-wheel drive and crumple zones were added.\n"))
    chain = build_ask_chain(indexed_app(tmp_path, embeddings))
    a = chain.invoke({"question": "What changes were made to small-car production in the "
                                  "1970s?", "scope": Scope()})
    assert a.status is Status.ANSWERED and "crumple zones" in a.answer, a.answer
    assert not a.changes
    doc = chain.invoke({"question": "What changed in the document about small cars?",
                        "scope": Scope()})
    assert "has one version" in doc.answer, doc.answer

"""The OpenAI-compatible path against a local server that behaves like the ones users run
(llama.cpp's server among them): string messages, the output cap in both forms, function
calling falling back to JSON mode and then to the rules, a clear error for an endpoint that is
down or slow, the offline fallback only when a setting asks for it, and `situated eval` over
any endpoint beside the offline model."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from conftest import app_over, free_port
from fakes import FakeOpenAIServer
from langchain_openai import ChatOpenAI
from typer.testing import CliRunner

from situated import build_ask_chain
from situated.app import App
from situated.chains.contract import Status
from situated.chains.read.intent import Intent
from situated.chains.read.proposal import extraction_runnable
from situated.cli import app as cli
from situated.errors import ModelError
from situated.settings import ModelKind, Settings

TODAY = dt.date(2026, 11, 29)
QUESTION = "What does error E-417 mean on my C-3?"
ANSWER = {"content": "A cell imbalance [S1]."}
TOOL = {"tool": "ExtractedSituation", "arguments": {"product": "C-3"}}


def _app(sample_app, base_url: str, **more) -> App:
    settings = sample_app.settings.model_copy(update={
        "model": ModelKind.OPENAI, "openai_base_url": base_url, "openai_model": "smol",
        "openai_api_key_env": "FAKE_KEY", **more})
    app = app_over(settings, sample_app.embeddings)
    return app


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv("FAKE_KEY", "sk-test")


@pytest.mark.integration
def test_the_answer_is_one_string_message_with_the_output_cap_in_both_forms(sample_app):
    with FakeOpenAIServer([TOOL, ANSWER], list_content=False) as server:
        app = _app(sample_app, server.base_url)
        a = build_ask_chain(app, clock=lambda: TODAY).invoke({"question": QUESTION})
    assert a.status is Status.ANSWERED, a.answer
    body = server.requests[-1]["body"]
    human = body["messages"][-1]["content"]
    assert isinstance(human, str) and human.startswith("Known facts: ")
    assert "Evidence:\n[S1] ERR-CAT" in human and human.endswith(f"Question: {QUESTION}")
    cap = app.settings.reserved_output
    assert body["max_tokens"] == cap and body["max_completion_tokens"] == cap
    assert all(isinstance(m["content"], str) for r in server.requests
               for m in r["body"]["messages"])


@pytest.mark.integration
def test_content_parts_only_for_an_endpoint_that_declares_them(sample_app):
    with FakeOpenAIServer([TOOL, ANSWER]) as server:
        app = _app(sample_app, server.base_url, openai_content_parts=True)
        a = build_ask_chain(app, clock=lambda: TODAY).invoke({"question": QUESTION})
    assert a.status is Status.ANSWERED
    parts = server.requests[-1]["body"]["messages"][-1]["content"]
    assert [p["text"].split("\n", 1)[0] for p in parts][1:] == [
        "Evidence:", f"Question: {QUESTION}"]


@pytest.mark.unit
def test_extraction_falls_back_from_function_calling_to_json_mode():
    """A server without tool support: JSON mode proposes; a field the schema lacks is
    dropped with a note; the proposal is still validated."""
    proposal = {"content": json.dumps({"intent": "versions", "colour": "red"})}
    with FakeOpenAIServer([proposal], tools=False) as server:
        model = ChatOpenAI(base_url=server.base_url, api_key="k", model="smol", max_retries=0)
        v = extraction_runnable(frozenset({"Старт"}), lambda: TODAY, model).invoke(
            {"question": "Старт: the version timeline?"})  # no rule cue; a word of versions
    assert v.intent is Intent.VERSIONS
    assert any("function_calling failed" in n for n in v.notes), v.notes
    assert any("'colour'" in n and "dropped" in n for n in v.notes), v.notes
    kinds = [r["body"].get("response_format", {}).get("type") for r in server.requests]
    assert kinds == [None, "json_object"]  # tools refused, then JSON mode


@pytest.mark.unit
def test_a_model_proposal_is_checked_against_the_rules():
    """The rules' reading wins over a contradicting proposal; a "partial" date holding a year
    is not partial; an ungrounded date is dropped."""
    tool = {"tool": "ExtractedSituation", "arguments": {
        "product": "S-2", "purchase_date": "2026-03-16", "partial_dates": ["15 March 2026"]}}
    with FakeOpenAIServer([tool]) as server:
        model = ChatOpenAI(base_url=server.base_url, api_key="k", model="smol", max_retries=0)
        v = extraction_runnable(frozenset({"C-3", "S-2"}), lambda: TODAY, model).invoke(
            {"question": "Warranty of my C-3 bought on 15 March 2026?"})
    assert v.situation.product == "C-3" and v.situation.purchase_date == dt.date(2026, 3, 15)
    assert v.partial == {}
    assert any("product 'S-2'" in n for n in v.notes)
    assert any("holds a year" in n for n in v.notes)


@pytest.mark.integration
def test_an_unreachable_endpoint_is_an_error_naming_the_setting_and_the_url(sample_app):
    url = f"http://127.0.0.1:{free_port()}/v1"
    app = _app(sample_app, url)
    with pytest.raises(ModelError, match=r"at http://127\.0\.0\.1:\d+/v1 "
                                          r"\(SITUATED_OPENAI_BASE_URL\) failed: "):
        build_ask_chain(app, clock=lambda: TODAY).invoke({"question": QUESTION})


@pytest.mark.integration
def test_a_slow_endpoint_times_out_with_the_setting_named(sample_app):
    with FakeOpenAIServer([TOOL, ANSWER], delay=1.5) as server:
        app = _app(sample_app, server.base_url, openai_timeout_s=0.3,
                   use_model_for_extraction=False)
        with pytest.raises(ModelError, match="Timeout.*SITUATED_OPENAI_TIMEOUT_S"):
            build_ask_chain(app, clock=lambda: TODAY).invoke({"question": QUESTION})


@pytest.mark.integration
def test_the_offline_model_answers_only_when_a_setting_says_so(sample_app):
    url = f"http://127.0.0.1:{free_port()}/v1"
    a = build_ask_chain(_app(sample_app, url, model_fallback=True),
                        clock=lambda: TODAY).invoke({"question": QUESTION})
    assert a.status is Status.ANSWERED and a.citations[0].source_id == "ERR-CAT"


@pytest.mark.integration
def test_cli_ask_with_an_unreachable_model_exits_1_with_the_fix(sample_root, monkeypatch):
    monkeypatch.setenv("SITUATED_MODEL", "openai")
    monkeypatch.setenv("SITUATED_OPENAI_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")
    monkeypatch.setenv("SITUATED_OPENAI_API_KEY_ENV", "FAKE_KEY")
    result = CliRunner().invoke(cli, ["ask", QUESTION, "--index", str(sample_root)])
    assert result.exit_code == 1
    assert "SITUATED_OPENAI_BASE_URL" in result.output
    assert "Traceback" not in result.output and "openai." not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.slow
@pytest.mark.integration
def test_eval_evaluates_an_openai_compatible_model_beside_the_offline_one(
        sample_root, tmp_path, monkeypatch):
    with FakeOpenAIServer([ANSWER], list_content=False) as server:
        monkeypatch.setenv("SITUATED_OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("SITUATED_OPENAI_API_KEY_ENV", "FAKE_KEY")
        monkeypatch.setenv("SITUATED_USE_MODEL_FOR_EXTRACTION", "false")
        out = tmp_path / "report"
        result = CliRunner().invoke(cli, [
            "eval", "--index", str(sample_root), "--model", "openai", "--no-baselines",
            "--today", "2026-11-29", "--out", str(out), "--gate", "status_accuracy>=0"])
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert {"situated", "situated_offline"} <= set(report["summary"]), result.output
    assert server.requests, "the endpoint answered the situated system"
    assert all(r["body"]["max_tokens"] == Settings().reserved_output for r in server.requests)


@pytest.mark.unit
def test_a_proposed_intent_or_partial_date_must_stand_in_the_question():
    """Replies a real small model gave (SmolLM2 over llama.cpp): `intent: changes` for a
    question about a return period, and an empty partial date. Neither stands."""
    from situated.chains.read.extract import ExtractedSituation, validate_extraction
    from situated.chains.read.products import ProductMatcher

    question = "Я подключил тариф «Старт» 15 марта 2026 года. Сколько дней есть на возврат?"
    proposed = ExtractedSituation(product="Старт", purchase_date="2026-03-15", intent="changes",
                                  partial_dates=[""], asks_about_now=True)
    v = validate_extraction(proposed, question, ProductMatcher({"Старт"}), lambda: TODAY)
    assert v.intent is Intent.AT and v.partial == {} and v.situation.as_of is None
    assert any("says nothing of change" in n for n in v.notes)
    assert any("empty partial date" in n for n in v.notes)

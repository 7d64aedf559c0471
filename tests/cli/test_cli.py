"""`situated ask --json` honours the answer contract; bad CLI input gets a clear error."""

from __future__ import annotations

import json

import jsonschema
import pytest
from typer.testing import CliRunner

from situated.chains.contract import shipped_answer_schema
from situated.cli import app

pytestmark = pytest.mark.integration
SCHEMA = shipped_answer_schema()


def ask(sample_root, *args):
    result = CliRunner().invoke(app, ["ask", *args, "--index", str(sample_root), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    return data


def test_ask_json_has_hits_and_evidence_within_the_contract(sample_root):
    data = ask(sample_root, "What does error E-417 mean, and what should I check?")
    assert data["status"] == "answered"
    assert data["evidence"][0]["block_id"] == "ERR-CAT-1-t1"
    assert "| E-417 |" in data["evidence"][0]["text"]
    assert data["evidence"][0]["tokens"] > 0
    assert {h["block_id"] for h in data["hits"]} <= {e["block_id"] for e in data["evidence"]}
    assert data["budget"]["used"] == sum(e["tokens"] for e in data["evidence"])
    assert data["budget"]["allowance"] == 4096 - 600 - 512
    assert data["citations"][0]["link"] == "/documents/ERR-CAT#section-1"


def test_ask_with_situation_returns_only_the_applicable_version(sample_root):
    data = ask(sample_root, "What battery warranty applies to a C-3?", "--situation",
               '{"product": "C-3", "purchase_date": "2026-03-15"}')
    sources = {e["source_id"] for e in data["evidence"]} | {h["source_id"] for h in data["hits"]}
    assert "WARR-R2" in sources
    assert not sources & {"WARR-R1", "WARR-S2"}
    assert data["situation"]["purchase_date"] == "2026-03-15"


def test_ask_unrelated_question_is_no_evidence(sample_root):
    data = ask(sample_root, "What is the capital of France?")
    assert data["status"] == "no_evidence" and data["evidence"] == [] and data["hits"] == []


def test_restricted_text_needs_the_scope_from_the_flags(sample_root):
    q = "How do I isolate pump P-2 before work?"
    anonymous = ask(sample_root, q)
    assert all(e["source_id"] not in {"MAN-P2", "MAN-P4", "TCK-4711"}
               for e in anonymous["evidence"])
    tech = ask(sample_root, q, "--role", "technician", "--asset", "P-2")
    sources = [e["source_id"] for e in tech["evidence"]]
    assert sources[0] == "MAN-P2"
    dumped = json.dumps(tech)
    assert "MAN-P4" not in dumped
    assert not any(t in dumped for t in ("V-41", "B-17", "BF-2"))  # P-4 manual text never


def test_bad_situation_json_is_a_clear_error(sample_root):
    result = CliRunner().invoke(app, ["ask", "q", "--index", str(sample_root),
                                      "--situation", '{"purchase_date": "15/03/2026"}'])
    assert result.exit_code == 1
    assert "--situation is not a valid situation" in result.output
    result = CliRunner().invoke(app, ["ask", "q", "--index", str(sample_root),
                                      "--situation", '{"prodcut": "C-3"}'])
    assert result.exit_code == 1 and "prodcut" in result.output


def test_ask_on_a_missing_index_says_how_to_build_it(tmp_path):
    result = CliRunner().invoke(app, ["ask", "q", "--index", str(tmp_path / "none")])
    assert result.exit_code == 1 and "situated ingest" in result.output


def test_the_index_comes_from_the_environment_when_no_flag_names_one(tmp_path, monkeypatch):
    monkeypatch.setenv("SITUATED_INDEX_DIR", str(tmp_path / "from-env"))
    result = CliRunner().invoke(app, ["ask", "q"])  # no --index: the variable decides
    assert result.exit_code == 1 and str(tmp_path / "from-env") in result.output
    flagged = CliRunner().invoke(app, ["ask", "q", "--index", str(tmp_path / "flag")])
    assert str(tmp_path / "flag") in flagged.output  # the flag wins over the variable


def test_a_bad_setting_names_its_variable_and_the_value(monkeypatch):
    """An empty SITUATED_MULTILINGUAL_LEG said only "Input should be a valid boolean"."""
    monkeypatch.setenv("SITUATED_MULTILINGUAL_LEG", "")
    result = CliRunner().invoke(app, ["ask", "q", "--index", "/nonexistent"])
    assert result.exit_code == 1, result.output
    assert "SITUATED_MULTILINGUAL_LEG" in result.output and "''" in result.output, result.output
    assert "Traceback" not in result.output
    monkeypatch.delenv("SITUATED_MULTILINGUAL_LEG")
    monkeypatch.setenv("SITUATED_RERANKER_MAX_TOKENS", "x" * 200)  # a long value is cut
    long = CliRunner().invoke(app, ["ask", "q", "--index", "/nonexistent"])
    assert "SITUATED_RERANKER_MAX_TOKENS" in long.output and "x" * 200 not in long.output
    assert "..." in long.output, long.output


@pytest.mark.unit
@pytest.mark.parametrize(("args", "says"), [
    (["ask", "x" * 2001], "question has 2001 characters, more than the 2000 allowed"),
    (["ask", "C-3", "--follows", "y" * 2001], "previous question has 2001 characters"),
    (["ask", "   "], "question is empty"),
    (["eval", "--today", "2026-13-01"], "--today '2026-13-01' is not a date"),
    (["eval", "--gate", "leaks == 0"], "must look like metric<=number"),
])
def test_bad_cli_input_exits_1_naming_it_and_the_fix(args, says):
    """Checked before any index opens or any model loads: an error line, no traceback."""
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and says in result.output, result.output
    assert "Traceback" not in result.output


def test_chat_answers_one_question_after_another_and_a_clarification_on_the_next_line(
        sample_root):
    lines = ["What battery warranty applies to a bike bought on 15 March 2026?", "C-3",
             "What does error E-417 mean?", "x" * 3000, "How do I bake sourdough bread?", "exit",
             "never read"]
    result = CliRunner().invoke(app, ["chat", "--index", str(sample_root)],
                                input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "clarify" in text and "Which product: C-3 or S-2?" in text
    assert "For a purchase on 15 March 2026, for C-3" in text and "36 months" in text
    assert "E-417" in text and "no_evidence" in text
    assert "more than the 2000 allowed" in text  # a bad line is an error, the session goes on
    assert "never read" not in text and "Traceback" not in text


def test_a_calibration_over_a_handful_of_questions_prints_counts_not_rates():
    from situated.cli_print import _rates

    few = {"precision": 1.0, "recall": 0.75, "negatives_refused": 1.0, "positives": 4,
           "negatives": 83}
    assert _rates(few) == ("3 of 4 on-topic questions answered, 83 of 83 off-topic refused "
                           "(too few on-topic questions for a rate)")
    many = {**few, "positives": 40, "recall": 0.95, "precision": 0.974}
    assert _rates(many) == ("precision 0.974, recall 0.950, off-topic refused 1.000 "
                            "(40 on-topic, 83 off-topic questions)")

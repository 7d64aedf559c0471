"""The shipped answer schema is the one generated from the answer model, and it is a real
constraint: it accepts a real answer and rejects bodies that break the contract."""

from __future__ import annotations

import copy

import jsonschema
import pytest
from typer.testing import CliRunner

from situated.chains.contract import answer_schema, answer_schema_text, shipped_answer_schema
from situated.cli import app

pytestmark = pytest.mark.unit

GOOD = {
    "status": "answered", "answer": "36 months [WARR-R2, section 2](/documents/WARR-R2#section-2)",
    "missing": [],
    "situation": {"product": "C-3", "purchase_date": "2026-03-15", "request_date": None,
                  "as_of": None},
    "citations": [{"label": "S1", "source_id": "WARR-R2", "section": "2",
                   "link": "/documents/WARR-R2#section-2"}],
    "evidence": [{"label": "S1", "block_id": "WARR-R2-2", "source_id": "WARR-R2", "section": "2",
                  "page": None, "tokens": 41, "text": "..."}],
    "hits": [{"piece_id": "WARR-R2-2-p0", "block_id": "WARR-R2-2", "source_id": "WARR-R2",
              "score": 0.58}],
    "budget": {"window": 4096, "reserved_input": 600, "reserved_output": 512, "allowance": 2984,
               "used": 41},
}


def test_shipped_schema_equals_the_generated_one():
    assert shipped_answer_schema() == answer_schema(), (
        "situated/schemas/answer.schema.json is stale; regenerate it with "
        "`situated schema > situated/schemas/answer.schema.json`")


def test_schema_command_prints_the_generated_schema():
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0, result.output
    assert result.stdout == answer_schema_text()


@pytest.mark.parametrize("breakage", [
    lambda b: b.pop("hits"),
    lambda b: b.update(status="maybe"),
    lambda b: b.update(extra_field=1),
    lambda b: b["citations"][0].update(label="S1x"),
    lambda b: b["evidence"][0].update(label="[S1]"),
    lambda b: b["situation"].pop("as_of"),
    lambda b: b["evidence"][0].update(tokens="41"),
])
def test_schema_rejects_bodies_that_break_the_contract(breakage):
    schema = shipped_answer_schema()
    jsonschema.validate(GOOD, schema)
    bad = copy.deepcopy(GOOD)
    breakage(bad)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_budget_is_null_on_routes_that_never_reach_it():
    body = copy.deepcopy(GOOD) | {"status": "clarify", "budget": None, "evidence": [],
                                  "citations": []}
    jsonschema.validate(body, shipped_answer_schema())

"""A question that asks two things gets each part's best unit (`read.asked_parts`,
`say.models._parts_first`), and a unit quoted from an entry that does not name it carries the
entry's name (`say.models._in_its_entry`): "Valid values: a list of hosts" says nothing
without "`SKIP_PROXY`"."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import indexed_app, md, write

from situated.chains.ask import build_ask_chain
from situated.chains.read.asked_parts import asked_parts
from situated.situation import Scope


@pytest.mark.unit
@pytest.mark.parametrize(("question", "parts"), [
    ("Which environment variables does it use for proxies and how do I exclude hosts?",
     ["Which environment variables does it use for proxies", "how do I exclude hosts"]),
    ("In starlette, what does ServerErrorMiddleware do and where does it sit?",
     ["In starlette, what does ServerErrorMiddleware do", "where does it sit"]),
    ("Is it free? What does it cost?", ["Is it free", "What does it cost"]),
    ("Сколько стоит аренда и как её оплатить?", ["Сколько стоит аренда", "как её оплатить"]),
])
def test_a_question_of_two_asks_is_read_as_its_parts(question, parts):
    assert asked_parts(question) == parts


@pytest.mark.unit
@pytest.mark.parametrize("question", [
    "What are the default allow_methods and max_age of the CORS middleware?",  # one ask, a list
    "How do I set the proxy and the timeout on a client?",
    "How long do I get to keep a DVD?",
    "Quick one: what is the default timeout?",
    "… and why?",
])
def test_a_question_of_one_ask_is_one_part(question):
    assert asked_parts(question) == [question]


TOOL = """# Configuration

The tool reads its settings from environment variables.

## Network

### `ROUTE_VIA`

Valid values: the address of a relay, as host:port.

`ROUTE_VIA` sends every download through that relay.

### `SKIP_PROXY`

Valid values: a comma-separated list of hosts.

Downloads from these hosts go straight out.

## Colours

### `PLAIN_OUTPUT`

Valid values: 1 or 0.

Output without colour codes when set to 1.
"""


@pytest.fixture(scope="module")
def tool_app(tmp_path_factory, embeddings):
    root = tmp_path_factory.mktemp("parts")
    write(root / "docs" / "config.md", md("FETCHR-CONFIG", body=TOOL,
                                          title="fetchr configuration"))
    write(root / "docs" / "intro.md", md("FETCHR-INTRO", title="fetchr introduction", body=(
        "# Introduction\n\n## What it is\n\nfetchr downloads files in parallel and resumes "
        "broken downloads.\n\n## Install\n\nInstall it with pip install fetchr.\n")))
    return indexed_app(root, embeddings)


def _ask(app, question: str):
    chain = build_ask_chain(app, clock=lambda: dt.date(2026, 12, 6))
    return chain.invoke({"question": question, "scope": Scope()})


@pytest.mark.integration
def test_each_part_of_a_question_of_two_asks_is_answered(tool_app):
    a = _ask(tool_app, "Which variable sends downloads through a relay, and how do I keep "
                       "some hosts off the relay?")
    assert a.status.value == "answered", a.answer
    assert "ROUTE_VIA" in a.answer and "SKIP_PROXY" in a.answer, a.answer


@pytest.mark.integration
def test_a_unit_of_an_entry_carries_its_name_unless_the_question_gives_it(tool_app):
    a = _ask(tool_app, "Which values may the list of hosts that skip the relay hold?")
    assert "SKIP_PROXY" in a.answer, a.answer
    named = _ask(tool_app, "Which values does SKIP_PROXY take?")
    assert "SKIP_PROXY: Valid values" not in named.answer.replace("`", ""), named.answer

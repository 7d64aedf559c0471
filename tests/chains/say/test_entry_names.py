"""A unit quoted from an entry that does not name it carries the entry's name
(`say.models._in_its_entry`): "Valid values: a list of hosts" says nothing without
"`SKIP_PROXY`"."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import indexed_app, md, write

from situated.chains.ask import build_ask_chain
from situated.situation import Scope

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
def test_both_entries_a_question_asks_of_are_named(tool_app):
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

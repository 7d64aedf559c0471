"""Hostile scope: a restricted release, word, facet or carried version changes nothing a caller
who may not read it sees."""

from __future__ import annotations

import json

import pytest
from conftest import indexed_app, md, region_app, write

from situated import build_ask_chain
from situated.situation import Scope

TODAY = __import__("datetime").date(2026, 11, 29)


@pytest.fixture(scope="module")
def oracle_app(tmp_path_factory, embeddings):
    root = tmp_path_factory.mktemp("oracle")
    docs = root / "docs"
    rule = "## 1 Overtime\n\nOvertime is paid at {n} percent of the hourly rate.\n"
    write(docs / "o1.md", md("OT-1", rule.format(n=150), family="overtime", valid_for="as_of",
                             valid_from="2025-01-01", valid_to="2026-01-01"))
    write(docs / "o2.md", md("OT-2", rule.format(n=175), family="overtime", valid_for="as_of",
                             valid_from="2026-01-01"))
    write(docs / "hr.md", md("HR-NIMBUS", "## 1 Nimbus\n\nThe nimbus programme pays a "
                             "nimbus bonus for nimbus overtime nimbus shifts.\n",
                             access="[hr]", product="Nimbus"))
    for n in range(6):
        write(docs / f"p{n}.md", md(f"PUB-{n}", f"## 1 Topic {n}\n\nCanteen menu {n} lists "
                                    f"soup, bread and tea for week {n}.\n"))
    return indexed_app(root, embeddings)


def _widget(root, restricted: bool) -> None:
    """A public family at 1.0, 2.0, 3.0; with `restricted`, its unreleased 4.0 for staff and
    another family with higher numbers (9.0, 9.1), no product, staff only."""
    docs = root / "docs"
    for v, secs in (("1.0", 30), ("2.0", 45), ("3.0", 60)):
        write(docs / f"w{v}.md", md(f"WIDGET-{v}", f"## 1 Timeouts\n\nThe default timeout is "
                                    f"{secs} seconds.\n", family="widget-api",
                                    title="Widget API", version=v))
    if restricted:
        write(docs / "w4.md", md("WIDGET-4.0", "## 1 Timeouts\n\nThe default timeout is 90 "
                                 "seconds.\n", family="widget-api", title="Widget API",
                                 version="4.0", access="[staff]"))
        for v in ("9.0", "9.1"):
            write(docs / f"n{v}.md", md(f"NIGHT-{v}", "## 1 Routing\n\nThe gateway routes "
                                        "traffic between internal zones.\n",
                                        family="nightingale-gateway", title="Nightingale",
                                        version=v, access="[staff]"))


@pytest.fixture(scope="module")
def widgets(tmp_path_factory, embeddings):
    """The widget family ingested twice, without and with restricted releases, both recorded
    at one moment: an answer shows when each version was recorded, and two ingests a second
    apart would differ there whatever the releases."""
    import datetime as dt

    recorded = dt.datetime.now(dt.UTC)
    apps = {}
    for restricted in (False, True):
        root = tmp_path_factory.mktemp(f"widget-{restricted}")
        _widget(root, restricted)
        apps[restricted] = indexed_app(root, embeddings, now=lambda: recorded)
    return apps


WIDGET_QUESTIONS = ["What is the default timeout?", "Which versions exist?",
                    "What is the latest version?", "What changed in version 3.0?",
                    "What is the default timeout in version 2.0?", "Does version 4.0 exist?",
                    "In which version was the default timeout added?"]


STAFF = Scope(roles=["staff"])


@pytest.fixture(scope="module")
def regional(tmp_path_factory, embeddings):

    root = tmp_path_factory.mktemp("regional")
    for region, days in (("EU", 30), ("US", 14)):
        write(root / "docs" / f"{region}.md", md(
            f"RET-{region}", f"## 1 Returns\n\nYou may return an R-1 within {days} days of "
            "delivery.\n", family="returns", product="R-1", region=region))
    return region_app(root, embeddings)


@pytest.mark.integration
@pytest.mark.parametrize("template", ["overtime {w}", "how is {w} overtime paid",
                                      "What does the {w} rule say?"])
def test_a_word_only_a_restricted_document_holds_changes_nothing_a_public_caller_sees(
        oracle_app, template):
    chain = build_ask_chain(oracle_app, clock=lambda: TODAY)

    def reply(word: str) -> str:
        a = chain.invoke({"question": template.format(w=word)})
        return json.dumps(a.model_dump(mode="json"), ensure_ascii=False).replace(word, "W")

    assert reply("nimbus") == reply("zorblaxq")


@pytest.mark.integration
@pytest.mark.parametrize("question", WIDGET_QUESTIONS)
def test_a_restricted_release_changes_nothing_a_public_caller_sees(widgets, question):
    def reply(app) -> str:
        chain = build_ask_chain(app, clock=lambda: TODAY)
        a = chain.invoke({"question": question, "scope": Scope()})
        return json.dumps(a.model_dump(mode="json"), ensure_ascii=False)

    assert reply(widgets[True]) == reply(widgets[False])


@pytest.mark.integration
def test_the_public_latest_is_answered_and_staff_read_their_own_latest_of_the_family(widgets):
    chain = build_ask_chain(widgets[True], clock=lambda: TODAY)
    public = chain.invoke({"question": "What is the default timeout?", "scope": Scope()})
    assert public.status.value == "answered" and "60 seconds" in public.answer
    assert {e.source_id for e in public.evidence} == {"WIDGET-3.0"}
    assert "4.0" not in public.answer and "9.1" not in public.answer
    staff = chain.invoke({"question": "What is the default timeout?", "scope": STAFF})
    # the other family's 9.1 is not this family's latest: staff read 4.0
    assert staff.status.value == "answered" and "90 seconds" in staff.answer
    assert "9.1" not in staff.answer


@pytest.mark.integration
def test_a_declared_facet_named_in_the_question_picks_its_version(regional):
    chain = build_ask_chain(regional, clock=lambda: TODAY)
    a = chain.invoke({"question": "How many days do I have to return an R-1 in the EU?"})
    assert a.status.value == "answered" and a.situation.facets == {"region": "EU"}
    assert {e.source_id for e in a.evidence} == {"RET-EU"} and "30 days" in a.answer


@pytest.mark.integration
def test_an_undeclared_facet_in_a_carried_situation_is_dropped_not_echoed(regional):
    from situated.situation import Situation

    chain = build_ask_chain(regional, clock=lambda: TODAY)
    carried = Situation(facets={"access": "staff", "region": "US"})
    a = chain.invoke({"question": "How many days do I have to return an R-1?",
                      "situation": carried})
    assert a.situation.facets == {"region": "US"}
    assert "access" not in json.dumps(a.model_dump(mode="json"))


@pytest.mark.integration
def test_a_carried_version_is_checked_like_one_the_question_names(widgets):
    from situated.situation import Situation

    chain = build_ask_chain(widgets[False], clock=lambda: TODAY)
    carried = chain.invoke({"question": "What is the default timeout?",
                            "situation": Situation(version="5.0")})
    named = chain.invoke({"question": "What is the default timeout in version 5.0?"})
    assert carried.status.value == named.status.value == "no_evidence"
    assert "5.0 is not among the versions" in carried.answer
    assert carried.answer == named.answer

"""The router's rules decide alone: each reads the `RouteContext` (facts computed once from the
search and its probes), never another rule's outcome. So swapping two rules changes the
router's decision only for a question both of them decide; every other question keeps its
decision and the rule that made it."""

from __future__ import annotations

import datetime as dt

import pytest

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Answer
from situated.chains.routing.context import RouteContext
from situated.chains.routing.evidence_steps import EvidenceSteps
from situated.chains.routing.router import Router
from situated.chains.state import Reading, Retrieved, Routed, Subject
from situated.chains.versions.appearance_steps import AppearanceSteps
from situated.chains.versions.history_steps import HistorySteps
from situated.eval.cases import load_cases


def _routed_questions(app, monkeypatch) -> list[tuple[Router, object]]:
    """(the chain's router, the `Retrieved` record it routed) for every sample case."""
    seen: list[tuple[Router, object]] = []
    route = EvidenceSteps.route

    def spy(self: EvidenceSteps, retrieved: Retrieved) -> Routed:
        seen.append((self.router, retrieved))
        return route(self, retrieved)

    monkeypatch.setattr(EvidenceSteps, "route", spy)
    chain = build_ask_chain(app, clock=lambda: dt.date(2026, 11, 29))
    for case in load_cases():
        chain.invoke({"question": case.question, "situation": case.situation,
                      "follows": case.follows, "scope": case.scope})
    return seen


@pytest.mark.integration
def test_two_rules_swapped_change_only_the_questions_both_decide(sample_app, monkeypatch):
    routed = _routed_questions(sample_app, monkeypatch)
    assert len(routed) >= 40
    kept = 0
    deciding: set[str] = set()
    for router, r in routed:
        rules = list(router.rules)
        before = router.decide(r.reading, r.found, r.probes)
        deciding.add(before.rule)
        ctx = RouteContext(router.step, r.reading, r.found, r.probes)
        alone = [rule.decide(ctx) is not None for rule in rules]
        for i in range(len(rules) - 1):  # every pair of neighbours, swapped
            order = (*rules[:i], rules[i + 1], rules[i], *rules[i + 2:])
            after = Router(router.step, order).decide(r.reading, r.found, r.probes)
            if alone[i] and alone[i + 1]:
                continue  # both decide: the first of the two wins, in either order
            assert after == before, (r.reading.question.text, rules[i].name, rules[i + 1].name)
            kept += 1
    assert kept > 10 * len(routed) // 2  # most swaps leave the decision as it was
    assert len(deciding) >= 4, deciding  # the sample is routed by several rules, not one


@pytest.mark.unit
def test_a_rule_declaring_a_probe_that_does_not_exist_is_refused_by_name():
    from situated.chains.routing.rules import Rule

    class Misspelt(Rule):
        name = "misspelt"
        probes = ("undatd",)

    ctx = RouteContext.__new__(RouteContext)  # the check runs before anything is read
    with pytest.raises(ValueError, match=r"no probe 'undatd'; a rule declares one of"):
        Misspelt().probe(ctx)


VERSION_QUESTIONS = [  # every rule of the version router decides one of these
    "What changed in the battery warranty?", "What changed in the returns procedure?",
    "What changed in March?", "Which versions of the returns procedure are there?",
    "What changed in the return rules of the Старт tariff?", "What changed?",
    "List the versions of the battery warranty", "What changed in the S-2 battery warranty?",
    "What changed in the C-3 battery warranty in 2026?", "How many versions are there?",
    "Что изменилось в правилах возврата?", "What changed in the pump manual?",
    "When did the returns procedure first mention the dealer?",
    "In which version was the 36-month term added?", "When was a unicorn added?",
]


def _version_routes(app, monkeypatch) -> list[tuple[Router, object, object]]:
    """(the version router, the reading, its probes) for every question about versions."""
    seen: list[tuple[Router, object, object]] = []
    find, first = HistorySteps.find_versions, AppearanceSteps.answer

    def find_spy(self: HistorySteps, reading: Reading) -> Subject:
        seen.append((self.router, reading, self.router.probe(reading)))
        return find(self, reading)

    def first_spy(self: AppearanceSteps, reading: Reading) -> Answer:
        seen.append((self.router, reading, self.router.probe(reading)))
        return first(self, reading)

    monkeypatch.setattr(HistorySteps, "find_versions", find_spy)
    monkeypatch.setattr(AppearanceSteps, "answer", first_spy)
    chain = build_ask_chain(app, clock=lambda: dt.date(2026, 11, 29))
    for question in VERSION_QUESTIONS:
        chain.invoke({"question": question})
    return seen


@pytest.mark.integration
def test_the_version_routers_rules_decide_alone(sample_app, monkeypatch):
    """The questions about versions are routed by `Router`s too (their stops are rules): two
    neighbouring rules swapped change only the questions both decide."""
    routed = _version_routes(sample_app, monkeypatch)
    assert len(routed) == len(VERSION_QUESTIONS)
    deciding: set[str] = set()
    for router, reading, probes in routed:
        rules = list(router.rules)
        before = router.decide(reading, probes)
        deciding.add(before.rule)
        ctx = router.context(router.step, reading, probes)
        alone = [rule.decide(ctx) is not None for rule in rules]
        for i in range(len(rules) - 1):
            order = (*rules[:i], rules[i + 1], rules[i], *rules[i + 2:])
            after = Router(router.step, order, router.context).decide(reading, probes)
            if not (alone[i] and alone[i + 1]):
                assert after == before, (reading.question.text, rules[i].name)
    # stops and answers alike: a year, which document, the release line, nothing holds it, …
    assert len(deciding) >= 5, deciding

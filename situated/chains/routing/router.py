"""The router: an ordered tuple of rules, the first to decide wins (docs/design.md "The
router"). The order is data (`Router.order`, printed in the design doc and tested); the retrieve
step runs every rule's probe (`Router.probe`), the route step decides (`Router.decide`) and
searches nothing."""

from __future__ import annotations

import dataclasses

from situated.chains.context import StepContext
from situated.chains.decision import Decision, Probes
from situated.chains.routing.context import RouteContext
from situated.chains.routing.release_rules import (
    ElsewhereRelease,
    LackingInRelease,
    ReleaseLines,
    UnknownRelease,
    WhichRelease,
)
from situated.chains.routing.rules import (
    AboutSomethingElse,
    AnswerFromWhatApplies,
    NothingRelevant,
    NotInForce,
    NotRecorded,
    PeriodChange,
    Rule,
    SameText,
    WhichOne,
)
from situated.chains.state import Reading
from situated.retrievers.hybrid import SearchResult


class Router:
    """`rules` in the order they are asked; the last must always decide."""

    def __init__(self, step: StepContext, rules: tuple[Rule, ...]):
        if not rules:
            raise ValueError("a router needs at least one rule; give the rules in order")
        self.step, self.rules = step, rules

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.rules)

    def probe(self, reading: Reading, found: SearchResult) -> Probes:
        """Every search a rule will read, run now (the retrieve step)."""
        ctx = RouteContext(self.step, reading, found, searching=True)
        for rule in self.rules:
            rule.probe(ctx)
        return ctx.probes

    def decide(self, reading: Reading, found: SearchResult, probes: Probes) -> Decision:
        """The first rule's decision, naming the rule (the route step: no search)."""
        ctx = RouteContext(self.step, reading, found, probes)
        for rule in self.rules:
            decision = rule.decide(ctx)
            if decision is not None:
                return dataclasses.replace(decision, rule=rule.name)
        raise RuntimeError(f"no rule of {self.order} decided; the last rule must always decide")


def standard(step: StepContext, releases: ReleaseLines) -> Router:
    """The product's rules in their order (docs/design.md "The router" prints it)."""
    return Router(step, (
        UnknownRelease(releases),
        NotRecorded(),
        LackingInRelease(),
        ElsewhereRelease(),
        NotInForce(),
        NothingRelevant(),
        AboutSomethingElse(),
        WhichOne(),
        PeriodChange(),
        WhichRelease(releases),
        SameText(),
        AnswerFromWhatApplies(),
    ))


__all__ = ["Router", "standard"]

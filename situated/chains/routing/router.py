"""The router: an ordered tuple of rules, the first to decide wins (docs/design.md "The
router"). The order is data (`Router.order`, printed in the design doc and tested); the step
before the decision runs every rule's probe (`Router.probe`), the deciding step decides
(`Router.decide`) and searches nothing. One class for both routers of the ask path: the
evidence router over a question and its search (`standard`, `RouteContext`), and the router of
the questions about versions (`version_rules.versions`, `VersionContext`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Generic

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
    Ctx,
    NothingRelevant,
    NotInForce,
    NotRecorded,
    PeriodChange,
    Rule,
    SameText,
    WhichOne,
)


class Router(Generic[Ctx]):
    """`rules` in the order they are asked; the last must always decide. `context` makes the
    rules' context from the step context and the record decided on (with the probes when
    deciding): `RouteContext` over (reading, search) unless given."""

    def __init__(self, step: StepContext, rules: tuple[Rule[Ctx], ...],
                 context: Callable[..., Ctx] | None = None):
        if not rules:
            raise ValueError("a router needs at least one rule; give the rules in order")
        self.step, self.rules = step, rules
        self.context: Callable[..., Any] = context if context is not None else RouteContext

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.rules)

    def probe(self, *record: Any) -> Probes:
        """Every search a rule will read, run now (the retrieve step)."""
        ctx = self.context(self.step, *record, searching=True)
        for rule in self.rules:
            rule.probe(ctx)
        return ctx.probes

    def decide(self, *record: Any) -> Decision:
        """The first rule's decision over `record` and its probes (last), naming the rule (the
        route step: no search)."""
        ctx = self.context(self.step, *record)
        for rule in self.rules:
            decision = rule.decide(ctx)
            if decision is not None:
                return dataclasses.replace(decision, rule=rule.name)
        raise RuntimeError(f"no rule of {self.order} decided; the last rule must always decide")


def standard(step: StepContext, releases: ReleaseLines) -> Router[RouteContext]:
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

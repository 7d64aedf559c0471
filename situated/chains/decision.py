"""What a rule of the router decides (`Decision`): answer from some blocks, ask for a missing
fact, or say nothing readable answers. Decisions are made in this package; the questions about
versions (`chains.versions.history`) use the named constructors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from situated.modes import Mode


class Route(Mode):
    ANSWER = "answer"
    CLARIFY = "clarify"
    NO_EVIDENCE = "no_evidence"


@dataclass(frozen=True)
class Decision:
    route: Route
    missing: tuple[str, ...]
    message: str = ""
    supply: tuple[str, ...] = ()  # block ids the answer may be built from, best first
    notes: tuple[str, ...] = ()  # said after the answer: what was left out, same-day versions
    # names the question gives that nothing readable spells out: the evidence is dropped and
    # the answer's relevance names them (`rules.AboutSomethingElse`)
    unheld: tuple[str, ...] = ()
    rule: str = ""  # the router's rule that decided (for traces and tests)

    @classmethod
    def no_evidence(cls, message: str, unheld: tuple[str, ...] = ()) -> Decision:
        return cls(Route.NO_EVIDENCE, (), message, unheld=unheld)

    @classmethod
    def clarify(cls, missing: Sequence[str], message: str) -> Decision:
        return cls(Route.CLARIFY, tuple(missing), message)

    @classmethod
    def answer(cls, supply: tuple[str, ...], notes: tuple[str, ...] = ()) -> Decision:
        return cls(Route.ANSWER, (), supply=tuple(supply), notes=tuple(notes))


@dataclass(frozen=True)
class Probes:
    """The searches the retrieve step ran for the rules, by name, in the order they ran."""

    ran: tuple[tuple[str, Any], ...] = ()

    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.ran)

    def get(self, name: str) -> tuple[bool, Any]:
        for key, value in self.ran:
            if key == name:
                return True, value
        return False, None


__all__ = ["Decision", "Probes", "Route"]

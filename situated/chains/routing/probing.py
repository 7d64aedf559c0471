"""What every router's context shares (`ProbeContext`): the probes, the searches a rule needs
beyond the question's own, run in the step before the decision and read back when it decides.

A probe runs only while searching (`searching=True`), where each rule's `probe` asks for what
it will read; the facts a probe depends on are computed on the way, so the order of the probes
follows from what they read. The results travel in `Probes`, and the deciding step reads them
without searching: a probe it asks for that was not run is a bug, and raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from situated.chains.decision import Probes


class ProbeContext:
    """The probes of one question; a router's context (`RouteContext`, `VersionContext`)
    names the probes its rules may declare (`PROBES`), each a property computed once."""

    PROBES: ClassVar[tuple[str, ...]] = ()

    def __init__(self, probes: Probes = Probes(), searching: bool = False):
        self._ran, self._searching = list(probes.ran), searching

    @property
    def probes(self) -> Probes:
        return Probes(tuple(self._ran))

    def probe(self, name: str, run: Callable[[], Any]) -> Any:
        """The probe `name`: run now while searching, read back when deciding."""
        held, value = Probes(tuple(self._ran)).get(name)
        if held:
            return value
        if not self._searching:
            raise RuntimeError(f"the route step asked for the probe {name!r}, which the "
                               "retrieve step did not run: a rule reads a search its `probe` "
                               "does not declare")
        value = run()
        self._ran.append((name, value))
        return value

    def run_probe(self, name: str) -> None:
        """Run the declared probe `name` now, with what it depends on."""
        if name not in self.PROBES:
            raise ValueError(f"no probe {name!r}; a rule declares one of {self.PROBES}")
        getattr(self, name)


__all__ = ["ProbeContext"]

"""Run the cases through every system, score them, gate on thresholds."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from rich.progress import Progress

from situated.errors import ConfigError
from situated.eval.cases import Case
from situated.eval.metrics import aggregate, as_dict, score_case

DEFAULT_GATES = ["permission_leaks<=0", "stale_version_rate<=0"]
_GATE = re.compile(r"^\s*([a-z_0-9]+)\s*(<=|>=)\s*([0-9.]+)\s*$")


@dataclass(frozen=True)
class Gate:
    metric: str
    op: str
    value: float

    @classmethod
    def parse(cls, text: str) -> Gate:
        m = _GATE.match(text)
        if not m:
            raise ConfigError(f"gate {text!r} must look like metric<=number or metric>=number, "
                             "e.g. permission_leaks<=0 or evidence_recall>=0.8")
        return cls(m.group(1), m.group(2), float(m.group(3)))

    def check(self, summary: dict) -> str | None:
        if self.metric not in summary:
            return f"{self.metric}: unknown metric; choose one of {', '.join(summary)}"
        v = summary[self.metric]
        ok = v is not None and (v <= self.value if self.op == "<=" else v >= self.value)
        return None if ok else f"{self.metric} = {v} (needs {self.op} {self.value})"


def run(systems, cases: list[Case], console=None):
    per_case: dict[str, list[dict]] = {}
    summary: dict[str, dict] = {}
    with Progress(console=console, transient=True) as bar:
        for name, chain in systems:
            task = bar.add_task(f"{name}", total=len(cases))
            results = []
            for case in cases:
                t = time.perf_counter()
                answer = chain.invoke({"question": case.question, "situation": case.situation,
                                       "follows": case.follows, "scope": case.scope})
                results.append(score_case(case, answer, (time.perf_counter() - t) * 1e3))
                bar.advance(task)
            per_case[name] = [as_dict(r) for r in results]
            summary[name] = aggregate(results, cases)
    return summary, per_case


def gate(summary: dict, gates: list[Gate]) -> list[str]:
    return [f for g in gates if (f := g.check(summary)) is not None]

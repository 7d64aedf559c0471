"""How many searches the ask chain runs per question, and what a question costs, on the
temporal probe's cases over the genai-eu index (built by `benchmarks/temporal_probe.py`).

    python benchmarks/search_count.py [--work DIR] [--out benchmarks/results] [--label NAME]

Counts every `HybridSearch.search` call a question causes (the chain's own searches; the
baselines are not run), grouped by case kind, with p50/p95 per question. Run it at two commits
(`PYTHONPATH=<worktree> python …/search_count.py --label before`) to compare; each run writes
`search_count-<label>.json` stamped with its commit.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from pathlib import Path

from _provenance import write_result
from latency import percentile
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.eval.cases import load_cases
from situated.eval.systems import systems
from situated.retrievers.hybrid import HybridSearch
from situated.settings import Settings

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "temporal-probe")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--label", default="run")
    args = ap.parse_args()
    index = args.work / "index"
    if not (index / "current").exists():
        ap.error(f"no index at {index}; run benchmarks/temporal_probe.py first")
    calls = [0]
    search = HybridSearch.search

    def counted(self, *a, **kw):
        calls[0] += 1
        return search(self, *a, **kw)

    HybridSearch.search = counted
    app = App(Settings(index_dir=index))
    chain = dict(systems(app, baselines=False))["situated"]
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for half in ("dev", "test"):
        for case in load_cases(args.work / "cases" / f"probe-{half}.yaml"):
            calls[0] = 0
            t = time.perf_counter()
            chain.invoke({"question": case.question, "situation": case.situation,
                          "follows": case.follows, "scope": case.scope})
            ms = (time.perf_counter() - t) * 1e3
            for kind in ("all", *(case.tags[1:2] or ["untagged"])):
                rows[kind]["searches"].append(calls[0])
                rows[kind]["ms"].append(ms)
    table = Table(title=f"searches per question ({args.label})")
    for col in ("kind", "questions", "searches mean", "searches max", "p50 ms", "p95 ms"):
        table.add_column(col, justify="right")
    out = {}
    for kind, r in sorted(rows.items()):
        out[kind] = {"questions": len(r["ms"]),
                     "searches_mean": round(statistics.mean(r["searches"]), 3),
                     "searches_max": max(r["searches"]),
                     "p50_ms": round(percentile(r["ms"], 50), 1), "p95_ms": round(percentile(r["ms"], 95), 1)}
        o = out[kind]
        table.add_row(kind, str(o["questions"]), f"{o['searches_mean']:.2f}",
                      str(o["searches_max"]), f"{o['p50_ms']:.0f}", f"{o['p95_ms']:.0f}")
    Console().print(table)
    write_result(args.out / f"search_count-{args.label}.json", out)


if __name__ == "__main__":
    main()

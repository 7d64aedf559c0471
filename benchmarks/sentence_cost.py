"""What a relevance signal costs a search: `HybridSearch.search` on PolicyQA questions with the
signal measured (today) beside the same searches with it left out, alternating in one process
(each side run twice, in both orders, after a warm-up pass). `--signal sentence`: MiniLM's unit
cosines (`relevance.unit_cosines`); `--signal topical`: multilingual-e5's reading of the first
blocks (`relevance.topical_cosines`, the question encoded by e5 as well).

    python benchmarks/sentence_cost.py [--signal sentence|topical] [--index DIR]
                                       [--policyqa FILE] [--n 300] [--out benchmarks/results]

DIR is the PolicyQA index `natural_questions.py` builds. Prints a table and writes JSON
(`sentence_cost.json`, `topical_cost.json`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

from _provenance import default_data, write_result
from natural_questions import questions
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.retrievers import hybrid
from situated.settings import Settings
from situated.situation import Scope, Situation

HERE = Path(__file__).resolve().parent


def _timed(snap, qs) -> list[float]:
    out = []
    for q in qs:
        flt = snap.filter(Situation(product=q.product), Scope())
        started = time.perf_counter()
        snap.engine.search(q.text, flt)
        out.append((time.perf_counter() - started) * 1000)
    return out


def left_out(signal: str):
    """A context factory under which searches leave `signal` out: `sentence`, MiniLM's unit
    cosines; `topical`, e5's reading of the first blocks (the unit score as before it)."""
    @contextlib.contextmanager
    def leaving() -> Iterator[None]:
        units, topical = hybrid.unit_cosines, hybrid.topical_cosines
        if signal == "sentence":
            hybrid.unit_cosines = lambda index, query, blocks: ([None] * len(blocks),) * 2
        else:
            hybrid.topical_cosines = lambda index, query, blocks, mask: [None] * len(blocks)
        try:
            yield
        finally:
            hybrid.unit_cosines, hybrid.topical_cosines = units, topical
    return leaving


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", type=Path,
                    default=HERE / "cache" / "natural-questions" / "policyqa-index")
    ap.add_argument("--policyqa", type=Path, default=default_data("data/policyqa-dev/dev.json"))
    ap.add_argument("--signal", choices=["sentence", "topical"], default="sentence")
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.policyqa is None or not (args.index / "current").exists():
        ap.error("needs the PolicyQA index natural_questions.py builds (--index) and its data")
    qs = questions(json.loads(args.policyqa.read_text("utf-8"))["data"], with_product=True)
    qs = qs[::max(1, len(qs) // args.n)][:args.n]
    snap = App(Settings(index_dir=args.index)).snapshot()
    sides = {f"{args.signal} measured (today)": contextlib.nullcontext,
             "left out": left_out(args.signal)}
    _timed(snap, qs)  # warm-up
    times: dict[str, list[float]] = {name: [] for name in sides}
    for order in (list(sides), list(sides)[::-1]):
        for name in order:
            with sides[name]():
                times[name] += _timed(snap, qs)
    table = Table(title=f"HybridSearch.search, {len(qs)} PolicyQA questions within their site "
                        f"({args.signal})")
    for col in ("side", "searches", "p50 ms", "p95 ms"):
        table.add_column(col, justify="right")
    results = {}
    for name, got in times.items():
        p50, p95 = statistics.median(got), sorted(got)[int(0.95 * len(got))]
        results[name] = {"searches": len(got), "p50_ms": p50, "p95_ms": p95}
        table.add_row(name, str(len(got)), f"{p50:.2f}", f"{p95:.2f}")
    base = results["left out"]["p50_ms"]
    today = results[f"{args.signal} measured (today)"]["p50_ms"]
    results["p50_ratio"] = today / base if base else None
    Console().print(table)
    print(f"p50 ratio (today / left out): {results['p50_ratio']:.3f}")
    write_result(args.out / f"{args.signal}_cost.json", results)


if __name__ == "__main__":
    main()

"""What the units under their sections' titles cost a question (index schema 10): the same
chain on the same index with and without them, question by question in one run (each question
asked once first to warm what both share, then with and without in alternating order), so both
columns see the same machine. Answers are compared too (what the titled signal moved).

    python benchmarks/titled_latency.py --index DIR --cases FILE [--limit 200] [--out DIR]

`--index`: an index built by this version (e.g. the genai-eu probe's, `temporal_probe.py`);
`--cases`: a cases file of it (`probe-dev.yaml`).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from _provenance import write_result
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.eval.cases import load_cases
from situated.settings import Settings

HERE = Path(__file__).parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", type=Path, required=True)
    ap.add_argument("--cases", type=Path, required=True)
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    app = App(Settings(index_dir=args.index))
    chain = build_ask_chain(app)
    titled = app.index.titled
    ms: dict[str, list[float]] = {"with": [], "without": []}
    moved = []
    for i, case in enumerate(load_cases(args.cases)[:args.limit]):
        ask = {"question": case.question, "scope": case.scope,
               **({"situation": case.situation} if case.situation else {})}
        chain.invoke(ask)  # warm: the question's vector and the pages it reads, for both
        got = {}
        order = [("with", titled), ("without", None)]
        for label, vectors in order if i % 2 else order[::-1]:  # neither always goes first
            app.index.titled = vectors
            started = time.perf_counter()
            got[label] = chain.invoke(ask)
            ms[label].append(1000 * (time.perf_counter() - started))
        if (got["with"].status, got["with"].answer) != (got["without"].status,
                                                        got["without"].answer):
            moved.append({"question": case.question, "with": got["with"].status.value,
                          "without": got["without"].status.value})
    app.index.titled = titled
    table = Table(title="titled units: the same questions with and without them")
    for col in ("questions", "p50 with", "p50 without", "ratio", "answers moved"):
        table.add_column(col, justify="right")
    p50 = {k: statistics.median(v) for k, v in ms.items()}
    table.add_row(str(len(ms["with"])), f"{p50['with']:.1f} ms", f"{p50['without']:.1f} ms",
                  f"{p50['with'] / p50['without']:.2f}", str(len(moved)))
    Console(width=120).print(table)
    write_result(args.out / "titled_latency.json", {"p50_ms": p50, "moved": moved,
                                                    "questions": len(ms["with"])})


if __name__ == "__main__":
    main()

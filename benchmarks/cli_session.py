"""The CLI's cost per question: `situated ask` (a new process per question: imports, index
open, model load) beside `situated chat` (one process; the questions fed on standard input),
on the same questions over the built-in sample, in one run.

    python benchmarks/cli_session.py [--questions N] [--out benchmarks/results]

Prints wall time per question for both and their ratio; writes JSON. The first `ask` may build
the sample index; it is run once before timing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from _provenance import write_result
from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
QUESTIONS = [
    "What battery warranty applies to a C-3 bought on 15 March 2026?",
    "What does error E-417 mean?",
    "How long is the return period for Старт as of 15 March 2026?",
    "What changed in the C-3 battery warranty?",
    "List the versions of the Старт tariff",
    "How do I bake sourdough bread?",
]


def _cli() -> list[str]:
    return [sys.executable, "-c", "from situated.cli import app; app()"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=int, default=len(QUESTIONS))
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    asked = QUESTIONS[:args.questions]
    subprocess.run([*_cli(), "ask", asked[0]], env=env, check=True, capture_output=True)
    per_ask = []
    for q in asked:
        t = time.perf_counter()
        subprocess.run([*_cli(), "ask", q], env=env, check=True, capture_output=True)
        per_ask.append(time.perf_counter() - t)
    t = time.perf_counter()
    done = subprocess.run([*_cli(), "chat"], env=env, check=True, capture_output=True,
                          input="\n".join([*asked, "exit"]) + "\n", text=True)
    chat_total = time.perf_counter() - t
    answered = done.stdout.count("answered") + done.stdout.count("no_evidence")
    results = {"questions": len(asked), "ask_s": per_ask, "ask_total_s": sum(per_ask),
               "chat_total_s": chat_total, "chat_statuses_seen": answered,
               "ratio_total": sum(per_ask) / chat_total}
    table = Table(title=f"CLI, {len(asked)} questions over the sample (wall time)")
    for col in ("", "total s", "per question s"):
        table.add_column(col, justify="right")
    table.add_row("situated ask ×N", f"{sum(per_ask):.1f}", f"{sum(per_ask) / len(asked):.2f}")
    table.add_row("situated chat", f"{chat_total:.1f}", f"{chat_total / len(asked):.2f}")
    table.add_row("ratio", f"{results['ratio_total']:.1f}×", "")
    Console().print(table)
    write_result(args.out / "cli_session.json", results)


if __name__ == "__main__":
    main()

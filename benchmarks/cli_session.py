"""The CLI's cost per question: a warm `situated ask` (a new process per question: imports,
index open, model load; the sample index already built, the files in the page cache) beside
`situated chat` (one process; the questions fed on standard input), and beside `situated ask`
of an earlier commit (`--before REF`, checked out in a temporary git worktree and imported
from there), on the same questions over the built-in sample, in one run.

    python benchmarks/cli_session.py [--questions N] [--rounds R] [--before REF]
                                     [--out benchmarks/results]

Prints p50 / p90 wall time per `ask` for each code and their ratio; writes JSON. Each code's
first `ask` may build its sample index and is not timed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
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


@contextmanager
def _worktree(ref: str | None):
    """A checkout of `ref` (None: no earlier code is measured)."""
    if ref is None:
        yield None
        return
    repo = HERE.parent
    with tempfile.TemporaryDirectory(prefix="situated-before-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", str(tree), ref],
                       check=True, capture_output=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)],
                           check=False, capture_output=True)


def _asks(env: dict, asked: list[str], rounds: int, tree: Path) -> list[float]:
    """Wall seconds of each `situated ask` of the code in `tree` (run from there, so `python -c`
    imports that checkout first), after one untimed ask (which may build the index)."""
    def run(*cmd: str, text: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(list(cmd), env=env, cwd=tree, check=True, capture_output=True,
                              text=True, input=text)

    where = run(sys.executable, "-c", "import situated; print(situated.__file__)").stdout
    print(f"  situated imported from {where.strip()}", flush=True)
    run(*_cli(), "ask", asked[0])
    times = []
    for _ in range(rounds):
        for q in asked:
            t = time.perf_counter()
            run(*_cli(), "ask", q)
            times.append(time.perf_counter() - t)
    return times


def _p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1] \
        if len(values) > 1 else values[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=int, default=len(QUESTIONS))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--before", default=None, help="a git ref whose `situated ask` is timed too")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    asked = QUESTIONS[:args.questions]
    runs: dict[str, list[float]] = {}
    with _worktree(args.before) as tree:
        if tree is not None:
            print(f"ask at {args.before}:", flush=True)
            runs[f"ask at {args.before}"] = _asks(env, asked, args.rounds, tree)
    print("ask now:", flush=True)
    runs["ask now"] = _asks(env, asked, args.rounds, HERE.parent)
    t = time.perf_counter()
    done = subprocess.run([*_cli(), "chat"], env=env, cwd=HERE.parent, check=True,
                          capture_output=True, input="\n".join([*asked, "exit"]) + "\n",
                          text=True)
    chat_total = time.perf_counter() - t
    answered = done.stdout.count("answered") + done.stdout.count("no_evidence")
    now = runs["ask now"]
    results = {"questions": len(asked), "rounds": args.rounds, "before_ref": args.before,
               "ask_s": runs, "ask_p50_s": {k: statistics.median(v) for k, v in runs.items()},
               "ask_p90_s": {k: _p(v, 0.9) for k, v in runs.items()},
               "chat_total_s": chat_total, "chat_statuses_seen": answered,
               "ratio_ask_total_to_chat": sum(now) / args.rounds / chat_total}
    table = Table(title=f"CLI, {len(asked)} questions x {args.rounds} rounds over the sample "
                        "(warm, wall time)")
    for col in ("", "p50 s / question", "p90 s / question", "ratio to ask now (p50)"):
        table.add_column(col, justify="right")
    for name, values in runs.items():
        table.add_row(f"situated {name}", f"{statistics.median(values):.2f}",
                      f"{_p(values, 0.9):.2f}",
                      f"{statistics.median(values) / statistics.median(now):.1f}x")
    table.add_row(f"situated chat, {len(asked)} questions in one session",
                  f"{chat_total / len(asked):.2f}", "", "")
    Console().print(table)
    write_result(args.out / "cli_session.json", results)


if __name__ == "__main__":
    main()

"""The README's quick-start figures, measured as a new user meets them, for a baseline commit and
this one side by side in one run: the first `situated ask` (it builds the sample index in a
fresh cache), a warm `situated ask` (p50 of five, a new process each), and the walkthrough's
`situated ask`-ready ingest of its three files (cold cache). The machine's load average is
recorded beside each side, since these are wall times on whatever else the machine runs.

    python benchmarks/first_hour.py [--baseline REV] [--asks 5] [--install] [--work DIR]
                                    [--out benchmarks/results]

`--drop-caches` empties the kernel's page cache before each side's first ask (`sync`, then
`/proc/sys/vm/drop_caches`; root only), so the first ask reads the models from disk as a fresh
machine does; without it the model files are read once beforehand for both sides. Each side's
first ask over its warm ask is reported (`first_over_warm`).

`--install` also times command 1's `pip install -e .` into a new virtual environment (this
commit only; pip's download cache as the machine has it, as CI reuses it).

Prints a table (seconds and ratios) and writes `first_hour.json`; `tests/cli/test_readme.py` holds
the README's quick-start figures to it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from ingest_scale import baseline_source, ingest_s, readme_corpus
from lib.provenance import REPO, write_result
from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
QUESTION = "What battery warranty applies to a C-3 bought on 15 March 2026?"


def ask_s(source: Path, cache: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(source), "XDG_CACHE_HOME": str(cache),
           "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    t = time.perf_counter()
    cache.parent.mkdir(parents=True, exist_ok=True)  # the working folder: `-m` reads it first
    done = subprocess.run([sys.executable, "-m", "situated.cli", "ask", QUESTION], env=env,
                          capture_output=True, text=True, check=False, cwd=cache.parent)
    if done.returncode or not done.stdout.startswith("answered"):
        raise SystemExit(f"ask failed ({source}):\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
    return time.perf_counter() - t


def drop_caches() -> None:
    """The kernel's page cache emptied (root only), so files are read from disk again."""
    subprocess.run(["sync"], check=True)
    try:
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
    except OSError as exc:
        raise SystemExit(f"--drop-caches cannot empty the page cache ({exc}); run as root, or "
                         "leave --drop-caches out (the model files are then read once "
                         "beforehand for both sides)") from None


def measure(source: Path, work: Path, asks: int, dropped: bool = False) -> dict:
    shutil.rmtree(work, ignore_errors=True)
    row = {"load_average_1min": round(os.getloadavg()[0], 2), "caches_dropped": dropped}
    if dropped:
        drop_caches()
    row["first_ask_s"] = round(ask_s(source, work / "cache"), 2)
    row["warm_ask_p50_s"] = round(statistics.median(
        ask_s(source, work / "cache") for _ in range(asks)), 2)
    row["first_over_warm"] = round(row["first_ask_s"] / row["warm_ask_p50_s"], 2)
    readme_corpus(work / "mydocs")
    row["walkthrough_ingest_s"] = round(ingest_s(source, work / "mydocs", work / "myindex",
                                                 work / "ingest-cache"), 2)
    return row


def install_s(work: Path) -> float:
    venv = work / "install-venv"
    shutil.rmtree(venv, ignore_errors=True)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-e", str(REPO)], check=True,
                   capture_output=True)
    took = time.perf_counter() - t
    shutil.rmtree(venv, ignore_errors=True)
    return took


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", default="d0b0780")
    ap.add_argument("--asks", type=int, default=5)
    ap.add_argument("--install", action="store_true")
    ap.add_argument("--drop-caches", action="store_true")
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "first-hour")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    sides = {"baseline": baseline_source(args.baseline, args.work), "current": REPO}
    if not args.drop_caches:
        ask_s(REPO, args.work / "warm-cache")  # the model files into the page cache, both sides
    rows = {side: measure(source, args.work / side, args.asks, args.drop_caches)
            for side, source in sides.items()}
    t = Table(title=f"the README's quick start: {args.baseline} vs this commit "
                    f"({os.cpu_count()} cores)")
    for col in ("", "before s", "after s", "ratio"):
        t.add_column(col, justify="right")
    ratios = {}
    for key in ("first_ask_s", "warm_ask_p50_s", "walkthrough_ingest_s"):
        ratios[key] = round(rows["current"][key] / rows["baseline"][key], 3)
        t.add_row(key, f"{rows['baseline'][key]:.1f}", f"{rows['current'][key]:.1f}",
                  f"{ratios[key]:.2f}")
    t.add_row("first ask / warm ask", f"{rows['baseline']['first_over_warm']:.1f}×",
              f"{rows['current']['first_over_warm']:.1f}×", "")
    t.add_row("load average (1 min) at start", f"{rows['baseline']['load_average_1min']:.2f}",
              f"{rows['current']['load_average_1min']:.2f}", "")
    extra = {"install_s": round(install_s(args.work), 1)} if args.install else {}
    if extra:
        t.add_row("pip install -e . (new venv)", "", f"{extra['install_s']:.0f}", "")
    Console().print(t)
    write_result(args.out / "first_hour.json", {"baseline": args.baseline, **rows,
                                                "ratios": ratios, "cores": os.cpu_count(),
                                                **extra})


if __name__ == "__main__":
    main()

"""What the test suite costs a developer: the quick tests (`pytest -m "not slow"`) and the whole
suite (`pytest`, what the README's command 2 and CI run), wall time and the slowest tests
(`--durations`), on an idle machine and, with `--load N`, beside N busy processes (one core
each: what "a loaded machine" means in the README).

    python benchmarks/suite_time.py [--only quick|full] [--load N] [--out benchmarks/results]

Prints a table and writes `suite_time.json` (or `suite_time_loaded.json` with `--load`);
`tests/test_readme.py` holds the README's test-time figures to them.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from _provenance import REPO, stamp, write_result
from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
RUNS = {"quick": ["-m", "not slow"], "full": []}
DURATION = re.compile(r"^([\d.]+)s (call|setup|teardown)\s+(\S+)$", re.MULTILINE)
SUMMARY = re.compile(r"(\d+) passed")


def _busy() -> None:
    while True:
        pass


def run(name: str) -> dict:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    load = round(os.getloadavg()[0], 2)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--durations=12", *RUNS[name]], cwd=REPO, env=env,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    passed = SUMMARY.search(done.stdout.splitlines()[-1] if done.stdout else "")
    return {"measured_at": stamp(), "wall_s": round(wall, 1), "returncode": done.returncode,
            "passed": int(passed.group(1)) if passed else None, "load_average_1min": load,
            "slowest": [{"s": float(s), "when": w, "test": t_}
                        for s, w, t_ in DURATION.findall(done.stdout)][:12],
            "failed": re.findall(r"^FAILED (\S+)", done.stdout, re.MULTILINE),
            "tail": done.stdout.splitlines()[-1] if done.stdout else done.stderr[-300:]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=sorted(RUNS), default=None)
    ap.add_argument("--load", type=int, default=0, help="busy processes beside the suite")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    busy = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for p in busy:
        p.start()
    try:
        results = {name: run(name) for name in RUNS if args.only in (None, name)}
    finally:
        for p in busy:
            p.terminate()
    t = Table(title=f"the test suite on {os.cpu_count()} cores, {args.load} busy processes beside")
    for col in ("run", "passed", "wall", "load at start", "slowest test"):
        t.add_column(col, justify="right")
    for name, r in results.items():
        top = r["slowest"][0] if r["slowest"] else {"s": 0, "test": "-"}
        t.add_row(name, str(r["passed"]), f"{r['wall_s'] / 60:.1f} min",
                  f"{r['load_average_1min']:.2f}", f"{top['s']:.0f} s {top['test']}")
    Console().print(t)
    path = args.out / ("suite_time_loaded.json" if args.load else "suite_time.json")
    idle = args.out / "suite_time.json"
    if args.load and idle.exists():  # how much longer beside the busy processes
        before = json.loads(idle.read_text("utf-8"))["results"]
        for name, r in results.items():
            if name in before:
                r["ratio_to_idle"] = round(r["wall_s"] / before[name]["wall_s"], 2)
    kept = {}
    if args.only and path.exists():  # one run measured again: the other's figures are kept
        kept = {k: v for k, v in json.loads(path.read_text("utf-8"))["results"].items()
                if k in RUNS}
    write_result(path, {"busy_processes": args.load, "cores": os.cpu_count(), **kept,
                        **results})


if __name__ == "__main__":
    main()

"""What the test suite costs a developer: the quick tests (`pytest -m "not slow"`) and the whole
suite (`pytest`, what the README's command 2 and CI run), wall time and the slowest tests
(`--durations`), on an idle machine and, with `--load N`, beside N busy processes (one core
each: what "a loaded machine" means in the README).

    python benchmarks/suite_time.py [--only quick|full] [--load N] [--baseline REV]
                                    [--out benchmarks/results]

With `--baseline REV` the same runs go first over that commit's tree (`git archive`, its own
tests and settings, imported through PYTHONPATH on this interpreter), in the same run, and each
of today's runs carries its ratio to the baseline's. Prints a table and writes
`suite_time.json` (or `suite_time_loaded.json` with `--load`); `tests/cli/test_readme.py` holds the
README's test-time figures to them.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tarfile
import time
from io import BytesIO
from pathlib import Path

from lib.provenance import REPO, stamp, write_result
from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
RUNS = {"quick": ["-m", "not slow"], "full": []}
DURATION = re.compile(r"^([\d.]+)s (call|setup|teardown)\s+(\S+)$", re.MULTILINE)
SUMMARY = re.compile(r"(\d+) passed")


def _busy() -> None:
    while True:
        pass


def baseline_tree(rev: str) -> Path:
    """The whole tree at `rev` (package, tests, notebooks, settings), extracted once."""
    dest = HERE / "cache" / "suite-time" / f"baseline-{rev}"
    if not (dest / "pyproject.toml").exists():
        done = subprocess.run(["git", "archive", rev], cwd=REPO, capture_output=True, check=False)
        if done.returncode:
            raise SystemExit(f"--baseline {rev}: git cannot archive it "
                             f"({done.stderr.decode(errors='replace').strip()}); give a commit "
                             "of this repository, e.g. 57b0739")
        blob = done.stdout
        with tarfile.open(fileobj=BytesIO(blob)) as tar:
            tar.extractall(dest, filter="data")
    return dest


def run(name: str, root: Path = REPO) -> dict:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    if root != REPO:  # the baseline's package, not the one installed in editable mode
        env["PYTHONPATH"] = str(root)
    load = round(os.getloadavg()[0], 2)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--durations=12", *RUNS[name]], cwd=root, env=env,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    passed = SUMMARY.search(done.stdout.splitlines()[-1] if done.stdout else "")
    return {"measured_at": stamp(), "wall_s": round(wall, 1), "returncode": done.returncode,
            "passed": int(passed.group(1)) if passed else None, "load_average_1min": load,
            "slowest": [{"s": float(s), "when": w, "test": t_}
                        for s, w, t_ in DURATION.findall(done.stdout)][:12],
            "failed": re.findall(r"^FAILED (\S+)", done.stdout, re.MULTILINE),
            "tail": done.stdout.splitlines()[-1] if done.stdout else done.stderr[-300:]}


def measure(names: list[str], baseline: str | None) -> tuple[dict, dict]:
    """Today's runs and, with a baseline, its runs just before each of them."""
    results, before = {}, {}
    for name in names:
        if baseline:
            before[name] = run(name, baseline_tree(baseline))
        results[name] = run(name)
        if baseline:
            results[name]["ratio_to_baseline"] = round(
                results[name]["wall_s"] / before[name]["wall_s"], 2)
    return results, before


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=sorted(RUNS), default=None)
    ap.add_argument("--load", type=int, default=0, help="busy processes beside the suite")
    ap.add_argument("--baseline", default=None, help="a commit run beside, e.g. 57b0739")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    busy = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for p in busy:
        p.start()
    try:
        results, before = measure([n for n in RUNS if args.only in (None, n)], args.baseline)
    finally:
        for p in busy:
            p.terminate()
    t = Table(title=f"the test suite on {os.cpu_count()} cores, {args.load} busy processes beside")
    for col in ("run", "passed", "wall", "× baseline", "load at start", "slowest test"):
        t.add_column(col, justify="right")
    rows = [(f"{n} ({args.baseline})", r) for n, r in before.items()] + list(results.items())
    for name, r in rows:
        top = r["slowest"][0] if r["slowest"] else {"s": 0, "test": "-"}
        ratio = f"{r['ratio_to_baseline']:.2f}" if "ratio_to_baseline" in r else "-"
        t.add_row(name, str(r["passed"]), f"{r['wall_s'] / 60:.1f} min", ratio,
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
    extra = {"baseline": {"commit": args.baseline, **before}} if args.baseline else {}
    write_result(path, {"busy_processes": args.load, "cores": os.cpu_count(), **kept,
                        **results, **extra})


if __name__ == "__main__":
    main()

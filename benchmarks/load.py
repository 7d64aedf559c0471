"""Load test of `situated serve` on loopback: 1 worker against 2, at 8 and 32 requests in
flight: p50/p95 latency, throughput and errors of /ask/invoke.

    python benchmarks/load.py [--requests 200] [--workers 1 2] [--concurrency 8 32]
                              [--index DIR --cases FILE] [--baseline] [--out benchmarks/results]

Each configuration starts the real CLI (`situated serve --workers N`, a throw-away API key) on
a free 127.0.0.1 port, sends one warm-up request per worker, then a bounded number of requests
with at most `concurrency` in flight, and stops the server. Without `--index` it serves the
sample corpus with a few sample questions; with `--index` (e.g. the genai-eu index built by
`benchmarks/temporal_probe.py`) it asks the questions of a cases file (default: that index's
probe cases). `--baseline` runs every configuration a second time with every worker's thread
pools on every core (each thread variable set to the core count: what `serve` did before it
gave each worker its share) and reports the throughput ratio. Prints a table and writes JSON (`load.json`, or `load-<index name>.json`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import yaml
from lib.provenance import write_result
from rich.console import Console
from rich.table import Table

from situated.auth import hash_key
from situated.process import THREAD_VARIABLES

HERE = Path(__file__).resolve().parent
QUESTIONS = [
    "What does error E-417 mean, and what should I check?",
    "What battery warranty applies to a C-3 bought on 15 March 2026?",
    "How long is the battery warranty?",
    "Do I need to fit a rear mudguard on a C-3?",
    "Which battery check applies when the battery casing has been opened?",
    "Я подключил тариф «Старт» 1 апреля 2026 года. Сколько дней на возврат?",
    "What is the capital of France?",
]
KEY = "load-test-key-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(workers: int, keys: Path, env: dict[str, str],
          index: Path | None = None, port: int | None = None) -> tuple[subprocess.Popen, str]:
    port = port or free_port()
    clean = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    proc = subprocess.Popen([sys.executable, "-m", "situated.cli", "serve", "--workers",
                             str(workers), "--port", str(port), "--keys", str(keys),
                             *(["--index", str(index.resolve())] if index else [])],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**clean, **env})
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 300
    pids: set[int] = set()
    while len(pids) < workers:
        if time.time() > deadline or proc.poll() is not None:
            proc.kill()
            raise SystemExit(f"the server with {workers} workers did not start")
        try:
            pids.add(httpx.get(f"{base}/health", timeout=5).json()["pid"])
        except httpx.HTTPError:
            time.sleep(0.3)
    return proc, base


async def measure(base: str, requests: int, concurrency: int, warm: int,
                  questions: list[str]) -> dict:
    sem = asyncio.Semaphore(concurrency)
    times: list[float] = []
    codes: list[int] = []
    async with httpx.AsyncClient(timeout=300, headers={"X-API-Key": KEY}) as client:
        async def one(i: int) -> None:
            async with sem:
                t = time.perf_counter()
                r = await client.post(f"{base}/ask/invoke", json={
                    "input": {"question": questions[i % len(questions)]}})
                times.append(time.perf_counter() - t)
                codes.append(r.status_code)
        await asyncio.gather(*(one(i) for i in range(warm * 4)))  # every worker warmed up
        times.clear()
        codes.clear()
        began = time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(requests)))
        wall = time.perf_counter() - began
    ordered = sorted(times)
    return {"requests": requests, "concurrency": concurrency,
            "errors": sum(c != 200 for c in codes),
            "p50_ms": statistics.median(times) * 1e3,
            "p95_ms": ordered[int(0.95 * (len(ordered) - 1))] * 1e3,
            "throughput_rps": requests / wall}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--concurrency", type=int, nargs="+", default=[8, 32])
    ap.add_argument("--index", type=Path, default=None, help="serve this index (default: sample)")
    ap.add_argument("--cases", type=Path, default=None,
                    help="questions to ask (default with --index: its probe-test.yaml beside it)")
    ap.add_argument("--baseline", action="store_true",
                    help="also run with each worker's thread pools on every core, same run")
    ap.add_argument("--port", type=int, default=None,
                    help="serve on this 127.0.0.1 port (default: a free one)")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    keys = Path(tempfile.mkdtemp(prefix="load-keys-")) / "keys.yaml"
    keys.write_text(yaml.safe_dump({"principals": [
        {"name": "load", "key_sha256": hash_key(KEY)}]}), encoding="utf-8")
    questions, env = QUESTIONS, {}
    if args.index is not None:
        from situated.eval.cases import load_cases

        cases = args.cases or args.index.parent / "cases" / "probe-test.yaml"
        questions = [c.question for c in load_cases(cases)]
    variants: dict[str, dict[str, str]] = {"defaults": {}}
    if args.baseline:
        variants["baseline"] = dict.fromkeys(THREAD_VARIABLES, str(os.cpu_count() or 1))
    rows = []
    for variant, extra in variants.items():
        for workers in args.workers:
            proc, base = start(workers, keys, {**env, **extra}, args.index, args.port)
            try:
                for c in args.concurrency:
                    rows.append({"variant": variant, "workers": workers, **asyncio.run(
                        measure(base, args.requests, c, workers, questions))})
                    print(rows[-1])
            finally:
                proc.terminate()
                proc.wait(timeout=60)
    single = {(r["variant"], r["concurrency"]): r for r in rows
              if r["workers"] == min(args.workers)}
    baseline = {(r["workers"], r["concurrency"]): r for r in rows if r["variant"] == "baseline"}
    corpus = args.index.parent.name if args.index else "sample corpus"
    t = Table(title=f"situated serve, /ask/invoke on loopback ({corpus}, "
                    f"{os.cpu_count()} cores)")
    for col in ("variant", "workers", "in flight", "requests", "errors", "p50 ms", "p95 ms",
                "req/s", "vs 1 worker", "vs baseline"):
        t.add_column(col, justify="right")
    for r in rows:
        one = single[(r["variant"], r["concurrency"])]["throughput_rps"]
        b = baseline.get((r["workers"], r["concurrency"]))
        t.add_row(r["variant"], str(r["workers"]), str(r["concurrency"]), str(r["requests"]),
                  str(r["errors"]), f"{r['p50_ms']:.0f}", f"{r['p95_ms']:.0f}",
                  f"{r['throughput_rps']:.1f}", f"{r['throughput_rps'] / one:.2f}x",
                  f"{r['throughput_rps'] / b['throughput_rps']:.2f}x" if b else "–")
    Console().print(t)
    name = "load.json" if args.index is None else f"load-{args.index.parent.name}.json"
    write_result(args.out / name, {"corpus": corpus, "runs": rows})


if __name__ == "__main__":
    main()

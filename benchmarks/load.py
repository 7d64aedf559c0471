"""Load test of `situated serve` on loopback: p50/p95 latency and throughput of /ask/invoke.

    python benchmarks/load.py [--requests 200] [--concurrency 8] [--out benchmarks/results]

Starts the real server (uvicorn, sample corpus, a throw-away API key) on a free 127.0.0.1
port, sends a bounded number of requests with at most `concurrency` in flight, then stops.
Prints a table and writes JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import threading
import time
from pathlib import Path

import httpx
import uvicorn
from _provenance import write_result
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.auth import KeyStore, Principal, hash_key
from situated.server import create_app
from situated.settings import Settings

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    key = "load-test-key-0123456789abcdef"
    store = KeyStore([Principal(name="load", key_sha256=hash_key(key))])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(App(Settings()), store), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    while True:
        try:
            httpx.get(f"{base}/health", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.1)

    async def run() -> tuple[list[float], list[int], float]:
        sem = asyncio.Semaphore(args.concurrency)
        times: list[float] = []
        codes: list[int] = []
        async with httpx.AsyncClient(timeout=120, headers={"X-API-Key": key}) as client:
            async def one(i: int) -> None:
                async with sem:
                    t = time.perf_counter()
                    r = await client.post(f"{base}/ask/invoke", json={
                        "input": {"question": QUESTIONS[i % len(QUESTIONS)]}})
                    times.append(time.perf_counter() - t)
                    codes.append(r.status_code)
            await one(0)  # warm-up
            times.clear()
            codes.clear()
            start = time.perf_counter()
            await asyncio.gather(*(one(i) for i in range(args.requests)))
            return times, codes, time.perf_counter() - start

    times, codes, wall = asyncio.run(run())
    server.should_exit = True
    thread.join(timeout=10)
    ordered = sorted(times)
    row = {"requests": args.requests, "concurrency": args.concurrency,
           "errors": sum(c != 200 for c in codes),
           "p50_ms": statistics.median(times) * 1e3,
           "p95_ms": ordered[int(0.95 * (len(ordered) - 1))] * 1e3,
           "throughput_rps": args.requests / wall}
    t = Table(title="situated serve, /ask/invoke on loopback (sample corpus)")
    for c in row:
        t.add_column(c, justify="right")
    t.add_row(*(f"{v:.1f}" if isinstance(v, float) else str(v) for v in row.values()))
    Console().print(t)
    args.out.mkdir(parents=True, exist_ok=True)
    write_result(args.out / "load.json", row)


if __name__ == "__main__":
    main()

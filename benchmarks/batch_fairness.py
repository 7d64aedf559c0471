"""One caller's batch beside another caller's simple question (issue 52, item 6): how long the
simple question takes alone, and while a 30-question batch of slow shapes runs, with the
inputs of a request taking turns (`SITUATED_BATCH_CONCURRENCY=1`, the default) and with 8 at
once (what LangServe's batch did before: every input in the worker pool at once).

    python benchmarks/batch_fairness.py [--index DIR] [--batch 30] [--probes 5]
                                        [--out benchmarks/results]

Each configuration starts the real CLI (`situated serve`, one worker, a throw-away key) on a
free 127.0.0.1 port (the sample corpus unless `--index`), measures the simple question alone
`--probes` times, then sends the batch and, while it runs, the simple question `--probes`
times in a row; the delay is the median while-batch time less the median alone. Prints a table
and writes `batch_fairness.json`.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
import yaml
from lib.provenance import write_result
from load import KEY, start
from rich.console import Console
from rich.table import Table

from situated.auth import hash_key

HERE = Path(__file__).resolve().parent
SIMPLE = "What does error E-417 mean?"
# the slow shapes of the attack round (2,000 characters each)
SLOW = [("16.x " * 400)[:2000], ("In which version was " * 95)[:2000],
        ("What changed in version ٣.٢ and ١٦.٢٠ " * 60)[:2000]]


def _timed(client: httpx.Client, base: str) -> float:
    t = time.perf_counter()
    r = client.post(f"{base}/ask/invoke", json={"input": {"question": SIMPLE}})
    r.raise_for_status()
    return time.perf_counter() - t


def measure(base: str, batch: int, probes: int) -> dict:
    client = httpx.Client(timeout=600, headers={"X-API-Key": KEY})
    _timed(client, base)  # warm
    alone = [_timed(client, base) for _ in range(probes)]
    inputs = [{"question": SLOW[i % len(SLOW)]} for i in range(batch)]
    done: dict[str, float] = {}

    def send_batch() -> None:
        t = time.perf_counter()
        httpx.post(f"{base}/ask/batch", json={"inputs": inputs}, timeout=1200,
                   headers={"X-API-Key": KEY}).raise_for_status()
        done["batch_s"] = time.perf_counter() - t

    worker = threading.Thread(target=send_batch)
    worker.start()
    time.sleep(0.5)  # the batch is under way
    during = [_timed(client, base) for _ in range(probes)]
    worker.join()
    return {"alone_p50_s": statistics.median(alone), "during_p50_s": statistics.median(during),
            "during_max_s": max(during),
            "delay_s": statistics.median(during) - statistics.median(alone),
            "batch_s": done["batch_s"]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", type=Path)
    ap.add_argument("--batch", type=int, default=30)
    ap.add_argument("--probes", type=int, default=5)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        keys = Path(tmp) / "keys.yaml"
        keys.write_text(yaml.safe_dump({"principals": [
            {"name": "bench", "key_sha256": hash_key(KEY)}]}))
        keys.chmod(0o600)
        for turns in (1, 8):
            proc, base = start(1, keys, {"SITUATED_BATCH_CONCURRENCY": str(turns)}, args.index)
            try:
                rows.append({"batch_concurrency": turns, **measure(base, args.batch,
                                                                   args.probes)})
            finally:
                proc.terminate()
                proc.wait(timeout=60)
    table = Table(title=f"a simple question beside a {args.batch}-question batch (1 worker)")
    for col in ("inputs at once", "alone p50 s", "during p50 s", "during max s", "delay s",
                "batch s"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(str(r["batch_concurrency"]), f"{r['alone_p50_s']:.2f}",
                      f"{r['during_p50_s']:.2f}", f"{r['during_max_s']:.2f}",
                      f"{r['delay_s']:.2f}", f"{r['batch_s']:.1f}")
    Console().print(table)
    ratio = rows[1]["during_p50_s"] / rows[0]["during_p50_s"]
    Console().print(f"while the batch runs, the simple question takes {ratio:.1f}× as long "
                    "with 8 inputs at once as with turns")
    write_result(args.out / "batch_fairness.json", {"batch": args.batch, "rows": rows,
                                                     "during_ratio_8_vs_1": round(ratio, 2)})


if __name__ == "__main__":
    main()

"""What verifying a generation costs when a reader opens it (docs/design.md "Generations
verified when read"): every file checked against `checksums.json`, and Chroma's folder copied for
the reader, beside the rest of opening the index, in one run.

    python benchmarks/open_cost.py [--index DIR ...] [--repeat 3] [--out benchmarks/results]

Without `--index` it measures the sample index (built on first use). For each index: its size,
the median seconds of the checksum pass (`integrity.tampered`), of the Chroma copy
(`integrity.private_chroma`), and of a whole `Index(...)` open (which includes both), and the
ratio of the whole open to the open without them. Prints a table and writes
`open_cost.json`.
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
from situated.index.integrity import drop_private_chroma, private_chroma, tampered
from situated.index.reader import Index
from situated.index.store import current_generation
from situated.settings import Settings

HERE = Path(__file__).resolve().parent


def _median(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def measure(root: Path, repeat: int) -> dict:
    app = App(Settings(index_dir=root))
    embeddings = app.embeddings
    gen = current_generation(root)
    size = sum(p.stat().st_size for p in gen.rglob("*") if p.is_file())
    check = _median(lambda: tampered(gen), repeat)
    copy = _median(lambda: drop_private_chroma(private_chroma(gen)), repeat)
    whole = _median(lambda: Index(root, embeddings).close(), repeat)
    return {"index": str(root), "mb": round(size / 1e6, 1), "checksums_s": round(check, 4),
            "chroma_copy_s": round(copy, 4), "open_s": round(whole, 4),
            "ratio": round(whole / max(whole - check - copy, 1e-9), 2)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", type=Path, nargs="+")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    roots = args.index or [App(Settings()).root]
    rows = [measure(Path(r), args.repeat) for r in roots]
    table = Table(title="opening a generation: verification beside the rest")
    for col in ("index", "MB", "checksums s", "Chroma copy s", "whole open s",
                "open ÷ open without them"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(Path(r["index"]).name, f"{r['mb']}", f"{r['checksums_s']:.3f}",
                      f"{r['chroma_copy_s']:.3f}", f"{r['open_s']:.3f}", f"{r['ratio']:.2f}×")
    Console().print(table)
    write_result(args.out / "open_cost.json", rows)


if __name__ == "__main__":
    main()

"""Index lifecycle at scale: ingest time, size on disk, peak memory, filtered query p50/p95,
embedding overhead and re-ingest of an unchanged corpus.

    python benchmarks/scale.py [--sizes 10000 100000 1000000] [--queries 200] [--out benchmarks/results]

* The smallest size runs the real pipeline end to end: synthetic Markdown files on disk,
  `situated.index.ingest.ingest` with an empty embedding cache and the real MiniLM. Beside it,
  in the same run, the pure embedding time of the same texts — the ingest overhead is
  (ingest − embedding) / embedding (target ≤ 10%). Then the unchanged corpus is ingested again
  (target ≤ 2% of the first ingest).
* Larger sizes build from in-memory documents with precomputed vectors (see latency.py's
  `PoolVectors`: encoding 1M pieces would take hours here), so their ingest time is everything
  but embedding.
Each size runs in its own process so its peak RSS is its own. Prints a table, writes JSON.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _provenance import write_result


def dir_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def query_latency(index, settings, n_queries: int, rnd) -> tuple[float, float, float]:
    from latency import ACTIONS, PLACES, SUBJECTS

    from situated.retrievers.filter import Filter
    from situated.retrievers.hybrid import HybridSearch
    from situated.situation import Situation

    engine = HybridSearch(index, settings)
    flt = Filter(situation=Situation(product="M-3", purchase_date=dt.date(2026, 6, 1)))
    qs = [f"How do I {rnd.choice(ACTIONS)} the {rnd.choice(SUBJECTS)} {rnd.choice(PLACES)}?"
          for _ in range(n_queries)]
    for q in qs[:5]:
        engine.search(q, flt)
    times = []
    for q in qs:
        t = time.perf_counter()
        engine.search(q, flt)
        times.append(time.perf_counter() - t)
    times.sort()
    admitted = float(flt.mask(index.columns).mean())
    return statistics.median(times) * 1e3, times[int(0.95 * (len(times) - 1))] * 1e3, admitted


def one_size(n: int, n_queries: int, real: bool) -> dict:
    from latency import PoolVectors, pool, synthetic_corpus

    from situated.index.cache import EmbeddingCache
    from situated.index.embeddings import MiniLMEmbeddings
    from situated.index.ingest import ingest
    from situated.index.reader import Index
    from situated.index.writer import build_index
    from situated.settings import Settings

    rnd = random.Random(7)
    work = Path(tempfile.mkdtemp(prefix=f"scale-{n}-"))
    root = work / "index"
    settings = Settings(index_dir=root, cache_dir=work / "cache", chroma_write_batch=5000)
    emb = MiniLMEmbeddings()
    sentences = pool(rnd)
    corpus = synthetic_corpus(n, sentences, rnd)
    row: dict = {"pieces": corpus.n_pieces, "real_embedding": real}
    if real:
        docs = work / "docs"
        docs.mkdir()
        for d in corpus.documents:  # the same documents as Markdown files
            m = d.meta
            body = "\n\n".join(p.search_text.split(": ", 1)[1] for p in d.pieces)
            (docs / f"{m.source_id}.md").write_text(
                f"---\nsource_id: {m.source_id}\ntitle: {m.title}\n"
                + (f"product: {m.product[0]}\n" if m.product else "")
                + f"valid_from: {m.valid_from}\n"
                + ("access: [technician]\n" if m.access else "")
                + f"---\n\n## 1 Part {m.source_id}\n\n{body}\n", encoding="utf-8")
        t = time.perf_counter()
        report = ingest([docs], root, emb, settings)
        row["ingest_s"] = time.perf_counter() - t
        index = Index(root, emb)
        texts = [p.search_text for p in index.pieces]
        t = time.perf_counter()
        emb.encode(texts)
        row["pure_embedding_s"] = time.perf_counter() - t
        row["ingest_overhead"] = (row["ingest_s"] - row["pure_embedding_s"]) / row[
            "pure_embedding_s"]
        t = time.perf_counter()
        again = ingest([docs], root, emb, settings)
        row["reingest_unchanged_s"] = time.perf_counter() - t
        row["reingest_fraction"] = row["reingest_unchanged_s"] / row["ingest_s"]
        row["reingest_embedded"] = again.embedded
        row["embedded_first"] = report.embedded
    else:
        vecs = emb.encode(sentences)
        cache = EmbeddingCache(work / "bench-cache.sqlite")
        t = time.perf_counter()
        build_index(corpus, root, PoolVectors(sentences, vecs, emb.model_id), settings,
                    cache=cache)
        row["ingest_s"] = time.perf_counter() - t
        index = Index(root, emb)
    t = time.perf_counter()
    Index(root, emb)
    row["open_s"] = time.perf_counter() - t
    row["index_mb"] = dir_mb(root / "current" / "")
    row["p50_ms"], row["p95_ms"], row["admitted_share"] = query_latency(
        index, settings, n_queries, rnd)
    row["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    shutil.rmtree(work, ignore_errors=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--real", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one_size(args.one, args.queries, args.real)), flush=True)
        return
    from rich.console import Console
    from rich.table import Table

    rows = []
    args.out.mkdir(parents=True, exist_ok=True)
    for i, n in enumerate(sorted(args.sizes)):
        cmd = [sys.executable, __file__, "--one", str(n), "--queries", str(args.queries)]
        if i == 0:
            cmd.append("--real")
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(json.dumps(rows[-1]), flush=True)
        write_result(args.out / "scale.json", rows)
    t = Table(title="situated index at scale (filtered hybrid queries)")
    for c in ("pieces", "ingest s", "embedding s", "overhead", "re-ingest", "index MB",
              "peak RSS MB", "open s", "p50 / p95 ms", "admitted"):
        t.add_column(c, justify="right")
    for r in rows:
        t.add_row(f"{r['pieces']:,}", f"{r['ingest_s']:.1f}",
                  f"{r['pure_embedding_s']:.1f}" if r["real_embedding"] else "precomputed",
                  f"{r['ingest_overhead']:.1%}" if r["real_embedding"] else "–",
                  f"{r['reingest_fraction']:.2%}" if r["real_embedding"] else "–",
                  f"{r['index_mb']:.0f}", f"{r['peak_rss_mb']:.0f}", f"{r['open_s']:.1f}",
                  f"{r['p50_ms']:.1f} / {r['p95_ms']:.1f}", f"{r['admitted_share']:.1%}")
    Console().print(t)


if __name__ == "__main__":
    main()

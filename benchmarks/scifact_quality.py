"""Retrieval quality on BEIR SciFact: nDCG@10 and Recall@100 for BM25, dense and hybrid.

    python benchmarks/scifact_quality.py [--data ../shared/data/scifact] [--out benchmarks/results]

Uses the product's parts: the `situated` BM25 tokenizer on bm25s, the packaged MiniLM (corpus
vectors cached in benchmarks/cache/, ~6 min to encode the first time), and the product's
block-level weighted RRF (`situated.retrievers.fusion`) with the settings' leg weights. SciFact
has no codes, so the exact leg is idle. Prints a table and writes JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import bm25s
import numpy as np
from rich.console import Console
from rich.table import Table

from situated.index.embeddings import MiniLMEmbeddings, torch_threads
from situated.index.text import Tokenizer
from situated.settings import Settings

HERE = Path(__file__).resolve().parent


def load(data: Path):
    corpus = [json.loads(line) for line in open(data / "corpus.jsonl", encoding="utf-8")]
    queries = {q["_id"]: q["text"] for q in map(json.loads, open(data / "queries.jsonl"))}
    qrels: dict[str, dict[str, int]] = {}
    for i, line in enumerate(open(data / "qrels" / "test.tsv")):
        if i == 0:
            continue
        qid, did, score = line.split()
        qrels.setdefault(qid, {})[did] = int(score)
    return corpus, {q: queries[q] for q in qrels}, qrels


def ndcg_at(ranked: list[str], rel: dict[str, int], k: int = 10) -> float:
    dcg = sum(rel.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(rel.values(), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: list[str], rel: dict[str, int], k: int = 100) -> float:
    return len(set(ranked[:k]) & set(rel)) / len(rel)


def rrf(rankings: list[tuple[list[int], float]], k: int) -> list[int]:
    scores: dict[int, float] = {}
    for ranking, w in rankings:
        for r, doc in enumerate(ranking, start=1):
            scores[doc] = scores.get(doc, 0.0) + w / (k + r)
    return sorted(scores, key=lambda d: (-scores[d], d))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared/data/scifact")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--depth", type=int, default=100)
    args = ap.parse_args()
    settings = Settings()
    corpus, queries, qrels = load(args.data)
    ids = [d["_id"] for d in corpus]
    texts = [f"{d['title']} {d['text']}".strip() for d in corpus]

    tok = Tokenizer()
    bm = bm25s.BM25()
    bm.index([tok(t) for t in texts], show_progress=False)

    emb = MiniLMEmbeddings(batch_size=64)
    cache = HERE / "cache" / "scifact-minilm.npy"
    if cache.exists():
        vecs = np.load(cache)
    else:
        cache.parent.mkdir(parents=True, exist_ok=True)
        t0 = time.time()
        vecs = emb.encode(texts, show_progress=True)
        np.save(cache, vecs)
        print(f"encoded corpus in {time.time() - t0:.0f} s")

    depth = args.depth
    runs: dict[str, dict[str, list[str]]] = {"bm25": {}, "dense": {}, "hybrid_rrf60": {},
                                             "hybrid_situated": {}}
    for qid, text in queries.items():
        tokens = [t for t in tok(text) if t in bm.vocab_dict]
        s = bm.get_scores(tokens) if tokens else np.zeros(len(ids))
        b_rank = [int(i) for i in np.argsort(-s, kind="stable")[:depth] if s[i] > 0]
        with torch_threads(1):
            qv = emb.encode([text])[0]
        d_rank = [int(i) for i in np.argsort(-(vecs @ qv), kind="stable")[:depth]]
        runs["bm25"][qid] = [ids[i] for i in b_rank]
        runs["dense"][qid] = [ids[i] for i in d_rank]
        runs["hybrid_rrf60"][qid] = [ids[i] for i in rrf([(b_rank, 1.0), (d_rank, 1.0)], 60)]
        runs["hybrid_situated"][qid] = [ids[i] for i in rrf(
            [(b_rank, settings.weight_bm25), (d_rank, settings.weight_vector)], settings.rrf_k)]
    rows = {}
    for name, run in runs.items():
        rows[name] = {
            "ndcg@10": float(np.mean([ndcg_at(run[q], qrels[q]) for q in qrels])),
            "recall@100": float(np.mean([recall_at(run[q], qrels[q]) for q in qrels])),
        }
    table = Table(title=f"SciFact test ({len(qrels)} queries, {len(ids)} docs)")
    for c in ("run", "nDCG@10", "Recall@100", "nDCG vs BM25"):
        table.add_column(c)
    for name, r in rows.items():
        table.add_row(name, f"{r['ndcg@10']:.3f}", f"{r['recall@100']:.3f}",
                      f"{r['ndcg@10'] / rows['bm25']['ndcg@10']:.3f}x")
    Console().print(table)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "scifact_quality.json").write_text(json.dumps(
        {"queries": len(qrels), "docs": len(ids), "runs": rows,
         "settings": {"rrf_k": settings.rrf_k, "weight_bm25": settings.weight_bm25,
                      "weight_vector": settings.weight_vector}}, indent=2))


if __name__ == "__main__":
    main()

"""Retrieval quality on BEIR SciFact: nDCG@10 and Recall@100 for BM25, dense and hybrid.

    python benchmarks/scifact_quality.py [--data DIR] [--out benchmarks/results]

DIR is BEIR SciFact (Wadden et al. 2020, as packaged by BEIR: corpus.jsonl, queries.jsonl,
qrels/test.tsv, qrels/train.tsv); the default is ../shared/data/scifact when that folder exists.

Two families of runs, side by side:
* whole-document runs (one text per abstract): BM25 with the `situated` tokenizer on bm25s,
  MiniLM dense (vectors cached in benchmarks/cache/, ~5 min to encode the first time), and
  plain RRF (k=60, and the settings' k and weights);
* `situated` itself: the corpus ingested through the product (abstract = one block, split into
  pieces of ≤ 700 characters prefixed with the title, embedded through the embedding cache in
  benchmarks/cache/), searched with `HybridSearch` (filter, three legs, block-level RRF, parent
  swap; relevance floor off so that 100 blocks come back) – and its legs alone.
Prints a table and writes JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import bm25s
import numpy as np
from lib.provenance import default_data, write_result
from rich.console import Console
from rich.table import Table

from situated.index.embeddings import MiniLMEmbeddings, torch_threads
from situated.index.text import Tokenizer
from situated.settings import Settings

HERE = Path(__file__).resolve().parent


def load(data: Path, split: str = "test"):
    with open(data / "corpus.jsonl", encoding="utf-8") as fh:
        corpus = [json.loads(line) for line in fh]
    with open(data / "queries.jsonl", encoding="utf-8") as fh:
        queries = {q["_id"]: q["text"] for q in map(json.loads, fh)}
    qrels: dict[str, dict[str, int]] = {}
    with open(data / "qrels" / f"{split}.tsv", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
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


def product_index(corpus, emb, settings):
    """Ingest SciFact through `situated` (abstract = one section) and open the index."""
    import tempfile

    from situated.documents import DocumentMeta, LoadedDocument
    from situated.index.cache import EmbeddingCache
    from situated.index.reader import Index
    from situated.index.writer import build_index
    from situated.loaders.corpus import Corpus
    from situated.loaders.forms import Paragraph, Section, build_forms

    docs = []
    for d in corpus:
        meta = DocumentMeta(source_id=d["_id"], path=f"scifact/{d['_id']}", title=d["title"])
        blocks, pieces = build_forms(meta, [Section(title="Abstract", elements=[
            Paragraph(d["text"] or d["title"])])])
        docs.append(LoadedDocument(meta=meta, blocks=tuple(blocks), pieces=tuple(pieces),
                                   content_hash=d["_id"]))
    root = Path(tempfile.mkdtemp(prefix="scifact-index-"))
    cache = EmbeddingCache(HERE / "cache" / "embeddings.sqlite")
    t0 = time.time()
    build_index(Corpus(documents=tuple(docs), warnings=()), root, emb,
                settings.model_copy(update={"index_dir": root}), cache=cache)
    print(f"ingested {sum(len(d.pieces) for d in docs)} pieces in {time.time() - t0:.0f} s "
          f"(cache hits {cache.hits}, misses {cache.misses})")
    return Index(root, emb)


def product_runs(index, queries, settings, depth) -> dict[str, dict[str, list[str]]]:
    """Search the ingested corpus with the product's engine and with each leg alone."""
    from situated.retrievers.filter import Filter
    from situated.retrievers.hybrid import HybridSearch
    from situated.retrievers.legs import Leg

    s = settings.model_copy(update={"leg_k": depth, "top_blocks": depth})
    engines = {  # ranking alone: no relevance decision
        "situated_hybrid": HybridSearch(index, s),
        "situated_bm25": HybridSearch(index, s, legs=(Leg.BM25,)),
        "situated_dense": HybridSearch(index, s, legs=(Leg.VECTOR,)),
    }
    out: dict[str, dict[str, list[str]]] = {name: {} for name in engines}
    for qid, text in queries.items():
        for name, engine in engines.items():
            result = engine.rank(text, Filter(), k=depth, top=depth)
            out[name][qid] = [index.blocks[b.block_id].source_id for b in result.blocks]
    return out


def score(runs, qrels) -> dict[str, dict[str, float]]:
    return {name: {
        "ndcg@10": float(np.mean([ndcg_at(run[q], qrels[q]) for q in qrels])),
        "recall@100": float(np.mean([recall_at(run[q], qrels[q]) for q in qrels])),
    } for name, run in runs.items()}


def tune(index, data: Path, settings, depth: int) -> tuple[float, list[dict]]:
    """The BM25 block-field weight with the best hybrid nDCG@10 on SciFact *train* queries."""
    _, train_queries, train_qrels = load(data, "train")
    grid = []
    for w in (0.0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5):
        s = settings.model_copy(update={"bm25_block_weight": w})
        rows = score(product_runs(index, train_queries, s, depth), train_qrels)
        grid.append({"bm25_block_weight": w, "train_hybrid_ndcg@10": rows["situated_hybrid"]
                     ["ndcg@10"], "train_bm25_ndcg@10": rows["situated_bm25"]["ndcg@10"]})
        print(grid[-1])
    best = max(grid, key=lambda g: (g["train_hybrid_ndcg@10"], -g["bm25_block_weight"]))
    return best["bm25_block_weight"], grid


def _plain_runs(queries: dict[str, str], ids: list[str], bm, tok, emb, vecs: np.ndarray,
                settings: Settings, depth: int) -> dict[str, dict[str, list[str]]]:
    """BM25, dense and their fusions (plain RRF k=60, and the product's weights), each query's
    first `depth` document ids."""
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
    return runs


def _vectors(emb, texts: list[str]) -> np.ndarray:
    """The corpus's MiniLM vectors, from the benchmark's cache when it has them."""
    cache = HERE / "cache" / "scifact-minilm.npy"
    if cache.exists():
        return np.load(cache)
    cache.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    vecs = emb.encode(texts, show_progress=True)
    np.save(cache, vecs)
    print(f"encoded corpus in {time.time() - t0:.0f} s")
    return vecs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=default_data("data/scifact"),
                    help="BEIR SciFact folder (corpus.jsonl, queries.jsonl, qrels/test.tsv), "
                         "from the BEIR benchmark (github.com/beir-cellar/beir, dataset "
                         "'scifact'); default ../shared/data/scifact when it exists")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--depth", type=int, default=100)
    ap.add_argument("--tune", action="store_true", help="choose the BM25 block-field weight on "
                    "the train queries (qrels/train.tsv) first, then report test with it")
    args = ap.parse_args()
    if args.data is None or not (args.data / "corpus.jsonl").exists():
        ap.error(f"no SciFact data at {args.data}; download BEIR SciFact (corpus.jsonl, "
                 "queries.jsonl, qrels/) and pass its folder with --data DIR")
    # SciFact is English: the multilingual leg never runs on its questions (`Legs`), and
    # building it would embed 5,183 abstracts a second time for nothing measured here
    settings = Settings(multilingual_leg=False)
    corpus, queries, qrels = load(args.data)
    ids = [d["_id"] for d in corpus]
    texts = [f"{d['title']} {d['text']}".strip() for d in corpus]

    tok = Tokenizer()
    bm = bm25s.BM25()
    bm.index([tok(t) for t in texts], show_progress=False)

    emb = MiniLMEmbeddings(batch_size=64)
    vecs = _vectors(emb, texts)

    depth = args.depth
    runs = _plain_runs(queries, ids, bm, tok, emb, vecs, settings, depth)
    index = product_index(corpus, emb, settings)
    grid: list[dict] = []
    if args.tune:
        weight, grid = tune(index, args.data, settings, depth)
        settings = settings.model_copy(update={"bm25_block_weight": weight})
        print(f"chosen on train: bm25_block_weight={weight} (settings default "
              f"{Settings().bm25_block_weight})")
    runs.update(product_runs(index, queries, settings, depth))
    unmixed = settings.model_copy(update={"bm25_block_weight": 0.0})
    runs.update({f"{k}_pieces_only": v for k, v in
                 product_runs(index, queries, unmixed, depth).items() if k != "situated_dense"})
    rows = score(runs, qrels)
    table = Table(title=f"SciFact test ({len(qrels)} queries, {len(ids)} docs)")
    for c in ("run", "nDCG@10", "Recall@100", "nDCG vs BM25"):
        table.add_column(c)
    for name, r in rows.items():
        table.add_row(name, f"{r['ndcg@10']:.3f}", f"{r['recall@100']:.3f}",
                      f"{r['ndcg@10'] / rows['bm25']['ndcg@10']:.3f}x")
    Console().print(table)
    write_result(args.out / "scifact_quality.json", {
        "data": str(args.data), "queries": len(qrels), "docs": len(ids), "runs": rows,
        "settings": {"rrf_k": settings.rrf_k, "weight_bm25": settings.weight_bm25,
                     "weight_vector": settings.weight_vector,
                     "bm25_block_weight": settings.bm25_block_weight},
        "tuning_on_train": grid})


if __name__ == "__main__":
    main()

"""Filtered hybrid query latency at 10k and 100k pieces: situated vs the stock LangChain pipeline.

    python benchmarks/latency.py [--sizes 10000 100000] [--queries 200] [--out benchmarks/results]

Synthetic corpus: documents of 5 paragraphs built from a pool of 400 generated sentences, with
products, validity periods and access roles spread so that the benchmark filter admits ~10%.
Piece vectors are precomputed as the normalised sum of the MiniLM vectors of the two pool
sentences each piece is made of (encoding 100k pieces for real would take the whole run); the
query is encoded for real, on one thread, inside the timed part.

Ours: `HybridSearch.search` (filter inside every leg, RRF on block ids, parent swap). Stock:
`EnsembleRetriever([BM25Retriever (langchain-community, rank-bm25), ParentDocumentRetriever over
Chroma])` with default settings, the filter applied afterwards to the returned blocks. Reports
p50/p95, the p50 ratio, and how the results differ (stock results surviving the filter, top-5
overlap).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from lib.provenance import write_result
from rich.console import Console
from rich.table import Table

from situated.documents import DocumentMeta, LoadedDocument
from situated.index.cache import EmbeddingCache
from situated.index.embeddings import MiniLMEmbeddings
from situated.index.reader import Index
from situated.index.writer import build_index
from situated.loaders.corpus import Corpus
from situated.loaders.forms import Paragraph, Section, build_forms
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import HybridSearch
from situated.settings import Settings
from situated.situation import Scope, Situation

HERE = Path(__file__).resolve().parent
SUBJECTS = ["pump", "battery", "charger", "valve", "motor", "brake", "seal", "bearing", "display", "sensor", "frame", "tyre"]
ACTIONS = ["inspect", "replace", "clean", "torque", "calibrate", "lubricate", "align", "test", "record", "reset"]
PLACES = ["at the annual service", "after a repair", "before shipping", "when the alarm sounds", "every 500 hours", "if the casing was opened", "during assembly", "after a crash"]
PRODUCTS = [f"M-{i}" for i in range(10)]


def pool(rnd: random.Random, n: int = 400) -> list[str]:
    return [f"{rnd.choice(ACTIONS).capitalize()} the {rnd.choice(SUBJECTS)} and the "
            f"{rnd.choice(SUBJECTS)} {rnd.choice(PLACES)}, code E-{rnd.randint(100, 999)}."
            for _ in range(n)]


class PoolVectors:
    """Stands in for the embedder at ingest: piece vector = normalised sum of its sentences'."""

    def __init__(self, sentences: list[str], vectors: np.ndarray, model_id: str):
        self.lookup = {s: v for s, v in zip(sentences, vectors)}
        self.model_id = model_id

    def encode(self, texts: list[str], show_progress: bool = False) -> np.ndarray:
        out = []
        for t in texts:
            body = t.split(": ", 1)[-1]
            parts = [p + "." for p in body.split(". ") if p]
            parts = [p[:-1] if p.endswith("..") else p for p in parts]
            v = sum(self.lookup[p] for p in parts if p in self.lookup)
            v = v / (np.linalg.norm(v) or 1.0)
            out.append(v)
        return np.asarray(out, dtype=np.float32)

    def embed_documents(self, texts):
        return self.encode(texts).tolist()

    def embed_query(self, text):
        raise NotImplementedError


def synthetic_corpus(n_pieces: int, sentences: list[str], rnd: random.Random) -> Corpus:
    docs = []
    for d in range(n_pieces // 5):
        roll = rnd.random()
        meta = DocumentMeta(
            source_id=f"DOC-{d}", path=f"synthetic/{d}.md", title=f"Service note {d}",
            product=(rnd.choice(PRODUCTS),) if roll < 0.9 else (),
            valid_from=dt.date(2025, 1, 1) + dt.timedelta(days=rnd.randint(0, 365)),
            access=("technician",) if rnd.random() < 0.3 else (),
        )
        paras = [Paragraph(f"{a} {b}") for a, b in
                 (rnd.sample(sentences, 2) for _ in range(5))]
        sections = [Section(title=f"Part {d}", number="1", elements=paras)]
        blocks, pieces = build_forms(meta, sections)
        docs.append(LoadedDocument(meta=meta, blocks=tuple(blocks), pieces=tuple(pieces),
                                   content_hash=str(d)))
    return Corpus(documents=tuple(docs), warnings=())


def stock_pipeline(index: Index, embedder, k: int):
    from langchain_chroma import Chroma
    from langchain_classic.retrievers import EnsembleRetriever, ParentDocumentRetriever
    from langchain_classic.storage import InMemoryStore
    from langchain_community.retrievers import BM25Retriever
    from langchain_core.documents import Document
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    children = [Document(page_content=p.search_text,
                         metadata={"doc_id": p.block_id, "piece_id": p.piece_id})
                for p in index.pieces]
    bm25 = BM25Retriever.from_documents(children, k=k)
    store = InMemoryStore()
    store.mset([(b.block_id, Document(page_content=b.text, metadata={"block_id": b.block_id}))
                for b in index.blocks.values()])
    vs = Chroma(collection_name="stock", embedding_function=embedder,
                persist_directory=tempfile.mkdtemp(prefix="stock-chroma-"))
    vectors = index.collection.get(include=["embeddings"])
    pos = {pid: i for i, pid in enumerate(vectors["ids"])}
    coll = vs._collection
    for start in range(0, len(children), 5000):
        batch = children[start:start + 5000]
        coll.add(ids=[c.metadata["piece_id"] for c in batch],
                 embeddings=[vectors["embeddings"][pos[c.metadata["piece_id"]]] for c in batch],
                 metadatas=[c.metadata for c in batch],
                 documents=[c.page_content for c in batch])
    pdr = ParentDocumentRetriever(vectorstore=vs, docstore=store,
                                  child_splitter=RecursiveCharacterTextSplitter(chunk_size=400),
                                  search_kwargs={"k": k})
    ensemble = EnsembleRetriever(retrievers=[bm25, pdr], weights=[0.5, 0.5])
    return ensemble


class QueryEmbedder:
    """The real MiniLM for queries (stock pipeline's Chroma calls embed_query)."""

    def __init__(self, emb: MiniLMEmbeddings):
        self.emb = emb

    def embed_query(self, text):
        return self.emb.embed_query(text)

    def embed_documents(self, texts):
        return self.emb.embed_documents(texts)


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def run_size(n: int, n_queries: int, emb: MiniLMEmbeddings, sentences, vecs, rnd) -> dict:
    root = Path(tempfile.mkdtemp(prefix=f"lat-{n}-"))
    settings = Settings(index_dir=root, chroma_write_batch=5000)
    corpus = synthetic_corpus(n, sentences, rnd)
    t0 = time.perf_counter()
    cache = EmbeddingCache(root.parent / f"{root.name}-cache.sqlite")  # never the user's cache
    build_index(corpus, root, PoolVectors(sentences, vecs, emb.model_id), settings, cache=cache)
    ingest_s = time.perf_counter() - t0
    index = Index(root, emb)
    engine = HybridSearch(index, settings)
    flt = Filter(situation=Situation(product="M-3", purchase_date=dt.date(2026, 6, 1)),
                 scope=Scope())
    admitted = int(flt.mask(index.columns).sum())
    questions = [f"How do I {rnd.choice(ACTIONS)} the {rnd.choice(SUBJECTS)} "
                 f"{rnd.choice(PLACES)}?" for _ in range(n_queries)]
    stock = stock_pipeline(index, QueryEmbedder(emb), settings.leg_k)
    for q in questions[:5]:  # warm-up
        engine.search(q, flt)
        stock.invoke(q)
    ours_t, stock_t, survived, overlap = [], [], [], []
    for q in questions:
        t = time.perf_counter()
        res = engine.search(q, flt)
        ours_t.append(time.perf_counter() - t)
        t = time.perf_counter()
        docs = stock.invoke(q)
        ids = [d.metadata.get("block_id") or d.metadata.get("doc_id") for d in docs]
        kept = [b for b in ids if b and flt.admits(index.blocks[b].fields)]
        stock_t.append(time.perf_counter() - t)
        survived.append(len(kept) / max(1, len(ids)))
        ours5 = [b.block_id for b in res.blocks[:5]]
        overlap.append(len(set(ours5) & set(kept[:5])) / max(1, len(ours5)))
    size_mb = sum(f.stat().st_size for f in root.rglob("*") if f.is_file()) / 1e6
    shutil.rmtree(root, ignore_errors=True)
    p50o, p50s = statistics.median(ours_t) * 1e3, statistics.median(stock_t) * 1e3
    return {
        "pieces": len(index), "admitted_share": admitted / len(index), "queries": n_queries,
        "ingest_s_precomputed_vectors": ingest_s, "index_mb": size_mb,
        "ours_p50_ms": p50o, "ours_p95_ms": percentile(ours_t, 95) * 1e3,
        "stock_p50_ms": p50s, "stock_p95_ms": percentile(stock_t, 95) * 1e3,
        "p50_speedup": p50s / p50o,
        "stock_results_surviving_filter": float(np.mean(survived)),
        "top5_overlap_with_filtered_stock": float(np.mean(overlap)),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    rnd = random.Random(42)
    emb = MiniLMEmbeddings()
    sentences = pool(rnd)
    vecs = emb.encode(sentences)
    rows = []
    args.out.mkdir(parents=True, exist_ok=True)
    for n in args.sizes:
        rows.append(run_size(n, args.queries, emb, sentences, vecs, rnd))
        print(json.dumps(rows[-1]), flush=True)  # each size as soon as it is measured
        write_result(args.out / "latency.json", rows)
    t = Table(title="Filtered hybrid query latency (filter admits ~10%)")
    for c in ("pieces", "admitted", "ours p50/p95 ms", "stock p50/p95 ms", "p50 speed-up",
              "stock kept by filter", "top-5 overlap"):
        t.add_column(c, justify="right")
    for r in rows:
        t.add_row(f"{r['pieces']:,}", f"{r['admitted_share']:.1%}",
                  f"{r['ours_p50_ms']:.1f} / {r['ours_p95_ms']:.1f}",
                  f"{r['stock_p50_ms']:.1f} / {r['stock_p95_ms']:.1f}",
                  f"{r['p50_speedup']:.1f}x", f"{r['stock_results_surviving_filter']:.1%}",
                  f"{r['top5_overlap_with_filtered_stock']:.1%}")
    Console().print(t)


if __name__ == "__main__":
    main()

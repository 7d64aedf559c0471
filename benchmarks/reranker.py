"""The reranking stage (`Settings.reranker`): quality against milliseconds, beside the fusion's
order, in one run.

    OMP_NUM_THREADS=1 python benchmarks/reranker.py [--limit 150] [--depths 5 10 20]

* PolicyQA (the index `natural_questions.py --only policyqa` built and calibrated; each half's
  first N questions, asked within their site as the asker's app names it): the gold paragraph
  among the first five evidence blocks and anywhere in the evidence, the gold span in the
  offline answer, `no_evidence`, p50 per answer — the fusion's order beside the cross-encoder
  reordering the first D routed blocks.
* SciFact (BEIR test queries, the product's hybrid ranking to depth 20): nDCG@10 and the time
  one query's reordering takes, the fusion beside the cross-encoder over its first D.

The genai-eu and httpx probes run through `same_answers.py dump` with `SITUATED_RERANKER=
cross_encoder` beside the default (the reranker orders the evidence; routing and the release
chosen must not move). Writes `benchmarks/results/reranker.json`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np
from lib.natural import _in, halves, questions, spans_in
from lib.provenance import default_data, write_result
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.settings import RerankerKind, Settings
from situated.situation import Situation

HERE = Path(__file__).resolve().parent


def policyqa(path: Path, index: Path, limit: int, depths: list[int]) -> dict:
    qs = questions(json.loads(path.read_text("utf-8"))["data"], with_product=True)
    split = halves([q.group for q in qs])
    base = App(Settings(index_dir=index))
    systems = {"fusion order": base}
    for d in depths:
        app = App(Settings(index_dir=index, reranker=RerankerKind.CROSS_ENCODER,
                           reranker_depth=d))
        app.__dict__["embeddings"] = base.embeddings
        if systems.get("_ce") is not None:
            app.__dict__["reranker"] = systems["_ce"].reranker  # one model in memory
        systems[f"cross-encoder, first {d}"] = app
        systems["_ce"] = app
    systems.pop("_ce")
    out = {}
    for half in ("dev", "test"):
        part = [q for q in qs if split[q.group] == half][:limit]
        for name, app in systems.items():
            chain, rows = build_ask_chain(app), []
            for q in part:
                t = time.perf_counter()
                a = chain.invoke({"question": q.text, "situation": Situation(product=q.product)})
                ms = (time.perf_counter() - t) * 1e3
                texts = [e.text for e in a.evidence]
                rows.append({"ms": ms, "status": a.status.value,
                             "gold_first5": _in(q.gold_paragraph, texts[:5]),
                             "gold_in_evidence": _in(q.gold_paragraph, texts),
                             "span": spans_in(q.gold_spans, a.answer)})
            n = len(rows)
            out[f"{half}/{name}"] = {
                "questions": n,
                "gold_in_first_5": round(sum(r["gold_first5"] for r in rows) / n, 3),
                "gold_in_evidence": round(sum(r["gold_in_evidence"] for r in rows) / n, 3),
                "span_in_answer": round(sum(r["span"] for r in rows) / n, 3),
                "no_evidence": round(sum(r["status"] == "no_evidence" for r in rows) / n, 3),
                "p50_ms": round(statistics.median(r["ms"] for r in rows), 1)}
    return out


def scifact(data: Path, depths: list[int], limit: int) -> dict:
    from scifact_quality import load, ndcg_at, product_index

    from situated.index.embeddings import make_embeddings
    from situated.retrievers.filter import Filter
    from situated.retrievers.hybrid import HybridSearch
    from situated.retrievers.rerank import make_reranker

    corpus, queries, qrels = load(data)
    settings = Settings(leg_k=20, top_blocks=20)
    index = product_index(corpus, make_embeddings(settings), settings)
    engine = HybridSearch(index, settings)
    ce = make_reranker(Settings(reranker=RerankerKind.CROSS_ENCODER))
    ids = [q for q in qrels][:limit]
    runs: dict[str, dict[str, list[str]]] = {"fusion order": {}}
    cost: dict[str, list[float]] = {}
    for qid in ids:
        blocks = engine.rank(queries[qid], Filter(), k=20, top=20).blocks
        stored = index.read_blocks([b.block_id for b in blocks])
        docs = [(stored[b.block_id].source_id, stored[b.block_id].text) for b in blocks]
        runs["fusion order"][qid] = [d for d, _ in docs]
        for d in depths:
            t = time.perf_counter()
            scores = ce.scores(queries[qid], [text for _, text in docs[:d]])
            cost.setdefault(f"cross-encoder, first {d}", []).append(
                (time.perf_counter() - t) * 1e3)
            order = sorted(range(len(docs[:d])), key=lambda i: (-scores[i], i)) if scores \
                else list(range(len(docs[:d])))
            runs.setdefault(f"cross-encoder, first {d}", {})[qid] = \
                [docs[i][0] for i in order] + [s for s, _ in docs[d:]]
    return {name: {"ndcg@10": round(float(np.mean([ndcg_at(run[q], qrels[q]) for q in ids])), 3),
                   "queries": len(ids),
                   "rerank_p50_ms": round(statistics.median(cost[name]), 1) if name in cost
                   else 0.0} for name, run in runs.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--policyqa", type=Path, default=default_data("data/policyqa-dev/dev.json"))
    ap.add_argument("--policyqa-index", type=Path,
                    default=HERE / "cache" / "natural-questions" / "policyqa-index")
    ap.add_argument("--scifact", type=Path, default=default_data("data/scifact"))
    ap.add_argument("--limit", type=int, default=150, help="questions per PolicyQA half")
    ap.add_argument("--scifact-limit", type=int, default=300)
    ap.add_argument("--depths", type=int, nargs="+", default=[5, 10, 20])
    ap.add_argument("--only", choices=("policyqa", "scifact"), default=None)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    results = {"policyqa": {}, "scifact": {}}
    if args.only in (None, "policyqa"):
        results["policyqa"] = policyqa(args.policyqa, args.policyqa_index, args.limit,
                                       args.depths)
    if args.only in (None, "scifact"):  # a cold SciFact ingest takes most of an hour here
        results["scifact"] = scifact(args.scifact, args.depths, args.scifact_limit)
    console = Console(width=180)
    t = Table(title="PolicyQA through the chain (offline model)")
    for col in ("half / order", "questions", "gold in first 5", "gold in evidence",
                "span in answer", "no_evidence", "p50 ms"):
        t.add_column(col, justify="right")
    for name, r in results["policyqa"].items():
        t.add_row(name, *(str(r[k]) for k in ("questions", "gold_in_first_5", "gold_in_evidence",
                                             "span_in_answer", "no_evidence", "p50_ms")))
    console.print(t)
    t = Table(title="SciFact test queries, the product's hybrid ranking to depth 20")
    for col in ("order", "queries", "nDCG@10", "reordering p50 ms"):
        t.add_column(col, justify="right")
    for name, r in results["scifact"].items():
        t.add_row(name, str(r["queries"]), str(r["ndcg@10"]), str(r["rerank_p50_ms"]))
    console.print(t)
    write_result(args.out / "reranker.json", results)


if __name__ == "__main__":
    main()

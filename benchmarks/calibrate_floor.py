"""Relevance-floor calibration on the sample corpus: best leg scores of on-topic questions
(with the block they should find) against off-topic ones, under the permissive scope.

    python benchmarks/calibrate_floor.py [--out benchmarks/results/floor.json]

Prints a table and writes JSON. The floor must sit above every off-topic best score and below
the expected block's score of every on-topic question.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _provenance import write_result
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.retrievers.filter import Filter
from situated.retrievers.fusion import mostly_latin
from situated.retrievers.legs import BM25Leg, VectorLeg
from situated.settings import Settings
from situated.situation import Scope

ON_TOPIC = [
    ("What does error E-417 mean, and what should I check?", "ERR-CAT-1-t1"),
    ("Do I need to fit a rear mudguard on a C-3?", "MAN-C3-ASM-4.2"),
    ("Which battery check applies when the battery casing has been opened?", "SPEC-C3-3-t1"),
    ("How long is the C-3 battery warranty?", "WARR-R2-2"),
    ("How much capacity is left after 500 cycles?", "REP-BATT-07-2-f1"),
    ("How do I isolate pump P-2?", "MAN-P2-1"),
    ("Какой срок возврата по тарифу Старт?", "TAR-START-1-1"),
    ("How do I request a return?", "RET-2026-1"),
    ("When is customer service open?", "FAQ-1"),
    ("What does a flashing red LED on the charger mean?", "CHG-CH4-2"),
]
OFF_TOPIC = [
    "What is the capital of France?",
    "Who won the football world cup in 1998?",
    "How do I bake sourdough bread?",
    "What is the boiling point of water on Mount Everest?",
    "Recommend a good science fiction novel.",
    "Как приготовить борщ?",
    "What's the exchange rate of the euro today?",
    "How many moons does Jupiter have?",
]


def clears(r: dict, s: Settings) -> bool:
    """The floor rule of `Floor.clears` (vector vouches only for Latin-script questions)."""
    return (r["latin"] and r["vector"] >= s.min_vector_similarity) or r["bm25"] >= s.min_bm25_score


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/floor.json"))
    args = ap.parse_args()
    app = App(Settings())
    index = app.index
    flt = Filter(scope=Scope(roles=frozenset({"technician", "hr", "dispatcher"}),
                             assets=frozenset({"P-2", "P-4"})))
    mask = flt.mask(index.columns)
    rows = []
    for q, expected in [(q, e) for q, e in ON_TOPIC] + [(q, None) for q in OFF_TOPIC]:
        vec = VectorLeg().search(index, index.embeddings.encode_query(q), flt, int(mask.sum()), 50)
        bm = BM25Leg().search(index, q, flt, mask, 50)
        def best(hits, block=None):
            vals = [h.score for h in hits if block is None or index.pieces[h.pos].block_id == block]
            return max(vals, default=0.0)
        rows.append({"question": q, "expected": expected, "latin": mostly_latin(q),
                     "vector": best(vec, expected), "bm25": best(bm, expected)})
    t = Table(title="Relevance floor calibration (best score; on-topic: of the expected block)")
    for c in ("question", "expected", "vector cos", "bm25"):
        t.add_column(c)
    for r in rows:
        t.add_row(r["question"][:55], r["expected"] or "(off-topic)", f"{r['vector']:.3f}",
                  f"{r['bm25']:.2f}")
    Console().print(t)
    on = [r for r in rows if r["expected"]]
    off = [r for r in rows if not r["expected"]]
    summary = {
        "off_topic_max_vector": max(r["vector"] for r in off),
        "off_topic_max_bm25": max(r["bm25"] for r in off),
        "on_topic_min_best_leg_vector": min(r["vector"] for r in on),
        "on_topic_min_bm25": min(r["bm25"] for r in on),
        "floor": {"min_vector_similarity": app.settings.min_vector_similarity,
                  "min_bm25_score": app.settings.min_bm25_score},
        "off_topic_max_vector_latin": max(r["vector"] for r in off if r["latin"]),
        "on_topic_cleared": sum(clears(r, app.settings) for r in on),
        "off_topic_cleared": sum(clears(r, app.settings) for r in off),
        "rows": rows,
    }
    Console().print({k: v for k, v in summary.items() if k != "rows"})
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_result(args.out, summary)


if __name__ == "__main__":
    main()

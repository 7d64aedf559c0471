"""Would the ingest-time sentence vectors make a better relevance signal than the piece cosine?
Measured, not shipped: for natural questions and off-topic ones, the best MiniLM cosine of the
first five ranked blocks' pieces (today's signal: a piece is embedded with its document title
and heading path) beside the best cosine of their quotable units (`index.sentences`, embedded
bare), and the larger of the two.

    python benchmarks/sentence_signal.py --index DIR [--policyqa FILE] [--every N]
                                         [--out benchmarks/results]

DIR is the PolicyQA index `natural_questions.py` built (`benchmarks/cache/natural-questions/
policyqa-index` by default): its dev-half questions (every N-th, within their site) against the
shipped and fresh off-topic questions asked within three dev sites. For each signal: the floor
that accepts 1 / 2 / 3% of the off-topic questions, and the share of questions it refuses
there. Prints a table and writes JSON (`sentence_signal.json`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import yaml
from _provenance import default_data, write_result
from natural_questions import halves, questions
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.calibration.questions import shipped_negatives
from situated.index.sentences import block_units
from situated.settings import Settings
from situated.situation import Scope, Situation

HERE = Path(__file__).resolve().parent


def best_cosines(app: App, snap, text: str, product: str | None) -> tuple[float, float]:
    """(best piece cosine, best sentence cosine) over the first five ranked blocks."""
    flt = snap.filter(Situation(product=product), Scope())
    ranked = app.engine.rank(text, flt, top=5)
    signals = app.engine.signals(text, ranked.blocks, Scope(), flt.mask(app.index.columns))
    piece = max([s.cosine or 0.0 for s in signals] or [0.0])
    blocks = app.index.read_blocks([b.block_id for b in ranked.blocks])
    units = block_units([b.text for b in blocks.values()])
    vectors, found = snap.sentence_vectors(units)
    q = app.embeddings.encode_query(text)
    sentence = max([float(x) for x in vectors[found] @ q] or [0.0])
    return piece, sentence


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", type=Path,
                    default=HERE / "cache" / "natural-questions" / "policyqa-index")
    ap.add_argument("--policyqa", type=Path, default=default_data("data/policyqa-dev/dev.json"))
    ap.add_argument("--every", type=int, default=3, help="every N-th dev question")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.policyqa is None or not (args.index / "current").exists():
        ap.error("needs the PolicyQA index natural_questions.py builds (--index) and its data")
    app = App(Settings(index_dir=args.index))
    qs = questions(json.loads(args.policyqa.read_text("utf-8"))["data"], with_product=True)
    split = halves([q.group for q in qs])
    dev = [q for q in qs if split[q.group] == "dev"][::args.every]
    fresh = yaml.safe_load((HERE / "questions" / "offtopic_fresh.yaml").read_text("utf-8"))
    strangers = shipped_negatives() + [q for v in fresh.values() for q in v]
    sites = sorted({q.group for q in dev})[:3]
    snap = app.snapshot()
    pos = np.array([best_cosines(app, snap, q.text, q.product) for q in dev])
    neg = np.array([best_cosines(app, snap, t, s) for s in sites for t in strangers])
    table = Table(title=f"PolicyQA dev: {len(pos)} questions, {len(neg)} off-topic within "
                        f"{len(sites)} sites")
    for col in ("signal", "off-topic accepted", "floor", "questions refused"):
        table.add_column(col, justify="right")
    results: dict = {"questions": len(pos), "off_topic": len(neg), "signals": {}}
    for name, p, n in (("piece (today)", pos[:, 0], neg[:, 0]),
                       ("sentence", pos[:, 1], neg[:, 1]),
                       ("max of both", pos.max(axis=1), neg.max(axis=1))):
        rows = []
        for accepted in (0.01, 0.02, 0.03):
            floor = float(np.quantile(n, 1 - accepted))
            refused = float(np.mean(p < floor))
            rows.append({"off_topic_accepted": accepted, "floor": floor, "refused": refused})
            table.add_row(name, f"{accepted:.0%}", f"{floor:.3f}", f"{refused:.3f}")
        results["signals"][name] = rows
    Console().print(table)
    write_result(args.out / "sentence_signal.json", results)


if __name__ == "__main__":
    main()

"""Whether anything applies, on a corpus other than the sample: calibration of the relevance
thresholds on the dev half of real terms pages, and the whole chain on off-topic questions of
both halves.

    python benchmarks/calibrate_floor.py [--data DIR] [--work DIR] [--out benchmarks/results]

DIR is an Open Terms Archive versions export (default ../shared/data/genai-eu-versions when that
folder exists), converted and ingested as `temporal_probe.py` does (same work folder, so one
build serves both). Then:

1. `situated.calibration` fits the thresholds on the index's own *dev* questions (positives
   from its documents, split by product; the shipped off-topic questions and questions naming
   other companies, split by a hash) and reports precision / recall on the dev and the held-out
   half; the index is published again with them in its manifest. These are the figures the
   package default (`index.store.DEFAULT_MIN_COSINE`) was set from.
2. Every off-topic question (both halves, and `--fresh`: questions written after the rule was
   fixed and never used to set or choose anything, some of them near the corpus' topic) goes
   through the whole ask chain with the offline model, across the index and within each of
   three products (", in product": an asker whose situation names it): how many are
   `no_evidence`, how many are clarified (must be 0) or answered.

Prints tables and writes JSON (`calibrate_floor.json`). The on-topic side through the chain is
the temporal probe (`temporal_probe.py`: right version, stale, status on dev and test).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import yaml
from lib.provenance import default_data, write_result
from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tools"))

from ota_to_corpus import convert

from situated.app import App
from situated.calibration.fit import calibrate, index_calibrator
from situated.calibration.questions import Question
from situated.chains.ask import build_ask_chain
from situated.chains.say.models import ExtractiveChatModel
from situated.index.ingest import ingest
from situated.index.reader import generation_documents
from situated.index.store import DEFAULT_MIN_COSINE, DEFAULT_MIN_COVER
from situated.settings import Settings


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=default_data("data/genai-eu-versions"),
                    help="Open Terms Archive versions export (versions.jsonl + texts/)")
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "temporal-probe")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--fresh", type=Path, default=HERE / "questions" / "offtopic_fresh.yaml",
                    help="off-topic questions never used to set anything (YAML lists)")
    args = ap.parse_args()
    if args.data is None or not (args.data / "versions.jsonl").exists():
        ap.error(f"no versions export at {args.data}; pass --data DIR")
    console = Console()
    docs, root = args.work / "docs", args.work / "index"
    convert(args.data, docs)
    settings = Settings(index_dir=root)
    app = App(settings)
    ingest([docs], root, app.embeddings, settings)  # builds once; unchanged: nothing to do
    with app.pinned() as snap:
        thresholds, observations = calibrate(snap.engine,
                                             generation_documents(snap.index.generation))
    ingest([docs], root, app.embeddings, settings,
           calibrator=index_calibrator(settings, app.embeddings), recalibrate=True)

    table = Table(title=f"relevance calibration on {args.data.name} (fitted on dev only)")
    for col in ("half", "on-topic", "off-topic", "precision", "recall", "off-topic refused"):
        table.add_column(col, justify="right")
    for name, stats in (("dev", thresholds.dev), ("held-out", thresholds.held_out)):
        table.add_row(name, f"{stats['positives']:.0f}", f"{stats['negatives']:.0f}",
                      f"{stats['precision']:.3f}", f"{stats['recall']:.3f}",
                      f"{stats['negatives_refused']:.3f}")
    console.print(table)
    console.print(f"thresholds: min_cosine {thresholds.min_cosine}, min_cover "
                  f"{thresholds.min_cover} ({thresholds.note}); package default: min_cosine "
                  f"{DEFAULT_MIN_COSINE}, min_cover {DEFAULT_MIN_COVER}")

    chain = build_ask_chain(app, model=lambda snap: ExtractiveChatModel(
        embeddings=app.embeddings, sentences=snap.sentence_vectors))
    # each question once (an index with products observes it twice: across, within one)
    negatives = list(dict.fromkeys(o.question for o in observations if not o.question.positive))
    fresh = yaml.safe_load(args.fresh.read_text("utf-8")) if args.fresh.exists() else {}
    negatives += [Question(q, False, "fresh", group) for group, qs in fresh.items() for q in qs]
    products = sorted(app.index.products)[:3]
    routed, wrong = _through_chain(chain, negatives, [None, *products])
    summary = _chain_table(routed, console)
    for w in wrong:
        console.print(f"  [{w['half']}] {w['status']}: {w['question']}", highlight=False)
    write_result(args.out / "calibrate_floor.json", {
        "corpus": str(args.data.name),
        "thresholds": thresholds.model_dump(mode="json"),
        "package_default": {"min_cosine": DEFAULT_MIN_COSINE, "min_cover": DEFAULT_MIN_COVER},
        "off_topic_through_chain": summary, "not_refused": wrong,
        "observations": [{"half": o.question.half.value, "kind": o.question.kind,
                          "positive": o.question.positive, "latin": o.latin,
                          "decided": o.decided, "cover": o.cover, "cosine": o.cosine,
                          "unheld": o.unheld, "question": o.question.text}
                         for o in observations],
    })


def _chain_table(routed: dict[str, Counter], console: Console) -> dict:
    """Print the statuses per half; return them with the refusal rate."""
    chain_table = Table(title="off-topic questions through the whole chain")
    for col in ("half", "questions", "no_evidence", "clarify", "answered", "no_evidence rate"):
        chain_table.add_column(col, justify="right")
    summary = {}
    for half, counts in routed.items():
        n = sum(counts.values())
        summary[half] = {"questions": n, **dict(counts),
                         "no_evidence_rate": round(counts["no_evidence"] / n, 4) if n else None}
        chain_table.add_row(half, str(n), str(counts["no_evidence"]), str(counts["clarify"]),
                            str(counts["answered"]), f"{summary[half]['no_evidence_rate']:.3f}")
    console.print(chain_table)
    return summary


def _through_chain(chain, negatives: list, products: list) -> tuple[dict, list[dict]]:
    """Every off-topic question across the index (None) and within each product in
    `products` (an asker whose situation names it): the statuses per half (", in product"
    for the latter), and every one not refused."""
    from situated.situation import Situation

    routed: dict[str, Counter] = {}
    wrong: list[dict] = []
    for product in products:
        situation = Situation(product=product) if product else None
        for q in negatives:
            answer = chain.invoke({"question": q.text, "situation": situation})
            half = q.half if isinstance(q.half, str) else q.half.value
            half += ", in product" if product else ""
            routed.setdefault(half, Counter())[answer.status.value] += 1
            if answer.status.value != "no_evidence":
                wrong.append({"half": half, "product": product, "question": q.text,
                              "status": answer.status.value, "answer": answer.answer[:200]})
    return routed, wrong


if __name__ == "__main__":
    main()

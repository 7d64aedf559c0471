"""Temporal probe on real versioned documents: the right version, on the right day.

    python benchmarks/temporal_probe.py [--data DIR] [--work DIR] [--baselines] [--out benchmarks/results]

DIR is an Open Terms Archive versions export (`versions.jsonl` + `texts/`; default
../shared/data/genai-eu-versions when that folder exists). The script converts it with
`tools/ota_to_corpus.py`, ingests it, generates the probe cases (`situated probe-versions`),
and runs them through `situated` (and, with --baselines, the unfiltered hybrid and the other
baselines) for the dev and the test half. Prints a table and writes JSON: per half the summary
and the breakdown by case kind (inside, first_day, same_day, previous_last_day, before_first).
Routing choices are made on the dev half; the test half is the held-out figure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from _provenance import default_data, write_result
from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tools"))

from ota_to_corpus import convert

from situated.app import App
from situated.eval.cases import load_cases
from situated.eval.probe import probe_cases, write_cases
from situated.eval.report import by_tag
from situated.eval.runner import run
from situated.eval.systems import systems
from situated.index.ingest import ingest
from situated.loaders.corpus import load_corpus
from situated.settings import Settings


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=default_data("data/genai-eu-versions"),
                    help="Open Terms Archive versions export (versions.jsonl + texts/)")
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "temporal-probe")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--baselines", action="store_true")
    args = ap.parse_args()
    if args.data is None or not (args.data / "versions.jsonl").exists():
        ap.error(f"no versions export at {args.data}; pass --data DIR")
    docs, index = args.work / "docs", args.work / "index"
    convert(args.data, docs)
    settings = Settings(index_dir=index)
    app = App(settings)
    ingest([docs], index, app.embeddings, settings)
    corpus = load_corpus([docs], timezone=settings.timezone)
    cases, skipped = probe_cases(list(corpus.documents), settings.timezone)
    files = write_cases(cases, args.work / "cases")
    compared = systems(app, args.baselines)
    results = {"skipped": skipped}
    table = Table(title="temporal probe (situated)")
    for col in ("half", "cases", "right version in evidence", "stale", "status accuracy",
                "no_evidence accuracy", "p50 ms"):
        table.add_column(col, justify="right")
    for half, path in files.items():
        summary, per_case = run(compared, load_cases(path), console=Console(stderr=True))
        results[half] = {"summary": summary, "by_tag": by_tag(per_case)}
        s = summary["situated"]
        table.add_row(half, str(s["cases"]), f"{s['evidence_recall']:.3f}",
                      f"{s['stale_version_rate']:.3f}", f"{s['status_accuracy']:.3f}",
                      f"{s['no_evidence_accuracy']:.3f}", f"{s['latency_p50_ms']:.0f}")
    Console().print(table)
    write_result(args.out / "temporal_probe.json", results)


if __name__ == "__main__":
    main()

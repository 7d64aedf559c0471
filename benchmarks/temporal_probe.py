"""Temporal probe on real versioned documents: the right version, on the right day.

    python benchmarks/temporal_probe.py [--data DIR] [--work DIR] [--baselines] [--out benchmarks/results]

DIR is an Open Terms Archive versions export (`versions.jsonl` + `texts/`; default
../shared/data/genai-eu-versions when that folder exists). The script converts it with
`tools/ota_to_corpus.py`, ingests it, generates the probe cases (`situated probe-versions`),
and runs them through `situated` (and, with --baselines, the unfiltered hybrid and the other
baselines) for the dev and the test half. Prints a table and writes JSON: per half the summary
and the breakdown by case kind (inside, first_day, same_day, previous_last_day, before_first).
Routing choices are made on the dev half; the test half is the held-out figure.

A second table reports the questions about change the probe emits (issue 28): per half, "What
changed in <product>'s <family> on <day>?" — the right pair of versions among the answer's
changes with both sides cited and the distinguishing phrase among the sentences it removed or
added (`change_accuracy`), no other version in evidence or hits (`stale`) — and "List the
versions of …" (`listing_accuracy`, exact).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lib.provenance import default_data, write_result
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
    history = Table(title="questions about change (situated)")
    for col in ("half", "change cases", "right pair", "stale", "listings", "exact",
                "p50 ms"):
        history.add_column(col, justify="right")
    for half, path in files.items():
        cases = load_cases(path)
        moment = [c for c in cases if not {"changes", "versions"} & set(c.tags)]
        summary, per_case = run(compared, moment, console=Console(stderr=True))
        results[half] = {"summary": summary, "by_tag": by_tag(per_case)}
        s = summary["situated"]
        table.add_row(half, str(s["cases"]), f"{s['evidence_recall']:.3f}",
                      f"{s['stale_version_rate']:.3f}", f"{s['status_accuracy']:.3f}",
                      f"{s['no_evidence_accuracy']:.3f}", f"{s['latency_p50_ms']:.0f}")
        asked = [c for c in cases if {"changes", "versions"} & set(c.tags)]
        summary, per_case = run(compared[:1], asked, console=Console(stderr=True))
        tags = by_tag(per_case)["situated"]
        results[f"{half}-changes"] = {"summary": summary, "by_tag": tags,
                                      "failed": [r for r in per_case["situated"]
                                                 if r["change_ok"] is False
                                                 or r["listing_ok"] is False or r["stale"]]}
        ch, ls = tags.get("changes", {}), tags.get("versions", {})
        history.add_row(half, str(ch.get("cases", 0)), _f(ch.get("change_accuracy")),
                        _f(ch.get("stale_version_rate")), str(ls.get("cases", 0)),
                        _f(ls.get("listing_accuracy")),
                        f"{summary['situated']['latency_p50_ms']:.0f}")
    Console().print(table)
    Console().print(history)
    write_result(args.out / "temporal_probe.json", results)


def _f(v) -> str:
    return "—" if v is None else f"{v:.3f}"


if __name__ == "__main__":
    main()

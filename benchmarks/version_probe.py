"""Version probe on real documentation published per release: the right release, every time.

    python benchmarks/version_probe.py [--data DIR] [--work DIR] [--baselines] [--paraphrases]
                                       [--out benchmarks/results]

DIR is documentation per release (`manifest.jsonl` + `docs/VERSION/PATH.md` + an optional
`CHANGELOG.md`; default ../shared/data/httpx-versions when that folder exists). The script
converts it with `tools/versions_to_corpus.py` (each page at each release one document:
`family` the page, `version` the release), ingests it, generates the cases
(`situated.eval.release_probe`) and runs them through `situated` (with --baselines, the
unfiltered hybrid and the other baselines too, on the questions about one release), for the dev
and the test half (split by page family; line and first-appearance questions by a hash of
their id). Prints a table and writes JSON (summary per half and kind, and every failed case).
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

from versions_to_corpus import convert

from situated.app import App
from situated.eval.release_probe import release_probe_cases
from situated.eval.report import by_tag
from situated.eval.runner import run
from situated.eval.systems import systems
from situated.index.ingest import ingest
from situated.loaders.corpus import load_corpus
from situated.settings import Settings

COLUMNS = (  # (case kind, metric, column title)
    ("at", "evidence_recall", "right release"),
    ("lacking", "fact_accuracy", "lacking: names it"),
    ("changes", "change_accuracy", "changes"),
    ("versions", "listing_accuracy", "family listings"),
    ("line", "listing_accuracy", "line facts"),
    ("exists", "listing_accuracy", "exists"),
    ("first", "appearance_accuracy", "first appearance"),
    ("first", "appearance_stated", "… or the notes' release stated"),
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=default_data("data/httpx-versions"),
                    help="documentation per release (manifest.jsonl + docs/VERSION/…)")
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "version-probe")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--baselines", action="store_true")
    ap.add_argument("--half", choices=("dev", "test", "both"), default="both")
    ap.add_argument("--paraphrases", action="store_true",
                    help="then the paraphrase and release-notes tables (version_paraphrase.py) "
                         "over this index and the quickq corpus")
    args = ap.parse_args()
    if args.data is None or not (args.data / "manifest.jsonl").exists():
        ap.error(f"no release documentation at {args.data}; pass --data DIR")
    docs, index = args.work / "docs", args.work / "index"
    convert(args.data, docs)
    settings = Settings(index_dir=index)
    app = App(settings)
    ingest([docs], index, app.embeddings, settings)
    cases, skipped = release_probe_cases(list(load_corpus([docs]).documents))
    compared = systems(app, args.baselines)
    results: dict = {"skipped": skipped}
    table = Table(title="version probe (situated)")
    for col in ("half", "cases", *(title for *_, title in COLUMNS), "neighbour in evidence",
                "lacking: no_evidence", "p50 ms"):
        table.add_column(col, justify="right")
    halves = ("dev", "test") if args.half == "both" else (args.half,)
    for half in halves:
        mine = [c for c in cases if half in c.tags]
        summary, per_case = run(compared[:1], mine, console=Console(stderr=True))
        tags = by_tag(per_case)["situated"]
        results[half] = {"summary": summary, "by_tag": tags, "failed": [
            r for r in per_case["situated"] if r["failed"]]}
        at = [c for c in mine if "at" in c.tags]
        if args.baselines and at:
            results[f"{half}-at-baselines"], _ = run(compared, at,
                                                     console=Console(stderr=True))
        s = summary["situated"]
        table.add_row(half, str(s["cases"]), *(
            _f(tags.get(k, {}).get(metric)) + f" ({tags.get(k, {}).get('cases', 0)})"
            for k, metric, _ in COLUMNS),
            _f(tags.get("at", {}).get("stale_version_rate")),
            _f(tags.get("lacking", {}).get("no_evidence_accuracy")),
            f"{s['latency_p50_ms']:.0f}")
    Console(width=220).print(table)
    write_result(args.out / "version_probe.json", results)
    if args.paraphrases:
        from version_paraphrase import main as paraphrases

        paraphrases(["--httpx-index", str(index), "--out", str(args.out)])


def _f(v) -> str:
    return "—" if v is None else f"{v:.3f}"


if __name__ == "__main__":
    main()

"""Which units the offline answer quotes, and in which order: PolicyQA's dev half through the
chain (the site as the product), the offline model's answer request recorded, then every way
of choosing units measured on the same requests: from the routed blocks only (today) or from
all the evidence (routed + further blocks of the documents the router chose); the first k by the
model's score; only those within a margin of the best one's score; and, after the first, only
those whose cosine with the question reaches an absolute floor (`--floors`).

    python benchmarks/quote_choice.py [--index DIR] [--policyqa FILE] [--half dev] [--limit 150]

Per variant: the gold span inside the quoted units (the answer covers it), inside the first
quoted unit (the answer opens with it), and the mean number of units quoted. Writes
`quote_choice.json`.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from _provenance import default_data, write_result
from natural_questions import HERE, halves, questions, spans_in
from quote_ceiling import record
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.settings import Settings


def chosen(units, further, source: str, k: int, margin: float | None,
           floor: float | None = None):
    """The first k units of `source`; with `margin`, those within it of the best one's score;
    with `floor`, the first unit and those after it whose cosine with the question reaches it."""
    pool = [u for u in units if source == "all" or u.label not in further]
    if not pool:
        return []
    best = pool[0].score
    return [u for i, u in enumerate(pool[:k]) if (margin is None or u.score >= best - margin)
            and (floor is None or i == 0 or (u.meaning or 0.0) >= floor)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", type=Path,
                    default=HERE / "cache" / "relevance-rule" / "policyqa-index")
    ap.add_argument("--policyqa", type=Path, default=default_data("data/policyqa-dev/dev.json"))
    ap.add_argument("--half", default="dev")
    ap.add_argument("--limit", type=int, default=150)
    ap.add_argument("--floors", type=float, nargs="*", default=[0.1, 0.15, 0.2, 0.25, 0.3],
                    help="cosine floors for the units after the first (first 4 routed units)")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    articles = json.loads(args.policyqa.read_text(encoding="utf-8"))["data"]
    qs = questions(articles, with_product=True)
    split = halves([q.group for q in qs])
    mine = [q for q in qs if split[q.group] == args.half]
    random.Random(11).shuffle(mine)
    app = App(Settings(index_dir=args.index))
    rows = record(app, mine[: args.limit])
    table = Table(title=f"PolicyQA {args.half}: units the offline answer quotes")
    for col in ("source", "k", "margin", "floor", "span in quoted", "span in first", "units quoted"):
        table.add_column(col, justify="right")
    results = {}
    variants = [(source, k, margin, None) for source in ("routed", "all")
                for k in (1, 2, 3, 4, 6) for margin in (None, 0.1, 0.2, 0.3)]
    variants += [("routed", 4, None, floor) for floor in args.floors]
    for source, k, margin, floor in variants:
        cover = first = count = 0
        for r in rows:
            if not r["units"]:
                continue
            q = r["q"]
            got = chosen(r["units"], r["further"], source, k, margin, floor)
            cover += any(spans_in(q.gold_spans, u.text) for u in got)
            first += bool(got) and spans_in(q.gold_spans, got[0].text)
            count += len(got)
        n = len(rows) or 1
        key = f"{source}/k{k}/m{margin}" + ("" if floor is None else f"/f{floor}")
        results[key] = {"span_in_quoted": round(cover / n, 3),
                        "span_in_first": round(first / n, 3), "units": round(count / n, 2)}
        table.add_row(source, str(k), str(margin), str(floor),
                      *(str(v) for v in results[key].values()))
    results["span_in_answer_now"] = round(sum(r["span_in_answer"] for r in rows) / len(rows), 3)
    Console(width=160).print(table)
    print("span in the answer today:", results["span_in_answer_now"])
    write_result(args.out / "quote_choice.json", results)


if __name__ == "__main__":
    main()

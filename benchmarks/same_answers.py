"""Same answers, before and after a change of the ask path: every case's whole answer body.

    python benchmarks/same_answers.py dump --index DIR --cases FILE... --out A.jsonl
    python benchmarks/same_answers.py compare A.jsonl B.jsonl
    python benchmarks/same_answers.py cases [--policyqa FILE] [--xquad DIR] [--work DIR]

`dump` runs each case (eval case files: the built-in sample set when --index is left out, or
`situated probe-versions` output) through the product chain with the offline model and a fixed
clock, and writes one JSON line per case: its id and the whole `Answer` (status, text,
citations, evidence, hits, changes, versions, budget, flags, relevance) with the latency. Run it
once on each commit (e.g. `PYTHONPATH=<worktree of the old commit>`), then `compare` counts the
cases whose answers differ in any field, prints the first differences, and the p50 latency of
each side, and writes JSON to benchmarks/results/same_answers.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TODAY = dt.date(2026, 11, 29)


def _chain(app):
    from situated.chains.ask import build_ask_chain
    from situated.chains.say.models import ExtractiveChatModel

    if hasattr(app, "sentence_vectors"):  # before per-generation chains: a model over the app
        model = ExtractiveChatModel(embeddings=app.embeddings, sentences=app.sentence_vectors)
    else:
        def model(snap):
            return ExtractiveChatModel(embeddings=app.embeddings, sentences=snap.sentence_vectors)
    return build_ask_chain(app, model=model, clock=lambda: TODAY)


def dump(args) -> None:
    from situated.app import App
    from situated.eval.cases import load_cases
    from situated.settings import Settings

    app = App(Settings(index_dir=args.index) if args.index else Settings())
    chain = _chain(app)
    cases = [c for f in (args.cases or [None]) for c in load_cases(f)]
    with args.out.open("w", encoding="utf-8") as out:
        for case in cases:
            t = time.perf_counter()
            answer = chain.invoke({"question": case.question, "situation": case.situation,
                                   "follows": case.follows, "scope": case.scope})
            ms = (time.perf_counter() - t) * 1e3
            out.write(json.dumps({"id": case.id, "ms": ms,
                                  "answer": answer.model_dump(mode="json")},
                                 ensure_ascii=False) + "\n")
    print(f"{len(cases)} answers → {args.out}")


def compare(args) -> None:
    sys.path.insert(0, str(HERE))
    from lib.provenance import write_result

    def read(p: Path) -> dict[str, dict]:
        return {r["id"]: r for r in map(json.loads, p.read_text(encoding="utf-8").splitlines())}

    a, b = read(args.a), read(args.b)
    common = sorted(a.keys() & b.keys())
    differ = [i for i in common if a[i]["answer"] != b[i]["answer"]]
    for i in differ[:5]:
        fields = [k for k in a[i]["answer"] if a[i]["answer"][k] != b[i]["answer"].get(k)]
        print(f"differs: {i}: {fields}")
    p50 = {name: statistics.median(r["ms"] for r in side.values()) for name, side in
           (("a", a), ("b", b))}
    print(f"cases {len(common)} (only in a: {len(a.keys() - b.keys())}, only in b: "
          f"{len(b.keys() - a.keys())}); identical answers {len(common) - len(differ)}; "
          f"differing {len(differ)}; p50 a {p50['a']:.1f} ms, b {p50['b']:.1f} ms")
    write_result(args.results / "same_answers.json", {
        "a": str(args.a), "b": str(args.b), "cases": len(common),
        "identical": len(common) - len(differ), "differing": differ, "p50_ms": p50})


def main() -> None:
    if sys.argv[1:2] == ["cases"]:  # the natural-question sets as case files (`lib.natural_cases`)
        sys.path.insert(0, str(HERE))
        from lib import natural_cases

        sys.argv.pop(1)
        natural_cases.main()
        return
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--index", type=Path, default=None)
    d.add_argument("--cases", type=Path, nargs="*", default=None)
    d.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    c.add_argument("--results", type=Path, default=HERE / "results")
    args = ap.parse_args()
    dump(args) if args.cmd == "dump" else compare(args)


if __name__ == "__main__":
    main()

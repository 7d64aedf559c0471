"""Two products in one index, asked as their users ask (issue 81, item 7): httpx's docs at 16
releases and starlette's at 14, each with its release notes, ingested as one index of two
products; the questions of `questions/two_products.yaml` (six kinds: content, complex
content, version-specific, listing/existence, which version added, what changed), split into
a dev and a test half by a hash of each question.

    python benchmarks/two_products.py [--httpx DIR] [--starlette DIR] [--work DIR]
                                      [--baseline SRC] [--out benchmarks/results]

Per half and kind: the share answered right (the status expected and every string the case
names in the answer), the share that used the other product (a citation of its documents,
or its name in the answer of a question about one product), and p50 answer latency. With
`--baseline SRC` (a checkout of an earlier commit, e.g. `git worktree add /tmp/base a60a3c2`)
the same questions run through that code in a subprocess over its own index, in the same run,
and both tables are printed with the ratio of p50s. Writes `two_products.json`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml
from lib.provenance import default_data, write_result
from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE / "questions" / "two_products.yaml"
PRODUCTS = ("httpx", "starlette")
TODAY = dt.date(2026, 12, 6)


def half_of(question: str) -> str:
    return "dev" if hashlib.sha256(question.encode()).digest()[0] % 2 == 0 else "test"


def cases(path: Path = QUESTIONS) -> list[dict]:
    """The cases of `path`, each with its kind and half: dev/test by a hash of its text for the
    kept set, "fresh" for any other file (written to check one rule, all held out)."""
    data = yaml.safe_load(path.read_text("utf-8"))
    return [{**c, "kind": kind, "half": half_of(c["q"]) if path == QUESTIONS else "fresh"}
            for kind, items in data.items() for c in items]


def build(work: Path, httpx: Path, starlette: Path) -> Path:
    """Both products converted into one folder and ingested (kept between runs)."""
    sys.path.insert(0, str(HERE.parent / "tools"))
    from versions_to_corpus import convert

    from situated.app import App
    from situated.index.ingest import ingest
    from situated.settings import Settings

    docs, index = work / "docs", work / "index"
    for product, src in zip(PRODUCTS, (httpx, starlette), strict=True):
        convert(src, docs / product, product)
    settings = Settings(index_dir=index)
    ingest([docs], index, App(settings).embeddings, settings)
    return index


def answers(index: Path, path: Path = QUESTIONS) -> list[dict]:
    """Every case asked through the code on `sys.path`: the answer, cited sources, status and
    milliseconds."""
    from situated import build_ask_chain
    from situated.app import App
    from situated.settings import Settings
    from situated.situation import Scope

    chain = build_ask_chain(App(Settings(index_dir=index)), clock=lambda: TODAY)
    chain.invoke({"question": "warm up", "scope": Scope()})
    out = []
    for c in cases(path):
        started = time.perf_counter()
        a = chain.invoke({"question": c["q"], "scope": Scope()})
        out.append({"q": c["q"], "answer": a.answer, "status": a.status.value,
                    "sources": [x.source_id for x in a.citations],
                    "ms": (time.perf_counter() - started) * 1000})
    return out


def judged(case: dict, got: dict) -> dict:
    text = got["answer"].casefold()
    right = got["status"] == case.get("status", "answered")
    right &= all(s.casefold() in text for s in case.get("all", []))
    right &= not case.get("any") or any(s.casefold() in text for s in case["any"])
    right &= not any(s.casefold() in text for s in case.get("none", []))
    other = [p for p in PRODUCTS if case.get("product") and p != case["product"]]
    # another product's page cited, or its name in what the reply says itself; a quote of the
    # right product's page that mentions the other ("Test client built on httpx", starlette's
    # feature list) is the right product's text
    said = _unquoted(text, case.get("product"))
    wrong = any(s.startswith(f"{p}.") for p in other for s in got["sources"]) or any(
        p in said or text.startswith(f"for {p}") for p in other)
    return {**case, **got, "right": bool(right), "wrong_product": bool(wrong)}


def _unquoted(text: str, product: str | None) -> str:
    """The reply without the passages it cites from `product`'s pages: each passage ends with
    its link ("… [starlette.index.v0.47.3](/documents/starlette.index.v0.47.3#s1)")."""
    if not product:
        return text
    return re.sub(rf"[^\[\]]*\[{re.escape(product)}\.[^\]]*\]\([^)]*\)", " ", text)


def summary(rows: list[dict]) -> dict:
    out: dict = {}
    for half in dict.fromkeys(r["half"] for r in rows):
        for kind in dict.fromkeys(r["kind"] for r in rows):
            mine = [r for r in rows if r["half"] == half and r["kind"] == kind]
            out[f"{half}/{kind}"] = {
                "cases": len(mine), "right": round(sum(r["right"] for r in mine) / len(mine), 3),
                "wrong_product": round(sum(r["wrong_product"] for r in mine) / len(mine), 3)}
        every = [r for r in rows if r["half"] == half]
        out[f"{half}/all"] = {"cases": len(every),
                              "right": round(sum(r["right"] for r in every) / len(every), 3),
                              "wrong_product": round(sum(r["wrong_product"] for r in every)
                                                     / len(every), 3),
                              "p50_ms": round(statistics.median(r["ms"] for r in every), 1)}
    out["all"] = {"cases": len(rows), "p50_ms": round(statistics.median(r["ms"] for r in rows), 1)}
    return out


def _baseline(src: Path, work: Path, httpx: Path, starlette: Path, path: Path) -> list[dict]:
    """The same questions through the code at `src`, in a subprocess (its own index)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, __file__, "--answers-only", "--work", str(work),
                           "--httpx", str(httpx), "--starlette", str(starlette),
                           "--questions", str(path)],
                          cwd=src, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--httpx", type=Path, default=default_data("data/httpx-versions"))
    ap.add_argument("--starlette", type=Path, default=default_data("data/starlette-versions"))
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "two-products")
    ap.add_argument("--baseline", type=Path, help="a checkout of the code to compare with")
    ap.add_argument("--questions", type=Path, default=QUESTIONS,
                    help="a question file (default: the kept dev/test set)")
    ap.add_argument("--answers-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.httpx is None or args.starlette is None:
        ap.error("pass --httpx DIR and --starlette DIR (documentation per release)")
    index = build(args.work, args.httpx, args.starlette)
    path = args.questions if args.questions.is_absolute() else HERE / args.questions
    got = answers(index, path)
    if args.answers_only:
        print(json.dumps(got))
        return
    rows = [judged(c, g) for c, g in zip(cases(path), got, strict=True)]
    results = {"now": summary(rows), "failed": [r for r in rows if not r["right"]]}
    if args.baseline:
        base = [judged(c, g) for c, g in zip(cases(path), _baseline(
            args.baseline, args.work.with_name(args.work.name + "-baseline"), args.httpx,
            args.starlette, path), strict=True)]
        results["baseline"] = summary(base)
    _print(results)
    name = "two_products" + ("" if path == QUESTIONS else "_" + path.stem.removeprefix(
        "two_products_"))
    write_result(args.out / f"{name}.json", results)


def _print(results: dict) -> None:
    table = Table(title="two products (httpx + starlette): right answer, wrong product")
    for col in ("half/kind", "cases", "right", "wrong product", *(
            ("baseline right", "baseline wrong") if "baseline" in results else ())):
        table.add_column(col, justify="right")
    for key, s in results["now"].items():
        if key == "all":
            continue
        base = results.get("baseline", {}).get(key)
        table.add_row(key, str(s["cases"]), f"{s['right']:.3f}", f"{s['wrong_product']:.3f}",
                      *((f"{base['right']:.3f}", f"{base['wrong_product']:.3f}") if base else ()))
    Console(width=160).print(table)
    for half in [k for k in results["now"] if k.endswith("all")]:
        now = results["now"][half]["p50_ms"]
        base = results.get("baseline", {}).get(half, {}).get("p50_ms")
        ratio = f", baseline {base:.0f} ms ({now / base:.2f}×)" if base else ""
        print(f"{half}: answer p50 {now:.0f} ms{ratio}")


if __name__ == "__main__":
    main()

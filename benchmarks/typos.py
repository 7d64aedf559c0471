"""Questions as people type them (`situated/retrievers/spelling.py`, `Corrector`): the chain with
the question's slips put right and without, on the same indexes, in one run.

    python benchmarks/typos.py --small DIR [--xquad-en DIR] [--policyqa DIR] [--every 6]
        [--seed 7] [--out benchmarks/results]

`--small` holds the small corpora's indexes as `relevance_rule.py chain --work DIR` builds them
(`chain-rental`, `chain-dental`, …). Each corpus's paraphrased questions are asked as written
and with one slip (a letter dropped, swapped, changed or added, seeded) in their longest word
of six letters or more, and its off-topic questions as written. `--xquad-en` and `--policyqa`
are the indexes `natural_questions.py` builds: their questions are asked as the crowd typed
them (PolicyQA every `--every`th, within its site), answered and the gold span in the answer
counted; every question the corrector changes is listed with what it was searched as.
Prints a table and writes JSON (`typos.json`).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time
from contextlib import contextmanager
from pathlib import Path

import yaml
from lib.natural import HERE, questions, spans_in
from lib.provenance import default_data, write_result
from lib.small_corpora import small_corpora
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.index.text import STOP_WORDS
from situated.retrievers.spelling import Corrector
from situated.settings import Settings
from situated.situation import Scope, Situation

_LONG = re.compile(r"[A-Za-z]{6,}")


@contextmanager
def correcting(on: bool):
    """The search with the question's slips put right (`on`) or read as typed."""
    kept = Corrector.correct
    if not on:
        Corrector.correct = lambda self, query, readable, keep: query  # type: ignore[method-assign]
    try:
        yield
    finally:
        Corrector.correct = kept  # type: ignore[method-assign]


def slipped(question: str, rng: random.Random, spare: frozenset[str] = frozenset()) -> str:
    """`question` with one slip in its longest word of six letters or more (not in `spare`)."""
    words = [w for w in _LONG.findall(question)
             if w.lower() not in STOP_WORDS and w.lower() not in spare]
    if not words:
        return question
    word = max(words, key=len)
    i, kind = rng.randrange(1, len(word) - 1), rng.randrange(4)
    slip = (word[:i] + word[i + 1:], word[:i] + word[i + 1] + word[i] + word[i + 2:],
            word[:i] + rng.choice("aeiourstnl") + word[i + 1:],
            word[:i] + rng.choice("aeiourstnl") + word[i:])[kind]
    return question.replace(word, slip, 1)


def small(folder: Path, seed: int) -> dict:
    rng, out = random.Random(seed), {}
    for name in small_corpora():
        index = folder / f"chain-{name}"
        if not index.exists():
            continue
        app = App(Settings(index_dir=index))
        chain = build_ask_chain(app)
        data = yaml.safe_load((HERE / "questions" / "small" / name / "questions.yaml")
                              .read_text("utf-8"))
        asked = [("as written", a["q"]) for a in data["answerable"]]
        asked += [("with a slip", slipped(a["q"], rng)) for a in data["answerable"]]
        asked += [("off-topic", t) for t in data["off_topic"]]
        for on in (False, True):
            with correcting(on):
                for kind, q in asked:
                    status = chain.invoke({"question": q, "scope": Scope()}).status.value
                    cell = out.setdefault(f"{kind}/{'on' if on else 'off'}", [0, 0])
                    cell[0] += status == "answered"
                    cell[1] += 1
    return out


def natural(index: Path, qs: list) -> dict:
    app = App(Settings(index_dir=index))
    chain, engine = build_ask_chain(app), app.engine
    runs, ms = {}, {}
    for on in (False, True):
        with correcting(on):
            runs[on], ms[on] = [], []
            for q in qs:
                started = time.perf_counter()
                runs[on].append(chain.invoke({"question": q.text, "situation": Situation(
                    product=q.product) if q.product else None}))
                ms[on].append(1000 * (time.perf_counter() - started))
    def searched_as(text: str) -> str:
        return engine.named.corrected(text, Scope())  # names as typed, as the chain reads

    changed = [{"q": q.text, "searched_as": searched_as(q.text), "off": a.status.value,
                "on": b.status.value}
               for q, a, b in zip(qs, runs[False], runs[True], strict=True)
               if searched_as(q.text) != q.text]
    return {"questions": len(qs),
            **{f"answered_{'on' if on else 'off'}": sum(a.status.value == "answered" for a in r)
               for on, r in runs.items()},
            **{f"span_{'on' if on else 'off'}": sum(spans_in(q.gold_spans, a.answer)
                                                   for q, a in zip(qs, r, strict=True))
               for on, r in runs.items()},
            "p50_ms_off": statistics.median(ms[False]), "p50_ms_on": statistics.median(ms[True]),
            "corrected": changed}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", type=Path, required=True)
    ap.add_argument("--xquad-en", type=Path)
    ap.add_argument("--policyqa", type=Path)
    ap.add_argument("--data", type=Path, default=default_data("data"))
    ap.add_argument("--every", type=int, default=6)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    results: dict = {"small": small(args.small, args.seed)}
    table = Table(title="answered, slips read as typed / put right")
    for col in ("set", "off", "on"):
        table.add_column(col, justify="right")
    for kind in ("as written", "with a slip", "off-topic"):
        off, on = results["small"][f"{kind}/off"], results["small"][f"{kind}/on"]
        table.add_row(f"small corpora, {kind}", f"{off[0]}/{off[1]}", f"{on[0]}/{on[1]}")
    sources = {"xquad_en": (args.xquad_en, "xquad-dev/xquad.en.dev.json", False, 1),
               "policyqa": (args.policyqa, "policyqa-dev/dev.json", True, args.every)}
    for name, (index, data, product, every) in sources.items():
        if index is None:
            continue
        if args.data is None:
            ap.error("give --data FOLDER (xquad-dev/, policyqa-dev/)")
        articles = json.loads((args.data / data).read_text("utf-8"))["data"]
        r = results[name] = natural(index, questions(articles, product)[::every])
        table.add_row(f"{name} answered (span)", f"{r['answered_off']} ({r['span_off']})",
                      f"{r['answered_on']} ({r['span_on']}), {len(r['corrected'])} corrected")
        table.add_row(f"{name} p50 ms (ratio)", f"{r['p50_ms_off']:.0f}",
                      f"{r['p50_ms_on']:.0f} ({r['p50_ms_on'] / r['p50_ms_off']:.2f}x)")
    Console(width=140).print(table)
    write_result(args.out / "typos.json", results)


if __name__ == "__main__":
    main()

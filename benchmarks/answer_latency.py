"""Answer latency on real pages, per stage: the temporal probe's questions over the genai-eu
index (built by `benchmarks/temporal_probe.py`), answered by the offline extractive model with
the sentence vectors computed at ingest ("sentence vectors") and, in the same run on the same
questions, encoding the evidence sentences at question time (the baseline, the earlier code
path: `SITUATED_SENTENCE_VECTORS=false`).

    python benchmarks/answer_latency.py [--work DIR] [--every 3] [--baseline question-time|topical]
                                        [--out benchmarks/results]

`--baseline topical`: the baseline is today's code with e5's reading of the first blocks left
out of the relevance signals (`relevance.topical_cosines`, the unit score as it was before them),
beside it measured; both with the ingest-time sentence vectors. The index must have the
multilingual leg for the two to differ.

Stages are timed from the chain's own callbacks (its named steps): prepare, extract, validate,
retrieve, route (with the undated check), budget, model, citation_parser, stop. Prints p50/p95
per stage and end to end for both, their ratio, and how many answers are identical; writes JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from latency import percentile
from lib.provenance import write_result
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.chains.say.models import ExtractiveChatModel
from situated.eval.cases import load_cases
from situated.retrievers import hybrid
from situated.settings import Settings

HERE = Path(__file__).resolve().parent
STAGES = ("prepare", "extract", "validate", "retrieve", "route", "budget", "model",
          "citation_parser", "stop")


class StageTimer(BaseCallbackHandler):
    """Wall time of each named step of one run (chains by name, the chat model as `model`)."""

    def __init__(self):
        self.started: dict[UUID, tuple[str, float]] = {}
        self.spent: dict[str, float] = defaultdict(float)

    def on_chain_start(self, serialized, inputs, *, run_id: UUID, name=None, **kw: Any):
        if name in STAGES:
            self.started[run_id] = (name, time.perf_counter())

    def on_chain_end(self, outputs, *, run_id: UUID, **kw: Any):
        self._end(run_id)

    def on_chat_model_start(self, serialized, messages, *, run_id: UUID, **kw: Any):
        self.started[run_id] = ("model", time.perf_counter())

    def on_llm_end(self, response, *, run_id: UUID, **kw: Any):
        self._end(run_id)

    def _end(self, run_id: UUID) -> None:
        if run_id in self.started:
            name, t = self.started.pop(run_id)
            self.spent[name] += (time.perf_counter() - t) * 1e3


def left_out(signal: str):
    """A context factory under which searches leave `signal` out: `sentence`, MiniLM's unit
    cosines; `topical`, e5's reading of the first blocks (the unit score as before it)."""
    @contextlib.contextmanager
    def leaving() -> Iterator[None]:
        units, topical = hybrid.unit_cosines, hybrid.topical_cosines
        if signal == "sentence":
            hybrid.unit_cosines = lambda index, query, blocks: ([None] * len(blocks),) * 2
        else:
            hybrid.topical_cosines = lambda index, query, blocks, mask: [None] * len(blocks)
        try:
            yield
        finally:
            hybrid.unit_cosines, hybrid.topical_cosines = units, topical
    return leaving


def run(chain, cases) -> tuple[dict[str, list[float]], list[str]]:
    per_stage: dict[str, list[float]] = defaultdict(list)
    answers = []
    for case in cases:
        timer = StageTimer()
        t = time.perf_counter()
        answer = chain.invoke({"question": case.question, "situation": case.situation,
                               "follows": case.follows, "scope": case.scope},
                              config={"callbacks": [timer]})
        per_stage["end_to_end"].append((time.perf_counter() - t) * 1e3)
        for stage in STAGES:
            per_stage[stage].append(timer.spent.get(stage, 0.0))
        answers.append(f"{answer.status.value}|{answer.answer}")
    return per_stage, answers


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "temporal-probe")
    ap.add_argument("--every", type=int, default=3, help="every n-th probe question (dev+test)")
    ap.add_argument("--baseline", choices=["question-time", "topical"], default="question-time")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    index = args.work / "index"
    if not (index / "current").exists():
        ap.error(f"no index at {index}; run benchmarks/temporal_probe.py first")
    cases = [c for half in ("dev", "test")
             for c in load_cases(args.work / "cases" / f"probe-{half}.yaml")][::args.every]
    app = App(Settings(index_dir=index))

    def vectors(snap) -> ExtractiveChatModel:
        return ExtractiveChatModel(embeddings=app.embeddings, sentences=snap.sentence_vectors)

    configs: dict[str, tuple[Any, Any]] = {  # name: (model, context of the search)
        "baseline (encode at question time)": (
            ExtractiveChatModel(embeddings=app.embeddings), contextlib.nullcontext),
        "sentence vectors (ingest time)": (vectors, contextlib.nullcontext),
    } if args.baseline == "question-time" else {
        "baseline (e5's reading left out)": (vectors, left_out("topical")),
        "e5's reading measured (today)": (vectors, contextlib.nullcontext),
    }
    results, texts = {}, {}
    for name, (model, context) in configs.items():
        with context():
            chain = build_ask_chain(app, model=model)
            chain.invoke({"question": cases[0].question})  # warm-up: model, maps, caches
            results[name], texts[name] = run(chain, cases)
    base, new = (results[n] for n in configs)
    same = sum(a == b for a, b in zip(*texts.values(), strict=True))
    table = Table(title=f"answer latency on genai-eu, {len(cases)} probe questions (ms)")
    for col in ("stage", "baseline p50", "baseline p95", "new p50", "new p95",
                "p50 ratio (baseline / new)"):
        table.add_column(col, justify="right")
    out: dict[str, Any] = {"questions": len(cases), "identical_answers": same,
                           "sides": list(configs), "stages": {}}
    for stage in ("end_to_end", *STAGES):
        b50, b95, n50, n95 = (percentile(base[stage], 50), percentile(base[stage], 95),
                              percentile(new[stage], 50), percentile(new[stage], 95))
        out["stages"][stage] = {"baseline_p50": round(b50, 1), "baseline_p95": round(b95, 1),
                                "vectors_p50": round(n50, 1), "vectors_p95": round(n95, 1)}
        table.add_row(stage, f"{b50:.1f}", f"{b95:.1f}", f"{n50:.1f}", f"{n95:.1f}",
                      f"{b50 / n50:.1f}×" if n50 else "–")
    Console().print(table)
    Console().print(f"identical answers: {same}/{len(cases)}")
    suffix = "" if args.baseline == "question-time" else "_topical"
    write_result(args.out / f"answer_latency{suffix}.json", out)


if __name__ == "__main__":
    main()

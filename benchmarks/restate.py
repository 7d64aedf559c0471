"""Does a chat model's restatement of a refused question lift the small corpora's paraphrases
without answering their strangers (issue 51; `Settings.restate_refused`,
`chains.routing.restate`)? Each small corpus built as `situated ingest` builds it, every question
asked through the offline chain twice in one run: as today, and with the product's restate
step (Qwen2.5-Coder-1.5B restating, the offline model still answering, so the figures are the
relevance rule's alone).

    OMP_NUM_THREADS=1 python benchmarks/restate.py --server-bin PATH/llama-server \
        [--corpora NAME ...] [--within-product] [--work DIR] [--out DIR]
    python benchmarks/restate.py --base-url http://127.0.0.1:8091 ...   # a server already up

The corpora are those `relevance_rule.py chain` asks (every pair already asked; the kept
pairs only when named). Per half: refused answerable, off-topic answered, the restatements
asked for, and their p50. Writes `restate[_product].json` with every restatement.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from lib.provenance import write_result
from lib.small_corpora import HERE, chain_app, small_corpora
from local_model import Reader, served
from rich.console import Console
from rich.table import Table

from situated.chains.ask import ask_steps, per_generation
from situated.chains.read.extract import today_in
from situated.chains.routing.restate import QuestionRestater


@dataclass(frozen=True)
class _Timed(QuestionRestater):
    """The product's restater, each restatement and its time recorded."""

    asked: list[dict] = field(default_factory=list)

    def again(self, routed, config):
        started = time.perf_counter()
        reading = super().again(routed, config)
        if reading is not None:
            self.asked.append({"q": routed.reading.question.text,
                               "restated": reading.validated.query,
                               "ms": 1000 * (time.perf_counter() - started)})
        return reading


def _chat(base_url: str, name: str):
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(base_url=base_url + "/v1", model=name, api_key="sk-local", temperature=0,
                      max_tokens=60, timeout=120, max_retries=1,
                      extra_body={"max_tokens": 60})  # llama.cpp reads this name


def _chains(app, restater: _Timed):
    """The chain as today and the same chain with the restate step, built once a corpus (the
    offline model answers both)."""
    clock = today_in(app.settings.timezone)
    plain = per_generation(app, lambda snap: ask_steps(app, snap, None, clock).chain())
    again = per_generation(app, lambda snap: ask_steps(app, snap, None, clock,
                                                       restater=restater).chain())
    return plain, again


def _ask_both(plain, again, restater: _Timed, questions: list[str],
              within: dict) -> list[dict]:
    """Each question through the chain as today (`plain`) and with the restate step."""
    rows = []
    for q in questions:
        restater.asked.clear()
        first, second = (c.invoke({"question": q, **within}) for c in (plain, again))
        rows.append({"q": q, "as_asked": first.status.value, "restated": second.status.value,
                     "restatement": restater.asked[0] if restater.asked else None,
                     "cites": [c.source_id for c in second.citations]})
    return rows


def run(args, base_url: str) -> dict:
    results = {}
    for name, half in small_corpora(args.corpora).items():
        folder = HERE / "questions" / "small" / name
        app = chain_app(name, args.work, args.within_product)
        restater = _Timed(_chat(base_url, args.model), app.settings)
        plain, again = _chains(app, restater)
        data = yaml.safe_load((folder / "questions.yaml").read_text("utf-8"))
        within = {"situation": {"product": name}} if args.within_product else {}
        pos = _ask_both(plain, again, restater, [a["q"] for a in data["answerable"]], within)
        neg = _ask_both(plain, again, restater, list(data["off_topic"]), within)
        results[name] = {"half": half, "answerable": pos, "off_topic": neg}
    return results


def _table(results: dict) -> Table:
    table = Table(title="small corpora: refused answerable / off-topic answered, as asked → "
                        "with the restate step")
    for col in ("half", "refused", "off-topic answered", "restated", "restate p50 ms"):
        table.add_column(col, justify="right")
    for half in dict.fromkeys(r["half"] for r in results.values()):
        rs = [r for r in results.values() if r["half"] == half]
        pos = [x for r in rs for x in r["answerable"]]
        neg = [x for r in rs for x in r["off_topic"]]
        asked = [x["restatement"]["ms"] for x in pos + neg if x["restatement"]]
        table.add_row(half, _moved(pos, False), _moved(neg, True), str(len(asked)),
                      f"{statistics.median(asked):.0f}" if asked else "-")
    return table


def _moved(rows: list[dict], answered: bool) -> str:
    """How many rows were answered (or not), as asked → with the restate step, of all."""
    n = {k: sum((x[k] == "answered") is answered for x in rows) for k in ("as_asked", "restated")}
    return f"{n['as_asked']} → {n['restated']} / {len(rows)}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--server-bin", type=Path, default=None, help="llama.cpp's llama-server")
    ap.add_argument("--base-url", default=None, help="a server already running (no /v1)")
    ap.add_argument("--model", choices=("qwen-0.5b", "qwen-1.5b"), default="qwen-1.5b")
    ap.add_argument("--corpora", nargs="+", default=None)
    ap.add_argument("--within-product", action="store_true")
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "restate")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.base_url is None and args.server_bin is None:
        ap.error("pass --server-bin (a llama.cpp llama-server) or --base-url")
    with contextlib.ExitStack() as stack:
        base = args.base_url
        if base is None:
            from lib.qwen_gguf import join

            reader = Reader(args.model, join(args.model.removeprefix("qwen-"),
                                             HERE / "cache" / "qwen"), args.server_bin, 2)
            base = stack.enter_context(served(8091, reader))
        results = run(args, base)
    Console(width=160).print(_table(results))
    suffix = "_product" if args.within_product else ""
    write_result(args.out / f"restate{suffix}.json", {"model": args.model, "corpora": results})


if __name__ == "__main__":
    main()

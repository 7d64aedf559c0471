"""Does a small model's rewrite of a Russian question into English lift cross-language answers
(issue 51, item 5)? XQuAD's Russian questions over the English articles, the test half (split by
the English titles as `natural_questions.py` splits them), through the offline chain three ways
in one run:

* the Russian question as asked (today);
* Qwen2.5-Coder-1.5B's English rewrite of it (llama.cpp's `llama-server`, one request a
  question, "reply with the translation only"), asked instead;
* the human English twin of the question (the ceiling a perfect rewrite reaches).

    OMP_NUM_THREADS=1 python benchmarks/crosslang_rewrite.py --server-bin PATH/llama-server \
        [--xquad DIR] [--limit 150] [--model qwen-1.5b]

`--product` adds the product's own step (`SITUATED_REWRITE_INTO=English`) with the same model
reading in the `choice` form. Per way: answered, `no_evidence`, the gold paragraph among the
evidence (for the `choice` form its units, so the paragraph's opening is often not there), the
English gold span in the answer, and the rewrite's p50. Writes `crosslang_rewrite.json` (with every rewrite).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import urllib.request
from pathlib import Path

from _provenance import default_data, write_result
from local_model import HERE, Reader, served
from natural_questions import _built, _in, halves, questions, spans_in, write_docs
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.prompts.rewrite import REWRITE_PROMPT
from situated.settings import Settings


def rewrite(base_url: str, model: str, question: str) -> tuple[str, float]:
    """The product's rewrite prompt (`prompts.rewrite`) on the whole question as asked."""
    system, human = REWRITE_PROMPT.format_messages(language="English", question=question)
    body = {"model": model, "temperature": 0, "max_tokens": 96,
            "messages": [{"role": "system", "content": system.content},
                         {"role": "user", "content": human.content}]}
    request = urllib.request.Request(base_url + "/v1/chat/completions",
                                     data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=300) as r:
        reply = json.loads(r.read())["choices"][0]["message"]["content"]
    return reply.strip().splitlines()[0].strip() if reply.strip() else "", \
        (time.perf_counter() - started) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--xquad", type=Path, default=default_data("data/xquad-dev"))
    ap.add_argument("--server-bin", type=Path, required=True)
    ap.add_argument("--model", choices=("qwen-0.5b", "qwen-1.5b"), default="qwen-1.5b")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--limit", type=int, default=150)
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "crosslang-rewrite")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--product", action="store_true", help="also the product's own step: "
                    "SITUATED_REWRITE_INTO=English with the model reading (choice form)")
    args = ap.parse_args()
    en = json.loads((args.xquad / "xquad.en.dev.json").read_text("utf-8"))["data"]
    ru = json.loads((args.xquad / "xquad.ru.dev.json").read_text("utf-8"))["data"]
    write_docs(en, args.work / "en-docs", "XQEN", False)
    app = _built(args.work / "en-docs", args.work / "en-index")
    en_qs, ru_qs = questions(en, False), questions(ru, False)
    split = halves([a["title"].strip() for a in en])  # by article, as natural_questions.py
    pairs = [(r, e) for r, e in zip(ru_qs, en_qs, strict=True) if split[e.group] == "test"]
    pairs = pairs[:args.limit]
    from qwen_gguf import join

    work = HERE / "cache" / "qwen"
    reader = Reader(args.model, join(args.model.removeprefix("qwen-"), work), args.server_bin,
                    args.threads, evidence="choice")
    rewrites, ms = [], []
    offline = build_ask_chain(app)
    ways = {"russian as asked": (offline, [r.text for r, _ in pairs])}
    results, rows = {}, {}
    with served(8091, reader) as base:
        for r, _ in pairs:
            text, took = rewrite(base, args.model, r.text)
            rewrites.append(text or r.text)
            ms.append(took)
        ways[f"{args.model} rewrite, offline answer"] = (offline, rewrites)
        ways["human English twin"] = (offline, [e.text for _, e in pairs])
        if args.product:  # the product's own step: SITUATED_REWRITE_INTO with the model reading
            product = App(Settings(index_dir=args.work / "en-index", **reader.settings(
                base + "/v1", rewrite_into="English", use_model_for_extraction=False)))
            product.__dict__["embeddings"] = app.embeddings
            ways[f"product: {args.model} (rewrite_into English, choice 8)"] = (
                build_ask_chain(product), [r.text for r, _ in pairs])
        for way, (chain, texts) in ways.items():
            rows[way], results[way] = _asked(chain, texts, pairs)
    table = Table(title=f"XQuAD test half: Russian questions over the English articles "
                        f"({len(pairs)} questions)")
    for col in ("way", "answered", "no_evidence", "gold in evidence", "span in answer"):
        table.add_column(col, justify="right")
    for way, r in results.items():
        table.add_row(way, *(f"{r[k]:.3f}" for k in ("answered", "no_evidence",
                                                      "gold_in_evidence", "span_in_answer")))
    Console(width=140).print(table)
    print(f"rewrite p50 {statistics.median(ms):.0f} ms")
    write_result(args.out / "crosslang_rewrite.json", {
        "questions": len(pairs), "model": args.model, "rewrite_p50_ms": statistics.median(ms),
        "results": results, "rewrites": [{"ru": r.text, "rewrite": w, "en": e.text}
                                         for (r, e), w in zip(pairs, rewrites, strict=True)],
        "rows": rows})


def _asked(chain, texts: list[str], pairs) -> tuple[list[dict], dict]:
    got = []
    for text, (_, e) in zip(texts, pairs, strict=True):
        a = chain.invoke({"question": text})
        got.append({"q": text, "status": a.status.value, "answer": a.answer[:300],
                    "gold_in_evidence": _in(e.gold_paragraph, [x.text for x in a.evidence]),
                    "span": spans_in(e.gold_spans, a.answer)})
    n = len(got) or 1
    summary = {"answered": round(sum(g["status"] == "answered" for g in got) / n, 3),
               "no_evidence": round(sum(g["status"] == "no_evidence" for g in got) / n, 3),
               "gold_in_evidence": round(sum(g["gold_in_evidence"] for g in got) / n, 3),
               "span_in_answer": round(sum(g["span"] for g in got) / n, 3)}
    return got, summary


if __name__ == "__main__":
    main()

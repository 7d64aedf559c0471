"""Whether a hypothetical answer (HyDE) separates the small corpora's paraphrases from their
off-topic questions better than the question itself (issue 51). Measured, not shipped.

A local model (Qwen2.5-Coder-1.5B in llama.cpp's server, joined from its part packages as
`qwen_gguf.py` joins it) writes, for each question, the one or two sentences of a business's
information page that would answer it, in the general words such pages use (few-shot, a bank's
examples: no measured corpus is a bank). Each question then gets, beside `relevance_mpnet.py`'s
signals (MiniLM's best unit over its corpus, bare or titled less 0.02; e5's best section):

* `hyde`: the written passage's best unit, by MiniLM;
* `mix`: the best unit of the question's and the passage's vectors summed (Gao et al.'s HyDE
  averages them), alone and beside e5 as the product's unit adds it (`+ 3 · (e5 − 0.825)`).

    OMP_NUM_THREADS=1 python benchmarks/relevance_hyde.py --server-bin PATH/llama-server \
        [--work DIR] [--out benchmarks/results]

Every seen small corpus (`relevance_rule.small_corpora`: the kept pair is never read); the floor
of each signal is set on the dev pair and the held-out pairs are reported, with the AUC and the
paraphrases refused at held-out off-topic rates of 0.03–0.15 (`relevance_mpnet.measure`). The
passages are kept in `--work` (asked once) and written with the figures to
`relevance_hyde.json`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from pathlib import Path

import httpx
import numpy as np
from _provenance import write_result
from local_model import Reader, served
from relevance_mpnet import SMALL, gather, measure, table
from relevance_rule import HERE
from relevance_signals import sections
from rich.console import Console

from situated.index.e5 import E5Embeddings
from situated.index.embeddings import model_path

SYSTEM = ("You write the passage of a business's information page (terms, price list, FAQ) that "
          "answers a customer's question. Use the general words such pages use, not the "
          "customer's own: a labrador is a dog, a Visa card is a card, half past four is 16:30. "
          "Invent plausible details. Reply with one or two sentences only.")
EXAMPLES = (("Can I bring my labrador on the bus?",
             "Dogs and other pets may travel on our buses free of charge if kept on a lead."),
            ("My card got eaten by the machine last night, who do I ring?",
             "If a cash machine retains your card, call our 24-hour card line on 0800 123 456."),
            ("Is it OK to pay in my gran's cheque at the counter?",
             "Cheques can be paid in at any branch counter during opening hours."))


def written(base_url: str, questions: list[str], kept: Path) -> dict[str, str]:
    """Each question's passage, from `kept` where it was written before, else asked now."""
    out = json.loads(kept.read_text("utf-8")) if kept.exists() else {}
    shots = [m for q, a in EXAMPLES for m in ({"role": "user", "content": q},
                                              {"role": "assistant", "content": a})]
    for q in (q for q in questions if q not in out):
        reply = httpx.post(f"{base_url}/v1/chat/completions", timeout=300, json={
            "model": "q", "temperature": 0, "max_tokens": 70,
            "messages": [{"role": "system", "content": SYSTEM}, *shots,
                         {"role": "user", "content": q}]})
        reply.raise_for_status()
        out[q] = reply.json()["choices"][0]["message"]["content"].strip()
        kept.write_text(json.dumps(out, indent=1, ensure_ascii=False), "utf-8")
    return out


def with_passages(rows: list[dict], passages: dict[str, str], minilm) -> None:
    """`hyde` and `mix` added to each row (module doc)."""
    for name in dict.fromkeys(r["set"] for r in rows):
        secs = sections(SMALL / name)
        bare = minilm.encode([u for _, _, us in secs for u in us], normalize_embeddings=True)
        titled = minilm.encode([f"{h}: {u}" for _, h, us in secs for u in us],
                               normalize_embeddings=True)
        mine = [r for r in rows if r["set"] == name]
        qv = minilm.encode([r["q"] for r in mine], normalize_embeddings=True)
        pv = minilm.encode([passages[r["q"]] for r in mine], normalize_embeddings=True)
        for row, q, p in zip(mine, qv, pv, strict=True):
            mix = (q + p) / np.linalg.norm(q + p)
            row["hyde"], row["mix"] = (max(float((bare @ v).max()), float((titled @ v).max()) - 0.02)
                                       for v in (p, mix))


SIGNALS = {
    "MiniLM": lambda r: r["minilm"],
    "MiniLM + e5 (the product's unit)": lambda r: r["minilm"] + 3 * (r["e5"] - 0.825),
    "hyde": lambda r: r["hyde"],
    "mix": lambda r: r["mix"],
    "mix + e5": lambda r: r["mix"] + 3 * (r["e5"] - 0.825),
    "unit + hyde": lambda r: r["minilm"] + 3 * (r["e5"] - 0.825) + r["hyde"],
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--server-bin", type=Path, default=None, help="llama.cpp's llama-server")
    ap.add_argument("--base-url", default=None, help="a server already running (no /v1)")
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "hyde")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.base_url is None and args.server_bin is None:
        ap.error("pass --server-bin (a llama.cpp llama-server) or --base-url")
    from sentence_transformers import SentenceTransformer

    minilm = SentenceTransformer(model_path(), device="cpu")
    rows = gather({"minilm": minilm}, E5Embeddings())
    args.work.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        base = args.base_url
        if base is None:
            from qwen_gguf import join

            reader = Reader("qwen-1.5b", join("1.5b", HERE / "cache" / "qwen"), args.server_bin, 2)
            base = stack.enter_context(served(8092, reader))
        passages = written(base, [r["q"] for r in rows], args.work / "passages.json")
    with_passages(rows, passages, minilm)
    results = {name: measure(rows, f) for name, f in SIGNALS.items()}
    Console(width=180).print(table(rows, results))
    write_result(args.out / "relevance_hyde.json", {"signals": results, "rows": rows,
                                                     "passages": passages})


if __name__ == "__main__":
    main()

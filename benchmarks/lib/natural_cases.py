"""The natural-question sets as eval cases, for `same_answers.py dump`: PolicyQA (each question
with its website as the product) and XQuAD (English and Russian, each over its own language's
index), both halves, over indexes built and calibrated as `natural_questions.py` builds them.

    python benchmarks/same_answers.py cases [--policyqa FILE] [--xquad DIR] [--work DIR]

Writes WORK/{policyqa,xquad-en,xquad-ru}-index and WORK/{policyqa,xquad-en,xquad-ru}.jsonl (one
case per question, tagged with its half); then e.g.

    python benchmarks/same_answers.py dump --index WORK/policyqa-index \
        --cases WORK/policyqa.jsonl --out A.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from lib.natural import _built, halves, questions, write_docs
from lib.provenance import default_data

HERE = Path(__file__).resolve().parents[1]  # benchmarks/


def _write(path: Path, name: str, qs, with_product: bool) -> int:
    split = halves([q.group for q in qs])
    with path.open("w", encoding="utf-8") as out:
        for n, q in enumerate(qs):
            case = {"id": f"{name}.{n}", "question": q.text, "tags": [split[q.group]]}
            if with_product:
                case["situation"] = {"product": q.product}
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
    return len(qs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--policyqa", type=Path, default=default_data("data/policyqa-dev/dev.json"))
    ap.add_argument("--xquad", type=Path, default=default_data("data/xquad-dev"))
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "natural-cases")
    args = ap.parse_args()
    sets = [("policyqa", json.loads(args.policyqa.read_text("utf-8"))["data"], True)]
    sets += [(f"xquad-{lang}", json.loads((args.xquad / f"xquad.{lang}.dev.json").read_text(
        "utf-8"))["data"], False) for lang in ("en", "ru")]
    for name, articles, with_product in sets:
        docs = args.work / f"{name}-docs"
        write_docs(articles, docs, name.upper().replace("-", ""), with_product)
        _built(docs, args.work / f"{name}-index")
        count = _write(args.work / f"{name}.jsonl", name, questions(articles, with_product),
                       with_product)
        print(f"{name}: {count} cases, index {args.work / f'{name}-index'}")


if __name__ == "__main__":
    main()

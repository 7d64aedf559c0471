"""A name as its asker writes it (`situated/retrievers/spelling.py`): what the name rule refuses
with the asker's spelling read (accents, one slip, two words run together) and without, on the
same indexes, in one run.

    python benchmarks/name_spelling.py --xquad-en DIR --xquad-ru DIR [--xquad FOLDER]
        [--off-topic-index DIR ...] [--out benchmarks/results]

`--xquad-en` / `--xquad-ru` are the XQuAD indexes `natural_questions.py` builds and calibrates
(`…/xquad-en-index`, `…/xquad-ru-index`). Every XQuAD question of the language goes through the
chain, with the rule as shipped and with the spelling switched off (`near_terms` and
`run_together` finding nothing): answered, and the gold paragraph in the evidence.
Each `--off-topic-index` is asked the benchmarks' 299 off-topic questions (the shipped ones,
`questions/offtopic_fresh.yaml`, `questions/offtopic_near_policy.yaml` and the small corpora's):
how many the name rule refuses without the spelling, and which of those it no longer refuses.
Prints a table and writes JSON (`name_spelling.json`).
"""

from __future__ import annotations

import argparse
import json
from contextlib import contextmanager
from pathlib import Path

import yaml
from lib.natural import HERE, questions
from lib.provenance import default_data, write_result
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.calibration.questions import shipped_negatives
from situated.chains.ask import build_ask_chain
from situated.retrievers import names
from situated.settings import Settings
from situated.situation import Scope, Situation


@contextmanager
def spelling(on: bool):
    """The name rule with the asker's spelling read (`on`) or as it was before."""
    kept = names.near_terms, names.run_together
    if not on:
        names.near_terms, names.run_together = (lambda *a: set()), (lambda *a: [])
    try:
        yield
    finally:
        names.near_terms, names.run_together = kept


def xquad(index: Path, articles: list[dict]) -> dict:
    chain = build_ask_chain(App(Settings(index_dir=index)))
    qs = questions(articles, with_product=False)
    runs = {}
    for rule, on in (("without", False), ("with", True)):
        with spelling(on):
            runs[rule] = []
            for q in qs:
                a = chain.invoke({"question": q.text})
                gold = any(q.gold_paragraph[:80] in e.text for e in a.evidence)
                runs[rule].append({"q": q.text, "status": a.status.value, "gold": gold})
    changed = [{"q": b["q"], "without": b["status"], "with": a["status"], "gold": a["gold"]}
               for b, a in zip(runs["without"], runs["with"], strict=True) if b != a]
    return {"questions": len(qs), **{f"answered_{r}": sum(x["status"] == "answered" for x in v)
                                     for r, v in runs.items()},
            **{f"gold_in_evidence_{r}": sum(x["gold"] for x in v) for r, v in runs.items()},
            "changed": changed}


def off_topic_texts() -> list[str]:
    texts = shipped_negatives()
    for name in ("offtopic_fresh.yaml", "offtopic_near_policy.yaml"):
        data = yaml.safe_load((HERE / "questions" / name).read_text("utf-8"))
        texts += [q for qs in data.values() for q in qs]
    for folder in sorted((HERE / "questions" / "small").iterdir()):
        if folder.is_dir():
            data = yaml.safe_load((folder / "questions.yaml").read_text("utf-8"))
            texts += data["off_topic"]
    return list(dict.fromkeys(texts))


def off_topic(index: Path, texts: list[str]) -> dict:
    app = App(Settings(index_dir=index))
    flt = app.snapshot().filter(Situation(), Scope())
    refused, lifted = 0, []
    for t in texts:
        with spelling(False):
            before = app.engine.named.unheld(t, flt)
        after = app.engine.named.unheld(t, flt)
        refused += bool(before)
        if before and not after:
            status = build_ask_chain(app).invoke({"question": t}).status.value
            lifted.append({"q": t, "names": list(before), "status_with": status})
    return {"asked": len(texts), "refused_by_names_without": refused, "lifted": lifted}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--xquad", type=Path, default=default_data("data/xquad-dev"))
    ap.add_argument("--xquad-en", type=Path, required=True)
    ap.add_argument("--xquad-ru", type=Path, required=True)
    ap.add_argument("--off-topic-index", type=Path, nargs="*", default=[])
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.xquad is None:
        ap.error("give --xquad FOLDER (xquad.en.dev.json, xquad.ru.dev.json)")
    table = Table(title="the name rule without / with the asker's spelling")
    for col in ("set", "questions", "answered", "gold in evidence"):
        table.add_column(col, justify="right")
    results: dict = {"xquad": {}, "off_topic": {}}
    for lang, index in (("en", args.xquad_en), ("ru", args.xquad_ru)):
        data = json.loads((args.xquad / f"xquad.{lang}.dev.json").read_text("utf-8"))["data"]
        r = results["xquad"][lang] = xquad(index, data)
        table.add_row(f"XQuAD {lang}", str(r["questions"]),
                      f"{r['answered_without']} / {r['answered_with']}",
                      f"{r['gold_in_evidence_without']} / {r['gold_in_evidence_with']}")
    texts = off_topic_texts()
    for index in args.off_topic_index:
        r = results["off_topic"][str(index)] = off_topic(index, texts)
        table.add_row(f"off-topic, {index.parent.name}/{index.name}", str(r["asked"]),
                      f"names refuse {r['refused_by_names_without']}, lifted {len(r['lifted'])}",
                      ", ".join(f"{x['q']} → {x['status_with']}" for x in r["lifted"]) or "-")
    Console(width=160).print(table)
    write_result(args.out / "name_spelling.json", results)


if __name__ == "__main__":
    main()

"""The multilingual leg's two cosine floors, swept on one half of XQuAD (Russian and English
twins), with the shipped off-topic questions as the strangers.

    python benchmarks/multilingual_floors.py [--xquad DIR] [--work DIR] [--half dev]
                                             [--out benchmarks/results]

Uses the indexes `natural_questions.py --only xquad` builds under `--work` (one per language,
built with the leg), and the product's own decision (`Signals.relevant`) under each pair of
floors: for every question (every other one, to keep it short) and pair of languages, whether
any of the first 20 fused blocks is relevant, and for the shipped off-topic questions (English
and Russian) the same over each index. The package defaults (`index.store`) were chosen on the
dev half: for each pair, the lowest floor that answers no more off-topic questions than the
rule without a multilingual cosine (the rows with floor 0.99): 0.84 same-script, 0.82 across. Prints a table and writes JSON (`multilingual_floors.json`).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from lib.natural import _in, halves, questions
from lib.provenance import default_data, write_result
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.calibration.questions import shipped_negatives
from situated.settings import Settings
from situated.situation import Scope, Situation

HERE = Path(__file__).resolve().parent
SAME = (0.82, 0.83, 0.84, 0.85, 0.86, 0.99)
ACROSS = (0.80, 0.81, 0.82, 0.83, 0.99)
_CYRILLIC = re.compile("[А-Яа-яЁё]")


def scored(app: App, question: str, gold: str | None) -> dict | None:
    """The first 20 fused blocks' signals (None: refused before any block) and which hold the
    gold paragraph."""
    flt = app.snapshot().filter(Situation(), Scope())
    found = app.engine.assess(question, flt, 20)
    if found.missing:
        return None
    blocks = found.ranked[:20]
    texts = {k: v.text for k, v in app.index.read_blocks([b.block_id for b in blocks]).items()}
    return {"signals": [b.signals for b in blocks],
            "gold": [gold is not None and _in(gold, [texts.get(b.block_id, "")]) for b in blocks],
            "reads": app.engine.vector_reads(question), "th": app.engine.thresholds}


def collect(folder: Path, work: Path, half: str) -> dict[str, list]:
    arts = {lang: json.loads((folder / f"xquad.{lang}.dev.json").read_text("utf-8"))["data"]
            for lang in ("ru", "en")}
    group = {ra["title"]: ea["title"] for ra, ea in zip(arts["ru"], arts["en"], strict=True)}
    group.update({ea["title"]: ea["title"] for ea in arts["en"]})
    split = halves([group[a["title"]] for a in arts["en"] for p in a["paragraphs"]
                    for _ in p["qas"]])
    apps = {lang: App(Settings(index_dir=work / f"xquad-{lang}-index")) for lang in arts}
    rows: dict[str, list] = {}
    for q_lang, d_lang in (("ru", "ru"), ("en", "en"), ("en", "ru"), ("ru", "en")):
        gold = {qa["id"]: p["context"].strip().lstrip("\ufeff") for a in arts[d_lang]
                for p in a["paragraphs"] for qa in p["qas"]}
        ids = [qa["id"] for a in arts[q_lang] for p in a["paragraphs"] for qa in p["qas"]]
        pairs = list(zip(questions(arts[q_lang], False), ids, strict=True))[::2]
        rows[f"{q_lang}->{d_lang}"] = [scored(apps[d_lang], q.text, gold[i]) for q, i in pairs
                                       if split[group[q.group]] == half]
    for d_lang, app in apps.items():
        for n in shipped_negatives():
            q_lang = "ru" if _CYRILLIC.search(n) else "en"
            rows.setdefault(f"off-topic {q_lang}->{d_lang}", []).append(scored(app, n, None))
    return rows


def rates(rows: list, same: float, across: float) -> tuple[float, float]:
    """(answered, gold among the relevant blocks) under these floors."""
    answered = gold = 0
    for r in rows:
        if r is None:
            continue
        th = r["th"].model_copy(update={"min_multilingual": same,
                                        "min_multilingual_across": across})
        rel = [s.relevant(th, r["reads"]) for s in r["signals"]]
        answered += any(rel)
        gold += any(a and g for a, g in zip(rel, r["gold"], strict=True))
    n = len(rows) or 1
    return answered / n, gold / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--xquad", type=Path, default=default_data("data/xquad-dev"))
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "natural-questions")
    ap.add_argument("--half", choices=["dev", "test"], default="dev")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    rows = collect(args.xquad, args.work, args.half)
    table = Table(title=f"multilingual floors, XQuAD {args.half} half: share answered "
                        "(gold paragraph among the relevant blocks)")
    for col in ("same", "across", *rows):
        table.add_column(col, justify="right")
    results = []
    for same in SAME:
        for across in ACROSS:
            cells = {k: rates(v, same, across) for k, v in rows.items()}
            results.append({"same": same, "across": across, "rates": cells})
            table.add_row(f"{same:.2f}", f"{across:.2f}", *(
                f"{a:.3f}" if k.startswith("off") else f"{a:.3f} ({g:.3f})"
                for k, (a, g) in cells.items()))
    Console(width=260).print(table)
    write_result(args.out / f"multilingual_floors_{args.half}.json",
                 {"half": args.half, "counts": {k: len(v) for k, v in rows.items()},
                  "floors": results})


if __name__ == "__main__":
    main()

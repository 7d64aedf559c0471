"""How far a block stands above the rest, across languages (docs/design.md "Standing across
languages"): XQuAD's Russian questions over the English articles and the English twins over
the Russian ones, beside the shipped and fresh off-topic questions (split in two halves by a
hash), on the indexes `natural_questions.py --only xquad` builds (`--work`).

For each question the first five fused blocks' signals (`HybridSearch.assess`): a block in the
other script answers when its multilingual cosine is over the pair's floor (the rule before) or
its standing (`Signals.standing`) over a floor G at 100 pieces, sized +0.01 a decade to the
pieces admitted (the shipped rule: `index.store.package_standing`). Per G and half: answered,
the gold paragraph among the answering blocks, and off-topic questions answered. Then what the
standing costs: the search with it beside the search without it, interleaved, as a ratio.

    python benchmarks/crosslang_standing.py --xquad ../shared/data/xquad-dev \
        --work /tmp/nq --out benchmarks/results
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import sys
import time
from pathlib import Path

import yaml
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).parent))
from natural_questions import HERE, _in, halves, questions

from situated.app import App
from situated.calibration.questions import shipped_negatives
from situated.index.store import FLOOR_PIECES, STANDING_PER_DECADE
from situated.settings import Settings
from situated.situation import Scope

SWEEP = (None, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10)  # G at FLOOR_PIECES; None: the floor alone


def _off_half(text: str) -> str:
    return "dev" if int(hashlib.sha256(text.encode()).hexdigest(), 16) % 2 == 0 else "test"


def gather(xquad: Path, work: Path) -> list[dict]:
    """Every question's first five blocks: multilingual cosine, standing, gold or not."""
    arts = {lang: json.loads((xquad / f"xquad.{lang}.dev.json").read_text("utf-8"))["data"]
            for lang in ("ru", "en")}
    groups = {a["title"]: a["title"] for a in arts["en"]}
    for ru, en in zip(arts["ru"], arts["en"], strict=True):
        groups[ru["title"]] = en["title"]
    split = halves([groups[a["title"]] for a in arts["en"]])
    fresh = yaml.safe_load((HERE / "questions" / "offtopic_fresh.yaml").read_text("utf-8"))
    off = shipped_negatives() + [q for qs in fresh.values() for q in qs]
    rows = []
    for q_lang, d_lang in (("ru", "en"), ("en", "ru")):
        app = App(Settings(index_dir=work / f"xquad-{d_lang}-index"))
        engine, index = app.engine, app.index
        gold = {qa["id"]: p["context"].strip().lstrip("\ufeff") for a in arts[d_lang]
                for p in a["paragraphs"] for qa in p["qas"]}
        ids = [qa["id"] for a in arts[q_lang] for p in a["paragraphs"] for qa in p["qas"]]
        asked = [(q.text, gold[i], split[groups[q.group]])
                 for q, i in zip(questions(arts[q_lang], False), ids, strict=True)]
        asked += [(t, None, f"off-{_off_half(t)}") for t in off]
        flt = engine.filter_for(Scope())
        th = engine.thresholds
        for text, paragraph, half in asked:
            found = engine.assess(text, flt, app.settings.leg_k)
            top = found.ranked[:5]
            texts = index.read_blocks([b.block_id for b in top])
            rows.append({"pair": f"{q_lang}->{d_lang}", "half": half, "question": text,
                         "admitted": found.admitted, "missing": list(found.missing),
                         "floor": th.multilingual_floor(False), "blocks": [
                             {"multilingual": b.signals.multilingual,
                              "same_script": b.signals.same_script,
                              "standing": b.signals.standing,
                              "gold": bool(paragraph) and _in(paragraph, [texts[b.block_id].text])}
                             for b in top]})
    return rows


def _answering(row: dict, g: float | None) -> list[dict]:
    sized = None if g is None else g + STANDING_PER_DECADE * math.log10(
        max(row["admitted"], 1) / FLOOR_PIECES) - STANDING_PER_DECADE
    return [b for b in row["blocks"] if b["multilingual"] is not None and not b["same_script"]
            and (b["multilingual"] >= row["floor"]
                 or (sized is not None and b["standing"] is not None and b["standing"] >= sized))]


def sweep(rows: list[dict]) -> list[dict]:
    out = []
    for pair in ("ru->en", "en->ru"):
        for g in SWEEP:
            entry = {"pair": pair, "g_at_100": g}
            for half in ("dev", "test"):
                asked = [r for r in rows if r["pair"] == pair and r["half"] == half]
                off = [r for r in rows if r["pair"] == pair and r["half"] == f"off-{half}"]
                answers = [_answering(r, g) for r in asked]
                entry[half] = {
                    "n": len(asked), "answered": _share([bool(a) for a in answers]),
                    "gold": _share([any(b["gold"] for b in a) for a in answers]),
                    "off_topic": len(off),
                    "off_topic_answered": _share([bool(_answering(r, g)) for r in off])}
            out.append(entry)
    return out


def timing(xquad: Path, work: Path, limit: int = 120) -> dict:
    """`HybridSearch.assess` for the first `limit` Russian questions over the English index,
    with the standing computed and without (`standings` answering None, the rule before),
    interleaved in one run: p50 of each and their ratio."""
    from situated.retrievers import hybrid

    texts = [q.text for q in questions(json.loads(
        (xquad / "xquad.ru.dev.json").read_text("utf-8"))["data"], False)][:limit]
    app = App(Settings(index_dir=work / "xquad-en-index"))
    engine, flt = app.engine, app.engine.filter_for(Scope())
    shipped, ms = hybrid.standings, {"with": [], "without": []}
    for text in texts:
        engine.assess(text, flt, app.settings.leg_k)  # the question's vectors encoded once
        for label in ("with", "without"):
            hybrid.standings = shipped if label == "with" else (
                lambda index, query, multilingual, *rest: [None] * len(multilingual))
            started = time.perf_counter()
            engine.assess(text, flt, app.settings.leg_k)
            ms[label].append((time.perf_counter() - started) * 1000)
    hybrid.standings = shipped
    p50 = {k: statistics.median(v) for k, v in ms.items()}
    return {"questions": len(texts), "p50_ms_with": round(p50["with"], 2),
            "p50_ms_without": round(p50["without"], 2),
            "ratio": round(p50["with"] / p50["without"], 3)}


def _share(flags: list[bool]) -> float:
    return round(sum(flags) / max(len(flags), 1), 3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--xquad", type=Path, default=Path("../shared/data/xquad-dev"))
    ap.add_argument("--work", type=Path, required=True,
                    help="the folder natural_questions.py --only xquad built its indexes in")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = ap.parse_args()
    table = sweep(gather(args.xquad, args.work))
    shown = Table(title="across languages: answered / gold among the answering blocks / "
                        "off-topic answered, by the standing floor at 100 pieces")
    for col in ("pair", "G at 100", "dev", "test"):
        shown.add_column(col)
    for e in table:
        shown.add_row(e["pair"], "floor alone" if e["g_at_100"] is None else f"{e['g_at_100']}",
                      *(f"{e[h]['answered']:.3f} / {e[h]['gold']:.3f} / "
                        f"{e[h]['off_topic_answered']:.3f} ({e[h]['off_topic']})"
                        for h in ("dev", "test")))
    Console().print(shown)
    cost = timing(args.xquad, args.work)
    speed = Table(title="the search of a Russian question over the English index (assess), "
                        "p50 ms, one run interleaved")
    for col in ("questions", "with the standing", "without", "ratio"):
        speed.add_column(col, justify="right")
    speed.add_row(str(cost["questions"]), f"{cost['p50_ms_with']:.2f}",
                  f"{cost['p50_ms_without']:.2f}", f"{cost['ratio']:.3f}")
    Console().print(speed)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "crosslang_standing.json").write_text(
        json.dumps({"sweep": table, "timing": cost}, indent=1), "utf-8")


if __name__ == "__main__":
    main()

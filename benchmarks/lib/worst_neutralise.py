"""The neutraliser's worst cases (issue 52, "every answer path is bounded"): document text
that made its regular expressions backtrack once per position — a long word with no `@` (the
e-mail pattern), a line of `[` or of `[a](` never closed (the Markdown-link pattern). Every
answer neutralises its evidence, so one such paragraph cost every answer that quoted it.

    python benchmarks/worst_cases.py neutralise [--chars 1000 2000 4000] [--out benchmarks/results]

Each shape at each size through `neutralise` as it is, beside the same function with the two
patterns as they were before (in the same run), and whether both give the same text. Prints a
table and writes `neutralise_worst.json`.
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from lib.provenance import write_result
from situated.loaders import neutralise as module

HERE = Path(__file__).resolve().parents[1]  # benchmarks/
BEFORE = {
    "_GFM_ADDRESS": re.compile(r"(?:(?:https?|ftp)://|www\.)[^\s<>()\[\]]+(?<![.,;:!?'\"])|"
                               r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", re.IGNORECASE),
    "_MD_LINK": re.compile(r"!?\[([^\]\n]*)\]\(\s*([^)\s]*)[^)]*\)"),
}
SHAPES = {"a word": lambda n: "Intro " + "a" * n, "[ on a line": lambda n: "[" * n,
          "[a]( never closed": lambda n: "[a](" * (n // 4),
          "ordinary text": lambda n: ("Mail help@example.com or see [the guide](/g). " * n)[:n]}


def timed(text: str, patterns: dict | None) -> tuple[float, str]:
    saved = {k: getattr(module, k) for k in BEFORE}
    if patterns:
        for k, v in patterns.items():
            setattr(module, k, v)
    module.neutralise.cache_clear()  # each side computes, never reads the other's result
    try:
        t = time.perf_counter()
        out = module.neutralise(text)
        return time.perf_counter() - t, out
    finally:
        for k, v in saved.items():
            setattr(module, k, v)


def before_beside_now(title: str, shapes: dict, sizes: list[int], timed) -> list[dict]:
    """Each shape at each size timed before and now (`timed(text, before) -> (seconds,
    output)`), printed as a table; the rows (shared by `loader_worst.py`)."""
    table = Table(title=title)
    for col in ("shape", "characters", "before s", "now s", "ratio", "same text"):
        table.add_column(col, justify="right")
    rows = []
    for name, make in shapes.items():
        for n in sizes:
            text = make(n)
            before, old = timed(text, True)
            now, new = timed(text, False)
            rows.append({"shape": name, "chars": n, "before_s": round(before, 4),
                         "now_s": round(now, 4), "ratio": round(before / now, 1),
                         "same_text": old == new})
            table.add_row(escape(name), f"{n:,}", f"{before:.3f}", f"{now:.3f}",
                          f"{before / now:.1f}×", str(old == new))
    Console().print(table)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chars", type=int, nargs="+", default=[1_000, 2_000, 4_000])
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    rows = before_beside_now("neutralise, worst shapes: before beside now", SHAPES, args.chars,
                             lambda text, before: timed(text, BEFORE if before else None))
    write_result(args.out / "neutralise_worst.json", rows)


if __name__ == "__main__":
    main()

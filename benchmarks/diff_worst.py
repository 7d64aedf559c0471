"""The worst case of the change diff: two long versions over a tiny vocabulary, where a full
alignment (`difflib`, autojunk off) is quadratic.

    python benchmarks/diff_worst.py [--kb 280 140 70] [--out benchmarks/results]

Each size is two versions of `Check passed.` / `Check failed.` sentences (about 14 bytes each,
in a seeded random order) where one in ten flips — many short partial matches, the alignment's
worst case; `diff_blocks` runs with the product's work cap and, in the same
run, with the cap lifted (the alignment the product used before the cap). Prints a table and
writes JSON: seconds each way, the ratio, and whether both found the same removed and added
sentences.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from _provenance import write_result
from rich.console import Console
from rich.table import Table

from situated.chains import changes
from situated.documents import Block, BlockKind, FilterFields

HERE = Path(__file__).resolve().parent


def version(sid: str, lines: list[str]) -> list[Block]:
    """One block per 200 sentences, like a long page cut into sections' blocks."""
    out = []
    for n in range(0, len(lines), 200):
        out.append(Block(block_id=f"{sid}-{n}", source_id=sid, kind=BlockKind.SECTION,
                         section="1", title="Checks",
                         text="1 Checks\n" + " ".join(lines[n:n + 200]),
                         link=f"/documents/{sid}", path=("1 Checks",), part=n // 200 + 1,
                         parts=len(lines) // 200 + 1, fields=FilterFields(source_id=sid)))
    return out


def timed(old, new, cap: int):
    before = changes.MAX_DIFF_WORK
    changes.MAX_DIFF_WORK = cap
    try:
        t = time.perf_counter()
        sections = changes.diff_blocks(old, new)
        return time.perf_counter() - t, (sorted(x for s in sections for x in s.removed),
                                          sorted(x for s in sections for x in s.added))
    finally:
        changes.MAX_DIFF_WORK = before


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kb", type=int, nargs="+", default=[35, 70, 140, 280])
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    table = Table(title="change diff, worst case (two versions, tiny vocabulary)")
    for col in ("size", "sentences", "capped s", "uncapped s", "ratio", "same changes"):
        table.add_column(col, justify="right")
    rows = []
    for kb in args.kb:
        n = kb * 1024 // 14
        rng = random.Random(kb)
        lines = [rng.choice(["Check passed.", "Check failed."]) for _ in range(n)]
        flipped = [x if rng.random() > 0.1 else
                   ("Check failed." if x == "Check passed." else "Check passed.") for x in lines]
        old, new = version("A", lines), version("B", flipped)
        capped, got = timed(old, new, changes.MAX_DIFF_WORK)
        uncapped, want = timed(old, new, 10**18)
        rows.append({"kb": kb, "sentences": n, "capped_s": round(capped, 3),
                     "uncapped_s": round(uncapped, 3), "ratio": round(uncapped / capped, 1),
                     "same_changes": got == want})
        table.add_row(f"{kb} KB", f"{n:,}", f"{capped:.3f}", f"{uncapped:.2f}",
                      f"{uncapped / capped:.0f}×", str(got == want))
    Console().print(table)
    write_result(args.out / "diff_worst.json", {"cap": changes.MAX_DIFF_WORK, "sizes": rows})


if __name__ == "__main__":
    main()

"""The worst case of the change diff: two long versions over a tiny vocabulary, where a full
alignment (`difflib`, autojunk off) is quadratic.

    python benchmarks/worst_cases.py diff [--kb 280 140 70] [--out benchmarks/results]
    python benchmarks/worst_cases.py diff --reordered 2000 1000 [--out benchmarks/results]

Each size is two versions of `Check passed.` / `Check failed.` sentences (about 14 bytes each,
in a seeded random order) where one in ten flips — many short partial matches, the alignment's
worst case; `diff_blocks` runs with the product's work cap and, in the same
run, with the cap lifted (the alignment the product used before the cap). Prints a table and
writes JSON: seconds each way, the ratio, and whether both found the same removed and added
sentences.

`--reordered N…`: two versions of N sections each in another order, every sentence edited (the
attack an audit found, issue 52: 43.5 s through the chain). The product's diff beside the code it
replaced, in the same run: the removed/added units matched by a scan of every unit per section
(reading each unit's section from its headings every time) and the words compared by joining
tuples with `sum`. Writes `diff_reordered.json`.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from lib.provenance import write_result
from situated.chains.versions import changes
from situated.documents import Block, BlockKind, FilterFields

HERE = Path(__file__).resolve().parents[1]  # benchmarks/


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


def reordered(n: int) -> tuple[list[Block], list[Block]]:
    """Two versions of `n` sections, the second shuffled, every sentence edited."""
    order = list(range(1, n + 1))
    shuffled = order[:]
    random.Random(n).shuffle(shuffled)

    def blocks(sid: str, keys: list[int], fee: str) -> list[Block]:
        return [Block(block_id=f"{sid}-{k}", source_id=sid, kind=BlockKind.SECTION,
                      section=str(k), title=f"Clause {k}", path=(f"{k} Clause {k}",),
                      text=f"{k} Clause {k}\nClause {k} sets the fee for item {k} at {k % 97} "
                           f"{fee} for plan {k % 13}. Extra sentence number {k} stands here.",
                      link=f"/documents/{sid}#{k}", part=1, parts=1,
                      fields=FilterFields(source_id=sid)) for k in keys]
    return blocks("A", order, "euros"), blocks("B", shuffled, "dollars")


def _before_replacing(gone, came):
    """`changes._replacing` before that audit: every unit scanned per section, its section read
    from its headings on every look."""
    out = []
    for section in dict.fromkeys(changes.section_key(u.block.path) for u in gone):
        olds = [u for u in gone if changes.section_key(u.block.path) == section]
        news = [u for u in came if changes.section_key(u.block.path) == section]
        for x, y in zip(olds, news, strict=False):
            if len(x.key) * len(y.key) > changes.MAX_DIFF_WORK // 16:
                continue
            m = changes.difflib.SequenceMatcher(None, x.key, y.key, autojunk=False)
            if m.ratio() >= 0.5 and sum(op != "equal" for op, *_ in m.get_opcodes()) <= 3:
                out.append((x, y))
    return out


def _changes_of(sections) -> tuple[list[str], list[str], int]:
    return (sorted(x for s in sections for x in s.removed),
            sorted(x for s in sections for x in s.added), sum(len(s.pairs) for s in sections))


def run_reordered(sizes: list[int], out: Path) -> None:
    table = Table(title="change diff, reordered sections (every sentence edited)")
    for col in ("sections", "before s", "after s", "ratio", "same removed/added", "pairs"):
        table.add_column(col, justify="right")
    rows = []
    for n in sizes:
        old, new = reordered(n)
        t = time.perf_counter()
        after = _changes_of(changes.diff_blocks(old, new))
        after_s = time.perf_counter() - t
        saved = changes._replacing, changes._words
        changes._replacing = _before_replacing
        changes._words = lambda units: list(sum((u.key for u in units), ()))
        try:
            t = time.perf_counter()
            before = _changes_of(changes.diff_blocks(old, new))
            before_s = time.perf_counter() - t
        finally:
            changes._replacing, changes._words = saved
        same = before[:2] == after[:2]
        rows.append({"sections": n, "before_s": round(before_s, 3), "after_s": round(after_s, 3),
                     "ratio": round(before_s / after_s, 1), "same_removed_added": same,
                     "pairs_before": before[2], "pairs_after": after[2]})
        table.add_row(f"{n:,}", f"{before_s:.2f}", f"{after_s:.2f}",
                      f"{before_s / after_s:.1f}×", str(same), f"{before[2]} / {after[2]}")
    Console().print(table)
    write_result(out / "diff_reordered.json", {"cap": changes.MAX_DIFF_WORK, "sizes": rows})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kb", type=int, nargs="+", default=[35, 70, 140, 280])
    ap.add_argument("--reordered", type=int, nargs="+", metavar="SECTIONS")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.reordered:
        return run_reordered(args.reordered, args.out)
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

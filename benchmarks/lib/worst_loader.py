"""The Markdown loader's worst HTML shapes (issue 83, G1): a comment block runs to the end of
the file in CommonMark, so no paragraph cap bounds it, and the history-note regex
(`<!--\\s*YAML\\b(.*?)-->`, DOTALL) and `html.parser` were quadratic over many unclosed
openings (`<!-- YAML`, `<!--`, `<?`).

    python benchmarks/worst_cases.py loader [--chars 40000 80000 160000] [--out benchmarks/results]

Each shape at each size through `parse_markdown` as it is, beside the same loader with the
two readers as they were before (in the same run), and whether both keep the same text.
Prints a table and writes `loader_worst.json`.
"""

from __future__ import annotations

import argparse
import re
import time
from html.parser import HTMLParser
from pathlib import Path

from lib.provenance import write_result
from lib.worst_neutralise import before_beside_now
from situated.loaders import html
from situated.loaders import markdown as module

HERE = Path(__file__).resolve().parents[1]  # benchmarks/
_YAML_NOTE = re.compile(r"<!--\s*YAML\b(.*?)-->", re.DOTALL)


class _TextOnly(HTMLParser):  # the reader before: html.parser
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _html_text_before(html: str) -> str:
    p = _TextOnly()
    p.feed(html)
    p.close()
    return " ".join("".join(p.parts).split())


def _note_before(html: str) -> str | None:
    m = _YAML_NOTE.search(html)
    return None if m is None else m.group(1)


SHAPES = {"<!-- YAML unclosed": lambda n: "<!-- YAML a\n" * (n // 12),
          "<!-- unclosed": lambda n: "<!--" * (n // 4),
          "<? unclosed": lambda n: "<?x " * (n // 4),
          "ordinary notes": lambda n: ("<!-- YAML\nadded: v1.0\n-->\n\nText.\n\n" * n)[:n]}


def timed(text: str, before: bool) -> tuple[float, str]:
    saved = module.html_text, html._yaml_note
    if before:
        module.html_text, html._yaml_note = _html_text_before, _note_before
    try:
        t = time.perf_counter()
        _, _, sections = module.parse_markdown(text, "worst.md")
        return time.perf_counter() - t, " ".join(
            getattr(e, "text", "") for s in sections for e in s.elements)
    finally:
        module.html_text, html._yaml_note = saved


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chars", type=int, nargs="+", default=[40_000, 80_000, 160_000])
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    shapes = {name: (lambda n, make=make: "---\nsource_id: W\n---\n\n# Worst\n\nIntro.\n\n"
                     + make(n)) for name, make in SHAPES.items()}
    rows = before_beside_now("Markdown loader, worst HTML shapes: before beside now", shapes,
                             args.chars, timed)
    write_result(args.out / "loader_worst.json", rows)


if __name__ == "__main__":
    main()

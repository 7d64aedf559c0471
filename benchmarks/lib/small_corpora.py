"""The small corpora (`questions/small/`) as the benchmarks build and ask them: which are
asked, each corpus's brand, and an index of one built as `situated ingest` builds it (shared by
`relevance_rule.py` and `restate.py`)."""

from __future__ import annotations

import re
from pathlib import Path

from situated.app import App
from situated.index.ingest import ingest
from situated.settings import Settings

HERE = Path(__file__).resolve().parents[1]  # benchmarks/

DEV = ("rental", "dental")  # where thresholds and rules are set; every other corpus is held out
SMALL = {name: "dev" if name in DEV else "test" for name in (
    "rental", "dental", "library", "tasq", "gym", "waste", "hotel", "cowork", "vet", "ferry",
    "driving", "pharmacy", "bikeshop", "daycare", "museum", "plumber", "allotment", "music",
    "campsite", "printshop", "storage", "laundry")}  # in the order written (questions/small/)
# Corpora not asked yet: no loop reaches them unless they are named (`--corpora`), so a default
# run cannot spend them by accident. A corpus leaves this set the day it is asked.
KEPT: set[str] = set()


def small_corpora(named: list[str] | None = None) -> dict[str, str]:
    """The small corpora a run asks: the ones named, else every pair already asked."""
    if named:
        return {n: h for n, h in SMALL.items() if n in named}
    return {n: h for n, h in SMALL.items() if n not in KEPT}


def brand_of(folder: Path) -> str:
    """The name a corpus's titles share ("Oakfield Library" of "Oakfield Library charges")."""
    titles = [re.search(r"^title: (.+)$", d.read_text("utf-8"), re.MULTILINE).group(1).split()
              for d in sorted(folder.glob("*.md"))]
    shared = []
    for words in zip(*titles, strict=False):
        if len(set(words)) > 1:
            break
        shared.append(words[0])
    while shared and not any(ch.isalnum() for ch in shared[-1]):
        shared.pop()  # "tasq guide —"
    return " ".join(shared)


def chain_app(name: str, work: Path, within_product: bool, brand: str | None = None) -> App:
    """The small corpus `name` built as `situated ingest` builds it (calibration included: too
    small, so the package floors decide), its documents of one product when `within_product`."""
    from situated.calibration.fit import index_calibrator

    folder = HERE / "questions" / "small" / name
    index = work / f"chain-{name}{'-product' if within_product else ''}{'-named' if brand else ''}"
    docs = as_product(folder, work / f"docs-{name}-product", name) if within_product else folder
    if brand:  # the documents declare the brand as their product; questions name it
        docs = as_product(folder, work / f"docs-{name}-named", brand)
    app = App(Settings(index_dir=index))
    ingest([docs], index, app.embeddings, app.settings, recalibrate=True,
           calibrator=index_calibrator(app.settings, app.embeddings, None))
    return app


def as_product(folder: Path, out: Path, product: str) -> Path:
    """The corpus's documents with `product: <name>` in their front matter (a question then
    reads within that product, as an app that knows its customer's product asks)."""
    out.mkdir(parents=True, exist_ok=True)
    for doc in folder.glob("*.md"):
        text = doc.read_text("utf-8")
        (out / doc.name).write_text(text.replace("---\n", f"---\nproduct: {product}\n", 1),
                                    "utf-8")
    return out

"""Could a word left over in a question about versions be read as a word of asking by its
meaning, rather than by the closed classes of `chains.read.version_words` (issue 53: "read
from meaning, not a phrase list")? Each English word of the classes is scored by its nearest
other word of the classes (leave-one-out: words sharing its first four letters left out too),
under MiniLM and multilingual-e5 single-word vectors; each content question that names a
product with releases (`questions/versions/content.yaml`, and with `--httpx-cases` the version
probe's questions about one release) by its least asking-like leftover word. A floor that
catches a class word unseen would misread the content questions at or above it.

    python benchmarks/asking_words_by_meaning.py [--httpx-cases DIR] [--out DIR]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import yaml
from _provenance import write_result
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.chains.read import intent
from situated.chains.read.version_words import ASKING_EN
from situated.index.multilingual import multilingual_model
from situated.settings import Settings

HERE = Path(__file__).resolve().parent
FLOORS = (0.5, 0.6, 0.7, 0.8, 0.9)


def class_words() -> list[str]:
    """The plain words among the English classes' alternatives (three letters or more)."""
    return sorted({w for w in re.findall(r"(?<![\\(?<=\w])([a-z][a-z'-]+)(?![\w\\])", ASKING_EN)
                   if len(w) > 2})


def leftover(question: str, names: tuple[str, ...] = ("quickq", "httpx")) -> list[str]:
    """The words `intent.about_the_line` would leave once the names, numbers, line words,
    order words and words of asking are taken out."""
    q = intent._VERSION_NUMBER.sub("0", question)
    for name in names:
        q = q.replace(name, " ")
    rest = intent._LINE_WORD.sub(" ", intent._NUMBERS.sub(" ", intent._LINE_NAME.sub(" ", q)))
    left = intent._ASKING.sub(" ", intent._ORDER_WORD.sub(" ", rest))
    return [w.lower() for w in re.findall(r"[^\W\d_]+", left)]


def content_questions(httpx_cases: Path | None) -> list[str]:
    written = yaml.safe_load((HERE / "questions" / "versions" / "content.yaml").read_text("utf-8"))
    out = [c.replace("{P}", "quickq").replace("{V}", "1.1.0") for c in written]
    for f in sorted(httpx_cases.glob("*.yaml")) if httpx_cases else []:
        out += [c["question"] for c in yaml.safe_load(f.read_text("utf-8")) or []
                if isinstance(c, dict) and "question" in c]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--httpx-cases", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    words = class_words()
    content = [(q, left) for q in content_questions(args.httpx_cases) if (left := leftover(q))]
    mini = App(Settings(index_dir=Path("/nonexistent-index"))).embeddings
    e5 = multilingual_model()
    encoders = {"minilm": lambda ws: np.asarray(mini.embed_documents(ws)),
                "e5": lambda ws: np.asarray(e5.encode_few(ws))}
    table = Table(title=f"{len(words)} class words, {len(content)} content questions with "
                        "leftovers: class words caught / content questions misread")
    table.add_column("model")
    for f in FLOORS:
        table.add_column(f"≥ {f}", justify="right")
    results = {}
    for label, encode in encoders.items():
        w = encode(words)
        w /= np.linalg.norm(w, axis=1, keepdims=True)
        caught = np.array([max(float(w[j] @ w[i]) for j, v in enumerate(words) if v[:4] != u[:4])
                           for i, u in enumerate(words)])
        vocab = sorted({x for _, left in content for x in left})
        v = encode(vocab)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        near = dict(zip(vocab, (v @ w.T).max(axis=1).tolist(), strict=True))
        misread = np.array([min(near[x] for x in left) for _, left in content])
        results[label] = {str(f): {"class_words_caught": float(np.mean(caught >= f)),
                                   "content_misread": int(np.sum(misread >= f))} for f in FLOORS}
        table.add_row(label, *(f"{np.mean(caught >= f):.2f} / {int(np.sum(misread >= f))}"
                               for f in FLOORS))
    Console(width=140).print(table)
    write_result(args.out / "asking_words_by_meaning.json",
                 {"class_words": len(words), "content_questions": len(content), **results})


if __name__ == "__main__":
    main()

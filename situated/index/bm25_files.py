"""The bm25s files of a generation: the pieces' index, the block field (one text per block:
document title and block), and beside an index holding restricted pieces the public pieces'
own index (`PUBLIC_BM25`) a public caller's scores come from."""

from __future__ import annotations

from pathlib import Path

import bm25s
import numpy as np

from situated.index.store import PUBLIC_BM25
from situated.index.text import Tokenizer
from situated.loaders.corpus import Corpus


def write_bm25(corpus: Corpus, out: Path) -> None:
    """The pieces' bm25s index, and the block field: one text per block (document title +
    block), scored beside the pieces."""
    tokenizer = Tokenizer()
    retriever = bm25s.BM25()
    retriever.index([tokenizer(p.search_text) for d in corpus.documents for p in d.pieces],
                    show_progress=False)
    retriever.save(str(out / "bm25"), show_progress=False)
    titles = {d.meta.source_id: d.meta.title or "" for d in corpus.documents}
    block_field = bm25s.BM25()
    block_field.index([tokenizer(f"{titles[b.source_id]} {b.text}")
                       for d in corpus.documents for b in d.blocks], show_progress=False)
    block_field.save(str(out / "bm25-blocks"), show_progress=False)
    _write_public_bm25(corpus, out, tokenizer)


def _write_public_bm25(corpus: Corpus, out: Path, tokenizer: Tokenizer) -> None:
    """Beside an index holding restricted pieces, the pieces' bm25s index over the public ones
    alone (`bm25-public`, with each row's piece position): a public caller's BM25 scores, their
    idf and average length, come from what the public reads, so a restricted document moves no
    public reply. A caller with a role reads the whole index's."""
    fields = [d.blocks[0].fields for d in corpus.documents]
    if all(not f.roles and not f.assets for f in fields):
        return  # every piece is public: the whole index is the public one
    rows: list[int] = []
    texts: list[list[str]] = []
    at = 0
    for d, f in zip(corpus.documents, fields, strict=True):
        if not f.roles and not f.assets:
            rows += range(at, at + len(d.pieces))
            texts += [tokenizer(p.search_text) for p in d.pieces]
        at += len(d.pieces)
    if not rows:
        return  # nothing public: a public caller is admitted no piece to score
    public = bm25s.BM25()
    public.index(texts, show_progress=False)
    public.save(str(out / PUBLIC_BM25), show_progress=False)
    np.save(out / PUBLIC_BM25 / "rows.npy", np.asarray(rows, dtype=np.int64))


__all__ = ["write_bm25"]

"""The multilingual leg's vectors: every piece embedded a second time by multilingual-e5-small
(`index.e5`), so a Russian question finds an English piece and an English question a Russian
one, and a question in a script all-MiniLM-L6-v2 does not read has a cosine that means
something (`retrievers.relevance`, "per pair").

Written at ingest beside the Chroma store, row i for the piece at position i:

    multilingual/vectors.npy   float32 (pieces, 384), normalised; memory-mapped
    multilingual/latin.npy     bool (pieces,): the piece's text is mostly Latin script
    multilingual/sentences/    the blocks' quotable units, as `index.sentences` stores them

Built unless `Settings.multilingual_leg` is off, or the index's own model is already
multilingual (its vector leg reads every script). Through the embedding cache, like the
pieces' MiniLM vectors: a re-ingest embeds only new text. An index without the folder has no
multilingual leg and answers as before it existed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from situated.errors import IndexError_
from situated.index.sentences import SentenceVectors, filled, write_sentences
from situated.index.text import mostly_latin

DIR = "multilingual"
SENTENCES = f"{DIR}/sentences"  # keys.npy, vectors.npy as `index.sentences` writes them
_MODEL = None
_MODEL_LOCK = threading.Lock()


def multilingual_model():
    """The process's one multilingual-e5-small (loaded on first use, ~1.4 s; the engine is
    stateless and `E5Embeddings` serialises its calls)."""
    global _MODEL
    with _MODEL_LOCK:
        if _MODEL is None:
            from situated.index.e5 import E5Embeddings

            _MODEL = E5Embeddings()
        return _MODEL


def write_multilingual(out: Path, texts: list[str], units: list[str],
                       encode: Callable[[list[str]], np.ndarray], batch: int = 4096,
                       progress: Callable[[int, int], None] | None = None) -> str:
    """Embed the pieces' search texts (in position order) and the blocks' quotable units
    (`index.sentences`, for the offline model's ranking of a question MiniLM does not read),
    and write them under `out / DIR`; returns the model id the manifest records."""
    folder = out / DIR
    folder.mkdir(parents=True)
    model = multilingual_model()
    parts = []
    for start in range(0, len(texts), batch):
        parts.append(np.asarray(encode(texts[start:start + batch]), dtype=np.float32))
        if progress:
            progress(start + len(parts[-1]), len(texts))
    vectors = np.concatenate(parts) if parts else np.zeros((0, model.dim), dtype=np.float32)
    np.save(folder / "vectors.npy", vectors)
    np.save(folder / "latin.npy", np.asarray([mostly_latin(t) for t in texts], dtype=bool))
    write_sentences(out, units, encode, batch=batch, folder=SENTENCES)
    return model.model_id


def latin_of(vectors: MultilingualVectors | None, positions: list[int]) -> list[bool]:
    """Whether each piece is mostly Latin script; all True for an index without the
    multilingual leg (its own model reads whatever it holds, as before the leg)."""
    if vectors is None:
        return [True] * len(positions)
    return vectors.latin[np.asarray(positions, dtype=np.int64)].tolist()


def leg_as_wanted(gen: Path, manifest, settings, embeddings) -> bool:
    """The generation has the multilingual leg (all its files) exactly when these settings
    build one (an index written before the leg, or without it, is rebuilt by the next ingest
    that wants it)."""
    wanted = settings.multilingual_leg and not getattr(embeddings, "multilingual", False)
    return (manifest.multilingual_model is not None) == wanted and (
        not wanted or (gen / SENTENCES).is_dir())


class MultilingualVectors:
    """One generation's multilingual piece vectors and the pieces' script, memory-mapped."""

    def __init__(self, gen: Path, pieces: int):
        folder = gen / DIR
        try:
            self.vectors = np.asarray(np.load(folder / "vectors.npy", mmap_mode="r"))
            self.latin = np.asarray(np.load(folder / "latin.npy", mmap_mode="r"))
        except (OSError, ValueError) as exc:
            raise IndexError_(f"index generation {gen} has no readable multilingual vectors "
                              f"({exc}); rebuild it with `situated ingest`") from None
        if len(self.vectors) != pieces or len(self.latin) != pieces:
            raise IndexError_(f"index generation {gen}: {len(self.vectors)} multilingual "
                              f"vectors for {pieces} pieces; rebuild it with `situated ingest`")
        self.sentences = SentenceVectors(gen, SENTENCES)

    def encode_query(self, text: str) -> np.ndarray:
        return multilingual_model().encode_query(text)

    def sentence_vectors(self, units: list[str]) -> np.ndarray:
        """The units' multilingual vectors: from ingest where this generation holds them,
        encoded now for the others."""
        return filled(self.sentences.lookup(units), units, multilingual_model().encode_few)

    def scores(self, query: str, rows: np.ndarray) -> np.ndarray:
        """The cosine of the question and each piece at `rows` (exact: a matrix product over
        the admitted rows only)."""
        return self.vectors[rows] @ self.encode_query(query)


__all__ = ["DIR", "MultilingualVectors", "latin_of", "leg_as_wanted", "multilingual_model",
           "write_multilingual"]

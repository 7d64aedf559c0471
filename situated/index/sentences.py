"""Sentence vectors, computed once at ingest: what the extractive model ranks evidence by.

Every block's quotable units (`loaders.sentences.evidence_units` of the block text as a prompt
receives it, i.e. neutralised) are embedded when the pieces are, through the same embedding
cache, and stored with the generation:

    sentences/keys.npy      uint64, sorted: a 64-bit hash of each distinct unit's text
    sentences/vectors.npy   float32 (n, dim), normalised, row i for keys[i]; memory-mapped

Keyed by text, not by block: versions of a page repeat most of their sentences, and the model
reads its evidence from the prompt's messages (it never sees a block id), so it finds a
sentence's vector by the sentence itself. A generation holds the units of its own blocks only;
a removed block's sentences leave with the generation it was in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from situated.errors import IndexError_
from situated.loaders.neutralise import neutralise
from situated.loaders.sentences import evidence_units

DIR = "sentences"


def text_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def block_units(texts: Iterable[str]) -> list[str]:
    """The distinct quotable units of these block texts, as a prompt would carry them."""
    return list(dict.fromkeys(u for t in texts for u in evidence_units(neutralise(t))))


def write_sentences(out: Path, units: list[str],
                    encode: Callable[[list[str]], np.ndarray], batch: int = 4096,
                    progress: Callable[[int, int], None] | None = None, folder: str = DIR) -> int:
    """Embed `units` (distinct texts) in batches and write them under `out / folder`; returns
    how many were written."""
    folder = out / folder
    folder.mkdir(parents=True)
    keys = np.asarray([text_hash(u) for u in units], dtype=np.uint64)
    if len(np.unique(keys)) != len(keys):  # 2^-64 per pair; say so rather than mix vectors
        raise IndexError_("two sentences share a 64-bit hash; nothing was published, report it")
    parts = []
    for start in range(0, len(units), batch):
        parts.append(np.asarray(encode(units[start:start + batch]), dtype=np.float32))
        if progress:
            progress(start + len(parts[-1]), len(units))
    vectors = np.concatenate(parts) if parts else np.zeros((0, 0), dtype=np.float32)
    order = np.argsort(keys)
    np.save(folder / "keys.npy", keys[order])
    np.save(folder / "vectors.npy", vectors[order] if len(units) else vectors)
    return len(units)


def filled(found_vectors: tuple[np.ndarray, np.ndarray], units: list[str],
           encode: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    """`lookup`'s vectors with the units it did not find encoded now (a reply of a model that
    was given other text)."""
    vectors, found = found_vectors
    if not found.all():
        missing = np.flatnonzero(~found)
        vectors[missing] = encode([units[i] for i in missing])
    return vectors


class SentenceVectors:
    """A generation's sentence vectors, read by memory map."""

    def __init__(self, gen: Path, folder: str = DIR):
        folder = gen / folder
        try:
            self.keys = np.load(folder / "keys.npy", mmap_mode="r")
            self.vectors = np.load(folder / "vectors.npy", mmap_mode="r")
        except (OSError, ValueError) as exc:
            raise IndexError_(f"index generation {gen} has no readable sentence vectors ({exc}); "
                              "rebuild it with `situated ingest`") from None
        if len(self.keys) != len(self.vectors):
            raise IndexError_(f"index generation {gen}: {len(self.keys)} sentence keys but "
                              f"{len(self.vectors)} vectors; rebuild it with `situated ingest`")

    def __len__(self) -> int:
        return len(self.keys)

    def lookup(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """(vectors, found): row i is the vector of texts[i] where found[i]; zeros elsewhere."""
        wanted = np.asarray([text_hash(t) for t in texts], dtype=np.uint64)
        if not len(self.keys) or not len(wanted):
            return np.zeros((len(texts), self.vectors.shape[1] if self.vectors.ndim == 2 else 0),
                            dtype=np.float32), np.zeros(len(texts), dtype=bool)
        pos = np.minimum(np.searchsorted(self.keys, wanted), len(self.keys) - 1)
        found = self.keys[pos] == wanted
        vectors = np.asarray(self.vectors[pos], dtype=np.float32)
        vectors[~found] = 0.0
        return vectors, found

"""Sentence vectors, computed once at ingest: what the extractive model ranks evidence by.

Every block's quotable units (`loaders.sentences.evidence_units` of the block text as a prompt
receives it, i.e. neutralised) are embedded when the pieces are, through the same embedding
cache, and stored with the generation:

    sentences/keys.npy      uint64, sorted: a 64-bit hash of each distinct unit's text
    sentences/vectors.npy   float32 (n, dim), normalised, row i for keys[i]; memory-mapped
    sentences/block_ptr.npy, block_keys.npy   the hashes of each block's units, by block row
    sentences_titled/                          the same four, for each unit under its section's
                                               title (`titled_units`): the relevance rule's
                                               second sentence signal

Keyed by text, not by block: versions of a page repeat most of their sentences, and the model
reads its evidence from the prompt's messages (it never sees a block id), so it finds a
sentence's vector by the sentence itself. A generation holds the units of its own blocks only;
a removed block's sentences leave with the generation it was in.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from situated.errors import IndexError_
from situated.loaders.neutralise import neutralise
from situated.loaders.sentences import evidence_units

DIR = "sentences"
TITLED = "sentences_titled"  # the same units under their section's title (`titled_units`)


def text_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def units_of(text: str) -> list[str]:
    """One block text's distinct quotable units, as a prompt would carry them."""
    return list(dict.fromkeys(evidence_units(neutralise(text))))


def titled_units(title: str, text: str) -> list[str]:
    """A block's units each under its section's title ("Sauna: Sessions should not exceed 15
    minutes."), what a question worded as the heading is ("How long should I stay in the hot
    room?") matches; none where the title holds no word (a bare "4.2", PolicyQA's numbers)."""
    return under_title(title, units_of(text))


def under_title(title: str, units: list[str]) -> list[str]:
    """`titled_units` of a block whose units are already split."""
    title = re.sub(r"^[\d.\s]+", "", title or "").strip()
    if not re.search(r"[^\W\d_]", title):
        return []
    return [f"{title}: {u}" for u in units]


def block_units(texts: Iterable[str]) -> list[str]:
    """The distinct quotable units of these block texts, as a prompt would carry them."""
    return list(dict.fromkeys(u for t in texts for u in units_of(t)))


def write_block_units(out: Path, per_block: list[list[str]], folder: str = DIR) -> None:
    """Which units each block holds, in block-row order (`columns/block_ids.npy`), as the
    hashes of their texts: `block_ptr.npy` (n_blocks + 1 offsets) and `block_keys.npy`. The
    relevance rule reads a block's sentence vectors through it without reading the block."""
    keys = [text_hash(u) for units in per_block for u in units]
    ptr = np.cumsum([0] + [len(units) for units in per_block], dtype=np.int64)
    np.save(out / folder / "block_ptr.npy", ptr)
    np.save(out / folder / "block_keys.npy", np.asarray(keys, dtype=np.uint64))


def write_sentences(out: Path, units: list[str],
                    encode: Callable[[list[str]], np.ndarray], batch: int = 4096,
                    progress: Callable[[int, int], None] | None = None, folder: str = DIR) -> int:
    """Embed `units` (distinct texts) in batches and write them under `out / folder`; returns
    how many were written."""
    where = out / folder
    where.mkdir(parents=True)
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
    np.save(where / "keys.npy", keys[order])
    np.save(where / "vectors.npy", vectors[order] if len(units) else vectors)
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
        where = gen / folder
        try:
            self.keys = np.load(where / "keys.npy", mmap_mode="r")
            self.vectors = np.load(where / "vectors.npy", mmap_mode="r")
        except (OSError, ValueError) as exc:
            raise IndexError_(f"index generation {gen} has no readable sentence vectors ({exc}); "
                              "rebuild it with `situated ingest`") from None
        if len(self.keys) != len(self.vectors):
            raise IndexError_(f"index generation {gen}: {len(self.keys)} sentence keys but "
                              f"{len(self.vectors)} vectors; rebuild it with `situated ingest`")
        # which units each block holds (`write_block_units`); None in generations written
        # before it, whose blocks are read for their units instead
        ptr, keys = where / "block_ptr.npy", where / "block_keys.npy"
        self.block_ptr = np.load(ptr, mmap_mode="r") if ptr.exists() else None
        self.block_keys = np.load(keys, mmap_mode="r") if self.block_ptr is not None else None

    def __len__(self) -> int:
        return len(self.keys)

    def of_block_row(self, row: int) -> tuple[np.ndarray, np.ndarray] | None:
        """`lookup` of the units block row `row` holds; None without the block map."""
        if self.block_ptr is None or self.block_keys is None or not (
                0 <= row < len(self.block_ptr) - 1):
            return None
        return self.lookup_hashes(np.asarray(
            self.block_keys[self.block_ptr[row]:self.block_ptr[row + 1]], dtype=np.uint64))

    def lookup(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """(vectors, found): row i is the vector of texts[i] where found[i]; zeros elsewhere."""
        return self.lookup_hashes(np.asarray([text_hash(t) for t in texts], dtype=np.uint64))

    def lookup_hashes(self, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`lookup` by the texts' hashes (`text_hash`)."""
        if not len(self.keys) or not len(wanted):
            return np.zeros((len(wanted), self.vectors.shape[1] if self.vectors.ndim == 2 else 0),
                            dtype=np.float32), np.zeros(len(wanted), dtype=bool)
        pos = np.minimum(np.searchsorted(self.keys, wanted), len(self.keys) - 1)
        found = self.keys[pos] == wanted
        vectors = np.asarray(self.vectors[pos], dtype=np.float32)
        vectors[~found] = 0.0
        return vectors, found

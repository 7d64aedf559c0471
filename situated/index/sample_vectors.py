"""The sample corpus's vectors, shipped beside it (`sample/vectors.npz`), so the first
`situated ask` indexes the sample without embedding it: every text the sample's build embeds
(MiniLM's pieces and quotable units, e5's passages, the calibration's questions), keyed as the
embedding cache keys them (`cache.text_key`: the model's id and the text).

They only seed the cache: a key is the model and the exact text, so a vector is used for the
text it was computed from by the model that computed it, and a text the file lacks (the sample
edited, another model) is embedded as before. The file's sha256 is checked first; a file that
differs is not read (a warning says so), and the build embeds everything.
`python tools/sample_vectors.py` writes the file again and prints its hash for `SHA256`
(`tests/index/test_sample_vectors.py` fails, naming that command, when the sample and the file
disagree)."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from situated.index.cache import EmbeddingCache
from situated.index.integrity import file_sha256
from situated.index.store import sample_docs_dir

log = logging.getLogger("situated.index")

SAMPLE_VECTORS = sample_docs_dir().parent / "vectors.npz"
SHA256 = "897fcbd58caf298c4693f26e089a169a9e428495ae52a4b78173c60e53a37c86"


def seed_cache(cache: EmbeddingCache, path: Path = SAMPLE_VECTORS, sha256: str = SHA256) -> int:
    """The shipped vectors the cache lacks, put into it; how many (0 when the file is missing
    or is not the one shipped: its hash differs)."""
    if not path.is_file():
        return 0
    found = file_sha256(path)
    if found != sha256:
        log.warning("the sample's vectors %s have sha256 %s, not the %s shipped; the sample is "
                    "embedded instead (reinstall the package to restore the file)", path,
                    found, sha256)
        return 0
    with np.load(path, allow_pickle=False) as data:
        keys = [str(k) for k in data["keys"]]
        vectors, lengths = data["vectors"], data["lengths"]
    held = cache.get_many(keys)
    new = {k: v[:n] for k, v, n in zip(keys, vectors, lengths, strict=True) if k not in held}
    cache.put_many(new)
    return len(new)


def write_vectors(cache: EmbeddingCache, path: Path = SAMPLE_VECTORS) -> str:
    """Every vector of `cache` (one the sample's build filled, alone) written to `path`; its
    sha256."""
    rows = cache.items()
    width = max((len(v) for _, v in rows), default=0)
    vectors = np.zeros((len(rows), width), np.float32)
    for i, (_, v) in enumerate(rows):
        vectors[i, : len(v)] = v
    keys = np.array([k for k, _ in rows])
    lengths = np.array([len(v) for _, v in rows], np.int32)
    with path.open("wb") as fh:
        np.savez_compressed(fh, keys=keys, vectors=vectors, lengths=lengths)
    return file_sha256(path)


__all__ = ["SAMPLE_VECTORS", "SHA256", "seed_cache", "write_vectors"]

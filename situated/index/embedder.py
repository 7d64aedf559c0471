"""What the index, the search legs and the extractive model need of an embedding model
(`Embedder`) and the LangChain `Embeddings` side every backend shares (`QueryVectors`); the
environment that keeps the model libraries offline is `process.offline_environment`. The backends are `index.embeddings`
(MiniLM, and `make_embeddings`) and `index.e5`; both import this module, neither the other."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Protocol

import numpy as np
from langchain_core.embeddings import Embeddings


class Embedder(Protocol):
    """What the index, the search legs and the extractive model need of an embedding model:
    passages (`encode`, `encode_few`) and questions (`encode_query`) as normalised vectors,
    a token count for sizing pieces and blocks, and the id an index records."""

    model_id: str
    multilingual: bool  # its cosine means the same in every script (`HybridSearch.vector_reads`)
    dim: int

    def encode(self, texts: list[str], show_progress: bool = False) -> np.ndarray: ...

    def encode_few(self, texts: list[str]) -> np.ndarray: ...

    def encode_query(self, text: str) -> np.ndarray: ...

    def encode_queries(self, texts: list[str]) -> np.ndarray: ...

    def knowing(self, vectors: dict[str, np.ndarray]) -> contextlib.AbstractContextManager: ...

    def count_tokens(self, text: str) -> int: ...

    @property
    def max_tokens(self) -> int: ...


class QueryVectors(Embeddings):
    """The LangChain `Embeddings` side of a backend, and its question vectors: the last few are
    kept, since one question is searched up to three times (the main search, a named family's,
    the undated check) with the same text. A backend implements `encode` and `_query_vector`."""

    dim: int  # the vector width, set by the backend

    def __init__(self) -> None:
        self._recent: dict[str, np.ndarray] = {}
        self._recent_lock = threading.Lock()
        self._known: dict[str, np.ndarray] = {}

    @contextlib.contextmanager
    def knowing(self, vectors: dict[str, np.ndarray]) -> Iterator[None]:
        """Within the block, `encode_query` answers these texts from `vectors` (computed in one
        batch, or read from the embedding cache: calibration's hundreds of questions)."""
        with self._recent_lock:
            before, self._known = self._known, {**self._known, **vectors}
        try:
            yield
        finally:
            with self._recent_lock:
                self._known = before

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        """Many questions' vectors (one at a time: numpy MiniLM reads a short text no faster
        in a batch; a backend may batch them)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._query_vector(t) for t in texts])

    def _query_vector(self, text: str) -> np.ndarray:
        raise NotImplementedError

    def encode(self, texts: list[str], show_progress: bool = False) -> np.ndarray:
        raise NotImplementedError

    def encode_query(self, text: str) -> np.ndarray:
        with self._recent_lock:
            cached = self._known.get(text)
            cached = self._recent.get(text) if cached is None else cached
        if cached is not None:
            return cached
        vector = self._query_vector(text)
        vector.setflags(write=False)  # shared between callers
        with self._recent_lock:
            self._recent[text] = vector
            while len(self._recent) > 64:
                self._recent.pop(next(iter(self._recent)))
        return vector

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.encode(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.encode_query(text).tolist()



__all__ = ["Embedder", "QueryVectors"]

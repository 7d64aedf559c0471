"""all-MiniLM-L6-v2 in numpy: the packaged model's weights (`model.safetensors`) and tokenizer
(`tokenizer.json`) run without torch, for the texts a request encodes (a question, an answer's
few candidate sentences) and for counting word pieces.

Importing torch and sentence-transformers costs ~5–8 s on these machines, while one question is
~20 word pieces through six 384-wide layers: a few milliseconds of matrix products. So a process
that only asks never imports torch; ingest (thousands of passages) still encodes through
sentence-transformers (`MiniLMEmbeddings.encode`). The two agree to float32 rounding
(`tests/index/test_minilm_numpy.py` holds them to 1e-5 on every text it tries).

The network is BERT as `transformers.BertModel` computes it (post-norm layers, exact-erf GELU,
absolute positions, token type 0), then the sentence-transformers head of this model: the mean
of the token vectors under the attention mask, normalised to length 1.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np

_LAYER_NORM_EPS = 1e-12


_A = [np.float32(c) for c in (0.3275911, 0.254829592, -0.284496736, 1.421413741, -1.453152027,
                              1.061405429)]
_ONE, _HALF, _ROOT_HALF = np.float32(1.0), np.float32(0.5), np.float32(np.sqrt(0.5))


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to ~1e-7 (Abramowitz & Stegun 7.1.26), below float32's step at GELU's scale. Every
    constant is float32: a float64 one (`np.sqrt(2.0)`) made numpy compute the whole
    intermediate layer in float64, half of what encoding a batch cost."""
    sign = np.sign(x)
    a = np.abs(x)
    t = _ONE / (_ONE + _A[0] * a)
    poly = t * (_A[1] + t * (_A[2] + t * (_A[3] + t * (_A[4] + t * _A[5]))))
    return sign * (_ONE - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return _HALF * x * (_ONE + _erf(x * _ROOT_HALF))


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + _LAYER_NORM_EPS) * weight + bias


class NumpyMiniLM:
    """The packaged MiniLM as numpy arrays. `encode` takes a few texts (padded to the longest);
    `token_ids` reads word pieces without special tokens or truncation. Thread-safe: the Rust
    tokenizer is called under a lock, the arrays are only read."""

    def __init__(self, model_dir: str | Path):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        model_dir = Path(model_dir)
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        st_config = json.loads((model_dir / "sentence_bert_config.json").read_text(encoding="utf-8"))
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.max_seq_length = int(st_config["max_seq_length"])
        self.w = load_file(str(model_dir / "model.safetensors"))
        self._tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        self._cls = self._tokenizer.token_to_id("[CLS]")
        self._sep = self._tokenizer.token_to_id("[SEP]")
        self._lock = threading.Lock()

    def token_ids(self, text: str) -> list[int]:
        with self._lock:
            return self._tokenizer.encode(text, add_special_tokens=False).ids

    def _batch(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Ids with [CLS] … [SEP], cut to the model's sequence length, padded with 0; the mask."""
        rows = [[self._cls, *self.token_ids(t)[: self.max_seq_length - 2], self._sep]
                for t in texts]
        width = max(len(r) for r in rows)
        ids: np.ndarray = np.zeros((len(rows), width), dtype=np.int64)
        mask: np.ndarray = np.zeros((len(rows), width), dtype=np.float32)
        for i, row in enumerate(rows):
            ids[i, : len(row)] = row
            mask[i, : len(row)] = 1.0
        return ids, mask

    def _attention(self, x: np.ndarray, mask: np.ndarray, p: str) -> np.ndarray:
        w = self.w
        n, length, dim = x.shape
        size = dim // self.heads

        def heads(name: str) -> np.ndarray:
            y = x @ w[f"{p}.attention.self.{name}.weight"].T + w[f"{p}.attention.self.{name}.bias"]
            return y.reshape(n, length, self.heads, size).transpose(0, 2, 1, 3)

        q, k, v = heads("query"), heads("key"), heads("value")
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(size))
        scores = scores + ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(n, length, dim)
        out = context @ w[f"{p}.attention.output.dense.weight"].T + w[f"{p}.attention.output.dense.bias"]
        return _layer_norm(out + x, w[f"{p}.attention.output.LayerNorm.weight"],
                           w[f"{p}.attention.output.LayerNorm.bias"])

    def _layer(self, x: np.ndarray, mask: np.ndarray, i: int) -> np.ndarray:
        w, p = self.w, f"encoder.layer.{i}"
        x = self._attention(x, mask, p)
        hidden = _gelu(x @ w[f"{p}.intermediate.dense.weight"].T + w[f"{p}.intermediate.dense.bias"])
        out = hidden @ w[f"{p}.output.dense.weight"].T + w[f"{p}.output.dense.bias"]
        return _layer_norm(out + x, w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"])

    def encode(self, texts: list[str]) -> np.ndarray:
        """Normalised mean-pooled vectors, float32, one row per text."""
        if not texts:
            return np.zeros((0, self.w["embeddings.word_embeddings.weight"].shape[1]), np.float32)
        w = self.w
        ids, mask = self._batch(texts)
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][: ids.shape[1]][None]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        for i in range(self.layers):
            x = self._layer(x, mask, i)
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return (pooled / norms).astype(np.float32)


__all__ = ["NumpyMiniLM"]

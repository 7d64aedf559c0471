"""Embedding cache keyed by (model id, text hash), so a rebuild never re-embeds unchanged text.

One SQLite file (`settings.cache_dir / "embeddings.sqlite"` by default); vectors are stored as
float32 bytes. Safe for one writer and many readers (SQLite locking); a cache that cannot be
opened is reported, never silently skipped.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Protocol

import numpy as np


class Encoder(Protocol):
    model_id: str

    def encode(self, texts: list[str], show_progress: bool = False) -> np.ndarray: ...


def text_key(model_id: str, text: str) -> str:
    return hashlib.sha256(f"{model_id}\x00{text}".encode()).hexdigest()


class EmbeddingCache:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vec (key TEXT PRIMARY KEY, v BLOB NOT NULL)")
        self.hits = 0
        self.misses = 0

    def get_many(self, keys: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for key, blob in self._db.execute(
                f"SELECT key, v FROM vec WHERE key IN ({marks})", chunk
            ):
                out[key] = np.frombuffer(blob, dtype=np.float32)
        return out

    def put_many(self, items: dict[str, np.ndarray]) -> None:
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO vec (key, v) VALUES (?, ?)",
                [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()])

    def encode(self, encoder: Encoder, texts: list[str]) -> np.ndarray:
        """Vectors for `texts`, embedding only those not cached yet (each distinct text once)."""
        keys = [text_key(encoder.model_id, t) for t in texts]
        found = self.get_many(list(dict.fromkeys(keys)))
        todo = {k: t for k, t in zip(keys, texts) if k not in found}
        self.hits += len(keys) - sum(1 for k in keys if k in todo)
        self.misses += len(todo)
        if todo:
            fresh = encoder.encode(list(todo.values()))
            new = dict(zip(todo.keys(), fresh))
            self.put_many(new)
            found.update(new)
        return np.stack([found[k] for k in keys]) if keys else np.zeros((0, 384), np.float32)

    def close(self) -> None:
        self._db.close()

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

from situated.errors import IndexError_


class Encoder(Protocol):
    model_id: str

    def encode(self, texts: list[str], show_progress: bool = False) -> np.ndarray: ...


def text_key(model_id: str, text: str) -> str:
    return hashlib.sha256(f"{model_id}\x00{text}".encode()).hexdigest()


_DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")


def cache_error(exc: sqlite3.DatabaseError, path: Path) -> IndexError_:
    """What went wrong with the cache, and the fix for that: only a damaged file is to be
    deleted (a full disk or a read-only folder leaves a valid cache that deleting would lose)."""
    name = getattr(exc, "sqlite_errorname", "")
    if name in _DAMAGED:
        return IndexError_(f"the embedding cache {path} is damaged ({exc}); delete it (its "
                           "vectors are computed again) and re-run the ingest")
    if name == "SQLITE_FULL":
        return IndexError_(f"the disk holding the embedding cache {path} is full; free space "
                           "there (or point SITUATED_CACHE_DIR elsewhere) and re-run; the cache "
                           "itself is intact, keep it")
    if name in ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM"):
        return IndexError_(f"the embedding cache {path} cannot be written ({exc}); make its "
                           "folder writable or point SITUATED_CACHE_DIR elsewhere")
    return IndexError_(f"the embedding cache {path} could not be used ({name or 'error'}: "
                       f"{exc}); fix what it names and re-run")


class EmbeddingCache:
    FILE = "embeddings.sqlite"

    @classmethod
    def of(cls, settings) -> EmbeddingCache:
        """The settings' cache (`settings.cache_dir / FILE`)."""
        return cls(settings.cache_dir / cls.FILE)

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(self.path), timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vec (key TEXT PRIMARY KEY, v BLOB NOT NULL)")
            self._db.execute("SELECT count(*) FROM vec LIMIT 1").fetchone()
        except sqlite3.DatabaseError as exc:
            raise cache_error(exc, self.path) from None
        self.hits = 0
        self.misses_by_model: dict[str, int] = {}  # model id -> texts it had to embed

    def get_many(self, keys: list[str], dim: int | None = None) -> dict[str, np.ndarray]:
        """Cached vectors by key; one that is not `dim` long (a damaged or foreign entry) is
        left out, so it is computed again and replaced."""
        out: dict[str, np.ndarray] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for key, blob in self._db.execute(
                f"SELECT key, v FROM vec WHERE key IN ({marks})", chunk
            ):
                vec = np.frombuffer(blob, dtype=np.float32) if len(blob) % 4 == 0 else None
                if vec is not None and (dim is None or len(vec) == dim) and np.isfinite(
                        vec).all():
                    out[key] = vec
        return out

    def put_many(self, items: dict[str, np.ndarray]) -> None:
        try:
            with self._db:
                self._db.executemany(
                    "INSERT OR REPLACE INTO vec (key, v) VALUES (?, ?)",
                    [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()])
        except sqlite3.DatabaseError as exc:
            raise cache_error(exc, self.path) from None

    def encode(self, encoder: Encoder, texts: list[str]) -> np.ndarray:
        """Vectors for `texts`, embedding only those not cached yet (each distinct text once)."""
        keys = [text_key(encoder.model_id, t) for t in texts]
        found = self.get_many(list(dict.fromkeys(keys)), getattr(encoder, "dim", None))
        todo = {k: t for k, t in zip(keys, texts) if k not in found}
        self.hits += len(keys) - sum(1 for k in keys if k in todo)
        self.misses_by_model[encoder.model_id] = (
            self.misses_by_model.get(encoder.model_id, 0) + len(todo))
        if todo:
            fresh = encoder.encode(list(todo.values()))
            new = dict(zip(todo.keys(), fresh))
            self.put_many(new)
            found.update(new)
        return np.stack([found[k] for k in keys]) if keys else np.zeros((0, 384), np.float32)

    def queries(self, encoder, texts: list[str]) -> dict[str, np.ndarray]:
        """Question vectors by text (`encoder.encode_queries`), through the cache under the
        model's id and a query mark (e5 embeds a question and a passage differently)."""
        as_queries = _Queries(encoder)
        return dict(zip(texts, self.encode(as_queries, list(texts)))) if texts else {}

    def items(self) -> list[tuple[str, np.ndarray]]:
        """Every cached (key, vector), in key order."""
        return [(k, np.frombuffer(v, dtype=np.float32))
                for k, v in self._db.execute("SELECT key, v FROM vec ORDER BY key")]

    @property
    def misses(self) -> int:
        """Texts embedded because no cached vector had them, by every model."""
        return sum(self.misses_by_model.values())

    def close(self) -> None:
        self._db.close()


class _Queries:
    """An encoder's question side as an `Encoder` (its own cache keys)."""

    def __init__(self, encoder):
        self.model_id = f"{encoder.model_id} (query)"
        self.dim = encoder.dim
        self.encode = lambda texts, show_progress=False: encoder.encode_queries(texts)

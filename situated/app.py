"""Wiring: one `Settings` builds the embeddings, the index and the search engine — and follows
the index as new generations are published.

Every request pins the generation published when it starts (`App.pinned`), runs on it to the
end, and a newer generation is opened by the first request that sees the `current` link moved
(a `readlink`, microseconds). A swapped-out generation is closed when its last request ends, and
its reader lease (`index.leases`) is dropped then, so a pruning ingest in another process never
deletes files a request still reads. Permission changes and removals therefore take effect on
the next request, without a restart.
"""

from __future__ import annotations

import contextvars
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from situated.errors import IndexError_
from situated.index.embeddings import Embedder, make_embeddings
from situated.index.leases import Lease
from situated.index.reader import Index
from situated.index.writer import ensure_sample_index
from situated.retrievers.hybrid import HybridSearch, SituatedRetriever
from situated.settings import Settings
from situated.situation import Scope

# the snapshot each App has pinned in this context (a request, a chain run)
_PINNED: contextvars.ContextVar[dict[int, Snapshot] | None] = contextvars.ContextVar(
    "situated_pinned", default=None)


@dataclass(eq=False)
class Snapshot:
    """One opened generation, the engine over it, and the requests now using it."""

    index: Index
    engine: HybridSearch
    lease: Lease | None
    users: int = 0
    retired: bool = False
    cache: dict[Any, Any] = field(default_factory=dict)  # per-generation chains, built once

    @property
    def generation(self) -> str:
        return self.index.generation.name


@dataclass(eq=False)
class App:
    settings: Settings
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    _snap: Snapshot | None = field(default=None, repr=False)

    @cached_property
    def embeddings(self) -> Embedder:
        return make_embeddings(self.settings)

    @cached_property
    def root(self) -> Path:
        root = self.settings.index_dir
        return ensure_sample_index(self.settings, self.embeddings) if root is None else root

    def _published(self) -> str | None:
        try:
            return Path(os.readlink(self.root / "current")).name
        except OSError:
            return None

    def snapshot(self) -> Snapshot:
        """The snapshot pinned in this context, else the latest published generation
        (opened now if it is new)."""
        pinned = (_PINNED.get() or {}).get(id(self))
        if pinned is not None:
            return pinned
        snap = self._snap
        if snap is not None and snap.generation == self._published():
            return snap
        with self._lock:
            snap = self._snap
            published = self._published()
            if snap is not None and snap.generation == published:
                return snap
            new = self._open(published)
            self._snap = new
            if snap is not None:
                snap.retired = True
                if snap.users == 0:
                    self._close(snap)
            return new

    def _open(self, published: str | None) -> Snapshot:
        lease = Lease.take(self.root, published) if published else None
        try:
            gen = self.root / "generations" / published if published else None
            index = Index(self.root, self.embeddings, generation=gen)
        except BaseException:
            if lease:
                lease.release()
            raise
        if index.timezone != self.settings.timezone:
            index.close()
            if lease:
                lease.release()
            raise IndexError_(
                f"index {self.root} reads dates in {index.timezone}, but SITUATED_TIMEZONE is "
                f"{self.settings.timezone}; set SITUATED_TIMEZONE={index.timezone} or re-run "
                f"`situated ingest PATH... --index {self.root}` with the new timezone")
        return Snapshot(index=index, engine=HybridSearch(index, self.settings), lease=lease)

    @staticmethod
    def _close(snap: Snapshot) -> None:
        snap.index.close()
        if snap.lease:
            snap.lease.release()

    @contextmanager
    def pinned(self) -> Iterator[Snapshot]:
        """Run the block on one generation: the latest when it starts (or the one already
        pinned in this context), kept open until the block ends."""
        pins = _PINNED.get() or {}
        if id(self) in pins:
            yield pins[id(self)]
            return
        with self._lock:  # taking and counting under one lock: no swap can close it in between
            snap = self.snapshot()
            snap.users += 1
        token = _PINNED.set({**pins, id(self): snap})
        try:
            yield snap
        finally:
            _PINNED.reset(token)
            with self._lock:
                snap.users -= 1
                if snap.retired and snap.users == 0:
                    self._close(snap)

    @property
    def index(self) -> Index:
        return self.snapshot().index

    @property
    def engine(self) -> HybridSearch:
        return self.snapshot().engine

    def sentence_vectors(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The ingest-time vectors of evidence sentences, from the generation pinned in this
        context (else the latest): `(vectors, found)` (`index.sentences`)."""
        return self.snapshot().index.sentences.lookup(texts)

    def retriever(self, scope: Scope | None = None) -> SituatedRetriever:
        return SituatedRetriever(engine=self.engine, scope=scope or Scope())

    def close(self) -> None:
        """Close the open generation (tests, notebooks); the next use opens it again."""
        with self._lock:
            snap, self._snap = self._snap, None
            if snap is not None:
                snap.retired = True
                if snap.users == 0:
                    with suppress(Exception):
                        self._close(snap)

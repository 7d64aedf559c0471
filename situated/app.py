"""Wiring: one `Settings` builds the embeddings, the index and the search engine — and follows
the index as new generations are published.

Every request pins the generation published when it starts (`App.pinned`), runs on it to the
end (a chain is built for one `Snapshot` and reads nothing else: `chains.ask`), and a newer
generation is opened by the first request that sees the `current` link moved (a `readlink`,
microseconds). A swapped-out generation is closed when its last request ends, and
its reader lease (`index.leases`) is dropped then, so a pruning ingest in another process never
deletes files a request still reads. Permission changes and removals therefore take effect on
the next request, without a restart.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from situated.errors import IndexError_
from situated.index.embeddings import Embedder, make_embeddings
from situated.index.leases import Lease
from situated.index.reader import Index
from situated.index.store import SAMPLE_STAMP, sample_stamp
from situated.index.versions import Versions
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import HybridSearch
from situated.retrievers.rerank import Reranker, make_reranker
from situated.retrievers.retriever import SituatedRetriever
from situated.settings import Settings
from situated.situation import Scope, Situation

if TYPE_CHECKING:
    from situated.index.writer import Progress


@dataclass(eq=False)
class Snapshot:
    """One opened generation, the engine over it (and its version families), and the requests
    now using it. A chain is built for one snapshot (`chains.ask.per_generation`)."""

    index: Index
    engine: HybridSearch
    lease: Lease | None
    users: int = 0
    retired: bool = False

    @property
    def generation(self) -> str:
        return self.index.generation.name

    @property
    def versions(self) -> Versions:
        """The generation's documents as version families (`index.versions`)."""
        return self.engine.versions

    def filter(self, situation: Situation, scope: Scope,
               sources: frozenset[str] | None = None, latest_release: bool = False) -> Filter:
        """The one place a chain builds a Filter: situation and scope, in the index's zone
        (`latest_release`: a question about a moment that names no version reads the latest
        release of each line)."""
        situation = self.declared(situation)  # an undeclared facet: no clause to compile
        superseded: frozenset[str] = frozenset()
        if latest_release and situation.version is None:  # the latest within this scope
            readable = Filter(scope=scope, timezone=self.index.timezone)
            superseded = self.versions.superseded(readable, scope)
        return Filter(situation=situation, scope=scope, sources=sources,
                      timezone=self.index.timezone, latest_release=latest_release,
                      superseded=superseded)

    def declared(self, situation: Situation) -> Situation:
        """`situation` without the facets this index does not declare (`Situation.declared`)."""
        return situation.declared(self.index.facets)

    def sentence_vectors(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The ingest-time vectors of evidence sentences of this generation: `(vectors,
        found)` (`index.sentences`); the offline model built for it reads these."""
        return self.index.sentences.lookup(texts)


@dataclass(eq=False)
class App:
    settings: Settings
    # hears the sample index's first build (`writer.ensure_sample_index`): the CLI shows it
    progress: Progress | None = field(default=None, repr=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    _snap: Snapshot | None = field(default=None, repr=False)

    @cached_property
    def embeddings(self) -> Embedder:
        return make_embeddings(self.settings)

    @cached_property
    def reranker(self) -> Reranker:
        """What orders the routed blocks (`Settings.reranker`), loaded once per process."""
        return make_reranker(self.settings)

    @cached_property
    def root(self) -> Path:
        root = self.settings.index_dir
        if root is not None:
            return root
        sample = self.settings.sample_index_dir()
        with suppress(OSError):  # the sample as checked last time: no corpus to load
            stamp = (sample / SAMPLE_STAMP).read_text(encoding="utf-8")
            if (sample / "current").exists() and stamp == sample_stamp(
                    self.settings, self.embeddings.model_id):
                return sample
        from situated.index.writer import ensure_sample_index  # the writer only to build it

        return ensure_sample_index(self.settings, self.embeddings, self.progress)

    def _published(self) -> str | None:
        try:
            return Path(os.readlink(self.root / "current")).name
        except OSError:
            return None

    def snapshot(self) -> Snapshot:
        """The latest published generation (opened now if it is new)."""
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
        """Run the block on one generation: the latest when it starts, kept open until the
        block ends."""
        with self._lock:  # taking and counting under one lock: no swap can close it in between
            snap = self.snapshot()
            snap.users += 1
        try:
            yield snap
        finally:
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

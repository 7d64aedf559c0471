"""Wiring: one `Settings` builds the embeddings, the index and the search engine."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from situated.index.embeddings import MiniLMEmbeddings
from situated.index.store import Index, ensure_sample_index
from situated.retrievers.hybrid import HybridSearch, SituatedRetriever
from situated.settings import Settings
from situated.situation import Scope


@dataclass
class App:
    settings: Settings

    @cached_property
    def embeddings(self) -> MiniLMEmbeddings:
        return MiniLMEmbeddings(batch_size=self.settings.embed_batch_size)

    @cached_property
    def index(self) -> Index:
        root = self.settings.index_dir
        if root is None:
            root = ensure_sample_index(self.settings, self.embeddings)
        return Index(root, self.embeddings)

    @cached_property
    def engine(self) -> HybridSearch:
        return HybridSearch(self.index, self.settings)

    def retriever(self, scope: Scope | None = None) -> SituatedRetriever:
        return SituatedRetriever(engine=self.engine, scope=scope or Scope())

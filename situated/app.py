"""Wiring: one `Settings` builds the embeddings, the index and the search engine."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from situated.errors import IndexError_
from situated.index.embeddings import MiniLMEmbeddings
from situated.index.reader import Index
from situated.index.writer import ensure_sample_index
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
        index = Index(root, self.embeddings)
        if index.timezone != self.settings.timezone:
            raise IndexError_(
                f"index {root} reads dates in {index.timezone}, but SITUATED_TIMEZONE is "
                f"{self.settings.timezone}; set SITUATED_TIMEZONE={index.timezone} or re-run "
                f"`situated ingest PATH... --index {root}` with the new timezone")
        return index

    @cached_property
    def engine(self) -> HybridSearch:
        return HybridSearch(self.index, self.settings)

    def retriever(self, scope: Scope | None = None) -> SituatedRetriever:
        return SituatedRetriever(engine=self.engine, scope=scope or Scope())

"""What one caller scope may read of an index, kept per scope: the products and facet values a
question is matched against (a value named only in a restricted document is never recognised,
which would tell the caller it exists), and the block rows relevance reads its statistics
from."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

import numpy as np

from situated.index.reader import Index
from situated.kept import kept
from situated.retrievers.filter import Filter
from situated.situation import Scope

_ROWS_KEPT = 64  # block-row masks kept (one boolean per block apiece)


class ReadableBy:
    def __init__(self, index: Index):
        self.index = index
        self._products: dict[Scope, frozenset[str]] = {}
        self._facet_values: dict[tuple[Scope, str], frozenset[str]] = {}
        self._rows: dict[Scope, np.ndarray] = {}
        self._aliases: dict[Scope, tuple[tuple[str, str], ...]] = {}

    def products(self, scope: Scope) -> frozenset[str]:
        """The products of the documents `scope` may read."""
        cols = self.index.columns
        return self._values(self._products, scope, scope, lambda: (
            (p, cols.products.get(p)) for p in self.index.products))

    def aliases(self, scope: Scope) -> tuple[tuple[str, str], ...]:
        """The declared other names of products (`aliases:`) in the documents `scope` may
        read: (alias, product); an alias only a restricted document declares is never read."""
        def make() -> tuple[tuple[str, str], ...]:
            readable = Filter(scope=scope, timezone=self.index.timezone)
            return tuple(sorted({(a, p) for a, p, sid in self.index.manifest.aliases
                                 if readable.admits(self.index.fields_of_source(sid))}))

        return kept(self._aliases, scope, make)

    def facet_values(self, scope: Scope, name: str) -> frozenset[str]:
        """The values of a declared facet in the documents `scope` may read."""
        return self._values(self._facet_values, (scope, name), scope,
                            lambda: self.index.columns.facet_values.get(name, {}).items())

    def rows(self, scope: Scope) -> np.ndarray:
        """Block rows (of the BM25 block field) `scope` may read."""
        return kept(self._rows, scope, lambda: self.blocks_of(
            Filter(scope=scope, timezone=self.index.timezone).mask(self.index.columns)),
                    _ROWS_KEPT)

    def blocks_of(self, pieces: np.ndarray) -> np.ndarray:
        """The block rows holding any of the `pieces` (a mask over pieces)."""
        rows: np.ndarray = np.zeros(len(self.index.block_id_at), dtype=bool)
        rows[self.index.piece_block[pieces]] = True
        return rows

    def _values(self, cache: dict, key: Hashable, scope: Scope,
                groups_of: Callable[[], Iterable[tuple[str, np.ndarray | None]]],
                ) -> frozenset[str]:
        """The values (`groups_of()`: value, its document groups) whose documents `scope` may
        read, kept per `key`."""
        def make() -> frozenset[str]:
            readable = Filter(scope=scope, timezone=self.index.timezone).group_mask(
                self.index.columns)
            return frozenset(v for v, groups in groups_of()
                             if groups is not None and readable[groups].any())

        return kept(cache, key, make)


__all__ = ["ReadableBy"]

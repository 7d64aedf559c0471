"""The index's documents as version families, behind one small API (`Catalogue`) that chains
read instead of the index's internals.

A *family* is the documents of one `family` name (a document without one is a family of its
own, keyed `"\\x00" + source_id`). `Versions` answers what routing and the questions about
change need: a document's metadata and stored filter fields (read once and kept), a family's
members the caller may read, when a version starts and ends (the instants `FilterFields`
stores at ingest: never recomputed), and which families a question names.

`Catalogue` is what `Versions` reads: the published `Index` is one; `MemoryCatalogue` holds
hand-built documents (unit tests of routing and history without an index or a model).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Protocol

from packaging.version import Version

from situated import releases
from situated.documents import (
    OPEN_END,
    OPEN_START,
    PRODUCT,
    Block,
    DocumentMeta,
    FilterFields,
)
from situated.index.template import Templates
from situated.kept import kept
from situated.loaders.axes import superseded
from situated.loaders.notes import pages_first


class Admits(Protocol):
    """What `Versions` needs of a filter (`retrievers.filter.Filter` is one)."""

    def admits(self, fields: FilterFields) -> bool: ...


class Catalogue(Protocol):
    """The documents of one index generation, read by key."""

    timezone: str

    def family_names(self) -> set[str]: ...

    def family(self, name: str) -> list[DocumentMeta]: ...

    def document(self, source_id: str) -> DocumentMeta | None: ...

    def fields_of_source(self, source_id: str) -> FilterFields: ...

    def blocks_of(self, source_id: str) -> list[Block]: ...

    def read_blocks(self, block_ids: Sequence[str]) -> dict[str, Block]: ...

    def released(self) -> list[DocumentMeta]:
        """Every document with a release axis (`version` or `applies_to_versions`)."""
        ...


class MemoryCatalogue:
    """A `Catalogue` over documents held in memory: `(meta, blocks)` pairs; each document's
    filter fields are its metadata's (`DocumentMeta.filter_fields`) unless given."""

    def __init__(self, documents: Iterable[tuple[DocumentMeta, Sequence[Block]]],
                 timezone: str = "UTC", fields: dict[str, FilterFields] | None = None):
        self.timezone = timezone
        self._docs = {m.source_id: (m, list(blocks)) for m, blocks in documents}
        self._fields = dict(fields or {})

    def family_names(self) -> set[str]:
        return {m.family for m, _ in self._docs.values() if m.family}

    def family(self, name: str) -> list[DocumentMeta]:
        return [m for m, _ in self._docs.values() if m.family == name]

    def document(self, source_id: str) -> DocumentMeta | None:
        found = self._docs.get(source_id)
        return found[0] if found else None

    def fields_of_source(self, source_id: str) -> FilterFields:
        if source_id in self._fields:
            return self._fields[source_id]
        meta = self.document(source_id)
        if meta is None:
            raise KeyError(source_id)
        return meta.filter_fields(self.timezone)

    def blocks_of(self, source_id: str) -> list[Block]:
        return list(self._docs.get(source_id, (None, []))[1])

    def read_blocks(self, block_ids: Sequence[str]) -> dict[str, Block]:
        wanted = set(block_ids)
        return {b.block_id: b for _, blocks in self._docs.values() for b in blocks
                if b.block_id in wanted}

    def released(self) -> list[DocumentMeta]:
        return [m for m, _ in self._docs.values() if m.release_scoped]


class Versions:
    """The catalogue's documents grouped into version families. Built once per generation; a
    family's members are read when a request first needs them (an index of a million pieces is
    not loaded whole) and kept for the most recently used families."""

    def __init__(self, catalogue: Catalogue):
        self.catalogue = catalogue
        self.timezone = catalogue.timezone
        # sid -> the stored fields: recorded instant and corrections included
        self.fields_of = lru_cache(maxsize=65536)(catalogue.fields_of_source)
        self._meta = lru_cache(maxsize=65536)(catalogue.document)
        self._family = lru_cache(maxsize=4096)(self._read_family)
        self._released: list[DocumentMeta] | None = None
        self._superseded: dict[object, frozenset[str]] = {}
        self.templates = Templates(self)  # each notes family's page chrome, kept

    # -- documents ----------------------------------------------------------------------------

    def meta(self, source_id: str) -> DocumentMeta:
        meta = self._meta(source_id)
        if meta is None:
            raise KeyError(f"no document {source_id!r} in this index generation")
        return meta

    def family_key(self, source_id: str) -> str:
        return self.family_of(self.meta(source_id))

    @staticmethod
    def family_of(meta: DocumentMeta) -> str:
        return meta.family or f"\x00{meta.source_id}"

    def label(self, meta: DocumentMeta) -> str:
        name = meta.family or meta.title or meta.source_id
        return f"{name} ({', '.join(meta.product)})" if meta.product else name

    def start(self, meta: DocumentMeta) -> int:
        """When a version starts, in epoch seconds (an open start: before everything)."""
        return self.fields_of(meta.source_id).valid_from_s

    def end(self, meta: DocumentMeta) -> int:
        """When a version ends (exclusive), in epoch seconds (open: after everything)."""
        return self.fields_of(meta.source_id).valid_to_s

    def order(self, meta: DocumentMeta) -> tuple[int, int]:
        """Where a version stands in its family: by start, then by release."""
        f = self.fields_of(meta.source_id)
        return f.valid_from_s, f.release_lo

    def covers(self, meta: DocumentMeta, release: int) -> bool:
        """The document covers the release with key `release`."""
        f = self.fields_of(meta.source_id)
        return f.release_lo <= release < f.release_hi

    def bounds(self, meta: DocumentMeta) -> tuple[int | None, int | None]:
        """Start and end as instants, None where open."""
        start, end = self.start(meta), self.end(meta)
        return (None if start == OPEN_START else start, None if end == OPEN_END else end)

    # -- families -----------------------------------------------------------------------------

    def family_names(self) -> list[str]:
        return sorted(self.catalogue.family_names())

    def members(self, family: str) -> list[DocumentMeta]:
        return list(self._family(family))

    def _read_family(self, key: str) -> tuple[DocumentMeta, ...]:
        if key.startswith("\x00"):
            meta = self._meta(key[1:])
            return (meta,) if meta is not None else ()
        return tuple(self.catalogue.family(key))

    def sources(self, families: Iterable[str]) -> frozenset[str]:
        return frozenset(m.source_id for f in families for m in self.members(f))

    def admitted(self, meta: DocumentMeta, flt: Admits) -> list[DocumentMeta]:
        """Members of `meta`'s family the caller may read under `flt` (never name others)."""
        return self.versions_of(self.family_of(meta), flt)

    def versions_of(self, family: str, flt: Admits, product: str | None = None,
                    ) -> list[DocumentMeta]:
        """The family's members `flt` admits (that apply to `product` when it is given)."""
        return [m for m in self.members(family)
                if flt.admits(self.fields_of(m.source_id))
                and not (product and m.product and product not in m.product)]

    def same_case(self, a: DocumentMeta, b: DocumentMeta, facets) -> bool:
        """True when the two apply to a common value of each of `facets` (the product, a
        declared facet; a document without values for one applies to all of them)."""
        fa, fb = self.fields_of(a.source_id), self.fields_of(b.source_id)
        return all(not (x := fa.facet(n)) or not (y := fb.facet(n)) or bool(set(x) & set(y))
                   for n in facets)

    def same_products(self, a: DocumentMeta, b: DocumentMeta) -> bool:
        """True when the two apply to a common product (a document without one: to all)."""
        return self.same_case(a, b, (PRODUCT,))

    # -- releases -----------------------------------------------------------------------------

    def released(self, flt: Admits, product: str | None = None) -> list[DocumentMeta]:
        """The documents with a release axis `flt` admits (that apply to `product` when it is
        given), oldest release first."""
        if self._released is None:
            self._released = sorted(self.catalogue.released(), key=lambda m: (
                self.fields_of(m.source_id).release_lo, m.source_id))
        return [m for m in self._released if flt.admits(self.fields_of(m.source_id))
                and not (product and m.product and product not in m.product)]

    def versioned(self, flt: Admits, product: str | None = None) -> bool:
        """`flt` admits a document with a release, or two versions of one family: there is a
        line to find a first appearance in (`chains.read.reader`)."""
        return bool(self.released(flt, product)) or any(
            len(self.versions_of(f, flt, product)) > 1 for f in self.catalogue.family_names())

    def superseded(self, readable: Admits, key: object) -> frozenset[str]:
        """The release documents `readable` admits that do not cover their line's latest
        release among those it admits (`loaders.axes.superseded`); kept per `key` (the
        caller's scope) for this generation."""
        return kept(self._superseded, key, lambda: superseded(self.released(readable)))

    def release_line(self, flt: Admits, product: str | None = None) -> list[Version]:
        """The releases the readable documents declare (`version`), oldest first: the versions
        a question may name and a listing shows. Per product, release notes count only where
        no reference document of it has a release (a changelog names releases the documents
        may never describe); a product with notes alone has their releases as its line."""
        by_product: dict[tuple[str, ...], list[DocumentMeta]] = {}
        for m in self.released(flt, product):
            if m.version is not None:
                by_product.setdefault(m.product, []).append(m)
        return sorted({releases.parse(m.version) for docs in by_product.values()
                       for m in pages_first(docs) if m.version is not None})

    # -- blocks -------------------------------------------------------------------------------

    def content(self, block: Block) -> str:
        """The block's text without its family's page chrome (`index.template`): what a model
        reads and an answer may quote."""
        return self.templates.content(block)

    def blocks_of(self, source_id: str, readable: Admits) -> list[Block]:
        """A document's blocks the caller may read, in document order."""
        return [b for b in self.catalogue.blocks_of(source_id) if readable.admits(b.fields)]

    def read_blocks(self, block_ids: Sequence[str]) -> dict[str, Block]:
        return self.catalogue.read_blocks(block_ids)


__all__ = ["Catalogue", "MemoryCatalogue", "Versions"]

"""Reading one published generation: the row store (documents, blocks, pieces, code postings
by key), the memory-mapped columns, bm25s and Chroma. A reader keeps the generation it opened
and loads nothing per piece at open."""

from __future__ import annotations

import contextlib
import weakref
from pathlib import Path

import bm25s
import numpy as np

from situated.documents import Block, DocumentMeta, FilterFields, LoadedDocument, Piece
from situated.errors import IndexError_
from situated.index.columns import FilterColumns, IdTable, mapped
from situated.index.docstore import (
    STORE_FILE,
    BlockTable,
    DocStore,
    DocumentTable,
    PiecePositions,
    PieceTable,
)
from situated.index.embeddings import Embedder
from situated.index.integrity import drop_private_chroma, private_chroma, tampered
from situated.index.multilingual import MultilingualVectors
from situated.index.sentences import TITLED, SentenceVectors
from situated.index.store import (
    PUBLIC_BM25,
    SCHEMA_VERSION,
    Manifest,
    chroma_client,
    current_generation,
)
from situated.index.text import Tokenizer
from situated.releases import ANY_HI, ANY_LO


def generation_documents(gen: Path) -> list[LoadedDocument]:
    """The documents of a published generation, rebuilt from its row store (no re-parsing)."""
    store = DocStore(gen / STORE_FILE)
    try:
        blocks: dict[str, list[Block]] = {}
        for b in BlockTable(store, 0).values():
            blocks.setdefault(b.source_id, []).append(b)
        pieces: dict[str, list[Piece]] = {}
        for p in PieceTable(store, 0):
            pieces.setdefault(p.source_id, []).append(p)
        return [LoadedDocument(meta=meta, blocks=tuple(blocks.get(meta.source_id, ())),
                               pieces=tuple(pieces.get(meta.source_id, ())), content_hash=h)
                for meta, h, _ in DocumentTable(store, 0).records()]
    finally:
        store.close()


def _manifest(root: Path, gen: Path, embeddings: Embedder) -> Manifest:
    """The generation's manifest, refused with the fix when this version or this embedding
    model cannot read it."""
    try:
        manifest = Manifest.model_validate_json(
            (gen / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexError_(f"index {root} has no readable manifest ({exc}); re-run ingest") from None
    if manifest.schema_version != SCHEMA_VERSION:
        raise IndexError_(
            f"index {root} has schema {manifest.schema_version}, this version reads "
            f"{SCHEMA_VERSION} (5 added the sentence vectors answers are ranked by, 6 the "
            f"piece ids the vector leg filters by, 7 keys the sentence vectors by the evidence "
            f"text as it is now neutralised, 8 the release axis every piece is filtered by, 9 "
            f"the latest release decided per caller, Chroma's files checksummed, 10 each "
            f"unit under its section's title, 11 who may read each correction); "
            f"rebuild it with `situated ingest PATH... --index {root}` (unchanged texts "
            "come from the embedding cache)"
        )
    if manifest.embedding_model != embeddings.model_id:
        raise IndexError_(
            f"index {root} was embedded with {manifest.embedding_model}, not "
            f"{embeddings.model_id}; set SITUATED_EMBEDDING_MODEL to the model it was built "
            f"with (minilm or e5-small-4bit), or rebuild it with this one: `situated ingest "
            f"PATH... --index {root}` (vectors of either model stay in the embedding cache)"
        )
    return manifest


def _verified(root: Path, gen: Path) -> None:
    """Refuse a generation whose files differ from the checksums it was written with."""
    if (problem := tampered(gen)) is not None:
        raise IndexError_(
            f"index {root}: generation {gen.name} does not match the checksums it was written "
            f"with ({problem}); it is not read. Rebuild it with `situated ingest PATH... "
            f"--index {root}` (a re-ingest replaces a damaged generation)")


def _opened(root: Path, generation: Path | None, embeddings: Embedder,
            verify: bool) -> tuple[Path, Manifest]:
    """The generation to open (default: the published one) and its manifest, its files
    checked against their checksums when `verify`."""
    gen = generation if generation is not None else current_generation(root)
    if not (gen / "manifest.json").exists():
        raise IndexError_(f"index {root}: generation {gen.name} is gone (pruned while "
                          "opening?); open the index again")
    manifest = _manifest(root, gen, embeddings)
    if verify:
        _verified(root, gen)
    return gen, manifest


class Index:
    """One opened generation: blocks, pieces, filter columns, code postings, bm25s and Chroma."""

    def __init__(self, root: Path, embeddings: Embedder, generation: Path | None = None,
                 verify: bool = True):
        """Open `generation` (default: the published one) of the index at `root`, after
        checking every file against the checksums it was written with (`verify=False`: only
        for the writer's own generation before it records them, or one just checked)."""
        self.root = Path(root)
        self.generation, self.manifest = _opened(self.root, generation, embeddings, verify)
        self.embeddings = embeddings
        self.tokenizer = Tokenizer()
        gen = self.generation
        try:
            self.store = DocStore(gen / STORE_FILE)
        except FileNotFoundError:
            raise IndexError_(f"index {root}: generation {gen.name} has no {STORE_FILE}; "
                              "rebuild it with `situated ingest`") from None
        m = self.manifest
        self.pieces = PieceTable(self.store, m.pieces)
        self.blocks = BlockTable(self.store, m.blocks)
        self.piece_pos = PiecePositions(self.store, m.pieces)
        self.documents = DocumentTable(self.store, m.documents)
        # columns, memory-mapped: piece -> document / block / version family, filter fields
        cols = gen / "columns"
        try:
            self.piece_doc = mapped(cols / "piece_doc.npy")
            self.piece_block = mapped(cols / "piece_block.npy")
            self.doc_family = mapped(cols / "doc_family.npy")
            self.block_id_at = mapped(cols / "block_ids.npy")
            self.piece_id_at = mapped(cols / "piece_ids.npy")  # UTF-8 bytes
            self._ids = IdTable(cols) if (cols / "piece_hash.npy").exists() else None
            self.columns = FilterColumns.load(cols / "filter")
        except FileNotFoundError as exc:
            raise IndexError_(f"index {root}: generation {gen.name} is missing "
                              f"{Path(exc.filename).relative_to(gen)}; rebuild it with "
                              "`situated ingest`") from None
        self.sentences = SentenceVectors(gen)  # the evidence sentences' vectors, by text
        self.titled = SentenceVectors(gen, TITLED)  # ... under their sections' titles
        # the multilingual leg's piece vectors (None: the index was built without it)
        self.multilingual = MultilingualVectors(gen, m.pieces) if m.multilingual_model else None
        self.products = frozenset(m.products)
        self.timezone = m.timezone
        self.facets = tuple(m.facets)  # the situation facets this index declares
        # memory-mapped: the score matrices stay on disk, pages come in as queries touch them
        self.bm25 = bm25s.BM25.load(str(gen / "bm25"), mmap=True, show_progress=False)
        field_dir = gen / "bm25-blocks"
        self.bm25_blocks = bm25s.BM25.load(str(field_dir), mmap=True, show_progress=False) \
            if field_dir.is_dir() else None
        # beside restricted pieces, the public pieces' own index and each row's piece position
        public = gen / PUBLIC_BM25
        self.bm25_public = (bm25s.BM25.load(str(public), mmap=True, show_progress=False),
                            mapped(public / "rows.npy")) if public.is_dir() else None
        self._open_chroma()

    def _open_chroma(self) -> None:
        """The collection, from a private copy of the generation's Chroma folder (Chroma
        writes to what it opens), removed on `close` or at exit; or from the Chroma server."""
        m, gen = self.manifest, self.generation
        copy = None if m.chroma_url else private_chroma(gen)
        self._drop = weakref.finalize(self, drop_private_chroma, copy) if copy else None
        client = self.client = chroma_client(copy or gen / "chroma", m.chroma_url)
        try:
            self.collection = client.get_collection(m.collection)
        except Exception as exc:  # noqa: BLE001 - chromadb's NotFoundError varies by client
            raise IndexError_(
                f"index {self.root}: Chroma collection {m.collection!r} is missing "
                f"({exc}); re-run `situated ingest`") from None

    # -- the `index.versions.Catalogue` API: what chains read, by key -------------------------

    def blocks_of(self, source_id: str) -> list[Block]:
        """One document's blocks in document order, looked up by key (no scan)."""
        return self.blocks.of_document(source_id)

    def read_blocks(self, block_ids) -> dict[str, Block]:
        """Many blocks by id in one look-up (the ids that are in this generation)."""
        return self.blocks.many(list(block_ids))

    def document(self, source_id: str) -> DocumentMeta | None:
        return self.documents.get(source_id)

    def family(self, name: str) -> list[DocumentMeta]:
        return self.store.family(name)

    def family_names(self) -> set[str]:
        return self.store.family_names()

    def fields_of_source(self, source_id: str) -> FilterFields:
        return self.store.fields_of_source(source_id)

    def released(self) -> list[DocumentMeta]:
        """The documents with a release axis, found from the columns (no scan of the rest)."""
        cols = self.columns
        scoped = (cols.release_lo != ANY_LO) | (cols.release_hi != ANY_HI)
        return [m for sid in cols.source_ids[scoped].tolist()
                if (m := self.documents.get(sid)) is not None]

    def block_sources(self, positions) -> list[str]:
        """The source id of the document of each piece position (from the columns)."""
        docs = self.piece_doc[np.asarray(list(positions), dtype=np.int64)]
        return self.columns.source_ids[docs].tolist()

    def fields_of(self, positions: list[int]) -> list[FilterFields]:
        """The filter fields of many pieces, read in one look-up."""
        return self.store.fields_of_docs(self.piece_doc[np.asarray(positions, dtype=np.int64)]
                                         .tolist() if positions else [])

    def family_at(self, pos: int) -> int | None:
        """The version family (a number) of the piece at `pos`, None when its document has no
        other version."""
        fam = int(self.doc_family[self.piece_doc[pos]])
        return None if fam < 0 else fam

    def block_ids(self, positions) -> dict[int, str]:
        """Piece position → its block id, for many pieces in one look-up."""
        pos = np.fromiter((int(p) for p in positions), dtype=np.int64)
        return dict(zip(pos.tolist(), self.block_id_at[self.piece_block[pos]].tolist(),
                        strict=True))

    def positions_of(self, piece_ids) -> dict[str, int]:
        """Piece id → position for the ids that are in this generation (one look-up)."""
        ids = list(piece_ids)
        return self._ids.lookup(ids) if self._ids is not None else self.store.piece_positions(ids)

    def code_positions(self, code: str, primary: bool = False) -> np.ndarray | None:
        """Positions of the pieces that carry `code` (as their first code: `primary`)."""
        found = self.store.code_positions(code, primary)
        return np.asarray(found, dtype=np.int64) if found else None

    def close(self) -> None:
        """Release the Chroma client (its files and connections), the row store and the
        memory-mapped arrays; the index is unusable after."""
        for name in ("bm25", "bm25_blocks", "columns", "sentences", "titled"):  # with the maps
            self.__dict__.pop(name, None)
        self.multilingual = None
        self.piece_doc = self.piece_block = self.doc_family = np.zeros(0, dtype=np.int32)
        self.block_id_at, self._ids = np.zeros(0, dtype=str), None
        self.piece_id_at = np.zeros(0, dtype=bytes)
        self.store.close()
        close = getattr(self.client, "close", None)
        if close is not None:
            with contextlib.suppress(Exception):  # closing twice, or a server already gone
                close()
        if self._drop is not None:
            self._drop()  # the private copy (also at exit, for a reader never closed)

    def __len__(self) -> int:
        return len(self.piece_doc)

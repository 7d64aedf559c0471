"""Reading one published generation: documents, blocks, pieces, filter columns, code
postings, bm25s and Chroma. A reader keeps the generation it opened."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import bm25s
import numpy as np

from situated.documents import Block, DocumentMeta, FilterFields, LoadedDocument, Piece
from situated.errors import IndexError_
from situated.index.embeddings import MiniLMEmbeddings
from situated.index.store import SCHEMA_VERSION, Manifest, chroma_client, current_generation
from situated.index.text import Tokenizer


def generation_documents(gen: Path) -> list[LoadedDocument]:
    """The documents of a published generation, rebuilt from its files (no re-parsing)."""
    blocks: dict[str, list[Block]] = {}
    for line in (gen / "blocks.jsonl").read_text(encoding="utf-8").splitlines():
        b = Block.model_validate_json(line)
        blocks.setdefault(b.source_id, []).append(b)
    pieces: dict[str, list[Piece]] = {}
    for line in (gen / "pieces.jsonl").read_text(encoding="utf-8").splitlines():
        p = Piece.model_validate_json(line)
        pieces.setdefault(p.source_id, []).append(p)
    docs = []
    for line in (gen / "documents.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        meta = DocumentMeta.model_validate_json(json.dumps(d["meta"]))
        docs.append(LoadedDocument(meta=meta, blocks=tuple(blocks.get(meta.source_id, ())),
                                   pieces=tuple(pieces.get(meta.source_id, ())),
                                   content_hash=d["content_hash"]))
    return docs


def _read_pieces(path: Path) -> list[Piece]:
    """The generation's pieces. Every piece of one document carries the same filter fields:
    they are validated once per document and shared, and the pieces (written by this package's
    writer) are built without re-validating each line — at 1M pieces validating every line
    held ~11 GB of objects and took most of the minute the index needed to open."""
    shared: dict[str, tuple[dict, FilterFields]] = {}
    pieces = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            raw = json.loads(line)
            seen = shared.get(raw["source_id"])
            if seen is not None and seen[0] == raw["fields"]:
                fields = seen[1]
            else:
                fields = FilterFields.model_validate(raw["fields"])
                shared[raw["source_id"]] = (raw["fields"], fields)
            pieces.append(Piece.model_construct(
                piece_id=raw["piece_id"], block_id=raw["block_id"], source_id=raw["source_id"],
                search_text=raw["search_text"], codes=tuple(raw.get("codes", ())),
                fields=fields))
    return pieces


class Index:
    """One opened generation: blocks, pieces, filter columns, code postings, bm25s and Chroma."""

    def __init__(self, root: Path, embeddings: MiniLMEmbeddings, generation: Path | None = None):
        """Open `generation` (default: the published one) of the index at `root`."""
        from situated.retrievers.filter import FilterColumns  # columns live with the filter

        self.root = Path(root)
        self.generation = generation if generation is not None else current_generation(self.root)
        if not (self.generation / "manifest.json").exists():
            raise IndexError_(f"index {root}: generation {self.generation.name} is gone (pruned "
                              "while opening?); open the index again")
        try:
            self.manifest = Manifest.model_validate_json(
                (self.generation / "manifest.json").read_text(encoding="utf-8")
            )
        except (OSError, ValueError) as exc:
            raise IndexError_(f"index {root} has no readable manifest ({exc}); re-run ingest") from None
        if self.manifest.schema_version != SCHEMA_VERSION:
            raise IndexError_(
                f"index {root} has schema {self.manifest.schema_version}, this version reads "
                f"{SCHEMA_VERSION}; rebuild it with `situated ingest`"
            )
        if self.manifest.embedding_model != embeddings.model_id:
            raise IndexError_(
                f"index {root} was embedded with {self.manifest.embedding_model}, not "
                f"{embeddings.model_id}; rebuild it with `situated ingest`"
            )
        self.embeddings = embeddings
        self.tokenizer = Tokenizer()
        self.blocks: dict[str, Block] = {}
        self._by_source: dict[str, list[str]] = {}
        for line in (self.generation / "blocks.jsonl").read_text(encoding="utf-8").splitlines():
            b = Block.model_validate_json(line)
            self.blocks[b.block_id] = b
            self._by_source.setdefault(b.source_id, []).append(b.block_id)
        self.pieces: list[Piece] = _read_pieces(self.generation / "pieces.jsonl")
        self.piece_pos = {p.piece_id: i for i, p in enumerate(self.pieces)}
        self.columns = FilterColumns([p.fields for p in self.pieces])
        postings: dict[str, list[int]] = {}
        primary: dict[str, list[int]] = {}
        for i, p in enumerate(self.pieces):
            for c in p.codes:
                postings.setdefault(c, []).append(i)
            if p.codes:
                primary.setdefault(p.codes[0], []).append(i)
        self.code_postings = {c: np.asarray(v, dtype=np.int64) for c, v in postings.items()}
        self.code_primary = {c: np.asarray(v, dtype=np.int64) for c, v in primary.items()}
        self.products = frozenset(self.manifest.products)
        self.timezone = self.manifest.timezone
        self.documents: dict[str, DocumentMeta] = {}  # source_id -> metadata (small)
        for line in (self.generation / "documents.jsonl").read_text("utf-8").splitlines():
            meta = DocumentMeta.model_validate_json(json.dumps(json.loads(line)["meta"]))
            self.documents[meta.source_id] = meta
        # source_id -> family, for families with more than one document (versions)
        members: dict[str, list[str]] = {}
        for meta in self.documents.values():
            if meta.family:
                members.setdefault(meta.family, []).append(meta.source_id)
        self.family_of = {sid: fam for fam, sids in members.items() if len(sids) > 1
                          for sid in sids}
        # memory-mapped: the score matrices stay on disk, pages come in as queries touch them
        self.bm25 = bm25s.BM25.load(str(self.generation / "bm25"), mmap=True,
                                    show_progress=False)
        # block field (generations before it have none: the BM25 leg then scores pieces only)
        block_pos = {bid: i for i, bid in enumerate(self.blocks)}
        self.piece_block = np.fromiter((block_pos[p.block_id] for p in self.pieces),
                                       dtype=np.int64, count=len(self.pieces))
        field_dir = self.generation / "bm25-blocks"
        self.bm25_blocks = bm25s.BM25.load(str(field_dir), mmap=True, show_progress=False) \
            if field_dir.is_dir() else None
        client = self.client = chroma_client(self.generation / "chroma",
                                              self.manifest.chroma_url)
        try:
            self.collection = client.get_collection(self.manifest.collection)
        except Exception as exc:  # noqa: BLE001 - chromadb's NotFoundError varies by client
            raise IndexError_(
                f"index {root}: Chroma collection {self.manifest.collection!r} is missing "
                f"({exc}); re-run `situated ingest`") from None

    def blocks_of(self, source_id: str) -> list[Block]:
        """One document's blocks in document order, looked up by key (no scan)."""
        return [self.blocks[b] for b in self._by_source.get(source_id, ())]

    def close(self) -> None:
        """Release the Chroma client (its files and connections) and the memory-mapped bm25s
        matrices; the index is unusable after."""
        self.bm25 = self.bm25_blocks = None  # the maps close with their last reference
        close = getattr(self.client, "close", None)
        if close is not None:
            with contextlib.suppress(Exception):  # closing twice, or a server already gone
                close()

    def __len__(self) -> int:
        return len(self.pieces)


"""The generation's row store on disk (`store.sqlite`): documents, blocks, pieces and code
postings, read by key or by position. Nothing is loaded at open; a request reads the rows it
returns.

Why SQLite and not more JSON lines or Arrow: a reader needs look-ups by key (a block id, a piece
id from Chroma, a document's blocks, a family's versions), which SQLite answers from its B-tree
without loading anything; at 1M pieces reading the JSON lines into objects took ~57 s and
~11 GB. Filter fields and piece → block/document positions, which every request scans whole,
are numpy columns instead (`FilterColumns`, `columns/`). A generation is immutable once
published, so readers open the file read-only and `immutable` (no locking).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from situated.documents import Block, DocumentMeta, FilterFields, Piece

if TYPE_CHECKING:
    from situated.documents import LoadedDocument

STORE_FILE = "store.sqlite"
_CHUNK = 900  # ids per `IN (...)`: below every SQLite build's variable limit

_SCHEMA = """
CREATE TABLE documents(pos INTEGER PRIMARY KEY, source_id TEXT NOT NULL UNIQUE, family TEXT,
                       meta TEXT NOT NULL, content_hash TEXT NOT NULL, fields TEXT NOT NULL);
CREATE TABLE blocks(pos INTEGER PRIMARY KEY, block_id TEXT NOT NULL UNIQUE,
                    doc INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE pieces(pos INTEGER PRIMARY KEY, piece_id TEXT NOT NULL UNIQUE,
                    block INTEGER NOT NULL, search_text TEXT NOT NULL, codes TEXT NOT NULL);
CREATE TABLE codes(code TEXT NOT NULL, pos INTEGER NOT NULL, is_primary INTEGER NOT NULL);
"""
_INDEXES = """
CREATE INDEX documents_family ON documents(family);
CREATE INDEX blocks_doc ON blocks(doc);
CREATE INDEX codes_code ON codes(code);
"""


def write_store(path: Path, documents: Sequence[LoadedDocument]) -> None:
    """Write the rows of `documents` in corpus order (positions = the bm25s and column rows)."""
    con = sqlite3.connect(path)
    try:
        con.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + _SCHEMA)
        docs: list[tuple] = []
        blocks: list[tuple] = []
        pieces: list[tuple] = []
        codes: list[tuple] = []

        def flush(at_least: int) -> None:
            for table, rows, marks in (("documents", docs, 6), ("blocks", blocks, 4),
                                       ("pieces", pieces, 5), ("codes", codes, 3)):
                if len(rows) >= at_least:
                    con.executemany(f"INSERT INTO {table} VALUES ({','.join('?' * marks)})",
                                    rows)
                    rows.clear()

        block_pos = piece_pos = 0
        for d_pos, d in enumerate(documents):
            docs.append((d_pos, d.meta.source_id, d.meta.family, d.meta.model_dump_json(),
                         d.content_hash, d.blocks[0].fields.model_dump_json()))
            own = {}
            for b in d.blocks:
                own[b.block_id] = block_pos
                blocks.append((block_pos, b.block_id, d_pos, b.model_dump_json()))
                block_pos += 1
            for p in d.pieces:
                pieces.append((piece_pos, p.piece_id, own[p.block_id], p.search_text,
                               json.dumps(p.codes)))
                codes += [(c, piece_pos, int(i == 0)) for i, c in enumerate(p.codes)]
                piece_pos += 1
            flush(20_000)
        flush(0)
        con.executescript(_INDEXES)
        con.commit()
    finally:
        con.close()


class DocStore:
    """Read-only access to one generation's `store.sqlite`, one connection per thread (the
    server answers from a thread pool); every connection is closed by `close()`."""

    def __init__(self, path: Path):
        if not path.exists():
            raise FileNotFoundError(path)
        self.uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._fields: dict[int, FilterFields] = {}  # document position -> its filter fields

    def con(self) -> sqlite3.Connection:
        c = getattr(self._local, "con", None)
        if c is None:
            c = sqlite3.connect(self.uri, uri=True, check_same_thread=False)
            self._local.con = c
            with self._lock:
                self._all.append(c)
        return c

    def close(self) -> None:
        with self._lock:
            for c in self._all:
                c.close()
            self._all.clear()
        self._local = threading.local()

    def one(self, sql: str, args: tuple = ()) -> tuple | None:
        return self.con().execute(sql, args).fetchone()

    def many(self, sql: str, keys: Sequence) -> list[tuple]:
        """`sql` holds one `{}` for the `IN (...)` list; keys are sent in chunks."""
        out: list[tuple] = []
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start:start + _CHUNK]
            out += self.con().execute(sql.format(",".join("?" * len(chunk))), chunk).fetchall()
        return out

    def fields_of_docs(self, docs: Iterable[int]) -> list[FilterFields]:
        """The filter fields of documents by position: one query for those not yet read
        (kept for the next requests; the keep is emptied past 65,536 documents)."""
        docs = [int(d) for d in docs]
        known = {d: f for d in set(docs) if (f := self._fields.get(d)) is not None}
        missing = sorted(set(docs) - known.keys())
        if missing:
            fresh = {pos: FilterFields.model_validate_json(raw) for pos, raw in self.many(
                "SELECT pos, fields FROM documents WHERE pos IN ({})", missing)}
            with self._lock:
                if len(self._fields) + len(fresh) > 65_536:
                    self._fields = {}
                self._fields.update(fresh)
            known.update(fresh)
        return [known[d] for d in docs]

    def fields_of_doc(self, doc: int) -> FilterFields:
        return self.fields_of_docs([doc])[0]

    def fields_of_source(self, source_id: str) -> FilterFields:
        """A document's stored filter fields (with its recorded history and corrections, which
        its metadata alone does not carry)."""
        row = self.con().execute("SELECT pos FROM documents WHERE source_id=?",
                                 (source_id,)).fetchone()
        if row is None:
            raise KeyError(source_id)
        return self.fields_of_doc(row[0])

    def piece_positions(self, piece_ids: Sequence[str]) -> dict[str, int]:
        return dict(self.many("SELECT piece_id, pos FROM pieces WHERE piece_id IN ({})",
                              list(dict.fromkeys(piece_ids))))

    def code_positions(self, code: str, primary: bool = False) -> list[int]:
        sql = "SELECT pos FROM codes WHERE code=?" + (" AND is_primary=1" if primary else "")
        return [r[0] for r in self.con().execute(sql, (code,))]

    def family_names(self) -> set[str]:
        return {r[0] for r in self.con().execute(
            "SELECT DISTINCT family FROM documents WHERE family IS NOT NULL")}

    def family(self, name: str) -> list[DocumentMeta]:
        return [DocumentMeta.model_validate_json(r[0]) for r in self.con().execute(
            "SELECT meta FROM documents WHERE family=? ORDER BY pos", (name,))]


class _KeyedTable(Mapping):
    """Rows of one table by key, read on demand (fresh objects each time); iteration streams
    the keys in position order. Subclasses name the table, key column and value column."""

    table = key = value = ""

    def __init__(self, store: DocStore, count: int):
        self.store, self.size = store, count

    @staticmethod
    def parse(raw):
        return raw

    def __getitem__(self, k):
        row = self.store.one(f"SELECT {self.value} FROM {self.table} WHERE {self.key}=?", (k,))
        if row is None:
            raise KeyError(k)
        return self.parse(row[0])

    def __contains__(self, k: object) -> bool:
        return isinstance(k, str) and self.store.one(
            f"SELECT 1 FROM {self.table} WHERE {self.key}=?", (k,)) is not None

    def __iter__(self) -> Iterator[str]:
        return (r[0] for r in self.store.con().execute(
            f"SELECT {self.key} FROM {self.table} ORDER BY pos"))

    def __len__(self) -> int:
        return self.size

    def values(self):  # streamed, not a view over a dict
        return (self.parse(r[0]) for r in self.store.con().execute(
            f"SELECT {self.value} FROM {self.table} ORDER BY pos"))


class BlockTable(_KeyedTable):
    """Blocks by id."""

    table, key, value = "blocks", "block_id", "data"
    parse = staticmethod(Block.model_validate_json)

    def many(self, block_ids: Sequence[str]) -> dict[str, Block]:
        """The blocks among `block_ids` that exist, in one query."""
        return {bid: Block.model_validate_json(raw) for bid, raw in self.store.many(
            "SELECT block_id, data FROM blocks WHERE block_id IN ({})", list(dict.fromkeys(
                block_ids)))}

    def of_document(self, source_id: str) -> list[Block]:
        """One document's blocks in document order, by key."""
        return [Block.model_validate_json(r[0]) for r in self.store.con().execute(
            "SELECT b.data FROM blocks b JOIN documents d ON d.pos = b.doc "
            "WHERE d.source_id=? ORDER BY b.pos", (source_id,))]


_PIECE = ("SELECT p.pos, p.piece_id, p.search_text, p.codes, b.block_id, b.doc, d.source_id "
          "FROM pieces p JOIN blocks b ON b.pos = p.block JOIN documents d ON d.pos = b.doc ")


class PieceTable(Sequence[Piece]):
    """Pieces by position (the bm25s row, the column row), read on demand."""

    def __init__(self, store: DocStore, count: int):
        self.store, self.size = store, count

    def _piece(self, row: tuple) -> Piece:
        _, pid, text, codes, block_id, doc, source_id = row
        return Piece.model_construct(piece_id=pid, block_id=block_id, source_id=source_id,
                                     search_text=text, codes=tuple(json.loads(codes)),
                                     fields=self.store.fields_of_doc(doc))

    def __getitem__(self, pos):  # type: ignore[override]
        if isinstance(pos, slice):
            return [self[i] for i in range(*pos.indices(self.size))]
        pos = int(pos)
        if pos < 0:
            pos += self.size
        row = self.store.one(_PIECE + "WHERE p.pos=?", (pos,))
        if row is None:
            raise IndexError(f"piece position {pos} is outside 0..{self.size - 1}")
        return self._piece(row)

    def many(self, positions: Sequence[int]) -> dict[int, Piece]:
        """Several pieces by position in one query."""
        rows = self.store.many(_PIECE + "WHERE p.pos IN ({})", sorted({int(p) for p in positions}))
        return {r[0]: self._piece(r) for r in rows}

    def __iter__(self) -> Iterator[Piece]:
        return (self._piece(r) for r in self.store.con().execute(_PIECE + "ORDER BY p.pos"))

    def __len__(self) -> int:
        return self.size


class PiecePositions(_KeyedTable):
    """Piece id → position."""

    table, key, value = "pieces", "piece_id", "pos"


class DocumentTable(_KeyedTable):
    """Document metadata by source id."""

    table, key, value = "documents", "source_id", "meta"
    parse = staticmethod(DocumentMeta.model_validate_json)

    def records(self) -> Iterator[tuple[DocumentMeta, str, dict]]:
        """Every document's metadata, content hash and stored filter fields (the writer's
        incremental build and `generation_documents` read these)."""
        for meta, h, fields in self.store.con().execute(
                "SELECT meta, content_hash, fields FROM documents ORDER BY pos"):
            yield DocumentMeta.model_validate_json(meta), h, json.loads(fields)

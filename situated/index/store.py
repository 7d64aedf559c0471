"""Build and open the persistent index.

Layout of an index directory:

    INDEX/
      current -> generations/<id>     symlink, switched atomically on publish
      generations/<id>/
        manifest.json                 schema, embedding model id, corpus hash, counts, warnings
        blocks.jsonl                  the docstore of parent blocks
        pieces.jsonl                  child pieces with their filterable fields
        bm25/                         the saved bm25s index (one row per piece, same order)
        chroma/                       Chroma persistent collection `pieces` (ids = piece ids)

A build writes a new generation beside the published one and publishes it with one
`rename()` of the `current` symlink, so readers always see one complete generation and a failed
build leaves the previous one answering.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import json
import os
import re
import shutil
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

import bm25s
import numpy as np
from pydantic import BaseModel, ConfigDict

from situated.documents import Block, DocumentMeta, LoadedDocument, Piece
from situated.errors import IndexError_, SituatedError
from situated.index.cache import EmbeddingCache
from situated.index.embeddings import MiniLMEmbeddings
from situated.index.text import Tokenizer
from situated.loaders.corpus import Corpus
from situated.settings import Settings

SCHEMA_VERSION = 1
COLLECTION = "pieces"
Progress = Callable[[str, int, int], None]  # (stage, done, total)


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int
    embedding_model: str
    chroma_url: str | None = None  # None: embedded store in the generation directory
    collection: str = COLLECTION
    corpus_hash: str
    created_at: str
    documents: int
    blocks: int
    pieces: int
    products: list[str]
    warnings: list[str]
    sources: dict[str, str]  # source_id -> content hash


def chroma_client(path: Path, url: str | None = None):
    """The embedded store in the generation directory, or a Chroma server (`chroma run`) when
    `url` (settings `chroma_url`) is given."""
    import chromadb

    if url:
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise IndexError_(f"chroma_url must look like http://127.0.0.1:8001, got {url!r}")
        try:
            return chromadb.HttpClient(
                host=parsed.hostname, port=parsed.port or (443 if parsed.scheme == "https" else 80),
                ssl=parsed.scheme == "https",
                settings=chromadb.Settings(anonymized_telemetry=False))
        except Exception as exc:  # chromadb raises plain ValueError/ConnectError here
            raise IndexError_(f"cannot reach the Chroma server at {url} ({exc}); start it with "
                              "`chroma run --path DIR --host 127.0.0.1 --port N`") from None
    return chromadb.PersistentClient(
        path=str(path), settings=chromadb.Settings(anonymized_telemetry=False)
    )


def collection_name(generation: str, url: str | None) -> str:
    """One collection per generation on a server (it hosts them all); `pieces` when embedded."""
    return f"{COLLECTION}-{generation}" if url else COLLECTION


def release_chroma() -> None:
    """Drop Chroma's per-path client cache so a generation directory can be moved or removed."""
    from chromadb.api.client import SharedSystemClient

    SharedSystemClient.clear_system_cache()


@contextmanager
def writer_lock(root: Path) -> Iterator[None]:
    """One writer per index directory; a second one fails at once with a clear message."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise IndexError_(
                f"another ingest is writing {root}; wait for it to finish and run again"
            ) from None
        yield


def build_index(
    corpus: Corpus, root: Path, embeddings: MiniLMEmbeddings, settings: Settings,
    progress: Progress | None = None, cache: EmbeddingCache | None = None,
    locked: bool = False,
) -> Manifest:
    """Embed and index a validated corpus into a new generation, then publish it atomically.

    Vectors come from the embedding cache where the same model already embedded the same text
    (`settings.cache_dir / "embeddings.sqlite"` unless another cache is given). When the
    published generation has an embedded Chroma store built with the same model, it is copied
    and only the pieces of added, changed and removed documents are written (`locked`: the
    caller already holds the writer lock)."""
    progress = progress or (lambda *_: None)
    own_cache = cache is None
    cache = cache or EmbeddingCache(settings.cache_dir / "embeddings.sqlite")
    root = Path(root)
    with contextlib.nullcontext() if locked else writer_lock(root):
        gens = root / "generations"
        gens.mkdir(exist_ok=True)
        clean_leftovers(root)
        base = _reusable_base(root, embeddings, settings)
        gen = gens / f"{_next_serial(gens):06d}-{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%S}"
        tmp = gens / f".building-{gen.name}"
        try:
            manifest = _write_generation(corpus, tmp, embeddings, settings, progress, cache,
                                         base)
            release_chroma()
            tmp.rename(gen)
            _publish(root, gen)
        except BaseException:
            release_chroma()
            shutil.rmtree(tmp, ignore_errors=True)
            _drop_server_collection(settings.chroma_url, gen.name)
            raise
        finally:
            if own_cache:
                cache.close()
        _prune(root, keep={gen.name}, url=settings.chroma_url)
        return manifest


def clean_leftovers(root: Path) -> None:
    """Remove half-built generations of a killed ingest (call with the writer lock held)."""
    for leftover in (Path(root) / "generations").glob(".building-*"):
        shutil.rmtree(leftover, ignore_errors=True)


def _reusable_base(root: Path, embeddings, settings: Settings) -> tuple[Path, Manifest] | None:
    """The published generation, if its embedded Chroma store can be copied and patched."""
    try:
        gen = current_generation(root)
        manifest = Manifest.model_validate_json((gen / "manifest.json").read_text("utf-8"))
    except (SituatedError, OSError, ValueError):
        return None
    same = (manifest.schema_version == SCHEMA_VERSION and manifest.chroma_url is None
            and settings.chroma_url is None and manifest.embedding_model == embeddings.model_id
            and (gen / "chroma").is_dir() and (gen / "documents.jsonl").exists())
    return (gen, manifest) if same else None


def _write_generation(
    corpus: Corpus, out: Path, embeddings: MiniLMEmbeddings, settings: Settings,
    progress: Progress, cache: EmbeddingCache, base: tuple[Path, Manifest] | None = None,
) -> Manifest:
    out.mkdir(parents=True)
    blocks = [b for d in corpus.documents for b in d.blocks]
    pieces = [p for d in corpus.documents for p in d.pieces]
    with open(out / "blocks.jsonl", "w", encoding="utf-8") as fh:
        fh.writelines(b.model_dump_json() + "\n" for b in blocks)
    with open(out / "pieces.jsonl", "w", encoding="utf-8") as fh:
        fh.writelines(p.model_dump_json() + "\n" for p in pieces)
    with open(out / "documents.jsonl", "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps({"meta": d.meta.model_dump(mode="json"),
                                  "content_hash": d.content_hash}, ensure_ascii=False) + "\n"
                      for d in corpus.documents)
    tokenizer = Tokenizer()
    retriever = bm25s.BM25()
    retriever.index([tokenizer(p.search_text) for p in pieces], show_progress=False)
    retriever.save(str(out / "bm25"), show_progress=False)
    progress("bm25", len(pieces), len(pieces))

    generation = out.name.removeprefix(".building-")
    name = collection_name(generation, settings.chroma_url)
    todo = pieces
    if base is not None:  # copy the published store, then patch it
        base_gen, base_manifest = base
        shutil.copytree(base_gen / "chroma", out / "chroma")
        col = chroma_client(out / "chroma").get_collection(base_manifest.collection)
        now = {d.meta.source_id: d.content_hash for d in corpus.documents}
        stale = [sid for sid, h in base_manifest.sources.items() if now.get(sid) != h]
        for start in range(0, len(stale), 500):
            col.delete(where={"source_id": {"$in": stale[start:start + 500]}})
        kept = {sid for sid, h in base_manifest.sources.items() if now.get(sid) == h}
        todo = [p for p in pieces if p.source_id not in kept]
    else:
        client = chroma_client(out / "chroma", settings.chroma_url)
        col = client.create_collection(
            name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
        )
    # Chroma's HNSW insert of one batch runs in a worker thread while the next batch is
    # embedded: both release the GIL, so the insert hides behind the embedding.
    step = settings.chroma_write_batch
    with ThreadPoolExecutor(max_workers=1) as writer:
        pending = None
        for start in range(0, len(todo), step):
            batch = todo[start:start + step]
            vectors = cache.encode(embeddings, [p.search_text for p in batch])
            if pending is not None:
                pending.result()
            pending = writer.submit(
                col.add, ids=[p.piece_id for p in batch], embeddings=vectors,
                metadatas=[p.fields.to_chroma(p.block_id) for p in batch],
                documents=[p.search_text for p in batch])
            progress("embed", start + len(batch), len(todo))
        if pending is not None:
            pending.result()
    if col.count() != len(pieces):
        raise IndexError_(f"Chroma holds {col.count()} pieces after the build, expected "
                          f"{len(pieces)}; nothing was published, re-run the ingest")
    manifest = Manifest(
        schema_version=SCHEMA_VERSION, embedding_model=embeddings.model_id,
        chroma_url=settings.chroma_url, collection=col.name,
        corpus_hash=corpus.corpus_hash(), created_at=dt.datetime.now(dt.UTC).isoformat(),
        documents=len(corpus.documents), blocks=len(blocks), pieces=len(pieces),
        products=sorted(corpus.products()), warnings=list(corpus.warnings),
        sources={d.meta.source_id: d.content_hash for d in corpus.documents},
    )
    (out / "manifest.json").write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
    return manifest


def _next_serial(gens: Path) -> int:
    """Generations are numbered so that name order is publish order."""
    serials = [int(g.name[:6]) for g in gens.iterdir() if re.match(r"^\d{6}-", g.name)]
    return max(serials, default=0) + 1


def _publish(root: Path, gen: Path) -> None:
    link_tmp = root / f".current-{uuid.uuid4().hex[:8]}"
    os.symlink(Path("generations") / gen.name, link_tmp)
    os.replace(link_tmp, root / "current")  # atomic on POSIX


def _drop_server_collection(url: str | None, generation: str) -> None:
    if not url:
        return
    try:
        chroma_client(Path("."), url).delete_collection(collection_name(generation, url))
    except Exception:  # noqa: BLE001 - already gone or server down: nothing left to clean
        pass


def _prune(root: Path, keep: set[str], url: str | None = None) -> None:
    """Remove generations other than the published one and the one before it."""
    gens = sorted((root / "generations").iterdir(), key=lambda p: p.name)
    finished = [g for g in gens if not g.name.startswith(".")]
    keep = keep | {finished[-2].name} if len(finished) >= 2 else keep
    for g in gens:
        if g.name not in keep and not g.name.startswith(".building-"):
            shutil.rmtree(g, ignore_errors=True)
            _drop_server_collection(url, g.name)


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
        meta = DocumentMeta.model_validate(d["meta"])
        docs.append(LoadedDocument(meta=meta, blocks=tuple(blocks.get(meta.source_id, ())),
                                   pieces=tuple(pieces.get(meta.source_id, ())),
                                   content_hash=d["content_hash"]))
    return docs


def current_generation(root: Path) -> Path:
    link = Path(root) / "current"
    if not link.exists():
        raise IndexError_(
            f"no index at {root}; build one with `situated ingest PATH --index {root}`"
        )
    return link.resolve()


class Index:
    """One opened generation: blocks, pieces, filter columns, code postings, bm25s and Chroma."""

    def __init__(self, root: Path, embeddings: MiniLMEmbeddings):
        from situated.retrievers.filter import FilterColumns  # columns live with the filter

        self.root = Path(root)
        self.generation = current_generation(self.root)
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
        for line in (self.generation / "blocks.jsonl").read_text(encoding="utf-8").splitlines():
            b = Block.model_validate_json(line)
            self.blocks[b.block_id] = b
        self.pieces: list[Piece] = [
            Piece.model_validate_json(line)
            for line in (self.generation / "pieces.jsonl").read_text(encoding="utf-8").splitlines()
        ]
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
        self.bm25 = bm25s.BM25.load(str(self.generation / "bm25"))
        client = chroma_client(self.generation / "chroma", self.manifest.chroma_url)
        try:
            self.collection = client.get_collection(self.manifest.collection)
        except Exception as exc:  # noqa: BLE001 - chromadb's NotFoundError varies by client
            raise IndexError_(
                f"index {root}: Chroma collection {self.manifest.collection!r} is missing "
                f"({exc}); re-run `situated ingest`") from None

    def __len__(self) -> int:
        return len(self.pieces)


def sample_docs_dir() -> Path:
    return Path(__file__).resolve().parents[1] / "sample" / "docs"


def ensure_sample_index(settings: Settings, embeddings: MiniLMEmbeddings) -> Path:
    """Index the built-in sample corpus on first use (or after it changed) into the cache dir."""
    from situated.loaders.corpus import load_corpus

    root = settings.sample_index_dir()
    corpus = load_corpus([sample_docs_dir()])
    try:
        gen = current_generation(root)
        manifest = Manifest.model_validate_json((gen / "manifest.json").read_text("utf-8"))
        if (manifest.corpus_hash == corpus.corpus_hash()
                and manifest.embedding_model == embeddings.model_id
                and manifest.schema_version == SCHEMA_VERSION
                and manifest.chroma_url == settings.chroma_url):
            return root
    except (SituatedError, OSError, ValueError):
        pass
    build_index(corpus, root, embeddings, settings)
    return root

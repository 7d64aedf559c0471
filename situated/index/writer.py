"""Building a generation: write the docstore, bm25s and Chroma stores of a validated corpus
beside the published generation, then publish it with one rename.

A build writes a new generation beside the published one and publishes it with one `rename()`
of the `current` symlink, so readers always see one complete generation and a failed build
leaves the previous one answering.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import json
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from situated.errors import IndexError_, SituatedError
from situated.index.bm25_files import write_bm25
from situated.index.cache import EmbeddingCache
from situated.index.columns import FilterColumns, IdTable
from situated.index.docstore import STORE_FILE, DocStore, DocumentTable, write_store
from situated.index.embeddings import Embedder
from situated.index.integrity import record
from situated.index.publisher import (
    clean_leftovers,
    drop_server_collection,
    next_serial,
    prune,
    publish,
    writer_lock,
)
from situated.index.sample_vectors import seed_cache
from situated.index.sentences import (
    TITLED,
    under_title,
    units_of,
    write_block_units,
    write_sentences,
)
from situated.index.store import (
    GRAPH_SYNC,
    HNSW,
    SAMPLE_STAMP,
    SCHEMA_VERSION,
    Manifest,
    Thresholds,
    chroma_client,
    collection_name,
    current_generation,
    history_record,
    release_chroma,
    sample_docs_dir,
    sample_stamp,
)
from situated.loaders.corpus import Corpus
from situated.settings import Settings

Progress = Callable[[str, int, int], None]  # (stage, done, total)


# (a built, unpublished generation, its documents) -> the thresholds for its manifest
Calibrator = Callable[[Path, list], Thresholds]


def build_index(
    corpus: Corpus, root: Path, embeddings: Embedder, settings: Settings,
    progress: Progress | None = None, cache: EmbeddingCache | None = None,
    locked: bool = False, calibrator: Calibrator | None = None, reuse: bool = True,
    before_publish: Callable[[], None] | None = None,
) -> Manifest:
    """Embed and index a validated corpus into a new generation, then publish it atomically.

    Vectors come from the embedding cache where the same model already embedded the same text
    (`settings.cache_dir / "embeddings.sqlite"` unless another cache is given). When the
    published generation has an embedded Chroma store built with the same model, it is copied
    and only the pieces of added, changed and removed documents are written (`locked`: the
    caller already holds the writer lock). `calibrator` sets the relevance thresholds on the new
    generation before it is published (`situated.calibration`); they go into its manifest.
    `reuse=False`: nothing is copied from the published generation (it is damaged).
    `before_publish` runs last, before the generation is published; an error it raises leaves
    `current` as it was (an ingest checks that nothing moved since it read)."""
    progress = progress or (lambda *_: None)
    own_cache = cache is None
    cache = cache or EmbeddingCache.of(settings)
    root = Path(root)
    with contextlib.nullcontext() if locked else writer_lock(root):
        gens = root / "generations"
        gens.mkdir(exist_ok=True)
        clean_leftovers(root)
        base = _reusable_base(root, embeddings, settings) if reuse else None
        gen = gens / f"{next_serial(gens):06d}-{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%S}"
        tmp = gens / f".building-{gen.name}"
        try:
            manifest = _write_generation(corpus, tmp, embeddings, settings, progress, cache,
                                         base)
            if calibrator is not None:
                progress("calibrate", 0, 1)
                manifest = manifest.model_copy(
                    update={"relevance": calibrator(tmp, list(corpus.documents))})
                (tmp / "manifest.json").write_text(manifest.model_dump_json(indent=2),
                                                   encoding="utf-8")
            release_chroma(tmp / "chroma")
            record(tmp)  # checksums: a later ingest can tell a damaged generation
            if before_publish is not None:
                before_publish()
            tmp.rename(gen)
            publish(root, gen)
        except BaseException as exc:
            release_chroma(tmp / "chroma")
            shutil.rmtree(tmp, ignore_errors=True)
            drop_server_collection(settings.chroma_url, gen.name)
            if isinstance(exc, (OSError, shutil.Error)) or type(exc).__name__ == "InternalError":
                raise IndexError_(
                    f"writing a new generation of {root} failed ({type(exc).__name__}: "
                    f"{str(exc)[:200]}); nothing was published and the index is as it was. "
                    "Free disk space (or fix what the error names) and re-run the ingest"
                ) from None
            raise
        finally:
            if own_cache:
                cache.close()
        prune(root, keep={gen.name}, url=settings.chroma_url)
        return manifest


def _reusable_base(root: Path, embeddings, settings: Settings) -> tuple[Path, Manifest] | None:
    """The published generation, if its embedded Chroma store can be copied and patched."""
    try:
        gen = current_generation(root)
        manifest = Manifest.model_validate_json((gen / "manifest.json").read_text("utf-8"))
    except (SituatedError, OSError, ValueError):
        return None
    # another block limit splits unchanged documents into other pieces; a store written before
    # `GRAPH_SYNC` is rebuilt once; only an embedded store is copied
    same = (manifest.built_as(settings, embeddings.model_id) and settings.chroma_url is None
            and (gen / "chroma").is_dir() and (gen / STORE_FILE).exists())
    return (gen, manifest) if same else None


def _document_fields(gen: Path) -> dict[str, dict]:
    """Each document's filter fields as the generation stored them."""
    store = DocStore(gen / STORE_FILE)
    try:
        return {meta.source_id: fields
                for meta, _, fields in DocumentTable(store, 0).records()}
    finally:
        store.close()


def write_columns(out: Path, documents) -> None:
    """The memory-mapped columns of a generation: piece → document and → block positions, block
    ids and piece ids by position, piece positions by id hash (`IdTable`; left out in the unlikely case two ids share a
    hash: readers then ask the row store), each
    document's version family (−1: none with another version), and the filter columns with one
    group per document. Every piece and block of a document carries its document's filter
    fields (checked here: the columns rely on it)."""
    out.mkdir(parents=True)
    fields = []
    piece_doc, piece_block, block_base = [], [], 0
    for d_pos, d in enumerate(documents):
        f = d.blocks[0].fields
        own = {b.block_id: block_base + i for i, b in enumerate(d.blocks)}
        if any(x.fields is not f and x.fields != f for x in (*d.blocks, *d.pieces)):
            raise IndexError_(f"{d.meta.source_id}: its blocks and pieces carry different "
                              "filter fields; the loader must give them the document's")
        fields.append(f)
        piece_doc += [d_pos] * len(d.pieces)
        piece_block += [own[p.block_id] for p in d.pieces]
        block_base += len(d.blocks)
    np.save(out / "piece_doc.npy", np.asarray(piece_doc, dtype=np.int32))
    np.save(out / "block_ids.npy", np.asarray([b.block_id for d in documents for b in d.blocks],
                                              dtype=str))
    IdTable.save(out, [p.piece_id for d in documents for p in d.pieces])
    np.save(out / "piece_block.npy", np.asarray(piece_block, dtype=np.int32))
    # piece ids by position, UTF-8 bytes: the vector leg names a small admitted set to Chroma
    np.save(out / "piece_ids.npy", np.asarray(
        [p.piece_id.encode("utf-8") for d in documents for p in d.pieces], dtype=bytes))
    sizes = Counter(d.meta.family for d in documents if d.meta.family)
    numbers = {fam: i for i, fam in enumerate(sorted(f for f, n in sizes.items() if n > 1))}
    np.save(out / "doc_family.npy", np.asarray(
        [numbers.get(d.meta.family, -1) for d in documents], dtype=np.int32))
    FilterColumns(fields, row_group=np.asarray(piece_doc, dtype=np.int32)).save(out / "filter")


def _write_generation(
    corpus: Corpus, out: Path, embeddings: Embedder, settings: Settings,
    progress: Progress, cache: EmbeddingCache, base: tuple[Path, Manifest] | None = None,
) -> Manifest:
    """Every file of a generation: row store, columns, history, bm25s, Chroma, manifest."""
    out.mkdir(parents=True)
    pieces = [p for d in corpus.documents for p in d.pieces]
    write_store(out / STORE_FILE, corpus.documents)
    write_columns(out / "columns", corpus.documents)
    history = corpus.history or tuple(history_record(d) for d in corpus.documents)
    with open(out / "history.jsonl", "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(h, ensure_ascii=False) + "\n" for h in history)
    write_bm25(corpus, out)
    progress("bm25", len(pieces), len(pieces))
    col, todo = _open_vector_store(corpus, out, settings, base)
    _add_vectors(col, todo, embeddings, settings, progress, cache)
    if col.count() != len(pieces):
        raise IndexError_(f"Chroma holds {col.count()} pieces after the build, expected "
                          f"{len(pieces)}; nothing was published, re-run the ingest")
    blocks = [b for d in corpus.documents for b in d.blocks]
    per_block = [units_of(b.text) for b in blocks]
    units = list(dict.fromkeys(u for block in per_block for u in block))
    write_sentences(out, units, lambda batch: cache.encode(embeddings, batch),
                    batch=settings.chroma_write_batch,
                    progress=lambda done, total: progress("sentences", done, total))
    write_block_units(out, per_block)
    per_titled = [under_title(b.title, bu) for b, bu in zip(blocks, per_block, strict=True)]
    titled = list(dict.fromkeys(u for block in per_titled for u in block))
    write_sentences(out, titled, lambda batch: cache.encode(embeddings, batch),
                    batch=settings.chroma_write_batch, folder=TITLED,
                    progress=lambda done, total: progress("titled sentences", done, total))
    write_block_units(out, per_titled, folder=TITLED)
    multilingual = _write_multilingual(out, pieces, units, embeddings, settings, progress,
                                       cache)
    manifest = Manifest(
        schema_version=SCHEMA_VERSION, embedding_model=embeddings.model_id,
        chroma_url=settings.chroma_url, collection=col.name,
        corpus_hash=corpus.corpus_hash(), created_at=dt.datetime.now(dt.UTC).isoformat(),
        documents=len(corpus.documents), blocks=corpus.n_blocks, pieces=len(pieces),
        products=sorted(corpus.products()), warnings=list(corpus.warnings),
        aliases=sorted((a, d.meta.product[0], d.meta.source_id) for d in corpus.documents
                       for a in d.meta.aliases),
        timezone=settings.timezone, facets=list(settings.facets),
        block_limit=settings.block_limit,
        split_sections=corpus.split_sections, sentences=len(units), titled=len(titled),
        multilingual_model=multilingual, graph_sync=GRAPH_SYNC,
        sources={d.meta.source_id: d.content_hash for d in corpus.documents},
    )
    (out / "manifest.json").write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
    return manifest


def _write_multilingual(out: Path, pieces: list, units: list[str], embeddings: Embedder,
                        settings: Settings, progress: Progress,
                        cache: EmbeddingCache) -> str | None:
    """The multilingual leg's vectors (`index.multilingual`), unless the settings turn it off
    or the index's own model already reads every script; returns the model id or None."""
    if not settings.multilingual_leg or getattr(embeddings, "multilingual", False):
        return None
    from situated.index.multilingual import multilingual_model, write_multilingual

    model = multilingual_model()
    return write_multilingual(out, [p.search_text for p in pieces], units,
                              lambda batch: cache.encode(model, batch),
                              batch=settings.chroma_write_batch,
                              progress=lambda done, total: progress("multilingual", done, total))


def _open_vector_store(corpus: Corpus, out: Path, settings: Settings,
                       base: tuple[Path, Manifest] | None) -> tuple[Any, list]:
    """The generation's Chroma collection and the pieces still to embed: a copy of the
    published store patched (stale documents deleted, changed filter fields updated), or a new
    collection that needs every piece."""
    pieces = [p for d in corpus.documents for p in d.pieces]
    if base is None:
        name = collection_name(out.name.removeprefix(".building-"), settings.chroma_url)
        client = chroma_client(out / "chroma", settings.chroma_url)
        return client.create_collection(
            name, embedding_function=None, configuration={"hnsw": HNSW}), pieces
    base_gen, base_manifest = base
    shutil.copytree(base_gen / "chroma", out / "chroma", copy_function=shutil.copyfile)  # writable
    col = chroma_client(out / "chroma").get_collection(base_manifest.collection)
    now = {d.meta.source_id: d.content_hash for d in corpus.documents}
    stale = [sid for sid, h in base_manifest.sources.items() if now.get(sid) != h]
    for start in range(0, len(stale), 500):
        col.delete(where={"source_id": {"$in": stale[start:start + 500]}})
    kept = {sid for sid, h in base_manifest.sources.items() if now.get(sid) == h}
    # an unchanged document whose filter fields changed (a later correction of it was
    # recorded, or a new timezone): same vectors, new metadata
    before = _document_fields(base_gen)
    refresh = [p for d in corpus.documents if d.meta.source_id in kept
               and before.get(d.meta.source_id) != d.blocks[0].fields.model_dump(mode="json")
               for p in d.pieces]
    for start in range(0, len(refresh), settings.chroma_write_batch):
        batch = refresh[start:start + settings.chroma_write_batch]
        col.update(ids=[p.piece_id for p in batch],
                   metadatas=[p.fields.to_chroma(p.block_id) for p in batch])
    return col, [p for p in pieces if p.source_id not in kept]


def _add_vectors(col, todo: list, embeddings: Embedder, settings: Settings,
                 progress: Progress, cache: EmbeddingCache) -> None:
    """Embed `todo` (through the cache) and add it in write batches. Chroma's HNSW insert of
    one batch runs in a worker thread while the next batch is embedded: both release the GIL,
    so the insert hides behind the embedding."""
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


def ensure_sample_index(settings: Settings, embeddings: Embedder,
                        progress: Progress | None = None) -> Path:
    """Index the built-in sample corpus on first use (or after it changed) into the cache dir;
    `progress` hears ("sample", 0, documents) when it starts building, then the build's
    stages (a first `situated ask` says what it is doing instead of a silent minute)."""
    root = settings.sample_index_dir()
    corpus = sample_corpus(settings, embeddings)
    with _sample_turn(root):  # another process building it: wait, then use what it built
        if not _sample_current(root, corpus, settings, embeddings):
            if progress is not None:
                progress("sample", 0, len(corpus.documents))
            cache = EmbeddingCache.of(settings)
            try:  # the sample's shipped vectors: nothing embedded that they hold
                seed_cache(cache)
                build_index(corpus, root, embeddings, settings, progress, cache=cache)
            finally:
                cache.close()
        _write_stamp(root, settings, embeddings)
    return root


def sample_corpus(settings: Settings, embeddings: Embedder) -> Corpus:
    """The built-in sample corpus, loaded as its index is built (the first use, and
    `tools/sample_vectors.py`, which writes its shipped vectors)."""
    from situated.loaders.corpus import load_corpus
    from situated.loaders.sizing import BlockLimit

    limit = BlockLimit(settings.block_limit, embeddings.count_tokens,
                       piece_tokens=embeddings.max_tokens)
    return load_corpus([sample_docs_dir()], timezone=settings.timezone, limit=limit,
                       max_mb=settings.max_file_mb, facets=settings.facets)


@contextlib.contextmanager
def _sample_turn(root: Path):
    """Hold the sample's build lock, waiting (and saying so) while another process of this
    install builds it: a first `situated ask` run twice at once answers twice."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".sample-lock", "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"another process is building the sample index at {root}; waiting for it",
                  file=sys.stderr, flush=True)
            fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def _sample_current(root: Path, corpus, settings: Settings, embeddings: Embedder) -> bool:
    """The published sample is this corpus, built as these settings would build it."""
    from situated.index.multilingual import leg_as_wanted

    try:
        gen = current_generation(root)
        manifest = Manifest.model_validate_json((gen / "manifest.json").read_text("utf-8"))
        if (manifest.corpus_hash == corpus.corpus_hash()
                and tuple(manifest.facets) == settings.facets
                and manifest.built_as(settings, embeddings.model_id)
                and leg_as_wanted(gen, manifest, settings, embeddings)):
            return True
    except (SituatedError, OSError, ValueError):
        pass
    return False


def _write_stamp(root: Path, settings: Settings, embeddings: Embedder) -> None:
    tmp = root / f"{SAMPLE_STAMP}.tmp"
    tmp.write_text(sample_stamp(settings, embeddings.model_id), encoding="utf-8")
    tmp.replace(root / SAMPLE_STAMP)


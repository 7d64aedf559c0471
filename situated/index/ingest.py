"""Incremental ingest: merge new files into the published corpus, validate the whole result,
and publish a new generation that re-embeds nothing it already had.

The record of what was indexed is the published generation itself (its row store: source
id, metadata, content hash). A document whose hash is unchanged keeps its blocks, pieces and
vectors; a changed one replaces its old blocks and pieces in every store (Chroma, docstore,
bm25s, exact-code postings); with `prune`, documents that are no longer under the given paths
are removed. Validation (duplicate ids, overlapping versions) runs on the merged corpus.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from situated.documents import LoadedDocument
from situated.errors import IndexError_, SituatedError
from situated.index.cache import EmbeddingCache
from situated.index.integrity import damage
from situated.index.multilingual import leg_as_wanted
from situated.index.publisher import clean_leftovers, writer_lock
from situated.index.reader import generation_documents
from situated.index.store import (
    Manifest,
    current_generation,
    history_record,
)
from situated.index.writer import Calibrator, Progress, build_index
from situated.loaders.corpus import Corpus, load_corpus, validate_documents
from situated.loaders.sizing import BlockLimit
from situated.settings import Settings


def _published(root: Path) -> tuple[Path | None, list[LoadedDocument], Manifest | None]:
    """The published generation, its documents and manifest (none when there is no index); an
    index that cannot be read is an error, never "no documents"."""
    if not _has_index(root):
        return None, [], None
    try:
        gen = current_generation(root)
        return (gen, generation_documents(gen),
                Manifest.model_validate_json((gen / "manifest.json").read_text("utf-8")))
    except (SituatedError, OSError, ValueError, sqlite3.DatabaseError) as exc:
        raise IndexError_(
            f"index {root} has a published generation that cannot be read ({exc}); "
            "nothing was changed. Restore it, or ingest into a new --index directory"
        ) from None


def _compare(incoming: dict[str, LoadedDocument], old: dict[str, LoadedDocument],
             prune: bool) -> IngestReport:
    """Which incoming documents are added, changed or unchanged; with `prune`, which published
    ones are removed."""
    report = IngestReport(manifest=None)
    for sid, d in incoming.items():
        if sid not in old:
            report.added.append(sid)
        elif old[sid].content_hash != d.content_hash:
            report.changed.append(sid)
        else:
            report.unchanged.append(sid)
    report.removed = sorted(sid for sid in old if sid not in incoming and prune)
    return report


def _history(history: list[dict], report: IngestReport, merged, now_s: int) -> tuple[dict, ...]:
    """The record of versions after this ingest: a changed or removed version's record is
    closed (`superseded_s`), never deleted; added and changed versions get a new one."""
    for h in history:
        if h["superseded_s"] is None and h["source_id"] in {*report.changed, *report.removed}:
            h["superseded_s"] = now_s
    fresh = {*report.added, *report.changed}
    return (*history, *(history_record(d) for d in merged.documents if d.meta.source_id in fresh))


def _has_index(root: Path) -> bool:
    """A `current` link (even a dangling one) or a finished generation: an existing index."""
    link = root / "current"
    gens = root / "generations"
    return link.is_symlink() or link.exists() or (gens.is_dir() and any(
        not g.name.startswith(".") for g in gens.iterdir()))


def retime(doc: LoadedDocument, timezone: str) -> LoadedDocument:
    """The same document with its filter fields computed for another index timezone."""
    fields = doc.meta.filter_fields(timezone)
    return doc.model_copy(update={
        "blocks": tuple(b.model_copy(update={"fields": fields}) for b in doc.blocks),
        "pieces": tuple(p.model_copy(update={"fields": fields}) for p in doc.pieces)})


@dataclass
class IngestReport:
    manifest: Manifest | None
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    embedded: int = 0  # texts the model had to embed (cache misses)
    embedded_multilingual: int = 0  # texts the multilingual leg's model had to embed
    published: bool = False
    repaired: str | None = None  # why the published generation was rebuilt (it was damaged)


def read_history(gen: Path, previous: list[LoadedDocument]) -> list[dict]:
    """The generation's record of every version ever indexed (`history.jsonl`); a generation
    from before the record existed gets one line per document it holds."""
    path = gen / "history.jsonl"
    if path.exists():
        return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    return [history_record(d) for d in previous]


def ingest(paths: list[Path], root: Path, embeddings, settings: Settings, prune: bool = False,
           progress: Progress | None = None, on_file=None,
           now: Callable[[], dt.datetime] | None = None, calibrator: Calibrator | None = None,
           recalibrate: bool = False) -> IngestReport:
    """Load `paths`, merge them into the published corpus and publish a new generation.

    Every version is recorded when this ingest first sees it (`now`, injectable; front matter
    `recorded_at` wins), kept across later ingests; a changed or removed version's record is
    closed (`superseded_s`), never deleted (`history.jsonl`). `calibrator` sets the new
    generation's relevance thresholds (`situated.calibration`); with `recalibrate`, an unchanged
    corpus is published again so that it gets them."""
    if not paths and (prune or not recalibrate):
        raise IndexError_("no paths to ingest; give the files or folders of the corpus")
    root = Path(root)
    with writer_lock(root):  # before anything is read: a second ingest waits for none of it
        clean_leftovers(root)
        gen, previous, published = _published(root)
        # per-file problems stop here, nothing published
        new = None if not paths else load_corpus(
            paths, on_file=on_file, timezone=settings.timezone,
            limit=BlockLimit(settings.block_limit, embeddings.count_tokens,
                             piece_tokens=embeddings.max_tokens),
            max_mb=settings.max_file_mb, validate=False)
        if new is None and not previous:
            raise IndexError_(f"there is no index at {root} to calibrate; build it with "
                              f"`situated ingest PATH... --index {root}`")
        now_s = int((now or (lambda: dt.datetime.now(dt.UTC)))().timestamp())
        old_recorded = {d.meta.source_id: d.blocks[0].fields.recorded_s for d in previous}
        history = read_history(gen, previous) if gen is not None and previous else []
        retimed = published is not None and (published.timezone != settings.timezone
                                             or tuple(published.facets) != settings.facets)
        if retimed:  # date-only bounds are read in the index's timezone: recompute them all
            previous = [retime(d, settings.timezone) for d in previous]
        incoming = {d.meta.source_id: d for d in new.documents} if new else {}
        old = {d.meta.source_id: d for d in previous}
        report = _compare(incoming, old, prune)
        kept_old = [d for sid, d in old.items() if sid not in incoming and not prune]
        recorded = {sid: old_recorded[sid] for sid in [*report.unchanged, *(
            d.meta.source_id for d in kept_old)]}
        recorded |= {sid: now_s for sid in [*report.added, *report.changed]
                     if incoming[sid].meta.recorded_at is None}
        merged = validate_documents([*kept_old, *incoming.values()], recorded,
                                    facets=settings.facets)
        merged = replace(merged, history=_history(history, report, merged, now_s))
        # an index an earlier version wrote (another schema) is rebuilt even when no document
        # changed: readers refuse it and tell the user to run this ingest
        # (and one whose vector store saved only part of its graph, `store.GRAPH_SYNC`)
        outdated = published is not None and gen is not None and (
                                              not published.current_format()
                                              or not leg_as_wanted(gen, published, settings,
                                                                   embeddings))
        unchanged = previous and not (report.added or report.changed or report.removed
                                      or retimed or recalibrate or outdated)
        if unchanged and gen is not None:  # already this corpus, if it is intact
            report.repaired = damage(root, gen, embeddings)
            if report.repaired is None:
                return report
        return _build(report, merged, root, embeddings, settings, progress, calibrator,
                      _still_as_read(root, gen, new))


def _still_as_read(root: Path, gen: Path | None, new: Corpus | None) -> Callable[[], None]:
    """The check run just before publishing: the published generation is still the one this
    ingest merged into, and no file it read has changed since; else an error naming what
    moved, and `current` is left as it was."""
    def check() -> None:
        now = _current_name(root)
        if now != (gen.name if gen is not None else None):
            raise IndexError_(f"index {root} was published by another writer while this ingest "
                              f"ran (now {now}); nothing was published: run the ingest again")
        changed = new.changed_since_read() if new is not None else []
        if changed:
            raise IndexError_(f"{', '.join(changed[:5])} changed after this ingest read "
                              f"{'them' if len(changed) > 1 else 'it'}; nothing was published: "
                              "run the ingest again once the files are saved")
    return check


def _current_name(root: Path) -> str | None:
    try:
        return current_generation(root).name
    except (SituatedError, OSError):
        return None


def _build(report: IngestReport, merged, root: Path, embeddings, settings: Settings,
           progress, calibrator, before_publish: Callable[[], None]) -> IngestReport:
    """Publish the merged corpus (a damaged published generation is not copied from)."""
    cache = EmbeddingCache.of(settings)
    try:
        report.manifest = build_index(merged, root, embeddings, settings, progress,
                                      cache=cache, locked=True, calibrator=calibrator,
                                      reuse=report.repaired is None,
                                      before_publish=before_publish)
    finally:
        cache.close()
    report.embedded = cache.misses_by_model.get(embeddings.model_id, 0)
    report.embedded_multilingual = cache.misses - report.embedded
    report.published = True
    return report

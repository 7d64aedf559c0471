"""Load files into documents and validate the corpus as a whole (DESIGN "Documents").

Every problem in every file is collected first; if there is any, `DocumentError` lists them all
and nothing is returned, so an ingest publishes all or nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

from situated.documents import (
    LoadedDocument,
)
from situated.errors import DocumentError
from situated.loaders.axes import alias_problems, facet_values, release_problems
from situated.loaders.families import Correction, check_families
from situated.loaders.forms import PIPELINE_VERSION, build_forms
from situated.loaders.markdown import parse_markdown
from situated.loaders.meta import MAX_HEADING_CHARS, MetaProblems, parse_meta
from situated.loaders.notes import split_notes
from situated.loaders.parsed_json import parse_json
from situated.loaders.pdf import parse_pdf, read_sidecar, sidecar_path
from situated.loaders.reading import Seen, decoded, read_optional
from situated.loaders.sizing import BlockLimit

SUFFIXES = (".md", ".markdown", ".pdf", ".json")


@dataclass(frozen=True)
class Corpus:
    documents: tuple[LoadedDocument, ...]
    warnings: tuple[str, ...]
    # every version ever indexed, with when it became known and when it was superseded
    # (`history.jsonl`; empty = one open record per document, written by the index writer)
    history: tuple[dict, ...] = ()
    # every file read (and its sidecar) as it was when read: an ingest publishes only if none
    # changed since (`changed_since_read`)
    seen: tuple[Seen, ...] = ()

    def changed_since_read(self) -> list[str]:
        """The files read into this corpus that changed (or went) since."""
        return [s.path for s in self.seen if s.changed()]

    @property
    def n_blocks(self) -> int:
        return sum(len(d.blocks) for d in self.documents)

    @property
    def n_pieces(self) -> int:
        return sum(len(d.pieces) for d in self.documents)

    @property
    def split_sections(self) -> int:
        """Sections larger than the block limit, split into parts at their structure."""
        return sum(1 for d in self.documents for b in d.blocks if b.parts > 1 and b.part == 1)

    def products(self) -> set[str]:
        return {p for d in self.documents for p in d.meta.product}

    def corpus_hash(self) -> str:
        h = hashlib.sha256(PIPELINE_VERSION.encode())
        for d in sorted(self.documents, key=lambda d: d.meta.source_id):
            h.update(f"{d.meta.source_id}:{d.content_hash}\n".encode())
        return h.hexdigest()


def discover(paths: list[Path]) -> list[Path]:
    """Files to ingest under the given files/directories, in a stable order."""
    found: list[Path] = []
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise DocumentError([f"{p}: no such file or directory; check the path" for p in missing])
    unreadable: list[str] = []
    for p in paths:
        if p.is_dir():
            found += sorted(_walk(p, unreadable))
        elif p.suffix.lower() in SUFFIXES:
            if not p.is_file():
                unreadable.append(_not_regular(p))
            found.append(p)
        else:
            raise DocumentError([
                f"{p}: unsupported file type {p.suffix!r}; use one of {', '.join(SUFFIXES)}"
            ])
    if unreadable:  # never publish a corpus with a hole in it (a prune would delete the hole)
        raise DocumentError(unreadable)
    return list(dict.fromkeys(found))


def _not_regular(p: Path) -> str:
    return (f"{p}: not a regular file (a pipe, socket or device is never read: it could block "
            "forever); remove it or leave it out of the paths")


def _walk(root: Path, unreadable: list[str]) -> list[Path]:
    """Document files under `root`; a folder that cannot be listed is recorded, not skipped.

    Symbolic links inside the tree are refused, never followed or skipped: skipping a folder
    that became a link would make `--prune` delete its documents as if they were gone. Files
    that are not regular (a FIFO named `x.md`) are refused before anything opens them."""
    def failed(exc: OSError) -> None:
        unreadable.append(f"{exc.filename}: cannot read this folder ({exc.strerror}); fix its "
                          "permissions or leave it out of the paths")

    out = []
    for folder, dirs, files in os.walk(root, onerror=failed):
        for d in dirs:
            if not d.startswith(".") and (Path(folder) / d).is_symlink():
                unreadable.append(f"{Path(folder) / d}: a symbolic link to a folder; give the "
                                  "folder it points to as a path of its own, or replace the link "
                                  "by the folder")
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in files:
            p = Path(folder) / f
            if Path(f).suffix.lower() not in SUFFIXES or f.startswith("."):
                continue
            if p.is_symlink():
                unreadable.append(f"{p}: a symbolic link; give the file it points to as a path "
                                  "of its own, or replace the link by the file")
            elif not stat.S_ISREG(p.lstat().st_mode):
                unreadable.append(_not_regular(p))
            else:
                out.append(p)
    return out


def load_file(path: Path, timezone: str = "UTC", limit: BlockLimit | None = None,
              max_mb: float | None = None) -> LoadedDocument:
    """One file that makes one document (`load_documents` for any file: a changelog makes one
    per release)."""
    docs = load_documents(path, timezone, limit, max_mb)
    if len(docs) != 1:
        raise ValueError(f"{path} makes {len(docs)} documents (release notes split per "
                         "release); read it with load_documents")
    return docs[0]


def load_documents(path: Path, timezone: str = "UTC", limit: BlockLimit | None = None,
                   max_mb: float | None = None) -> list[LoadedDocument]:
    """One file → its loaded documents (one, or a changelog's one per release:
    `loaders.notes`); raises `MetaProblems` naming the file. A file over `max_mb` megabytes is
    refused before it is read."""
    try:
        size = path.stat().st_size
        if max_mb is not None and size > max_mb * 1e6:
            raise MetaProblems([(
                f"{path}: {size / 1e6:.1f} MB is over the per-file limit of {max_mb:g} MB "
                "(setting max_file_mb); split the document into smaller files, or raise the "
                f"limit with SITUATED_MAX_FILE_MB={size / 1e6 + 1:.0f}")])
        return _load_file(path, timezone, limit)
    except OSError as exc:
        raise MetaProblems([(f"{path}: cannot read it ({exc.strerror or exc}); fix its "
                             "permissions or leave it out of the paths")]) from None
    except RecursionError:
        raise MetaProblems([f"{path}: nested too deeply to read; flatten the structure"]) from None


def sidecar_of(path: Path) -> Path | None:
    """The metadata file read beside `path` (a PDF's, a parsed JSON's), None for Markdown."""
    suffix = path.suffix.lower()
    return sidecar_path(path) if suffix in (".pdf", ".json") else None


def _load_file(path: Path, timezone: str, limit: BlockLimit | None) -> list[LoadedDocument]:
    """Each file (and its sidecar) is read once: the bytes hashed are the bytes parsed."""
    suffix = path.suffix.lower()
    data = path.read_bytes()
    side = sidecar_of(path)
    side_data = read_optional(side) if side is not None else None
    digest = hashlib.sha256(data)
    if side_data is not None:
        digest.update(side_data)
    warnings: list[str] = []
    if suffix == ".pdf":
        raw = read_sidecar(path, side_data)
        title, sections = parse_pdf(path, data)
    elif suffix == ".json":
        raw, title, sections, warnings = parse_json(path, data, side_data)
        _check_sections(sections, path)
    else:
        text, warnings = _check_work(decoded(data, path), path)
        raw, title, sections = parse_markdown(text, str(path))
    meta = parse_meta(raw, str(path), warnings)
    if meta.title is None and title:
        meta = meta.model_copy(update={"title": title})
    out: list = []
    for own, part in split_notes(meta, sections):  # a changelog: one document per release
        blocks, pieces = build_forms(own, part, timezone, limit)
        if blocks:
            tag = digest.copy()
            tag.update(own.source_id.encode())
            out.append(LoadedDocument(
                meta=own, blocks=tuple(blocks), pieces=tuple(pieces),
                content_hash=tag.hexdigest(), warnings=tuple(warnings) if not out else ()))
    if not out:
        raise MetaProblems([f"{path}: no text found; a document needs at least one paragraph"])
    return out


MAX_TABLE_ROWS = 20_000
MAX_HEADINGS = 5_000
MAX_PARAGRAPH_CHARS = 200_000


_HEADING_RE = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_FENCE_RE = re.compile(r" {0,3}(?:```|~~~)")


def _check_work(text: str, path: Path) -> tuple[str, list[str]]:
    """The text to parse and its warnings. A heading is a title: one longer than
    `MAX_HEADING_CHARS`, or past the `MAX_HEADINGS`-th, is read as body text (escaped, so its
    words are kept and searchable), with a warning naming the file: real pages mark paragraphs
    up as headings, and a cosmetic limit never refuses a document. Refused, before parsing, is
    only a shape whose work has no bound (the size cap bounds bytes, not work): too many table
    rows or one giant paragraph."""
    rows = headings = run = longest = 0
    lines, fenced, demoted = text.splitlines(keepends=True), False, []
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        rows += stripped.startswith("|")
        fenced ^= bool(_FENCE_RE.match(line))
        if not fenced and _HEADING_RE.match(line):
            headings += 1
            length = len(stripped.rstrip("\r\n"))
            if length > MAX_HEADING_CHARS or headings > MAX_HEADINGS:
                lines[i] = "\\" + stripped
                demoted.append(length)
        run = run + len(line) if stripped else 0
        longest = max(longest, run)
    _refuse_over(path, rows, longest)
    warnings = []
    if long := [n for n in demoted if n > MAX_HEADING_CHARS]:
        warnings.append(f"{path}: {len(long)} heading(s) of up to {max(long):,} characters, "
                        f"over the {MAX_HEADING_CHARS} a heading may have, read as body text; "
                        "shorten them to keep them as headings")
    if headings > MAX_HEADINGS:
        warnings.append(f"{path}: {headings:,} headings, over the {MAX_HEADINGS:,} one document "
                        "may have; the rest are read as body text (split the document to keep "
                        "them as sections)")
    return ("".join(lines) if demoted else text), warnings


def _refuse_over(path: Path, rows: int, longest: int) -> None:
    for what, n, cap in (("table rows", rows, MAX_TABLE_ROWS),
                         ("characters in one paragraph", longest, MAX_PARAGRAPH_CHARS)):
        if n > cap:
            raise MetaProblems([f"{path}: {n:,} {what}, over the {cap:,} one document may have; "
                                "split it into smaller documents"])


def _check_sections(sections: list, path: Path) -> None:
    """The same bounds for parsed sections (a parsed-JSON file) before blocks are built."""
    rows = sum(len(getattr(e, "rows", ())) for s in sections for e in s.elements)
    longest = max((len(getattr(e, "text", "") or "") for s in sections for e in s.elements),
                  default=0)
    _refuse_over(path, rows, longest)


def load_corpus(paths: list[Path], on_file=None, timezone: str = "UTC",
                limit: BlockLimit | None = None, max_mb: float | None = None,
                validate: bool = True, facets: tuple[str, ...] = ()) -> Corpus:
    """Load and validate everything under `paths`; raise `DocumentError` listing all problems.
    Date-only validity bounds are read in `timezone` (the index's, from settings); sections are
    split into blocks within `limit`; files over `max_mb` megabytes are refused. `validate=False`
    leaves the corpus-wide checks to the caller (an ingest runs them on the merged corpus, with
    the recorded history that decides which overlaps are corrections)."""
    problems: list[str] = []
    docs: list[LoadedDocument] = []
    files = discover(paths)
    if not files:
        raise DocumentError([
            f"no documents under {', '.join(map(str, paths))}; expected {', '.join(SUFFIXES)}"
        ])
    seen: list[Seen] = []
    for f in files:
        before = [x for p in (f, sidecar_of(f)) if p is not None and (x := Seen.of(p))]
        try:
            docs += load_documents(f, timezone, limit, max_mb)
        except MetaProblems as exc:
            problems += exc.problems
        problems += [f"{s.path}: changed while it was read; run the ingest again once it is "
                     "saved" for s in before if s.changed()]
        seen += before
        if on_file:
            on_file(f)
    if problems:
        raise DocumentError(problems + _duplicate_ids(docs))
    if not validate:  # the caller validates the merged corpus; two files, one id: never merged
        if duplicates := _duplicate_ids(docs):
            raise DocumentError(duplicates)
        return Corpus(documents=tuple(docs), warnings=(), seen=tuple(seen))
    return replace(validate_documents(docs, facets=facets), seen=tuple(seen))


def validate_documents(docs: list[LoadedDocument], recorded: dict[str, int] | None = None,
                       facets: tuple[str, ...] = ()) -> Corpus:
    """Checks that need the whole corpus (duplicate ids, overlapping versions); an incremental
    ingest runs them on the documents already indexed plus the new ones.

    `recorded` gives when each version became known (epoch seconds; ingest passes what it
    recorded, else front matter `recorded_at`, else "always"). Two overlapping versions of one
    family are an error unless one was recorded later: that one *corrects* the other over the
    overlap (docs/design.md "Recorded history"), which every filter applies from the day it was known."""
    # a version's own fields already hold its front matter `recorded_at` (else "always")
    rec = {d.meta.source_id: (recorded or {}).get(d.meta.source_id, d.blocks[0].fields.recorded_s)
           for d in docs}
    problems = _duplicate_ids(docs)
    bounds = {d.meta.source_id: (d.blocks[0].fields.valid_from_s, d.blocks[0].fields.valid_to_s)
              for d in docs}  # in the index's timezone, as every filter reads them
    spans = {d.meta.source_id: (d.blocks[0].fields.release_lo, d.blocks[0].fields.release_hi)
             for d in docs}
    faceted = {d.meta.source_id: facet_values(d.meta, facets, problems) for d in docs}
    overlap_problems, warnings, corrections = check_families([d.meta for d in docs], rec,
                                                              bounds, spans, faceted)
    problems += overlap_problems
    problems += release_problems([d.meta for d in docs], spans)
    problems += alias_problems([d.meta for d in docs])
    if problems:
        raise DocumentError(problems)
    out = [_with_history(d, {
        "recorded_s": rec[d.meta.source_id],
        **corrections_as_fields(sorted(corrections.get(d.meta.source_id, ()))),
        "facets": faceted[d.meta.source_id]}) for d in docs]
    loaded = [w for d in docs for w in d.warnings]  # what loading degraded, per file
    return Corpus(documents=tuple(out), warnings=tuple(loaded + list(warnings)))


def corrections_as_fields(made: list[Correction]) -> dict[str, tuple]:
    """A version's corrections as its filter fields hold them: the spans, and who may read
    each one's corrector (only where someone may not: an index of public corrections stores
    what it stored before)."""
    access = tuple((roles, assets) for *_, roles, assets in made)
    return {"corrected": tuple((a, b, r) for a, b, r, *_ in made),
            "corrector_access": access if any(r or s for r, s in access) else ()}


def _with_history(d: LoadedDocument, update: dict) -> LoadedDocument:
    """The document with the fields only the whole corpus decides — its recorded instant,
    corrections, its facets — in every block's
    and piece's filter fields (a copy when they change; the loaded document is not mutated)."""
    fields = d.blocks[0].fields
    if all(getattr(fields, k) == v for k, v in update.items()):
        return d
    new = fields.model_copy(update=update)
    return d.model_copy(update={
        "blocks": tuple(b.model_copy(update={"fields": new}) for b in d.blocks),
        "pieces": tuple(p.model_copy(update={"fields": new}) for p in d.pieces)})


def _duplicate_ids(docs: list[LoadedDocument]) -> list[str]:
    by_id: dict[str, list[str]] = defaultdict(list)
    for d in docs:
        by_id[d.meta.source_id].append(d.meta.path)
    return [
        f"duplicate source_id {sid!r} in {' and '.join(paths)}; give each document its own id"
        for sid, paths in by_id.items() if len(paths) > 1
    ]



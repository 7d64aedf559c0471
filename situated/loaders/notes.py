"""Release notes: which documents say what changed in a release rather than describe the state at
it (docs/design.md "Two kinds of versioned family").

A `reference` document (the default) describes the state at its release: a question naming no
release reads its line's latest. A `notes` document (`kind: notes`, or inferred: titled as
release notes or a changelog, or an unversioned document with sections headed by releases) says
what changed in its release: it is never superseded, so a question naming no release is
answered from the release whose notes hold it, and a question naming a release reads that
release's notes only.

An unversioned notes document with one section per release (a changelog) is split here into a
notes family of its own: the sections headed by `1.1.0` become the document `<id>@1.1.0` with
`version: 1.1.0`, in family `<family or id>`. What stands before the first release heading (an
introduction, "Unreleased") stays in the document `<id>` without a release. `@` is not allowed
in a source_id, so a split id never collides with a document's own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from situated import releases
from situated.documents import DocKind, DocumentMeta
from situated.loaders.forms import Section

# a heading that names a release and nothing else but its date: "1.1.0", "v2.0.0 (2024-01-02)",
# "[1.1.0] - 2024-01-02", "Version 2.1", "Release 3.5.3", «Версия 2.1» — never a numbered
# section ("4.2 Mudguards", "1.1 – Returns")
_RELEASE_HEAD = re.compile(
    r"^\s*\[?\s*(?:(?:version|release|верси[яи]|релиз|выпуск)\s+)?v?"
    r"(\d+(?:\.\d+){1,3}(?:[-.]?(?:a|b|rc|alpha|beta|post|dev)\.?\d*)?)(?!\.?\d)\s*\]?\s*"
    r"(?:\([^()]{0,60}\)|[-–—:,]\s*[^\n]{0,40}\d[^\n]{0,20}|\d[^\n]{0,40})?\s*$", re.IGNORECASE)
# a title that says the document is release notes
_NOTES_TITLE = re.compile(
    r"\b(?:change\s?log|release\s+notes?|what'?s\s+new|history\s+of\s+changes)\b|"
    r"^\W*(?:news|changes)\W*$|(?<!\w)(?:список|история|журнал)\s+изменений|"
    r"примечани\w+\s+к\s+(?:выпуску|релизу|версии)|что\s+нового", re.IGNORECASE)
MIN_RELEASE_SECTIONS = 2  # an untitled document is a changelog when this many sections name one


def heading_release(heading: str | None) -> str | None:
    """The release a heading names, normalised (`v1.1` → `1.1`), or None."""
    m = _RELEASE_HEAD.match(heading or "")
    v = releases.parse_or_none(m.group(1)) if m is not None else None
    return str(v) if v is not None else None


def path_release(path: Sequence[str]) -> str | None:
    """The release of the outermost heading on `path` that names one."""
    return next((r for h in path if (r := heading_release(h)) is not None), None)


def is_notes(meta: DocumentMeta, sections: Sequence[Section]) -> bool:
    """Declared `kind: notes`, or undeclared and titled as release notes, or unversioned with
    sections headed by releases (never a dated document). `kind: reference` says a document is
    never notes."""
    if meta.kind is DocKind.NOTES:
        return True
    if meta.kind is not DocKind.DOCUMENT:
        return False
    if meta.date_scoped:  # a dated page titled "What's new" is a version of a page
        return False
    if _NOTES_TITLE.search(meta.title or ""):
        return True
    if meta.release_scoped:
        return False
    named = {r for s in sections if (r := path_release(s.path or (s.title,)))}
    return len(named) >= MIN_RELEASE_SECTIONS


def split_notes(meta: DocumentMeta, sections: list[Section],
                ) -> list[tuple[DocumentMeta, list[Section]]]:
    """(metadata, sections) of each document a file makes: a notes document without a release
    of its own becomes one document per release its headings name; any other stays whole
    (a notes document marked `kind: notes`)."""
    if not is_notes(meta, sections):
        return [(meta, sections)]
    notes = meta.model_copy(update={"kind": DocKind.NOTES})
    if meta.release_scoped or meta.date_scoped:
        return [(notes, sections)]
    groups: dict[str | None, list[Section]] = {}
    for s in sections:
        groups.setdefault(path_release(s.path or (s.title,)), []).append(s)
    if set(groups) == {None}:
        return [(notes, sections)]
    family = meta.family or meta.source_id
    before = groups.pop(None, [])  # an introduction, "Unreleased": no release, no family
    out = [(notes.model_copy(update={"family": None}), before)] if any(
        s.elements for s in before) else []
    for release, own in groups.items():
        out.append((notes.model_copy(update={
            "source_id": f"{meta.source_id}@{release}", "family": family,
            "version": release}), own))
    return out


def pages_first(metas: list[DocumentMeta]) -> list[DocumentMeta]:
    """The reference documents among `metas`, or all of them when there are none: a release
    a changelog names counts only where no page says it (the line, the releases that have
    an identifier, those that hold something relevant)."""
    return [m for m in metas if m.kind is not DocKind.NOTES] or metas


def notes_release(meta: DocumentMeta, path: Sequence[str]) -> str | None:
    """The release a notes block speaks of: its document's, else its heading's."""
    if meta.kind is not DocKind.NOTES:
        return None
    return meta.version or path_release(path)


__all__ = ["heading_release", "is_notes", "notes_release", "pages_first", "path_release", "split_notes"]

"""First appearance (docs/design.md "Releases"): "In which version was X added / removed /
deprecated?", "since which version …", «в какой версии появился …» — answered from the versions
themselves.

The subject X is what the question says besides how it asks (`subject_of`). A version
*carries* X when one of its readable blocks holds every term of X. The families searched are
those of the relevant blocks of a search over every version (so a page that was split or
renamed is followed); their versions are walked in order on the axis (release, else date):

* added: the first version that carries X, after one that does not (or the first version);
* removed: the first version that does not carry X, after one that does;
* deprecated: the first version whose block carrying X also says "deprecat…".

Both that version and the one before it are cited. The documents' own notes — a section of an
unversioned document (a changelog) headed by a release and carrying X — are shown beside the
computed answer, and said to disagree when their release is not the computed one.

A note that *states* the change of X (`states`: "Add `X` parameter to `Y`", "`X` is now
deprecated", «Удалён `X`»; X the object of the verb, not what it is added to) is the project
saying when X changed; first mention in the pages is an inference (pages lag and lead the
code). When such a note disagrees with the pages, it leads the answer and the pages' own
finding is given beside it (docs/design.md "Releases").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from situated import releases
from situated.chains.read.change_kind import VERB, Kind, says_kind
from situated.chains.read.subject import (
    Subject,
    carries,
    carries_line,
)
from situated.documents import Block, DocKind, DocumentMeta
from situated.index.versions import Versions
from situated.modes import Mode
from situated.words import alt

if TYPE_CHECKING:
    from situated.retrievers.filter import Filter


class Basis(Mode):
    """What an appearance answer's release rests on."""

    PAGES = "pages"  # the first version on the axis whose pages show the change
    NOTES = "notes"  # a note of the documents that states it (a changelog entry, a history note)


@dataclass(frozen=True)
class Step:
    """One version on the axis and its block that carries X (None: it does not)."""

    meta: DocumentMeta
    block: Block | None
    first: Block | None  # its first readable block (cited when it does not carry X)


@dataclass(frozen=True)
class Found:
    kind: Kind
    at: Step  # the version the answer names
    before: Step | None  # the version before it (None: X is in the first version)
    gone: Step | None = None  # an addition's first version of the run without it that ends
    # the line (X added, then removed: it is there no more)


def walk(steps: list[Step], kind: Kind) -> Found | None:
    """The version where X was added, removed or deprecated, and the one before it; for an
    addition, also where the pages stop showing it for good (`Found.gone`)."""
    prev: Step | None = None
    for i, step in enumerate(steps):
        here = step.block is not None
        if kind is Kind.ADDED and here and (prev is None or prev.block is None):
            return Found(kind, step, prev, _gone(steps[i + 1:]))
        if kind is Kind.REMOVED and not here and prev is not None and prev.block is not None:
            return Found(kind, step, prev)
        if (kind is Kind.DEPRECATED and step.block is not None
                and says_kind(step.block.text, Kind.DEPRECATED)):
            return Found(kind, step, prev)
        prev = step
    return None


def _gone(later: list[Step]) -> Step | None:
    """The first of the steps without X that end `later` (the steps after the one that has
    it), or None where the last step has it."""
    end = len(later)
    while end and later[end - 1].block is None:
        end -= 1
    return later[end] if end < len(later) else None


@dataclass(frozen=True)
class Unseen:
    """X is already in the oldest version the pages show (`unseen_before`): when it came is not
    theirs to say. `notes_from` is the oldest release the product's notes name, where that is
    older still (the notes go back further than the pages)."""

    notes_from: str | None
    mention: tuple[str, Block] | None = None  # the oldest note that carries X, before it


MAX_NOTES_READ = 2000  # older release notes read for the oldest that carries X


def unseen_before(versions: Versions, found: Found, subject: Subject,
                  readable: Filter) -> Unseen | None:
    """Whether an addition found at the first version walked is only where the pages begin:
    no page of its product is older, and no note names that version as the product's first
    (a changelog whose oldest release it is). httpx's pages begin at 0.13.3 and its notes at
    0.6.0: HTTP/2 is already in 0.13.3, which is no first appearance; the oldest older note
    that carries X is given beside it."""
    if found.kind is not Kind.ADDED or found.before is not None:
        return None
    at = releases.parse_or_none(found.at.meta.version)
    if at is None:  # a dated family: its first version walked is its oldest
        return Unseen(None) if found.at.meta.version is None else None
    metas = [m for p in (found.at.meta.product or (None,)) for m in versions.released(readable, p)]
    pages = [v for m in metas if m.kind is not DocKind.NOTES
             and (v := releases.parse_or_none(m.version)) is not None]
    notes = sorted(((v, m) for m in metas if m.kind is DocKind.NOTES
                    and (v := releases.parse_or_none(m.version)) is not None), key=lambda n: n[0])
    if any(v < at for v in pages) or (notes and notes[0][0] == at):
        return None  # older pages lack it; the notes begin with it: it came then
    older = [(v, m) for v, m in notes if v < at]
    if not older:
        return Unseen(None)
    mention = next(((m.declared_version, b) for _, m in older[:MAX_NOTES_READ]
                    for b in versions.blocks_of(m.source_id, readable) if carries(b, subject)),
                   None)
    return Unseen(str(older[0][0]), mention)


def axis_steps(versions: Versions, metas: list[DocumentMeta], subject: Subject,
               readable: Filter) -> list[Step]:
    """The documents grouped by their release (else their start), in order; per position the
    first one that carries X (a split page's versions share a release). Only the families
    that carry X somewhere are walked: a page that never documents X (the assert page, for
    an error code) says nothing of when X came."""
    read = {m.source_id: versions.blocks_of(m.source_id, readable) for m in metas}
    hit = {sid: next((b for b in blocks if carries(b, subject)), None)
           for sid, blocks in read.items()}
    holding = {versions.family_of(m) for m in metas if hit[m.source_id] is not None}
    if holding:
        metas = [m for m in metas if versions.family_of(m) in holding]
    groups: dict[tuple[int, int], list[DocumentMeta]] = {}
    for m in sorted(metas, key=versions.order):
        groups.setdefault(versions.order(m), []).append(m)
    out = []
    for members in groups.values():
        chosen: Step | None = None
        for m in members:
            blocks, found = read[m.source_id], hit[m.source_id]
            if found is not None or chosen is None:
                chosen = Step(m, found, blocks[0] if blocks else None)
            if found is not None:
                break
        if chosen is not None:
            out.append(chosen)
    return out


_HISTORY = re.compile(r"History: ([^\n]*)")
_HISTORY_ITEM = re.compile(r"\b(added|deprecated|removed) in v?(\d+(?:\.\d+){0,3}"
                           r"(?:[-.]?(?:a|b|rc|alpha|beta|post|dev)\.?\d*)?)")


def page_notes(steps: list[Step], kind: Kind) -> list[tuple[str, Block]]:
    """The pages' own history notes ("History: added in v14.2.0; …", written by the Markdown
    loader from `<!-- YAML … -->`) of the latest version that carries X: (release, block) of
    this kind of change."""
    carrying = [s.block for s in steps if s.block is not None]
    if not carrying:
        return []
    block = carrying[-1]
    out = []
    for line in _HISTORY.findall(block.text):
        for what, release in _HISTORY_ITEM.findall(line):
            if what == kind.value and (v := releases.parse_or_none(release)) is not None:
                out.append((str(v), block))
    return out


def noted(blocks: list[Block], subject: Subject,
          release_of: Callable[[Block], str | None]) -> list[tuple[str, Block]]:
    """Notes of the documents themselves: blocks of release notes, or of an unversioned
    document (a changelog) whose heading is a release, which carry X — (release, block),
    oldest release first; `release_of` says which release a block speaks of."""
    out = []
    for b in blocks:
        v = releases.parse_or_none(release_of(b))
        if v is not None and carries(b, subject):
            out.append((v, b))
    return [(str(v), b) for v, b in sorted(out, key=lambda x: x[0])]


# what may stand between the verb and its object ("Add support for `X`", "Drop the `X` flag")
_FRAME_WORDS = re.compile(rf"^(?:(?:{alt('changes', 'NOTE_FRAME')})\s+)+", re.IGNORECASE)
# where the verb's object ends: what it is added to, with, for …
_GOVERNS = re.compile(rf"\s(?:{alt('changes', 'NOTE_GOVERNS')})\s|[,;:]|"
                      r"(?<![\w.])\(", re.IGNORECASE)  # "(Pull #1268)", not a call's "("
_PRONOUN = re.compile(alt("changes", "NOTE_PRONOUN"), re.IGNORECASE)
_CALL = re.compile(r"[\w.]+\((?!\s*\))")
_AUX = (rf"(?:{alt('changes', 'NOTE_AUX')})\s+"
        rf"(?:(?:{alt('changes', 'NOTE_ADVERB')})\s+){{0,2}}")


_SENTENCE_BREAK = re.compile(r"\n|(?<=[.!?])\s+")


def sentences_of(text: str) -> list[str]:
    """A note's lines and sentences, as its statements are read."""
    return _SENTENCE_BREAK.split(text)


@lru_cache(maxsize=8)
def _statement(kind: Kind) -> tuple[re.Pattern, re.Pattern]:
    """(verb first, subject first) forms of a statement of this kind of change."""
    verb = VERB[kind]
    return (re.compile(rf"^\W*(?:{verb})(?!\w)\s+(.*)$", re.IGNORECASE),
            re.compile(rf"^(.{{0,80}}?)\s+{_AUX}(?:{verb})(?!\w)", re.IGNORECASE))


def states(block: Block, subject: Subject, kind: Kind) -> bool:
    """A line of the note states this kind of change of the subject itself: the verb leads and
    the subject is its object ("Add `chunk_size` parameter to `iter_raw()`" states `chunk_size`,
    not `iter_raw`), or the subject leads and the verb follows it ("`X` is now deprecated")."""
    active, passive = _statement(kind)
    before = ""
    for line in sentences_of(block.text):
        line = line.strip(" -*•\t")
        if (m := active.match(line)) is not None:
            obj = _FRAME_WORDS.sub("", m.group(1))
            if _about(_head(obj), subject):
                return True
        if (m := passive.match(line)) is not None:
            said = m.group(1)
            if _PRONOUN.fullmatch(said.strip()):  # "… deprecated. It is now fully removed."
                said = _head(before)
            if "previous" not in m.group(1).lower() and _about(said, subject):
                return True
        before = line
    return False


def _head(text: str) -> str:
    """`text` up to the first word that governs something else ("to", "in favour", ","),
    outside the parentheses of a call (`Timeout(5.0, connect_timeout=60.0)` is one name)."""
    for m in _GOVERNS.finditer(text):
        if text.count("(", 0, m.start()) <= text.count(")", 0, m.start()):
            return text[:m.start()]
    return text


def _about(text: str, subject: Subject) -> bool:
    """`text` names the subject itself, not a call of it with arguments
    (`httpx.Timeout(5.0, connect_timeout=60.0)` is about an argument)."""
    if not carries_line(text, subject):
        return False
    return not any(_CALL.match(text[m.start():]) for x in subject.identifiers
                   for m in re.finditer(rf"(?<![\w.]){re.escape(x)}", text))


def heads(block: Block, subject: Subject) -> bool:
    """The block's own heading names the subject (its history note is the subject's)."""
    return carries_line(f"{' '.join(block.path)} {block.title}", subject)


def is_note(versions: Versions, source_id: str) -> bool:
    """Release notes, or an unversioned document read as notes (a changelog's sections)."""
    meta = versions.meta(source_id)
    return meta.kind is DocKind.NOTES or not meta.release_scoped and not meta.date_scoped


__all__ = [
    "Basis",
    "Found",
    "Step",
    "axis_steps",
    "heads",
    "is_note",
    "noted",
    "page_notes",
    "sentences_of",
    "states",
    "walk",
]

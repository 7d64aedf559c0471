"""What an answer read from release documents says about its release (docs/design.md
"Releases"): "For version 0.28.1 (the latest; …)" or "From the release notes of version 1.1.0",
how far back its text stands word for word, and — under `unnamed_release=clarify` — which
version to ask for when the releases say different things. No model call."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from packaging.version import Version

from situated import releases
from situated.chains.say.release_words import (
    latest_text,
    notes_text,
    page_last_text,
    same_text,
)
from situated.chains.say.wording import Lang
from situated.chains.state import Question
from situated.documents import DocKind, DocumentMeta
from situated.index.versions import Versions
from situated.kept import kept
from situated.retrievers.filter import Filter
from situated.situation import Situation

MAX_BACK = 50  # releases of a family read back to say how far an answer's text stands


@dataclasses.dataclass(frozen=True)
class Stands:
    """How far back a release block's text stands word for word in its line."""

    first: DocumentMeta  # the first release whose document has the block word for word
    meta: DocumentMeta  # the block's own release
    members: list[DocumentMeta]  # the line's readable releases, in release order

    @property
    def everywhere(self) -> bool:
        """The text stands in every readable release of the line."""
        return self.first is self.members[0]


class ReleaseText:
    """Over one generation's versions; `readable(q)` is what the asker may read."""

    def __init__(self, versions: Versions, readable: Callable[[Question], Filter]):
        self.versions = versions
        self.readable = readable
        self._latest_of: dict[tuple, Version | None] = {}  # per scope, family, product

    def holds_for(self, q: Question, supplied: list) -> list[str]:
        """An answer read from the latest release says how far back its best release block
        (among the first three supplied) stands word for word ("The same text stands in
        versions 0.18.2 to 0.28.1."), so a reader of an older release knows whether it is
        theirs. The supplied blocks are not read again; the other releases' are read once."""
        stands = self.stands(q, [s.block for s in supplied[:3]])
        if stands is None or stands.first is stands.meta:
            return []
        return [same_text(stands.first.declared_version, stands.meta.declared_version,
                          stands.everywhere, q.lang)]

    def stands(self, q: Question, blocks: list) -> Stands | None:
        """How far back the best release block stands word for word, or None when no block
        is of a release document."""
        readable = self.readable(q)
        best = next((b for b in blocks if b.fields.release_scoped
                     and self.versions.meta(b.source_id).version), None)
        if best is None:
            return None
        meta = self.versions.meta(best.source_id)
        members = [m for m in self.versions.admitted(meta, readable) if m.version][-MAX_BACK:]
        members.sort(key=lambda m: releases.parse(m.declared_version))
        first = meta
        for m in reversed(members[:members.index(meta)] if meta in members else []):
            if not any(b.path == best.path and b.text == best.text
                       for b in self.versions.blocks_of(m.source_id, readable)):
                break
            first = m
        return Stands(first, meta, members)

    def latest_slice(self, q: Question, situation: Situation, supplied: list, lang: Lang) -> str:
        """"For version 0.28.1 (the latest; …): " when the question named no release and the
        answer read release documents; "For version 0.26.0 (the last with this page; the
        latest is 0.28.1; …): " when that document's line ends before its product's latest
        release (a page split or renamed: its latest is not the product's); "From the release
        notes of 1.1.0: " when the first release document it cites (`supplied`, in the order
        the answer cites them) is release notes (never superseded: the release whose notes
        hold the answer is named); "" otherwise."""
        if situation.version is not None:
            return ""
        for s in supplied:
            meta = self.versions.meta(s.evidence.source_id)
            if meta.version is not None:
                if meta.kind is DocKind.NOTES:
                    return notes_text(meta.version, lang)
                latest = self._latest(q, meta)
                if latest is not None and releases.parse(meta.version) < latest:
                    return page_last_text(meta.version, str(latest), lang)
                return latest_text(meta.version, lang)
        return ""

    def _latest(self, q: Question, meta: DocumentMeta) -> Version | None:
        """The latest release the asker may read of the pages that share releases with
        `meta`'s family (httpx's Advanced page and its QuickStart both exist at 0.26.0: the
        QuickStart's 0.28.1 is the latest); another family of the product numbered apart (a
        gateway at 9.1 beside an API at 4.0) is another line. Kept per scope and family."""
        own = meta.family or meta.source_id
        return kept(self._latest_of, (q.scope, own, meta.product), lambda: self._shared_latest(
            q, meta.product[0] if meta.product else None, own))

    def _shared_latest(self, q: Question, product: str | None, own: str) -> Version | None:
        by_family: dict[str, set[Version]] = {}
        for m in self.versions.released(self.readable(q), product):
            if m.version is not None and m.kind is not DocKind.NOTES:
                by_family.setdefault(m.family or m.source_id, set()).add(
                    releases.parse(m.version))
        mine = by_family.get(own, set())
        return max((v for vs in by_family.values() if vs & mine for v in vs), default=None)


__all__ = ["MAX_BACK", "ReleaseText", "Stands"]

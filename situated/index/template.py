"""Page chrome: the lines every version of a notes family repeats ("twbs / bootstrap",
"Releases v5.3.5", "Compare", "Assets") are the release page's template, not what changed in
the release. They stay in the document (`/documents/ID` shows them) and are never quoted: the
evidence a model reads, and the notes an answer lists, leave them out (`Versions.content`).

A line is template when, with its version numbers masked, it stands in at least
`TEMPLATE_SHARE` of the members of its family that share its readers (the same `access` and
`assets`: who may read one may read all, so no reply depends on a document its reader may not
read), in a family of at least `MIN_TEMPLATE_MEMBERS` such members. A reference family's
versions repeat their content by design ("Stability: 2 - Stable" at every release), so only
notes families are read for template.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from situated.documents import Block, DocKind
from situated.kept import kept

if TYPE_CHECKING:  # the versions read this module's `Templates`; it reads them back
    from situated.index.versions import Versions

MIN_TEMPLATE_MEMBERS = 3
TEMPLATE_SHARE = 2 / 3
_VERSION = re.compile(r"v?\d+(?:\.\d+)+(?:[-.]?(?:a|b|rc|alpha|beta|dev|post)\.?\d*)?",
                      re.IGNORECASE)


def line_key(line: str) -> str:
    """A line as template is compared: version numbers masked, spaces collapsed, no case."""
    return " ".join(_VERSION.sub("#", line).split()).casefold()


def body_lines(text: str) -> list[str]:
    """A block's lines after its title (the first line: the section it is, always kept)."""
    return [ln for ln in text.split("\n")[1:] if ln.strip()]


def template_lines(members: Iterable[Iterable[str]]) -> frozenset[str]:
    """The line keys that stand in at least `TEMPLATE_SHARE` of `members` (each the block
    texts of one document), when there are `MIN_TEMPLATE_MEMBERS` or more."""
    keyed = [{line_key(ln) for text in texts for ln in body_lines(text)} for texts in members]
    if len(keyed) < MIN_TEMPLATE_MEMBERS:
        return frozenset()
    counts = Counter(k for keys in keyed for k in keys)
    least = math.ceil(TEMPLATE_SHARE * len(keyed))
    return frozenset(k for k, n in counts.items() if n >= least and k)


def without_template(text: str, template: frozenset[str]) -> str:
    """`text` (a block's: title first) without its template lines."""
    if not template:
        return text
    title, *rest = text.split("\n")
    kept = [ln for ln in rest if not ln.strip() or line_key(ln) not in template]
    return re.sub(r"\n{3,}", "\n\n", "\n".join([title, *kept])).rstrip()


class Templates:
    """The template lines of each notes family among the members that share a reader,
    computed when a block of it is first read and kept for the generation."""

    def __init__(self, versions: Versions):
        self.versions = versions
        self._kept: dict[object, frozenset[str]] = {}

    def content(self, block: Block) -> str:
        """The block's text without its family's template lines."""
        return without_template(block.text, self.of(block.source_id))

    def of(self, source_id: str) -> frozenset[str]:
        v = self.versions
        meta = v.meta(source_id)
        family = meta.family
        if meta.kind is not DocKind.NOTES or not family:
            return frozenset()
        f = v.fields_of(source_id)
        return kept(self._kept, (family, f.roles, f.assets), lambda: template_lines(
            [b.text for b in v.catalogue.blocks_of(m.source_id)]
            for m in v.members(family) if m.kind is DocKind.NOTES
            and (g := v.fields_of(m.source_id)).roles == f.roles and g.assets == f.assets))


__all__ = [
    "MIN_TEMPLATE_MEMBERS",
    "TEMPLATE_SHARE",
    "Templates",
    "line_key",
    "template_lines",
    "without_template",
]

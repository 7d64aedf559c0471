"""Whether a missing date decides the answer at all (the router's `SameText` rule): when the
section the best block comes from says the same, in substance, in every version of its family
the caller may read (for the block's products), the date would pick between equal texts. Then
the question is answered, saying the text stands in every version, instead of asking for the
date.

Substance is the change engine's (`changes.substance`: words and numbers, without dates,
punctuation or markup), and a section is identified across versions by its headings
(`changes.section_key`), so "no change in substance" means the same here as in a diff."""

from __future__ import annotations

from situated.documents import Block, DocumentMeta
from situated.index.versions import Versions
from situated.loaders.sentences import evidence_units
from situated.retrievers.filter import Filter
from situated.substance import section_key, substance


def _section_substance(blocks: list[Block], key: tuple[str, ...]) -> tuple[str, ...] | None:
    same = sorted((b for b in blocks if section_key(b.path) == key), key=lambda b: b.part)
    if not same:
        return None
    return tuple(t for b in same for unit in evidence_units(b.text) for t in substance(unit))


def same_in_every_version(versions: Versions, meta: DocumentMeta, block: Block,
                          flt: Filter) -> list[DocumentMeta]:
    """The readable versions of `meta`'s family for its products when `block`'s section says
    the same in all of them (at least two); else none."""
    readable = flt.readable()
    members = [m for m in versions.admitted(meta, readable)
               if versions.same_products(m, meta) and m.valid_for is meta.valid_for]
    key = section_key(block.path)
    if len(members) < 2 or not key:
        return []
    texts = {_section_substance(versions.blocks_of(m.source_id, readable), key) for m in members}
    return members if len(texts) == 1 and None not in texts and () not in texts else []


__all__ = ["same_in_every_version"]

"""Blocks → labelled evidence within the token budget (`pack`, the one packer: a model's answer
and a change answer alike), the blocks' flags, and the eligible hits.

A packed block is `Supplied`: the contract's `Evidence` (neutralised text, label, tokens) with
the stored `Block` it was made from, read once per question; the flags and the citation links
are taken from it, never read again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from situated.chains.budget import Budget, fit
from situated.chains.contract import Evidence, Flagged, Hit
from situated.chains.state import Supplied
from situated.documents import Block
from situated.index.reader import Index
from situated.loaders.neutralise import findings, instruction_sentences, neutralise
from situated.retrievers.fusion import RankedBlock
from situated.retrievers.hybrid import SearchResult


def pack(blocks: list[Block], budget: Budget,
         content: Callable[[Block], str] = lambda b: b.text) -> list[Supplied]:
    """Whole blocks in the given order within the allowance, labelled S1, S2, … in prompt
    order; the text the model receives is each block's `content` (its page chrome left out:
    `Versions.content`), neutralised (no labels, links or HTML of the document's)."""
    texts = [neutralise(content(b)) for b in blocks]
    costs = [budget.count(t) for t in texts]
    return [Supplied(Evidence(label=f"S{n}", block_id=blocks[i].block_id,
                              source_id=blocks[i].source_id, section=blocks[i].section,
                              page=blocks[i].page, tokens=costs[i], text=texts[i]), blocks[i])
            for n, i in enumerate(fit(costs, budget.allowance, budget.policy), start=1)]


def supplied_blocks(result: SearchResult, supply: tuple[str, ...],
                    read: Callable[[list[str]], dict[str, Block]],
                    deeper: tuple[RankedBlock, ...] = ()) -> list[Block]:
    """The result's blocks the router lets the answer use (`supply`), in rank order, then the
    `deeper` blocks of the same documents (never another document: the router chose the
    documents and versions that apply), read in one look-up (`read`: ids → blocks), each
    re-checked against the filter (defence in depth)."""
    allowed = set(supply)
    ids = [rb.block_id for rb in result.blocks if rb.block_id in allowed]
    sources = {rb.source_id for rb in result.blocks if rb.block_id in allowed}
    ids += [rb.block_id for rb in deeper if rb.source_id in sources and rb.block_id not in ids]
    blocks = read(ids)
    return [blocks[i] for i in ids if i in blocks and result.filter.admits(blocks[i].fields)]


def evidence_of(supplied: list[Supplied]) -> list[Evidence]:
    return [s.evidence for s in supplied]


def links_of(supplied: list[Supplied]) -> Mapping[str, str]:
    """Block id → the link a citation of it points at."""
    return {s.block.block_id: s.block.link for s in supplied}


def hits_of(index: Index, result: SearchResult) -> list[Hit]:
    out = []
    pieces = index.pieces.many([h.pos for h in result.hits])
    for h in result.hits:
        p = pieces[h.pos]
        if not result.filter.admits(p.fields):  # re-check before anything is shown
            continue
        out.append(Hit(piece_id=p.piece_id, block_id=p.block_id, source_id=p.source_id,
                       score=round(h.score, 6)))
    return out


def flagged_of(supplied: list[Supplied]) -> list[Flagged]:
    """The supplied blocks whose original text held labels, links, HTML or instructions."""
    out = []
    for s in supplied:
        original, e = s.block.text, s.evidence
        reasons = findings(original)
        if reasons:
            out.append(Flagged(label=e.label, block_id=e.block_id, source_id=e.source_id,
                               reasons=[r.value for r in reasons],
                               sentences=instruction_sentences(original)))
    return out

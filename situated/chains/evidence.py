"""Ranked blocks → labelled evidence within the token budget, and eligible hits."""

from __future__ import annotations

from situated.chains.budget import TokenCounter, pack
from situated.chains.contract import Evidence, Flagged, Hit
from situated.index.reader import Index
from situated.loaders.neutralise import findings, instruction_sentences, neutralise
from situated.retrievers.hybrid import SearchResult
from situated.settings import BudgetPolicy


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


def pack_evidence(
    index: Index, result: SearchResult, allowance: int, count: TokenCounter,
    policy: BudgetPolicy = BudgetPolicy.PREFIX, supply: tuple[str, ...] | None = None,
) -> list[Evidence]:
    """Whole blocks in rank order within the allowance, labelled S1, S2, … in prompt order.
    `supply` (from the router) names the blocks the answer may use; None means all."""
    allowed = set(supply) if supply is not None else None
    blocks = [index.blocks[rb.block_id] for rb in result.blocks
              if allowed is None or rb.block_id in allowed]
    blocks = [b for b in blocks if result.filter.admits(b.fields)]  # defence in depth
    texts = [neutralise(b.text) for b in blocks]
    costs = [count(t) for t in texts]
    kept = pack(costs, allowance, policy)
    # the text the model receives is neutralised (no labels, links or HTML of the document's)
    return [
        Evidence(label=f"S{n}", block_id=blocks[i].block_id, source_id=blocks[i].source_id,
                 section=blocks[i].section, page=blocks[i].page, tokens=costs[i],
                 text=texts[i])
        for n, i in enumerate(kept, start=1)
    ]


def flagged_of(index: Index, evidence: list[Evidence]) -> list[Flagged]:
    """The supplied blocks whose original text held labels, links, HTML or instructions."""
    out = []
    for e in evidence:
        original = index.blocks[e.block_id].text
        reasons = findings(original)
        if reasons:
            out.append(Flagged(label=e.label, block_id=e.block_id, source_id=e.source_id,
                               reasons=[r.value for r in reasons],
                               sentences=instruction_sentences(original)))
    return out

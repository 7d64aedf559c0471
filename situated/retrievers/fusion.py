"""Reciprocal rank fusion at block level and the parent swap.

Not `EnsembleRetriever.weighted_reciprocal_rank`: that fuses whatever documents its children
return by one id and keeps only the fused order; here each leg's raw score is kept per block
(the relevance decision reads the vector leg's cosine, `retrievers.relevance`), and versions of
one rule are handled as below. Figures in `retrievers.hybrid`.

Fusion is keyed on the parent block id, never on text: a block's rank in a leg is the rank of
its best piece there, and its fused score is Σ weight_leg / (rrf_k + rank_leg). Each block is
returned once, in the rank of its best piece.

Versions of one rule (documents of one `family`) are alternatives, not competitors: when the
filter leaves several of them eligible (the date that picks one is unknown), a block's rank in a
leg does not count the blocks of *other* versions of its family ranked above it. Otherwise the
near-identical versions push each other down and an unrelated document that merely mentions the
topic outranks the rule the question is about. With the date known only one version is
eligible and nothing changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from situated.documents import FilterFields
from situated.index.reader import Index
from situated.retrievers.legs import Leg, LegHit
from situated.retrievers.relevance import Signals


@dataclass(frozen=True)
class RankedBlock:
    block_id: str
    score: float  # fused
    best_piece: int  # position of the piece that ranked the block highest
    leg_ranks: Mapping[str, int] = field(default_factory=dict)
    leg_scores: Mapping[str, float] = field(default_factory=dict)  # best raw score per leg
    signals: Signals | None = None  # set by the relevance decision (`retrievers.relevance`)
    # where the block comes from, set by the search that returns it (`HybridSearch.locate`):
    # its document, that document's version-family key and stored filter fields
    source_id: str = ""
    family: str = ""
    fields: FilterFields | None = None


@dataclass(frozen=True)
class PieceHit:
    pos: int
    block_id: str
    score: float  # piece-level fused score


def fuse(
    index: Index, legs: dict[Leg, list[LegHit]], weights: dict[Leg, float], rrf_k: int,
) -> tuple[list[RankedBlock], list[PieceHit]]:
    # each block's fused score and its rank and raw score per leg, summed here; the blocks are
    # made once at the end, frozen
    scores: dict[str, float] = {}
    leg_ranks: dict[str, dict[str, int]] = {}
    leg_scores: dict[str, dict[str, float]] = {}
    piece_scores: dict[int, float] = {}
    block_of = index.block_ids({h.pos for hits in legs.values() for h in hits})
    for leg, hits in legs.items():
        w = weights.get(leg, 0.0)
        seen: set[str] = set()
        block_rank = 0
        family_above: dict[int, int] = {}  # blocks of each family ranked so far in this leg
        source_above: dict[int, int] = {}
        for piece_rank, hit in enumerate(hits, start=1):
            block_id = block_of[hit.pos]
            piece_scores[hit.pos] = piece_scores.get(hit.pos, 0.0) + w / (rrf_k + piece_rank)
            scores.setdefault(block_id, 0.0)
            if block_id in seen:
                continue
            seen.add(block_id)
            block_rank += 1
            rank = block_rank
            family = index.family_at(hit.pos)
            if family is not None:  # other versions of the same rule ranked above do not count
                source = int(index.piece_doc[hit.pos])
                rank -= family_above.get(family, 0) - source_above.get(source, 0)
                family_above[family] = family_above.get(family, 0) + 1
                source_above[source] = source_above.get(source, 0) + 1
            scores[block_id] += w / (rrf_k + rank)
            leg_ranks.setdefault(block_id, {})[leg.value] = rank
            leg_scores.setdefault(block_id, {})[leg.value] = hit.score
    best: dict[str, int] = {}  # the best piece is the one with the highest fused piece score
    for p, score in piece_scores.items():
        bid = block_of[p]
        if bid not in best or (score, -p) > (piece_scores[best[bid]], -best[bid]):
            best[bid] = p
    blocks = [RankedBlock(bid, score, best[bid], leg_ranks.get(bid, {}), leg_scores.get(bid, {}))
              for bid, score in scores.items()]
    ranked = sorted(blocks, key=lambda b: (-b.score, b.block_id))
    piece_hits = sorted(
        (PieceHit(p, block_of[p], s) for p, s in piece_scores.items()),
        key=lambda h: (-h.score, h.pos),
    )
    return ranked, piece_hits

"""Search result → the `ask --json` answer contract (DESIGN "`situated ask --json`").

Blocks are packed into the evidence allowance whole, in rank order, labelled S1, S2, …; token
counts come from the embedding model's own tokenizer (`tokenizer.json` shipped in the model
package), the only real tokenizer available offline here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from enum import Enum

from pydantic import BaseModel, ConfigDict

from situated.index.store import Index
from situated.retrievers.hybrid import SearchResult
from situated.situation import Situation


class Status(str, Enum):
    ANSWERED = "answered"
    CLARIFY = "clarify"
    NO_EVIDENCE = "no_evidence"
    WITHHELD = "withheld"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SituationOut(_Strict):
    product: str | None
    purchase_date: dt.date | None
    request_date: dt.date | None
    as_of: dt.date | None


class Citation(_Strict):
    label: str
    source_id: str
    section: str | None
    link: str


class Evidence(_Strict):
    label: str
    block_id: str
    source_id: str
    section: str | None
    page: int | None
    tokens: int
    text: str


class Hit(_Strict):
    piece_id: str
    block_id: str
    source_id: str
    score: float


class BudgetOut(_Strict):
    window: int
    reserved_input: int
    reserved_output: int
    allowance: int
    used: int


class Answer(_Strict):
    status: Status
    answer: str
    missing: list[str]
    situation: SituationOut
    citations: list[Citation]
    evidence: list[Evidence]
    hits: list[Hit]
    budget: BudgetOut | None


def situation_out(s: Situation) -> SituationOut:
    return SituationOut(**s.model_dump())


def hits_of(index: Index, result: SearchResult) -> list[Hit]:
    out = []
    for h in result.hits:
        p = index.pieces[h.pos]
        out.append(Hit(piece_id=p.piece_id, block_id=p.block_id, source_id=p.source_id,
                       score=round(h.score, 6)))
    return out


def pack_evidence(
    index: Index, result: SearchResult, allowance: int, count: Callable[[str], int]
) -> list[Evidence]:
    """Whole blocks in rank order until the next would not fit (an exact fit fits)."""
    out: list[Evidence] = []
    used = 0
    for rb in result.blocks:
        block = index.blocks[rb.block_id]
        # re-check before anything reaches a prompt (defence in depth; the legs did it too)
        if not result.filter.admits(block.fields):
            continue
        tokens = count(block.text)
        if used + tokens > allowance:
            break
        used += tokens
        out.append(Evidence(
            label=f"S{len(out) + 1}", block_id=block.block_id, source_id=block.source_id,
            section=block.section, page=block.page, tokens=tokens, text=block.text,
        ))
    return out


def search_answer(
    index: Index, situation: Situation, result: SearchResult, window: int = 4096,
    reserved_input: int = 600, reserved_output: int = 512,
) -> Answer:
    """The answer of a plain hybrid search: evidence and hits, no model (status answered or
    no_evidence). The full chain (extraction, routing, model, citations) builds on this."""
    allowance = window - reserved_input - reserved_output
    evidence = pack_evidence(index, result, allowance, index.embeddings.count_tokens)
    used = sum(e.tokens for e in evidence)
    budget = BudgetOut(window=window, reserved_input=reserved_input,
                       reserved_output=reserved_output, allowance=allowance, used=used)
    if not evidence:
        return Answer(
            status=Status.NO_EVIDENCE, missing=[], situation=situation_out(situation),
            answer="No permitted document clears the relevance floor for this question.",
            citations=[], evidence=[], hits=[], budget=budget,
        )
    citations = []
    for e in evidence:
        block = index.blocks[e.block_id]
        citations.append(Citation(label=e.label, source_id=e.source_id, section=e.section,
                                  link=block.link))
    listing = "; ".join(
        f"[{c.source_id}{', section ' + c.section if c.section else ''}]({c.link})"
        for c in citations
    )
    return Answer(
        status=Status.ANSWERED, missing=[], situation=situation_out(situation),
        answer=f"Search only (no answer model in this build). Evidence: {listing}",
        citations=citations, evidence=evidence, hits=hits_of(index, result), budget=budget,
    )

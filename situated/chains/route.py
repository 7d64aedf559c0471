"""Routing between search and the model (DESIGN "Routing"): clarify, no evidence, or answer.

* the best block is date-scoped and the situation lacks the date its `valid_for` names → ask
  for that date;
* the best block is date-scoped, the date-scoped blocks span more than one product and the
  product is unknown → ask for it (when the best evidence applies whatever the date, lower
  ranked versions of other products do not hold the answer back);
* "the best block" is every block whose fused score is within `tie_margin` (10%) of the top
  score: RRF scores of the first few blocks are often near-ties, and a version that is a hair
  behind an undated report is as much "the best hit" as the report;
* both → one question naming both;
* nothing cleared the relevance floor → `no_evidence`.
On these routes the model is never called.
"""

from __future__ import annotations

from dataclasses import dataclass

from situated.documents import ValidFor
from situated.index.store import Index
from situated.modes import Mode
from situated.retrievers.hybrid import SearchResult
from situated.situation import Situation

DATE_NAMES = {ValidFor.PURCHASE_DATE: "purchase date", ValidFor.REQUEST_DATE: "request date",
              ValidFor.AS_OF: "date"}
QUESTIONS = {
    "product": "Which product is it?",
    "purchase date": "When was it bought (day, month and year)?",
    "request date": "When was the return or claim requested, or when will it be (day, month "
                    "and year)?",
    "date": "For which date (day, month and year)?",
}


class Route(Mode):
    ANSWER = "answer"
    CLARIFY = "clarify"
    NO_EVIDENCE = "no_evidence"


@dataclass(frozen=True)
class Decision:
    route: Route
    missing: list[str]
    message: str = ""


def decide(index: Index, result: SearchResult, situation: Situation,
           partial: dict[str, str] | None = None, tie_margin: float = 0.1) -> Decision:
    partial = partial or {}
    if not result.blocks:
        facts = situation.known_facts()
        why = f" for the situation given ({facts})" if facts else ""
        return Decision(Route.NO_EVIDENCE, [],
                        f"No document you may read applies to this question{why}, so there is "
                        "no answer to give.")
    missing: list[str] = []
    top_score = result.blocks[0].score
    best = [index.blocks[b.block_id].fields for b in result.blocks
            if b.score >= (1 - tie_margin) * top_score]
    for f in best:
        name = DATE_NAMES[f.valid_for]
        if f.date_scoped and situation.date_for(f.valid_for) is None and name not in missing:
            missing.append(name)
    scoped = [index.blocks[b.block_id].fields for b in result.blocks]
    # a version without a product applies to every product, so it never forces the question
    products = {p for f in scoped if f.date_scoped for p in f.products}
    if any(f.date_scoped for f in best) and situation.product is None and len(products) > 1:
        missing.insert(0, "product")
    if not missing:
        return Decision(Route.ANSWER, [])
    asks = " ".join(QUESTIONS[m] for m in missing)
    notes = [f"“{partial[k]}” has no year" for k in partial
             if DATE_NAMES.get(ValidFor(k)) in missing]
    lead = f"To find the rule that applies I need the {' and the '.join(missing)}"
    lead += f" ({'; '.join(notes)})." if notes else "."
    return Decision(Route.CLARIFY, missing, f"{lead} {asks}")

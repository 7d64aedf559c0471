"""The evidence a reading model gets in the `units` form (`Settings.model_evidence`): the best
units of the packed blocks instead of the whole blocks.

A small model reading 40 blocks (PolicyQA fills the allowance) answers slowly and loses the
sentence that answers among the rest (`benchmarks/local_model.py`). In the `units` form the
packed blocks are ranked unit by unit by the offline model's own ranking (`ExtractiveChatModel.
ranked`: shared words weighted by rarity, then the ingest-time sentence vectors; a code the
question names leads), and the model is given the `Settings.model_units` best, with a unit that
announces a list bringing its list. They stay under their block's heading, in document order
within a block, the block holding the best unit first, relabelled S1, S2, … in that order. The
labelled evidence *is* what the model read: the citation check, the answer's `evidence` and
its links are built from it, so a model cannot cite a block it was not shown.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from situated.chains.budget import Budget
from situated.chains.evidence import Supplied
from situated.chains.models import ExtractiveChatModel, with_list
from situated.loaders.sentences import evidence_units


@dataclass(frozen=True)
class EvidenceFocus:
    """Packed blocks in, the same blocks cut to their best units out (module doc)."""

    ranker: ExtractiveChatModel
    units: int
    budget: Budget

    def __call__(self, question: str, supplied: list[Supplied]) -> list[Supplied]:
        evidence = [(s.evidence.label, s.evidence.text) for s in supplied]
        ranked = self.ranker.ranked(question, evidence)
        if not ranked:  # nothing to choose by (the question's code is not held): as packed
            return supplied
        bodies = {r: evidence_units(text) for r, (_, text) in enumerate(evidence)}
        chosen: dict[int, set[int]] = {}  # block's place in `supplied` → unit positions
        taken = 0
        for x in ranked:
            if taken >= self.units:
                break
            if x.pos in chosen.get(x.rank, ()):  # a list item already brought by its lead
                continue
            positions = chosen.setdefault(x.rank, set())
            before = len(positions)
            positions.update(with_list(x, bodies[x.rank])[1])
            taken += len(positions) - before
        return [self._cut(supplied[r], bodies[r], positions, label=f"S{n}")
                for n, (r, positions) in enumerate(chosen.items(), start=1)]

    def _cut(self, s: Supplied, units: list[str], positions: set[int], label: str) -> Supplied:
        heading = s.evidence.text.split("\n", 1)[0]
        text = "\n".join([heading, *(units[p] for p in sorted(positions))])
        evidence = s.evidence.model_copy(update={"label": label, "text": text,
                                                 "tokens": self.budget.count(text)})
        return dataclasses.replace(s, evidence=evidence, further=False)


__all__ = ["EvidenceFocus"]

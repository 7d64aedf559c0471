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

In the `choice` form (`choice=True`) each chosen unit (with its list) is an item of its own,
labelled S1… best first, and the model is asked only to name the labels that answer
(`prompts.answer.ANSWER_CHOICE_SYSTEM`). `quoted` turns a reply of labels alone into the named
units' own words, each cited, the first `quotes` of them in the model's order: what a small
model is good at (judging which sentence answers) is kept, what it is bad at (copying words and
labels exactly) is done by code. A reply that says `NONE` is the model's "nothing answers"; a
reply with words of its own is left as written, for the citation check like any other.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from situated.chains.budget import Budget
from situated.chains.say.models import NO_ANSWER, ExtractiveChatModel
from situated.chains.say.quoting import with_list
from situated.chains.state import Supplied
from situated.loaders.sentences import evidence_units

_LABEL = re.compile(r"\b[Ss](\d+)\b")
_FILLER = re.compile(r"(?i)\b(and|labels?)\b|[\s\[\]().,;:&*`'\"-]+")
_NONE = re.compile(r"(?i)\s*[\[(`'\"]*(none|nothing)[\])`'\".]*\s*")


@dataclass(frozen=True)
class EvidenceFocus:
    """Packed blocks in, the same blocks cut to their best units out (module doc)."""

    ranker: ExtractiveChatModel
    units: int
    budget: Budget
    choice: bool = False  # one unit a label, and the model names labels (module doc)
    quotes: int = 3  # in the choice form, how many named labels are quoted

    def __call__(self, question: str, supplied: list[Supplied]) -> list[Supplied]:
        evidence = [(s.evidence.label, s.evidence.text) for s in supplied]
        ranked = self.ranker.ranked(question, evidence)
        if not ranked:  # nothing to choose by (the question's code is not held): as packed
            return supplied
        bodies = {r: evidence_units(text) for r, (_, text) in enumerate(evidence)}
        chosen: dict[int, set[int]] = {}  # block's place in `supplied` → unit positions
        taken = 0
        items: list[tuple[int, set[int]]] = []  # the choice form: (block, its new units)
        for x in ranked:
            if taken >= self.units:
                break
            if x.pos in chosen.get(x.rank, ()):  # a list item already brought by its lead
                continue
            positions = chosen.setdefault(x.rank, set())
            taken_before = set(positions)
            positions.update(with_list(x.text, x.pos, bodies[x.rank])[1])
            taken += len(positions) - len(taken_before)
            if self.choice:
                items.append((x.rank, positions - taken_before))
        if self.choice:
            return [self._cut(supplied[r], bodies[r], positions, label=f"S{n}")
                    for n, (r, positions) in enumerate(items, start=1)]
        return [self._cut(supplied[r], bodies[r], positions, label=f"S{n}")
                for n, (r, positions) in enumerate(chosen.items(), start=1)]

    def quoted(self, reply: str, supplied: list[Supplied]) -> str:
        """A reply of labels alone as the named units' words, each cited (module doc);
        `NONE` as the model's no-answer; anything else as written."""
        if _NONE.fullmatch(reply):
            return NO_ANSWER
        labels = list(dict.fromkeys(f"S{m.group(1)}" for m in _LABEL.finditer(reply)))
        if not labels or _FILLER.sub("", _LABEL.sub("", reply)):
            return reply  # words of its own (or nothing): the citation check reads it
        by_label = {s.evidence.label: s.evidence.text for s in supplied}
        if any(lb not in by_label for lb in labels):
            return reply  # a label it was not shown: withheld by the citation check, named
        return " ".join(f"{_body(by_label[lb])} [{lb}]" for lb in labels[:self.quotes])

    def _cut(self, s: Supplied, units: list[str], positions: set[int], label: str) -> Supplied:
        heading = s.evidence.text.split("\n", 1)[0]
        text = "\n".join([heading, *(units[p] for p in sorted(positions))])
        evidence = s.evidence.model_copy(update={"label": label, "text": text,
                                                 "tokens": self.budget.count(text)})
        return dataclasses.replace(s, evidence=evidence, further=False)


def _body(text: str) -> str:
    """An item's units without the heading line it carries (`_cut`), on one line."""
    return " ".join(text.split("\n")[1:]).strip()


__all__ = ["EvidenceFocus"]

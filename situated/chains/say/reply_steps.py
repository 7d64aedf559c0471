"""From a routed question to its `Answer` (`ReplySteps`): the token budget packs the blocks,
the prompt and the chat model reply, and the citation parser maps labels to links or withholds;
or the route's stop (clarify, no evidence) is said without a model call."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig

from situated.chains.context import StepContext
from situated.chains.contract import Answer, Status
from situated.chains.decision import Route
from situated.chains.endpoint import model_call
from situated.chains.say import assemble
from situated.chains.say import wording as w
from situated.chains.say.citations import CitationParser
from situated.chains.say.evidence import (
    evidence_of,
    flagged_of,
    hits_of,
    links_of,
    pack,
    supplied_blocks,
)
from situated.chains.say.focus import EvidenceFocus
from situated.chains.say.models import NO_ANSWER
from situated.chains.say.release_text import ReleaseText
from situated.chains.state import Packed, Replied, Routed
from situated.loaders.neutralise import neutralise
from situated.prompts.answer import evidence_label_line
from situated.retrievers.rerank import Reranker, reordered

log = logging.getLogger("situated.ask")


class ReplySteps:
    """Bound to one chain's `StepContext` and what its answers say about their release."""

    def __init__(self, ctx: StepContext, release_text: ReleaseText,
                 focus: EvidenceFocus | None = None, reranker: Reranker | None = None):
        self.ctx, self.release_text = ctx, release_text
        self.focus, self.reranker = focus, reranker

    def budget(self, routed: Routed) -> Packed:
        supplied: tuple = ()
        if routed.decision.route is Route.ANSWER:
            blocks = supplied_blocks(routed.found, routed.decision.supply,
                                     self.ctx.versions.read_blocks, routed.deeper)
            chosen = set(routed.decision.supply)
            if self.reranker is not None:  # the routed blocks in its order, the further after
                blocks = reordered(self.reranker, routed.reading.question.text,
                                   [b for b in blocks if b.block_id in chosen],
                                   lambda b: b.text, self.ctx.settings.reranker_depth) + [
                    b for b in blocks if b.block_id not in chosen]
            supplied = tuple(dataclasses.replace(s, further=s.block.block_id not in chosen)
                             for s in pack(blocks, self.ctx.budget_of,
                                           self.ctx.versions.content))
            if self.focus is not None:  # a small model reads the best units (`chains.say.focus`)
                supplied = tuple(self.focus(routed.reading.question.text, list(supplied)))
            log.debug("prompt labels=%s", [(s.evidence.label, s.evidence.block_id)
                                           for s in supplied])
        return Packed(routed.reading, routed.found, routed.decision, supplied,
                      deeper=routed.deeper)

    def prompt_input(self, packed: Packed) -> dict[str, str]:
        blocks = "\n\n".join(
            evidence_label_line(s.evidence.label, s.evidence.source_id, s.evidence.section,
                                s.evidence.page, s.further) + "\n" + s.evidence.text
            for s in packed.supplied)
        q = packed.reading.question
        return {"facts": packed.reading.validated.situation.known_facts() or "none",
                "evidence": blocks, "question": f"{q.follows} {q.text}" if q.follows else q.text}

    def answer_model(self, model_answer: Runnable, packed: Packed,
                     config: RunnableConfig) -> Replied:
        """The prompt and the chat model as one step: a failure of the model's endpoint is a
        `ModelError` naming the setting and the URL, never a raw client error."""
        with model_call(self.ctx.settings):
            return Replied(packed, model_answer.invoke(packed, config))

    def cite(self, replied: Replied, config: RunnableConfig) -> Answer:
        """The citation check on the reply (`CitationParser`, bound to this prompt's evidence,
        so a trace shows a parser run): labels → links, or withheld."""
        packed = replied.packed
        supplied, lang = list(packed.supplied), packed.reading.question.lang
        v = packed.reading.validated
        evidence = evidence_of(supplied)
        reply = getattr(replied.reply, "content", replied.reply)
        if self.focus is not None and self.focus.choice and isinstance(reply, str):
            reply = self.focus.quoted(reply, supplied)  # labels alone → the units they name
        parsed = CitationParser(evidence=evidence, links=links_of(supplied), lang=lang).invoke(
            reply, config)
        text, status = parsed.answer, parsed.status
        if status is Status.WITHHELD and isinstance(reply, str) and reply.strip() == NO_ANSWER:
            # the offline model found no unit of the evidence that answers: nothing applies (a
            # model's unknown or missing labels stay withheld)
            status, text = Status.NO_EVIDENCE, w.no_evidence_text(v.situation, lang, [])
        if status is Status.ANSWERED:  # the slice and the notes are written by code
            # names in them come from metadata: neutralised like evidence; the release named is
            # that of the first source the answer cites, not of the first block it was given
            by_label = {s.evidence.label: s for s in supplied}
            cited = [by_label[c.label] for c in parsed.citations]
            text = neutralise(w.slice_text(v.situation, lang, v.periods)
                              + self.release_text.latest_slice(packed.reading.question,
                                                               v.situation, cited, lang)) + text
            notes = [*packed.decision.notes, *(self.release_text.holds_for(
                packed.reading.question, supplied) if packed.found.filter.latest_only else [])]
            text = "\n\n".join([text, *(neutralise(n) for n in notes)])
        return assemble.cited(status, text, parsed.citations, v.situation, evidence,
                              evidence_always=True, hits=hits_of(self.ctx.snap.index, packed.found),
                      budget=self.ctx.budget_out(evidence), flagged=flagged_of(supplied),
                      relevance=self.ctx.relevance(packed.found))

    def stop(self, packed: Packed) -> Answer:
        """Clarify, no evidence, or nothing fits the allowance: no model call."""
        d, lang = packed.decision, packed.reading.question.lang
        common: dict[str, Any] = {"hits": hits_of(self.ctx.snap.index, packed.found),
                                  "relevance": self.ctx.relevance(packed.found)}
        situation = packed.reading.validated.situation
        if d.route is Route.ANSWER:  # no block fits the allowance
            return assemble.unanswered(
                Status.NO_EVIDENCE, w.fixed("over_allowance", lang,
                                            allowance=self.ctx.settings.allowance),
                situation, budget=self.ctx.budget_out([]), **common)
        return assemble.stopped(d, situation, **common)


__all__ = ["ReplySteps"]

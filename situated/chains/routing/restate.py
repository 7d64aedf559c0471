"""A second search for a question the relevance rule refused, by a chat model's restatement of it
in plain, general words (`Settings.restate_refused`).

The offline relevance rule reads a question's words against the documents' (MiniLM's sentence
and piece cosines, e5's reading of the block): a paraphrase that shares neither words nor topic
with the text it asks about ("How much is an hour with a coach?" of "Personal training costs 45
EUR per hour") scores as a stranger does, and is refused. A model that writes knows that a coach
is a trainer, a Tesla an electric car. So, when the operator turns it on and a chat model that
writes is configured, a question the rule refused ("nothing relevant") is restated once
(`prompts.restate`), searched and routed again; the second route stands only where it answers,
else the first refusal does. The relevance rule decides both times; the restatement changes
only what the legs read (`Validated.query`): the situation, the dates and the reply's language
are the question's as asked. The request carries the question alone, and a question is restated
only where nothing the caller may read was relevant, so what the caller may not read never
decides whether a model is asked (`benchmarks/restate.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.runnables import Runnable, RunnableConfig

from situated.chains.read.rewrite import one_line_reply, searched_as
from situated.chains.routing.rules import NothingRelevant
from situated.chains.state import Reading, Routed
from situated.prompts.restate import RESTATE_PROMPT
from situated.settings import Settings


@dataclass(frozen=True)
class QuestionRestater:
    """`Routed` in; for a refusal of the relevance rule, the `Reading` to search again, else
    None (module doc)."""

    model: Runnable
    settings: Settings  # for the error naming the endpoint and its settings

    def again(self, routed: Routed, config: RunnableConfig) -> Reading | None:
        reading = routed.reading
        query = reading.validated.query
        if routed.decision.rule != NothingRelevant.name or not query:
            return None
        text = one_line_reply(RESTATE_PROMPT | self.model, {"question": query}, config,
                              self.settings)
        if not text or text.casefold() == query.casefold():
            return None
        return searched_as(reading, text)


__all__ = ["QuestionRestater"]

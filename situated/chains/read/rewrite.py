"""A question in another script than the documents', searched by a chat model's rewrite of it
(`Settings.rewrite_into`, e.g. "English").

The offline chain answers a Russian question over English documents 0.12 of the time on
XQuAD's test half, its English twin 0.91; Qwen2.5-Coder-1.5B's rewrite lifts it to 0.63
(`crosslang_rewrite.py` (docs/experiments.md)). So, when the operator says which language the documents
are in and a chat model that writes is configured, a question that is not mostly in Latin script
is rewritten into that language, and only its search text changes (`Validated.query`, which the
legs read): its situation, dates and language (the reply's) are read from the question as
asked. The language comes from the settings, never from the index, so whether a question is
rewritten says nothing about documents the caller may not read; the request carries the question
alone. A rewrite that comes back empty, or not in Latin script, is not used.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from langchain_core.runnables import Runnable, RunnableConfig

from situated.chains.endpoint import model_call
from situated.chains.read.extract import topic_of
from situated.chains.read.question import Reading
from situated.errors import ModelError
from situated.index.text import mostly_latin
from situated.prompts.rewrite import REWRITE_PROMPT
from situated.settings import Settings

MAX_REWRITE_CHARS = 1000  # a rewrite longer than this is cut (a question is short)


@dataclass(frozen=True)
class QuestionRewriter:
    """`Reading` in, the same `Reading` with its search text rewritten out (module doc)."""

    model: Runnable
    language: str
    settings: Settings  # for the error naming the endpoint and its settings

    def __call__(self, reading: Reading, config: RunnableConfig) -> Reading:
        query = reading.validated.query
        if not query or mostly_latin(query):
            return reading
        text = one_line_reply(REWRITE_PROMPT | self.model,
                              {"language": self.language, "question": query}, config,
                              self.settings)
        if not text or not mostly_latin(text):
            return reading
        return searched_as(reading, text)


def one_line_reply(chain: Runnable, inputs: dict, config: RunnableConfig,
                   settings: Settings) -> str:
    """The first line of a chat model's reply to `chain` (a prompt and the model), cut at
    `MAX_REWRITE_CHARS`; "" when the reply is empty, or when the endpoint fails and
    `model_fallback` says to go on as asked (else its `ModelError`)."""
    try:
        with model_call(settings):
            reply = chain.invoke(inputs, config)
    except ModelError:
        if settings.model_fallback:  # searched as asked, as the offline model would
            return ""
        raise
    content = getattr(reply, "content", reply)
    lines = content.strip().splitlines() if isinstance(content, str) else []
    return lines[0].strip()[:MAX_REWRITE_CHARS] if lines else ""


def searched_as(reading: Reading, text: str) -> Reading:
    """`reading` with its search text `text`: only what the legs read (and the topic relevance
    weighs, `extract.topic_of`) changes."""
    v = reading.validated
    topic = topic_of(text, reading.question.matcher, v.situation.product)
    return dataclasses.replace(reading, validated=dataclasses.replace(v, query=text, topic=topic))


__all__ = ["QuestionRewriter", "one_line_reply", "searched_as"]

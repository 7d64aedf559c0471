"""The question as the chain reads it: what a client sends (`AskFields`), the chain's input with
the caller's scope (`AskInput`), the one question check, and the records of reading it —
`Question` (prepare), `Proposed` (extract), `Reading` (validate). `chains.state` lists every
record the chain carries."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from pydantic import BaseModel, ConfigDict, Field

from situated.chains.read.compare import Comparison
from situated.chains.read.dates import DateMention
from situated.chains.read.extract import Validated
from situated.chains.read.intent import Intent
from situated.chains.read.lang import Lang
from situated.chains.read.products import ProductMatcher
from situated.chains.read.proposal import Proposal
from situated.chains.read.said import Said
from situated.chains.read.subject import Subject, subject_of
from situated.errors import QuestionError
from situated.situation import Scope, Situation


def check_question(text: str, max_chars: int, name: str = "question") -> str:
    """The one question check (CLI, server, chain): the text stripped, or a `QuestionError`
    naming what is wrong and the fix."""
    stripped = text.strip()
    if not stripped and name == "question":
        raise QuestionError("the question is empty or only spaces; ask something")
    if len(stripped) > max_chars:
        raise QuestionError(f"the {name} has {len(stripped)} characters, more than the "
                            f"{max_chars} allowed; shorten it")
    return stripped


class AskFields(BaseModel):
    """What a client sends: one question, the situation carried from a previous
    clarification, the question that clarification was about. The server's request model is
    derived from this (`server.make_request_model`)."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1)
    situation: Situation | None = None
    follows: str | None = Field(
        default=None, description="The question this turn answers a clarification of: a reply "
        "such as \"X\" or «1 апреля 2026» is searched together with it.")


class AskInput(AskFields):
    """The chain's input: what a client sends plus the caller scope, which must come from
    authentication (CLI flags, the server's API key), never from the question."""

    scope: Scope = Field(default_factory=Scope)


@dataclass(frozen=True)
class Question:
    """prepare: the question checked once, its dates found once, what it names."""

    text: str  # stripped and length-checked: read by the model-facing steps only
    follows: str  # the question a clarification reply completes
    follows_query: str  # its words without its dates (its situation is carried)
    carried: Situation | None  # the situation of earlier turns
    scope: Scope  # from authentication, never from the question
    lang: Lang  # the language replies are written in
    mentions: tuple[DateMention, ...]  # the question's dates
    matcher: ProductMatcher  # the products the scope may read
    named: frozenset[str]  # the document families the question names
    comparison: Comparison | None  # two periods to compare, or None
    cue: Intent | None  # the intent its words give (a comparison's slice: AT), read once
    said: Said  # its mentions and asking words, read once: no later step reads `text`
    # each word its slips were put right to, with the word as typed (`spelling.as_typed`)
    slips: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Proposed:
    """extract: what a model or the rules propose for the question."""

    question: Question
    proposal: Proposal


@dataclass(frozen=True)
class Reading:
    """validate: what of the proposal the question grounds; the intent is decided here."""

    question: Question
    validated: Validated

    @property
    def query(self) -> str:
        """What the legs see: the question without its situation (dates and their cues
        removed), after the words of the question a reply completes."""
        parts = (self.question.follows_query, self.validated.query)
        return " ".join(q for q in parts if q) or self.question.text

    @cached_property
    def subject(self) -> Subject:
        """What a first-appearance question asks the first appearance of: read from `query`,
        the families and products it names being where to look (`subject.subject_of`)."""
        q = self.question
        return subject_of(self.query, [*q.named, *q.matcher.products])

    @property
    def topic(self) -> str | None:
        """What relevance is judged on where it is not `query`: the query without the product
        its situation names (`extract.topic_of`); None where it is the query."""
        if not self.validated.topic:
            return None
        return " ".join(q for q in (self.question.follows_query, self.validated.topic) if q)


__all__ = ["AskFields", "AskInput", "Proposed", "Question", "Reading", "check_question"]

"""What the ask chain carries: its input, the one question check, and the frozen records its
steps hand on, each naming what the next step may read.

    AskInput ─prepare→ Question ─extract→ Proposed ─validate→ Reading
    Reading ─retrieve→ Retrieved ─route→ Routed ─budget→ Packed ─model→ Replied ─cite→ Answer
    Reading ─find_versions→ Subject ─diff_versions | list_versions→ Answer
    Question ─periods→ [Question, Question] ─(one question each)→ Compared ─merge→ Answer

The pinned index generation is not in any record: each chain is built for one generation
(`chains.ask`), so traces show each step's inputs without the index.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ConfigDict, Field

from situated.chains.contract import Answer
from situated.chains.decision import Decision, Probes
from situated.chains.read.compare import Comparison
from situated.chains.read.dates import DateMention
from situated.chains.read.extract import Validated
from situated.chains.read.intent import Intent
from situated.chains.read.products import ProductMatcher
from situated.chains.read.proposal import Proposal
from situated.chains.read.said import Said
from situated.chains.say.evidence import Supplied
from situated.chains.say.wording import Lang
from situated.chains.versions.history import Lines
from situated.errors import QuestionError
from situated.retrievers.fusion import RankedBlock
from situated.retrievers.hybrid import SearchResult
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

    @property
    def topic(self) -> str | None:
        """What relevance is judged on where it is not `query`: the query without the product
        its situation names (`extract.topic_of`); None where it is the query."""
        if not self.validated.topic:
            return None
        return " ".join(q for q in (self.question.follows_query, self.validated.topic) if q)


@dataclass(frozen=True)
class Retrieved:
    """retrieve: the relevant blocks, each carrying its document, family and filter fields."""

    reading: Reading
    found: SearchResult
    # the search's other blocks, relevant or not, in rank order: further evidence of the
    # documents the answer reads, as the allowance holds (`Settings.fill_blocks`); never
    # routed on
    deeper: tuple[RankedBlock, ...] = field(default=(), kw_only=True)
    # the searches the router's rules declared (`routing.router.Router.probe`), run here
    probes: Probes = field(default=Probes(), kw_only=True)


@dataclass(frozen=True)
class Routed(Retrieved):
    """route: answer, clarify or no evidence (what `Retrieved` holds, and the decision)."""

    decision: Decision


@dataclass(frozen=True)
class Packed(Routed):
    """budget: the labelled blocks within the allowance (each block read once, here)."""

    supplied: tuple[Supplied, ...]


@dataclass(frozen=True)
class Replied:
    """the chat model's reply to the prompt of `packed`."""

    packed: Packed
    reply: BaseMessage


@dataclass(frozen=True)
class Subject:
    """find_versions: the family and lines a question about versions is about, or a stop."""

    reading: Reading
    lines: Lines


@dataclass(frozen=True)
class Compared:
    """compare_periods: one answer per period of the question."""

    question: Question
    answers: tuple[Answer, ...]


__all__ = ["AskFields", "AskInput", "Compared", "Packed", "Proposed", "Question", "Reading",
           "Replied", "Retrieved", "Routed", "Subject", "check_question"]

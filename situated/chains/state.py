"""What the ask chain carries: its input, the state it grows step by step, and the pinned
index generation its steps read (passed in the run's config, not in the state, so traces show
each step's inputs without the index)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from situated.chains.compare import Comparison
from situated.chains.contract import Evidence
from situated.chains.dates import DateMention
from situated.chains.extract import ExtractedSituation, Validated
from situated.chains.history import Found
from situated.chains.intent import Intent
from situated.chains.products import ProductMatcher
from situated.chains.route import Decision, Versions
from situated.chains.wording import Lang
from situated.index.reader import Index
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import HybridSearch, SearchResult
from situated.situation import Scope, Situation


class AskInput(BaseModel):
    """One question, the situation carried from a previous clarification, the caller scope."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1)
    situation: Situation | None = None
    follows: str | None = Field(
        default=None, description="The question this turn answers a clarification of: a reply "
        "such as \"X\" or «1 апреля 2026» is searched together with it.")
    scope: Scope = Field(default_factory=Scope)


class AskState(TypedDict, total=False):
    """One question's state; each key is added by the step named beside it."""

    question: str  # prepare: stripped and length-checked
    follows: str  # prepare: the question a clarification reply completes
    follows_query: str  # prepare: its words without its dates (its situation is carried)
    carried: Situation | None  # prepare: the situation of earlier turns
    scope: Scope  # prepare: from authentication, never from the question
    lang: Lang  # prepare: the language replies are written in
    mentions: list[DateMention]  # prepare: the question's dates, found once
    matcher: ProductMatcher  # prepare: the products the scope may read
    comparison: Comparison | None  # prepare: two periods to compare, or None
    named: set[str]  # prepare: the document families the question names
    fixed_intent: Intent | None  # periods: a comparison's slice is asked at its period
    proposed: ExtractedSituation | dict  # extract: a model's or the rules' proposal
    validated: Validated  # validate: what of it the question grounds
    result: SearchResult  # retrieve: the relevant blocks
    decision: Decision  # route: answer, clarify or no evidence
    evidence: list[Evidence]  # budget: labelled blocks within the allowance
    reply: BaseMessage  # model: the chat model's reply
    answers: list[Any]  # compare: one answer per period
    found: Found  # find_versions: the versions a question about change is about


GENERATION = "situated_generation"  # the configurable key the pinned generation travels in


@dataclass
class Generation:
    """One pinned index generation and what the chain derives from it once."""

    index: Index
    engine: HybridSearch
    count: Callable[[str], int]  # the budget's token counter for the chat model
    versions: Versions = field(init=False)
    _matchers: dict[frozenset[str], ProductMatcher] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.versions = Versions(self.index)

    def matcher_for(self, scope: Scope) -> ProductMatcher:
        """Extraction knows only the products the caller may read (`products_for`)."""
        products = self.engine.products_for(scope)
        if products not in self._matchers:
            self._matchers[products] = ProductMatcher(products)
        return self._matchers[products]

    def filter(self, situation: Situation, scope: Scope,
               sources: frozenset[str] | None = None) -> Filter:
        """The one place the chain builds a Filter: situation and scope, in the index's zone."""
        return Filter(situation=situation, scope=scope, sources=sources,
                      timezone=self.index.timezone)

    @staticmethod
    def of(config: RunnableConfig) -> Generation:
        try:
            return config["configurable"][GENERATION]
        except KeyError:
            raise RuntimeError("a step of the ask chain ran outside `build_ask_chain`'s run, "
                               "which pins the index generation; invoke the whole chain") from None

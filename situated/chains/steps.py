"""The ask chain's steps over one index generation (`chains.ask` composes and pins them).

Each step is a function of one record of `chains.state` and returns the next; a step reads
nothing but its record and what its component was built with (`chains.context.StepContext`:
settings, the generation's `Snapshot`, the budget, the search). `AskSteps` composes the
components — read the question (`reader`), search and route (`routing.evidence_steps`,
`routing.router`), reply (`reply_steps`), and the questions about versions (`history_steps`,
`appearance_steps`) — into one Runnable. Evaluation baselines are compositions of their own over
them (`eval.systems`).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda

from situated.chains.budget import Budget
from situated.chains.context import Searcher, StepContext
from situated.chains.contract import Answer, Status
from situated.chains.decision import Route
from situated.chains.read.compare import Comparison, Period, slice_situation
from situated.chains.read.extract import Clock
from situated.chains.read.intent import Intent
from situated.chains.read.reader import QuestionReader
from situated.chains.read.rewrite import QuestionRewriter
from situated.chains.routing.evidence_steps import EvidenceSteps
from situated.chains.routing.restate import QuestionRestater
from situated.chains.routing.router import Router, standard
from situated.chains.say import assemble
from situated.chains.say.focus import EvidenceFocus
from situated.chains.say.periods import ask_year, merge
from situated.chains.say.reply_steps import ReplySteps
from situated.chains.state import (
    AskInput,
    Compared,
    Packed,
    Proposed,
    Question,
    Reading,
    Replied,
    Routed,
)
from situated.chains.versions.appearance_steps import AppearanceSteps
from situated.chains.versions.history_steps import HistorySteps
from situated.chains.versions.release_steps import ReleaseSteps
from situated.retrievers.rerank import Reranker
from situated.situation import Situation

if TYPE_CHECKING:
    from situated.app import Snapshot
    from situated.settings import Settings


class AskSteps:
    """The components of one chain, bound to one generation (`snap`), and their composition.
    `searcher`: another retrieval in place of the generation's engine (`StepContext`)."""

    reader_kind: type[QuestionReader] = QuestionReader  # another wiring (`eval.systems`)
    # the router's rules in order (`routing.router.standard`; a baseline wires its own)
    routing: Callable[[StepContext, ReleaseSteps], Router] = staticmethod(standard)

    def __init__(self, settings: Settings, snap: Snapshot, model: Runnable, proposer: Runnable, clock: Clock,
                 prompt: ChatPromptTemplate, budget: Budget, searcher: Searcher | None = None,
                 focus: EvidenceFocus | None = None, reranker: Reranker | None = None,
                 rewriter: QuestionRewriter | None = None,
                 restater: QuestionRestater | None = None):
        self.ctx = StepContext(settings, snap, budget, searcher)
        self.rewriter, self.restater = rewriter, restater
        self.model, self.proposer, self.prompt = model, proposer, prompt
        self.releases = ReleaseSteps(self.ctx)
        self.reader = self.reader_kind(self.ctx, clock, self.releases)
        self.evidence = EvidenceSteps(self.ctx, self.routing(self.ctx, self.releases))
        self.reply = ReplySteps(self.ctx, self.releases.text, focus, reranker)
        self.history = HistorySteps(self.ctx, self.releases)
        self.appearance = AppearanceSteps(self.ctx)

    def chain(self) -> Runnable[AskInput | dict[str, Any], Answer]:
        """The steps composed; the branches are functions that pick a Runnable (drawn by
        `get_graph` as alternatives)."""
        one = (_through("extract", self.proposer, Proposed, _proposer_input, (Question, Proposed))
               | _step(self.reader.validate, "validate"))
        if self.rewriter is not None:  # searched in the documents' language (`chains.read.rewrite`)
            one = one | _step(self.rewriter.__call__, "rewrite")
        one = one | _step(self._what_is_asked(), "what_is_asked")
        compare = (_through("compare_periods", _step(self.periods, "periods") | one.map(),
                            lambda q, answers: Compared(q, tuple(answers)),
                            types=(Question, Compared))
                   | _step(self.merge, "merge_periods"))
        ask_year_stop = _step(self.ask_year, "ask_year")

        def one_or_two(question: Question) -> Runnable:
            if question.comparison is None:
                return one
            return ask_year_stop if question.comparison.periods is None else compare

        return _step(self.reader.prepare, "prepare") | _step(one_or_two, "one_or_two_periods")

    def _what_is_asked(self) -> Callable[[Reading], Runnable]:
        """A question about a moment (search, route, reply), the changes between versions, the
        list of versions, or where something first appears."""
        reply, stop = self._reply(), _step(self.reply.stop, "stop")

        def answer_or_stop(packed: Packed) -> Runnable:
            answers = packed.decision.route is Route.ANSWER and packed.supplied
            return reply if answers else stop

        at = _step(self.evidence.retrieve, "retrieve") | _step(self.evidence.route, "route")
        if self.restater is not None:  # a refusal searched once more (`chains.routing.restate`)
            at = at | _step(self.restated, "restate_refused")
        at = at | _step(self.reply.budget, "budget") | _step(answer_or_stop, "answer_or_stop")
        find = _step(self.history.find_versions, "find_versions")
        changes = find | _step(self.history.changes, "diff_versions")
        listing = find | _step(self.history.listing, "list_versions")
        first = _step(self.appearance.answer, "first_appearance")

        def what_is_asked(reading: Reading) -> Runnable:
            """Each branch a Runnable this function names (`get_graph` draws them all)."""
            intent = reading.validated.intent
            if intent is Intent.CHANGES:
                return changes
            if intent is Intent.VERSIONS:
                return listing
            return first if intent is Intent.SINCE else at
        return what_is_asked

    def restated(self, routed: Routed, config: RunnableConfig) -> Routed:
        """A refusal of the relevance rule searched and routed again by the model's
        restatement; the second route stands only where it answers."""
        reading = self.restater.again(routed, config) if self.restater else None
        if reading is None:
            return routed
        again = self.evidence.route(self.evidence.retrieve(reading))
        return again if again.decision.route is Route.ANSWER else routed

    def _reply(self) -> Runnable:
        """The prompt, the chat model (a failure of its endpoint is a `ModelError` naming the
        setting and the URL) and the citation parser."""
        model_answer = _step(self.reply.prompt_input, "prompt_input") | self.prompt | self.model

        def answer_model(packed: Packed, config: RunnableConfig) -> Replied:
            return self.reply.answer_model(model_answer, packed, config)

        return _step(answer_model, "answer_model") | _step(self.reply.cite, "citation_parser")

    # -- two periods --------------------------------------------------------------------------

    def periods(self, question: Question) -> list[Question]:
        """One question per period: the question without the periods, asked at the period."""
        comparison, periods = _periods_of(question)
        return [self.reader.question(comparison.query, question.follows,
                                     slice_situation(question.carried, period), question.scope,
                                     slice_of=True)
                for period in periods]

    def merge(self, compared: Compared) -> Answer:
        return merge(_periods_of(compared.question)[1], list(compared.answers),
                     compared.question.lang)

    def ask_year(self, question: Question) -> Answer:
        if question.comparison is None:
            raise ValueError("ask_year was routed a question that compares nothing")
        return assemble.unanswered(Status.CLARIFY, ask_year(question.comparison, question.lang),
                                 question.carried or Situation(), missing=["year"],
                                 relevance=self.ctx.relevance())


def _periods_of(question: Question) -> tuple[Comparison, tuple[Period, Period]]:
    """A comparison's two periods (`one_or_two` routes here only when it has them)."""
    comparison = question.comparison
    if comparison is None or comparison.periods is None:
        raise ValueError("a comparison of two periods was routed without its periods")
    return comparison, comparison.periods


def _proposer_input(question: Question) -> dict[str, Any]:
    return {"question": question.text, "matcher": question.matcher,
            "mentions": list(question.mentions)}


def _through(name: str, runnable: Runnable, out: Callable[[Any, Any], Any],
             into: Callable[[Any], Any] = lambda x: x,
             types: tuple[type, type] | None = None) -> Runnable:
    """A step that runs `runnable` on (a view of) its record and makes the next record of the
    two (`get_graph` draws the runnable inside it; `types`: the records in and out). Not
    `RunnablePassthrough.assign`, which runs each step in a new worker thread (≈1.3 ms apiece,
    five or six per question)."""
    def run(record: Any, config: RunnableConfig) -> Any:
        return out(record, runnable.invoke(into(record), config))
    return _step(run, name, types)


def _step(fn: Callable, name: str, types: tuple[type, type] | None = None) -> Runnable:
    """A named step over one record, declaring the records it takes and makes (`types`, else
    read from `fn`'s annotations), so the graph's nodes carry them (`InputType`,
    `OutputType`). The types stay Python classes: records hold Python objects (search results,
    the product matcher), so their JSON Schemas are never asked for."""
    if types is None:
        hints = typing.get_type_hints(getattr(fn, "__func__", fn))
        first = next(n for n in inspect.signature(fn).parameters if n != "config")
        types = (hints[first], hints["return"])
    return _Step(fn, name, types)


class _Step(RunnableLambda):
    """A `RunnableLambda` whose record types are declared, not read from the function (whose
    annotations stay as written)."""

    def __init__(self, fn: Callable, name: str, types: tuple[type, type]):
        super().__init__(fn, name=name)
        self._types = types

    @property
    def InputType(self) -> Any:
        return self._types[0]

    @property
    def OutputType(self) -> Any:
        return self._types[1]


__all__ = ["AskSteps"]

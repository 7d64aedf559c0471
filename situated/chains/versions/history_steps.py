"""The steps of a question about versions (`chains.versions.history`): which family and lines it is
about, then the changes between consecutive versions or the list of versions. Neither calls
the model; both read only the versions the caller may read."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from situated.chains.context import StepContext
from situated.chains.contract import Answer
from situated.chains.decision import Decision
from situated.chains.read.intent import Intent
from situated.chains.routing.release_rules import unbound_product, unknown_release
from situated.chains.say import assemble
from situated.chains.say import wording as w
from situated.chains.state import Reading, Subject
from situated.chains.versions.change_window import change_window, pairs_in
from situated.chains.versions.history import (
    Lines,
    answer_changes,
    find_lines,
    is_notes_line,
    without_history,
)
from situated.chains.versions.listing import answer_versions
from situated.chains.versions.notes_answer import answer_notes, notes_at
from situated.chains.versions.release_steps import ReleaseSteps
from situated.documents import DocKind

if TYPE_CHECKING:
    from situated.chains.read.extract import Validated
    from situated.retrievers.filter import Filter


class HistorySteps:
    """Bound to one chain's `StepContext` and its release steps."""

    def __init__(self, ctx: StepContext, releases: ReleaseSteps):
        self.ctx, self.releases, self.versions = ctx, releases, ctx.versions

    def find_versions(self, reading: Reading) -> Subject:
        """The family (and product) a question about versions is about, counting only the
        versions the caller may read; or a clarification or no evidence."""
        v, q = reading.validated, reading.question
        if v.partial and not v.periods and not any(m.value for m in q.mentions):
            # a date without its year: asked for before anything is searched
            return Subject(reading, Lines([], Decision.clarify(["year"], w.fixed(
                "ask_change_year", q.lang, period=next(iter(v.partial.values()))))))
        unknown = unbound_product(q, v) or unknown_release(self.releases, q, v)
        readable = self.ctx.readable(q.scope)
        if unknown is not None:
            noted = None if v.intent is not Intent.CHANGES or v.release.unknown is None else \
                self.releases.noted_release(q, v.situation.product, v.release.unknown)
            if noted is None:
                return Subject(reading, Lines([], unknown))
            # "What changed in 0.28.0?" where only the changelog has 0.28.0: its notes answer
            reading = with_release(reading, noted)
            v = reading.validated
        return Subject(reading, find_lines(
            self.versions, q.named, v.situation.product, readable, reading.query, q.lang,
            lambda flt: self.ctx.search(reading.query, flt, self.ctx.settings.top_blocks)))

    def changes(self, subject: Subject) -> Answer:
        return self._relevance(self._changes(subject))

    def listing(self, subject: Subject) -> Answer:
        return self._relevance(self.releases.line_listing(subject.reading)
                               or self._listing(subject))

    def _relevance(self, answer: Answer) -> Answer:
        """What decided relevance, on every answer (the contract's null is a comparison's)."""
        return answer.model_copy(update={"relevance": self.ctx.relevance()})

    def _changes(self, subject: Subject) -> Answer:
        notes = self._from_notes(subject)
        if notes is not None:
            return notes
        v, q = subject.reading.validated, subject.reading.question
        stopped = _history_stop(subject) or without_history(subject.lines, v.situation,
                                                               q.lang)
        if stopped is not None:
            return stopped
        window = change_window(v.periods, list(q.mentions), q.said.since, self.versions.timezone,
                               q.lang, v.situation.version)
        line = max(subject.lines.lines, key=lambda x: len(x.members))
        pairs, earlier = pairs_in(self.versions, line, window)
        return answer_changes(self.versions, line, pairs, earlier, window, v.situation, q.lang,
                              self.ctx.readable(q.scope), self.ctx.budget_of,
                              self.ctx.budget_out([]))

    def _from_notes(self, subject: Subject) -> Answer | None:
        """What changed in a release, from its release notes: where the question's line is
        notes (never diffed against itself), or where it names a release and no document and
        no one page describes the release (with many pages, a diff of one of them is not what
        the release changed; the notes say that) (`notes_answer`)."""
        v, q = subject.reading.validated, subject.reading.question
        lines = subject.lines.lines
        release = v.situation.version
        own = lines and is_notes_line(lines)
        readable = self.ctx.readable(q.scope)
        if not own and (q.named or release is None or self._one_page(readable, v, release)
                        or self._page_asked(subject, release)):
            return None  # a page named, or the one page of the release, is diffed
        meta = notes_at(self.versions, readable, v.situation.product, release)
        if meta is None:
            return None
        return answer_notes(self.versions, meta, v.situation, q.lang, readable, self.ctx.budget_of,
                            self.ctx.budget_out([]), self.releases.asked(q, subject.reading.query))

    def _page_asked(self, subject: Subject, release: str) -> bool:
        """A page the search found at `release` is the one the question asks about: its
        title's words (the product's aside) stand in the question ("What changed in the
        Requests Compatibility Guide in 0.14.3?"), not just the release."""
        tokenize = self.ctx.engine.index.tokenizer
        q = subject.reading.question
        asked = set(tokenize(q.matcher.strip(subject.reading.query)))
        for line in subject.lines.lines:
            at = [m for m in line.members if m.version == release and m.title]
            words = {t for m in at[:1] for t in tokenize(q.matcher.strip(m.title or ""))}
            if words and len(words & asked) * 2 >= len(words):
                return True
        return False

    def _one_page(self, readable: Filter, v: Validated, release: str) -> bool:
        """One page family (of the product) describes `release`: its diff is what changed."""
        pages = {m.family or m.source_id for m in self.versions.released(
            readable, v.situation.product) if m.version == release and m.kind is not DocKind.NOTES}
        return len(pages) == 1

    def _listing(self, subject: Subject) -> Answer:
        stopped = _history_stop(subject)
        if stopped is not None:
            return stopped
        return answer_versions(self.versions, subject.lines.lines,
                               subject.reading.validated.situation, subject.reading.question.lang)


def with_release(reading: Reading, release: str) -> Reading:
    """`reading` about `release`, which the notes hold though no page was written at it."""
    v = reading.validated
    return dataclasses.replace(reading, validated=dataclasses.replace(
        v, situation=v.situation.model_copy(update={"version": release}),
        release=dataclasses.replace(v.release, version=release, unknown=None)))


def _history_stop(subject: Subject) -> Answer | None:
    """A question about versions that cannot be answered yet: a date without its year, the
    product or document left open, or nothing relevant (no model call)."""
    stop = subject.lines.stop
    return None if stop is None else assemble.stopped(stop, subject.reading.validated.situation)

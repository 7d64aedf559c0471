"""The steps of a question about versions (`chains.versions.history`): which family and lines it is
about and the version router's decision over them (`routing.version_rules`), then the changes
between consecutive versions, the release notes, or the list of versions. None calls the
model; all read only the versions the caller may read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from situated.chains.context import StepContext
from situated.chains.contract import Answer
from situated.chains.decision import Route
from situated.chains.routing import version_rules
from situated.chains.say import assemble
from situated.chains.state import Lines, Reading, Subject
from situated.chains.versions.change_window import change_window, pairs_in
from situated.chains.versions.history import (
    answer_changes,
    find_lines,
    is_notes_line,
    one_version_each,
)
from situated.chains.versions.listing import answer_versions
from situated.chains.versions.notes_answer import answer_notes, notes_asked
from situated.chains.versions.release_steps import ReleaseSteps
from situated.documents import DocKind, DocumentMeta

if TYPE_CHECKING:
    from situated.chains.read.extract import Validated
    from situated.retrievers.filter import Filter


class HistorySteps:
    """Bound to one chain's `StepContext` and its release steps; the facts the version router
    reads (`routing.version_rules.VersionFacts`) and the answers after its decision."""

    def __init__(self, ctx: StepContext, releases: ReleaseSteps):
        self.ctx, self.releases, self.versions = ctx, releases, ctx.versions
        self.router = version_rules.versions(ctx, self)

    def find_versions(self, reading: Reading) -> Subject:
        """The family (and product) a question about versions is about, counting only the
        versions the caller may read, and the version router's decision over it."""
        probes = self.router.probe(reading)
        # the reading the lines were read by ("What changed in 0.28.0?": about the release only
        # its notes hold) and the lines, as the rules read them
        read = self.router.context(self.ctx, reading, probes)
        return Subject(read.reading, read.lines, self.router.decide(reading, probes), probes)

    # -- the facts the version router reads (`VersionFacts`) ------------------------------------

    def noted(self, reading: Reading) -> str | None:
        q, v = reading.question, reading.validated
        return self.releases.noted_release(q, v.situation.product, v.release.unknown or "")

    def lines(self, reading: Reading) -> Lines:
        q, v = reading.question, reading.validated
        return find_lines(
            self.versions, q.named, v.situation.product, self.ctx.readable(q.scope),
            reading.query, lambda flt: self.ctx.search(reading.query, flt,
                                                       self.ctx.settings.top_blocks))

    def notes(self, reading: Reading, lines: Lines) -> tuple[DocumentMeta, ...]:
        """The release notes that answer what changed in a release: where the question's line
        is notes (never diffed against itself), or where it names a release and no document
        and no one page describes the release (with many pages, a diff of one of them is not
        what the release changed; the notes say that) (`notes_answer`)."""
        v, q = reading.validated, reading.question
        release = v.situation.version
        own = lines.lines and is_notes_line(list(lines.lines))
        readable = self.ctx.readable(q.scope)
        if not own and (q.named or release is None or self._one_page(readable, v, release)
                        or self._page_asked(reading, lines, release)):
            return ()  # a page named, or the one page of the release, is diffed
        return notes_asked(self.versions, readable, v.situation.product, release, v.release)

    def release_line(self, reading: Reading) -> tuple | None:
        return self.releases.lines_read(reading)

    def one_version_each(self, lines: Lines) -> tuple[str, ...]:
        return one_version_each(lines)

    # -- the answers -----------------------------------------------------------------------------

    def changes(self, subject: Subject) -> Answer:
        return self._relevance(_stopped(subject) or self._changes(subject))

    def listing(self, subject: Subject) -> Answer:
        return self._relevance(_stopped(subject) or self._listing(subject))

    def _relevance(self, answer: Answer) -> Answer:
        """What decided relevance, on every answer (the contract's null is a comparison's)."""
        return answer.model_copy(update={"relevance": self.ctx.relevance()})

    def _changes(self, subject: Subject) -> Answer:
        v, q = subject.reading.validated, subject.reading.question
        decision = subject.decision
        if decision.rule == version_rules.FromNotes.name:
            _, metas = subject.probes.get("notes")
            readable = self.ctx.readable(q.scope)
            return answer_notes(self.versions, metas, v.situation, q.lang, readable,
                                self.ctx.budget_of, self.ctx.budget_out([]),
                                self.releases.asked(q, subject.reading.query))
        window = change_window(v.periods, list(q.mentions), q.said.since, self.versions.timezone,
                               q.lang, v.situation.version)
        line = max(subject.lines.lines, key=lambda x: len(x.members))
        pairs, earlier = pairs_in(self.versions, line, window)
        return answer_changes(self.versions, line, pairs, earlier, window, v.situation, q.lang,
                              self.ctx.readable(q.scope), self.ctx.budget_of,
                              self.ctx.budget_out([]))

    def _page_asked(self, reading: Reading, lines: Lines, release: str) -> bool:
        """A page the search found at `release` is the one the question asks about: its
        title's words (the product's aside) stand in the question ("What changed in the
        Requests Compatibility Guide in 0.14.3?"), not just the release."""
        tokenize = self.ctx.engine.index.tokenizer
        q = reading.question
        asked = set(tokenize(q.matcher.strip(reading.query)))
        for line in lines.lines:
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
        v, q = subject.reading.validated, subject.reading.question
        decision = subject.decision
        if decision.rule == version_rules.TheReleaseLine.name:
            _, lines = subject.probes.get("release_line")
            return self.releases.line_listing(subject.reading, lines)
        return answer_versions(self.versions, list(subject.lines.lines), v.situation, q.lang)


def _stopped(subject: Subject) -> Answer | None:
    """The version router's clarification or no evidence, said as the answer; None where it
    answers."""
    if subject.decision.route is Route.ANSWER:
        return None
    return assemble.stopped(subject.decision, subject.reading.validated.situation)


__all__ = ["HistorySteps"]

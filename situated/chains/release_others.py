"""Other releases than the one a question reads (docs/design.md "Releases"): when the asked (or
latest) release has nothing relevant, or lacks an identifier the question names, the answer is
`no_evidence` naming the releases that have it — never quoting them. Release notes count only
where no page of a release says it. Nothing here calls the model."""

from __future__ import annotations

from situated import releases
from situated.chains.context import StepContext
from situated.chains.release import elsewhere_text, holds, identifiers
from situated.chains.route import Decision, Route
from situated.chains.state import Question, Reading
from situated.documents import DocumentMeta
from situated.loaders.axes import line_of
from situated.loaders.notes import pages_first
from situated.retrievers.hybrid import SearchResult


class OtherReleases:
    """Bound to one chain's `StepContext`: its generation, settings and search."""

    def __init__(self, ctx: StepContext):
        self.ctx = ctx
        self.versions = ctx.versions


    def elsewhere(self, reading: Reading, found: SearchResult, decision: Decision) -> Decision:
        """Nothing relevant in the asked (or latest) release: when other releases hold
        something relevant, no evidence *for that release*, naming the releases that do (never
        quoting them as the answer)."""
        q, v = reading.question, reading.validated
        if not self.versions.released(self.ctx.readable(q.scope), v.situation.product):
            return decision
        every = self.ctx.snap.filter(v.situation.model_copy(update={"version": None}),
                                       q.scope)
        other = self.ctx.search(reading.query, every, 3 * self.ctx.settings.top_blocks)
        holding = pages_first([self.versions.meta(b.source_id) for b in other.blocks])
        asked = v.situation.version or self._latest(q, holding)
        having = sorted({releases.parse(m.version) for m in holding if m.version is not None}
                        - ({releases.parse(asked)} if asked else set()))
        if asked is None or not having:
            return decision  # the asked release holds what was found: nothing to redirect to
        return Decision(Route.NO_EVIDENCE, [], elsewhere_text(
            asked, v.situation.version is None, having, q.lang))

    def lacking(self, reading: Reading, found: SearchResult, decision: Decision) -> Decision:
        """The question names an identifier no release document of the asked (or latest)
        release holds — among the found blocks' families and a search for it — while other
        releases' documents do: no evidence for that release, naming those releases (the
        answer would quote something else). An unversioned document (a changelog written at
        the last release) says nothing of what the asked release has."""
        q, v = reading.question, reading.validated
        names = identifiers(q.text)
        readable = self.ctx.readable(q.scope)
        if not names or not self.versions.released(readable, v.situation.product):
            return decision
        families = list(dict.fromkeys(b.family for b in found.blocks))
        every = self.ctx.snap.filter(v.situation.model_copy(update={"version": None}),
                                       q.scope)
        for name in names:
            holding = self._holding(name, families, every, readable)
            asked = v.situation.version or self._latest(q, holding)
            having = sorted({releases.parse(m.version) for m in holding
                             if m.version is not None} - ({releases.parse(asked)} if asked
                                                          else set()))
            if asked is None or not having or any(
                    found.filter.admits(self.versions.fields_of(m.source_id))
                    for m in holding):
                continue
            return Decision(Route.NO_EVIDENCE, [], elsewhere_text(
                asked, v.situation.version is None, having, q.lang))
        return decision

    def _holding(self, name: str, families: list[str], every, readable) -> list:
        """The release documents that name `name`: of `families`, and of a search for it."""
        # the ranking alone locates candidates (no relevance decision): each is then checked
        # to name it, word for word, before it counts
        result = self.ctx.engine.rank(name, every, top=3 * self.ctx.settings.top_blocks)
        families = list(dict.fromkeys([*families, *(b.family for b in result.blocks)]))
        return pages_first([m for f in families for m in self.versions.versions_of(f, readable)
                            if m.release_scoped and any(holds(b.text, name) for b in
                                                        self.versions.blocks_of(m.source_id,
                                                                                readable))])

    def _latest(self, q: Question, holding: list[DocumentMeta]) -> str | None:
        """The latest release the caller may read of the lines `holding` belong to (a line is
        a family: another family's higher numbers are not this one's latest)."""
        lines = {line_of(m) for m in holding if m.release_scoped}
        declared = [releases.parse(m.version) for m in self.versions.released(self.ctx.readable(q.scope))
                    if m.version is not None and line_of(m) in lines]
        return str(max(declared)) if declared else None


__all__ = ["OtherReleases"]

"""The release axis in the ask chain (docs/design.md "Releases"): the question's release read and
validated against the releases the caller may read, the line a question about versions reads,
and the latest release read when the question names none (and said so). What is decided about
releases is the router's (`routing.release_rules`). Nothing here calls the model."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from packaging.version import Version

from situated import releases
from situated.chains.context import StepContext
from situated.chains.read.change_cues import CHANGES
from situated.chains.read.extract import Meaning, Validated
from situated.chains.read.intent import Intent, names_nothing
from situated.chains.read.release import (
    checked_release,
    identifiers,
    strip_versions,
)
from situated.chains.say import wording as w
from situated.chains.say.release_text import ReleaseText
from situated.chains.state import Question, Reading
from situated.chains.versions.notes_answer import Asked, notes_at, speaks_of
from situated.chains.versions.release_history import line_answer, plural_line
from situated.documents import DocKind
from situated.kept import kept
from situated.retrievers.names import names_in

if TYPE_CHECKING:
    from situated.chains.contract import Answer


class ReleaseSteps:
    """Bound to one chain's `StepContext`: its generation, settings and search."""

    def __init__(self, ctx: StepContext):
        self.ctx = ctx
        self.versions = ctx.versions
        self._lines: dict[tuple, tuple[list[Version], list[tuple]]] = {}  # per scope, product
        self._noted: dict[tuple, dict[Version, str]] = {}  # the same
        self.text = ReleaseText(ctx.versions, lambda q: ctx.readable(q.scope))


    def line(self, q: Question, product: str | None) -> tuple[list[Version], list[tuple]]:
        """The declared releases the caller may read (for `product`) and the ranges of the
        documents that cover several (`applies_to_versions`); kept per scope and product for
        this generation (every question reads them)."""
        return kept(self._lines, (q.scope, product), lambda: self._line(q, product))

    def noted(self, q: Question, product: str | None) -> dict[Version, str]:
        """The releases readable release notes hold (a changelog names more than the pages:
        httpx's 77 against 16), each as the notes write it; kept like `line`."""
        return kept(self._noted, (q.scope, product), lambda: {
            releases.parse(m.version): m.version for m in self.versions.released(
                self.ctx.readable(q.scope), product)
            if m.kind is DocKind.NOTES and m.version is not None})

    def _line(self, q: Question, product: str | None) -> tuple[list[Version], list[tuple]]:
        readable = self.ctx.readable(q.scope)
        declared = self.versions.release_line(readable, product)
        ranges = [(f.release_lo, f.release_hi) for m in self.versions.released(readable, product)
                  if m.applies_to_versions is not None
                  for f in [self.versions.fields_of(m.source_id)]]
        return declared, ranges

    def line_name(self, q: Question, product: str | None) -> str:
        """The line as an answer names it: the product, or the one product of every readable
        release document, else "the documents"."""
        if product:
            return product
        readable = self.ctx.readable(q.scope)
        products = {p for m in self.versions.released(readable) for p in m.product}
        if len(products) == 1:
            return next(iter(products))
        return plural_line(q.lang)

    def validate(self, q: Question, v: Validated, proposed: str | None) -> Validated:
        """`v` with the release the question names (or its carried one), the query without it."""
        declared, ranges = self.line(q, v.situation.product)
        if not declared and not ranges:
            return v
        reading = q.said.release(declared, ranges, proposed, self.noted(q, v.situation.product))
        carried = v.situation.version  # from the client's situation: checked the same way
        if reading.version is None and reading.unknown is None and carried is not None:
            reading = checked_release(carried, declared, ranges)
        query = strip_versions(v.query, q.matcher)
        said = reading.said or reading.unknown
        if v.situation.product is None:
            unbound = q.said.unbound_name(said, q.matcher)
            if unbound and q.matcher.products:
                reading = dataclasses.replace(reading, unbound=unbound)
        intent = v.intent
        if (intent is Intent.AT and reading.unknown is not None and not q.said.about_line
                and self._notes_answer(q, v.situation.product, reading.unknown, query)):
            intent = Intent.CHANGES  # a release only the notes hold, and they speak of it
        situation = v.situation
        if reading.version is not None:
            situation = situation.model_copy(update={"version": reading.version})
        elif reading.unknown is not None:
            situation = situation.model_copy(update={"version": None})
        return dataclasses.replace(v, situation=situation, release=reading, intent=intent,
                                   query=query)

    def lines_read(self, reading: Reading) -> tuple[tuple[str, list[Version]], ...] | None:
        """The release lines a question about the line itself reads (which versions, the
        latest, the oldest, does X exist) where it names no document family (`lines_asked`),
        or None: not such a question."""
        q, v = reading.question, reading.validated
        if v.release.unbound is not None:
            return None  # a product none of the caller's: `unknown_release` names theirs
        # the model's validated proposal (its words gave no cue), or the fact of the line the
        # reading by meaning found where the words said only "versions" (`by_meaning`)
        proposed = q.cue is None or v.meaning is Meaning.FACT
        if q.named or not (proposed or names_nothing(q.matcher.strip(reading.query))
                           or q.said.about_line):
            return None  # "List the versions of the API reference": that family's listing
        return tuple(self.lines_asked(q, v)) or None

    def line_listing(self, reading: Reading,
                     lines: tuple[tuple[str, list[Version]], ...]) -> Answer:
        """The fact asked of the release `lines` (`lines_read`), from metadata."""
        q, v = reading.question, reading.validated
        said = v.release.unknown
        return line_answer(q.said, v.release, list(lines), v.situation, q.lang, v.line_fact,
                           self.notes_hint(q, v.situation.product, said) if said else "",
                           meant=v.meaning is Meaning.WHOLE)

    def lines_asked(self, q: Question, v: Validated) -> list[tuple[str, list[Version]]]:
        """The release lines a question about the line is answered from, each with its name:
        the product's; with none named, each readable product's own (a release it names: the
        products that have it), else the documents' one line."""
        product = v.situation.product
        declared, _ = self.line(q, product)
        if not declared:
            return []
        products = sorted({p for m in self.versions.released(self.ctx.readable(q.scope))
                           if m.version is not None for p in m.product})
        if product is not None or len(products) < 2:
            return [(self.line_name(q, product), declared)]
        lines = [(p, self.line(q, p)[0]) for p in products]
        lines = [(p, d) for p, d in lines if d]
        asked = releases.parse(v.release.version) if v.release.version is not None else None
        holding = [(p, d) for p, d in lines if asked in d]
        return holding or lines

    def _notes_answer(self, q: Question, product: str | None, said: str, query: str) -> bool:
        """The release `said` only the notes hold, and a line of its notes speaks of what
        the question (`query`, its versions out) asks (else the reply says the release is not
        among the versions)."""
        noted = self.noted_release(q, product, said)
        readable = self.ctx.readable(q.scope)
        meta = notes_at(self.versions, readable, product, noted) if noted else None
        return meta is not None and speaks_of(self.versions, meta, readable,
                                              self.asked(q, query))

    def asked(self, q: Question, query: str) -> Asked:
        """What a notes question asks about: its terms, without the products it names and
        how it asks what changed; an identifier inside how it asks stays ("How did the
        GZipMiddleware docs change …?" asks about GZipMiddleware), and so does a name."""
        tokenize = self.ctx.engine.index.tokenizer
        text = q.matcher.strip(query)
        cue = " ".join(m.group(0) for m in CHANGES.finditer(text))
        named = [n for n in [*identifiers(cue), *names_in(text)] if n in cue]
        return Asked(frozenset(t for t in tokenize(" ".join([CHANGES.sub(" ", text), *named]))
                               if not t.isdigit()), tokenize)

    def noted_release(self, q: Question, product: str | None, said: str) -> str | None:
        """The release `said` names where readable notes hold it and no page was written at it
        ("0.28.0": httpx's changelog has it, its pages do not), as the notes write it."""
        asked = releases.asked(said)
        if asked is None or asked.series:
            return None
        return self.noted(q, product).get(asked.version)

    def notes_hint(self, q: Question, product: str | None, said: str) -> str:
        """" The release notes of 0.28.0 are on file: …" (`noted_release`), else ""."""
        noted = self.noted_release(q, product, said)
        return "" if noted is None else " " + w.fixed("unknown_has_notes", q.lang, v=noted)


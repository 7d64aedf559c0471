"""What a question names — codes (`E-417`), assets (`P-4`), names and compound names — checked
against what the caller may read before anything is ranked: a question about something no
admitted document holds is answered by nothing (`HybridSearch.search`), and one that names an
asset is narrowed to that asset's documents."""

from __future__ import annotations

import numpy as np

from situated.documents import code_surfaces, extract_codes, squashed
from situated.index.reader import Index
from situated.retrievers.asked_things import asked_things
from situated.retrievers.filter import Filter
from situated.retrievers.fusion import RankedBlock
from situated.retrievers.legs import ExactLeg
from situated.retrievers.names import names_in, unheld_names, unheld_phrases
from situated.retrievers.readable import ReadableBy
from situated.retrievers.relevance import TermCover, missing_codes
from situated.retrievers.spelling import Corrector
from situated.situation import Scope


class Named:
    def __init__(self, index: Index, cover: TermCover, exact: ExactLeg, readable: ReadableBy):
        self.index, self.cover, self.exact, self.readable = index, cover, exact, readable
        self.spelling = Corrector(lambda term, rows: bool(rows[cover.holders(term)].any()),
                                  index.tokenizer)
        self._asset_codes = {codes[0]: asset for asset in index.columns.assets
                             if len(codes := extract_codes(asset)) == 1}

    def narrow(self, query: str, flt: Filter) -> Filter:
        """A question that names an asset (`P-4`) is about that asset: documents that list
        other assets only (the manual of pump P-2) are narrowed away, so it is never answered
        from a document about another one; documents for any asset stay."""
        cols = self.index.columns
        named = [self._asset_codes[c] for c in self.exact.query_codes(self.index, query)
                 if c in self._asset_codes]
        if not named:
            return flt
        groups = cols.any_of(cols.asset_any, cols.assets, named)
        allowed = frozenset(np.asarray(cols.source_ids)[groups].tolist())
        return flt.model_copy(update={
            "sources": allowed if flt.sources is None else flt.sources & allowed})

    def unheld(self, query: str, flt: Filter) -> tuple[str, ...]:
        """The codes and names the question gives that no piece or block the caller may read
        holds (by scope and narrowing only: a name held by a version of another date is held,
        and the router says what applies when)."""
        codes = self.exact.query_codes(self.index, query)
        if not codes and not names_in(query) and not asked_things(query):
            return ()  # nothing named: no mask to compute on this path
        mask = flt.readable().mask(self.index.columns)
        codes = missing_codes(self.index, codes, mask)
        if codes:
            return _as_written(query, codes)
        # a product the caller may read is the question's situation (the filter's), held by
        # its documents' metadata whether or not their text names it
        products = {squashed(w) for p in self.readable.products(flt.scope)
                    for w in (p, *p.split())}
        return tuple(n for n in unheld_names(self.index, self.cover, query,
                                             self.readable.blocks_of(mask))
                     if squashed(n) not in products)

    def corrected(self, query: str, scope: Scope, keep: frozenset[str] | None = None) -> str:
        """`query` with its slips put right for `scope` (`spelling.Corrector`), its names
        (or `keep`) as typed."""
        return self.corrections(query, scope, keep)[0]

    def corrections(self, query: str, scope: Scope, keep: frozenset[str] | None = None,
                    ) -> tuple[str, tuple[tuple[str, str], ...]]:
        """`corrected`, with each (word put right, word as typed) pair."""
        return self.spelling.corrections(query, self.readable.rows(scope),
                                         frozenset(names_in(query)) if keep is None else keep)

    def as_meant(self, query: str, flt: Filter) -> tuple[str, tuple[str, ...]]:
        """`query` with its slips put right, the names `flt`'s documents hold kept as typed,
        and the codes and names it gives that nothing admitted holds (`unheld`), read again
        where a capitalised word was a slip ("Are you open on Satourday?")."""
        missing = self.unheld(query, flt)
        fixed = self.corrected(query, flt.scope, frozenset(names_in(query)).difference(missing))
        if missing and fixed != query:
            missing = self.unheld(fixed, flt)
        return fixed, missing

    def unspelt(self, query: str, scope: Scope) -> tuple[str, ...]:
        """The compound names of the question no block `scope` may read spells out
        (`unheld_phrases`)."""
        return tuple(unheld_phrases(self.index, self.cover, query, self.readable.rows(scope)))

    def absent_codes(self, query: str, flt: Filter) -> tuple[str, ...]:
        """The codes the question gives that no piece the filter admits carries (the caller
        may read documents that do: `unheld` decided before this)."""
        codes = self.exact.query_codes(self.index, query)
        if not codes:
            return ()
        return _as_written(query, missing_codes(self.index, codes, flt.mask(self.index.columns)))

    def asked_and_absent(self, query: str, flt: Filter,
                         kept: list[RankedBlock]) -> tuple[str, ...]:
        """The codes the question gives that nothing admitted carries, when no kept block
        carries one: such a code is what the question asks about, and blocks near it in
        meaning ("the S-2 battery warranty" for "check R07 on the S-2") do not answer it."""
        if not kept or any(b.signals is not None and b.signals.code for b in kept):
            return ()
        return self.absent_codes(query, flt)


def _as_written(query: str, codes: list[str]) -> tuple[str, ...]:
    """The codes as the question writes them (`e417` asked, `E-417` indexed)."""
    surface = code_surfaces(query)
    return tuple(surface.get(c, c) for c in codes)


__all__ = ["Named"]

"""The public retriever: filter inside every leg → RRF fusion on block ids → relevance decision
(`retrievers.relevance`) → parent blocks, each once, in the rank of its best piece.

Why not the stock `EnsembleRetriever` + `ParentDocumentRetriever` (the legs, the block store
and the pieces collection *are* available as stock parts: `retrievers.parts`)? Measured:
* the stock ensemble passes no per-request filter to its children, and `ParentDocumentRetriever`
  takes its `search_kwargs` at construction and ignores invoke-time ones, so the filter has to
  be applied after ranking: at 100k pieces with ~13% admitted, 12% of the stock results survive
  the filter and p50 is 327 ms against 26 ms here (12.5×; `python benchmarks/latency.py`,
  results/latency.json); on the sample evaluation the unfiltered stock pipeline leaks
  restricted sources (`situated eval`, baseline `stock_langchain`, `permission_leaks`);
* the stock ensemble fuses documents by one id and score, with no per-leg relevance floor and no
  leg scores to explain a rank, and no notion of versions of one rule (`retrievers.fusion`).
Here one compiled `Filter` runs inside every leg before its top-k (numpy mask for the exact and
BM25 legs, Chroma `where` for the vector leg), fusion is on block ids with scores kept.

The ask chain calls the engine directly and routes on its `SearchResult` (each ranked block
carrying its document, family and filter fields); `retrievers.retriever` is the public LangChain
adapter over it (`SituatedRetriever`, `search_runnable`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from situated.index.multilingual import latin_of
from situated.index.reader import Index
from situated.index.store import Thresholds
from situated.index.text import mostly_latin
from situated.index.versions import Versions
from situated.retrievers.filter import Filter
from situated.retrievers.fusion import PieceHit, RankedBlock, fuse
from situated.retrievers.legs import Leg, LegHit, Legs
from situated.retrievers.named import Named
from situated.retrievers.names import asked_what
from situated.retrievers.readable import ReadableBy
from situated.retrievers.relevance import (
    AGREE,
    SENTENCE_DEPTH,
    Signals,
    TermCover,
    standings,
    thresholds_for,
    topical_cosines,
    unit_cosines,
)
from situated.settings import Settings
from situated.situation import Scope, Situation


@dataclass(frozen=True)
class SearchResult:
    """Blocks that are relevant (best first) and the eligible pieces that ranked them."""

    filter: Filter
    blocks: tuple[RankedBlock, ...]
    hits: tuple[PieceHit, ...]
    leg_hits: Mapping[str, int]  # how many pieces each leg returned (for traces and benchmarks)
    admitted: int = 0  # pieces the filter admitted (the candidates the thresholds were sized to)
    missing: tuple[str, ...] = ()  # codes and names the question gives that nothing admitted holds
    # codes the question gives that readable documents hold, but none the situation admits
    # ("check R07" asked for the S-2: only the C-3's specification has it)
    absent: tuple[str, ...] = ()
    # the fused blocks not kept, relevant or not, in rank order (`search(further=N)`):
    # context for an answer the kept blocks decided on, never decided on themselves
    further: tuple[RankedBlock, ...] = ()

    @classmethod
    def empty(cls, flt: Filter, missing: tuple[str, ...] = ()) -> SearchResult:
        return cls(filter=flt, blocks=(), hits=(), leg_hits={}, missing=missing)

    def only(self, block_ids: list[str]) -> SearchResult:
        """These blocks of the result (in the given order) and their hits."""
        by_id = {b.block_id: b for b in self.blocks}
        blocks = tuple(by_id[i] for i in block_ids if i in by_id)
        kept = {b.block_id for b in blocks}
        return replace(self, blocks=blocks,
                       hits=tuple(h for h in self.hits if h.block_id in kept))

    def head(self, top: int) -> SearchResult:
        """The first `top` blocks and their hits."""
        return self.only([b.block_id for b in self.blocks[:top]])

    def led_by(self, first: SearchResult, top: int) -> SearchResult:
        """`first`'s blocks (a search narrowed within this one's filter), then this one's."""
        seen = {b.block_id for b in first.blocks}
        blocks = (*first.blocks, *(b for b in self.blocks if b.block_id not in seen))[:top]
        kept = {b.block_id for b in blocks}
        hits = {h.pos: h for h in [*first.hits, *self.hits] if h.block_id in kept}
        return SearchResult(filter=self.filter, blocks=blocks, hits=tuple(hits.values()),
                            leg_hits=self.leg_hits, missing=self.missing)


@dataclass(frozen=True)
class Assessment:
    """One question's fused candidates with their relevance signals, before the thresholds."""

    missing: tuple[str, ...]  # codes and names the question gives that nothing admitted holds
    ranked: list[RankedBlock]
    hits: list[PieceHit]
    leg_hits: dict[str, int]
    admitted: int = 0  # pieces the filter admits: the candidates (`Thresholds.sized`)


class HybridSearch:
    """The engine behind the retriever; also used directly by chains and benchmarks."""

    def __init__(self, index: Index, settings: Settings, legs: tuple[Leg, ...] = tuple(Leg)):
        self.index = index
        self.versions = Versions(index)  # the index's documents as version families
        self.settings = settings
        self.legs = legs
        self.weights = {
            Leg.EXACT: settings.weight_exact, Leg.BM25: settings.weight_bm25,
            Leg.VECTOR: settings.weight_vector, Leg.MULTILINGUAL: settings.weight_multilingual,
        }
        self.thresholds = thresholds_for(index, settings)
        self._cover = TermCover(index)
        self._legs = Legs(settings.bm25_block_weight)
        self.readable = ReadableBy(index)  # what a caller scope may read (kept per scope)
        self.named = Named(index, self._cover, self._legs.exact, self.readable)

    def filter_for(self, scope: Scope, situation: Situation | None = None) -> Filter:
        """The filter of `scope` (and `situation`, its undeclared facets dropped) in this
        index's timezone: how code outside a chain (calibration, evaluation, the server) asks
        for one, so every filter is built here or by the snapshot."""
        situation = (situation or Situation()).declared(self.index.facets)
        return Filter(situation=situation, scope=scope, timezone=self.index.timezone)

    def search(
        self, query: str, flt: Filter, k: int | None = None, top: int | None = None,
        further: int = 0, topic: str | None = None,
    ) -> SearchResult:
        """`k` pieces per leg, then at most `top` blocks that are relevant
        (`Signals.relevant`) and, when `further`, that many of the other fused blocks, in rank
        order (`SearchResult.further`); `topic`: see `_judged_on_topic`."""
        k, top = self._depth(k, top)
        found = self.assess(query, flt, max(k, top), topic)
        if found.missing:  # the question is about something no admitted document holds
            return SearchResult.empty(flt, found.missing)
        reads = self.vector_reads(query)
        th = self.thresholds_of(flt, found.admitted)
        kept = [b for b in found.ranked
                if b.signals is not None and b.signals.relevant(th, reads)][:top]
        if absent := self.named.asked_and_absent(query, flt, kept):
            return dataclasses.replace(SearchResult.empty(flt), absent=absent,
                                       admitted=found.admitted)
        result = self._result(flt, kept, found)
        if kept:
            if not further:
                return result
            ids = {b.block_id for b in kept}
            deeper = [b for b in found.ranked if b.block_id not in ids][:further]
            return dataclasses.replace(result, further=tuple(
                _located(self.index, self.versions, deeper)))
        return dataclasses.replace(result, absent=self.named.absent_codes(query, flt))

    def thresholds_of(self, flt: Filter, admitted: int = 0) -> Thresholds:
        """The thresholds under `flt` over `admitted` pieces (`Thresholds.for_search`)."""
        return self.thresholds.for_search(flt.situation.product is not None, admitted)

    def rank(
        self, query: str, flt: Filter, k: int | None = None, top: int | None = None
    ) -> SearchResult:
        """The ranking alone: every fused block, no relevance decision and no check of the
        names the question gives (`benchmarks/scifact_quality.py`). Never for answering: the
        release steps use it only to locate blocks that might name an identifier, each then
        checked to name it word for word (`chains.read.release.holds`)."""
        k, top = self._depth(k, top)
        query = self.named.corrected(query, flt.scope)
        found = self._fused(query, self.named.narrow(query, flt), max(k, top))
        return self._result(flt, found.ranked[:top], found)

    def _depth(self, k: int | None, top: int | None) -> tuple[int, int]:
        k = self.settings.leg_k if k is None else k
        top = self.settings.top_blocks if top is None else top
        if k < 1 or top < 1:
            raise ValueError(f"k and top must be at least 1, got k={k}, top={top}")
        return k, top

    def _result(self, flt: Filter, kept: list[RankedBlock], found: Assessment) -> SearchResult:
        kept_ids = {b.block_id for b in kept}
        return SearchResult(
            filter=flt, blocks=tuple(_located(self.index, self.versions, kept)),
            hits=tuple(h for h in found.hits if h.block_id in kept_ids), leg_hits=found.leg_hits,
            admitted=found.admitted)

    def assess(self, query: str, flt: Filter, k: int, topic: str | None = None) -> Assessment:
        """Every leg's k admitted pieces fused into blocks, each with its relevance signals,
        before any threshold (calibration reads this; `search` decides on it), the question
        read as meant (`Named.as_meant`: "reservaiton" is searched as "reservation")."""
        flt = self.named.narrow(query, flt)
        query, missing = self.named.as_meant(query, flt)
        if missing:
            return Assessment(missing, [], [], {})
        return self._fused(query, flt, k, topic)

    def _fused(self, query: str, flt: Filter, k: int, topic: str | None = None) -> Assessment:
        """The legs rank on the query; relevance reads the `topic` (`_judged_on_topic`)."""
        mask = flt.mask(self.index.columns)
        results = {leg: self._run_leg(leg, query, flt, mask, k) for leg in Leg if leg in self.legs}
        ranked, hits = fuse(self.index, results, self.weights, self.settings.rrf_k)
        signals = self.signals(query, ranked, flt.scope, mask)
        if topic and topic != query and flt.situation.product is not None and ranked:
            signals = _judged_on_topic(self, topic, ranked, signals, flt, mask, k)
        ranked = [dataclasses.replace(b, signals=sig)
                  for b, sig in zip(ranked, signals, strict=True)]
        return Assessment((), ranked, hits, {leg.value: len(h) for leg, h in results.items()},
                          int(np.count_nonzero(mask)))

    def vector_reads(self, query: str) -> bool:
        """The vector leg runs and its model reads the question's script: all-MiniLM-L6-v2 was
        trained on English, and for other scripts its cosine similarities are high between
        unrelated texts (an off-topic Russian question scored 0.65 on the sample), so there the
        vector leg may rank but cannot vouch for relevance on its own; a multilingual model
        (`Embedder.multilingual`) vouches in every script."""
        return Leg.VECTOR in self.legs and (
            self.index.embeddings.multilingual or mostly_latin(query))

    def signals(self, query: str, ranked: list[RankedBlock], scope: Scope,
                mask: np.ndarray) -> list[Signals]:
        """Each fused block's relevance signals (`retrievers.relevance`), their term weights
        from what `scope` may read (`TermCover.terms`), e5's reading of a block from the pieces
        `mask` admits."""
        if not ranked:
            return []
        rows = self.index.piece_block[np.asarray([b.best_piece for b in ranked], dtype=np.int64)]
        terms = self._cover.terms(query, self.readable.rows(scope), self.readable.products(scope))
        cover = self._cover.cover(terms, rows)
        reads = self.vector_reads(query)
        agreeing = [Leg.BM25.value] + ([Leg.VECTOR.value] if reads else [])
        latin = latin_of(self.index.multilingual, [b.best_piece for b in ranked])
        query_latin = mostly_latin(query)
        sentence, titled, topical = _meaning(self.index, query, ranked,
                                             SENTENCE_DEPTH if reads else 0, mask)
        defines = np.isin(rows, self._cover.holding_every(
            [t for name in asked_what(query) for t in self.index.tokenizer(name)]))
        multilingual = [b.leg_scores.get(Leg.MULTILINGUAL.value) for b in ranked]
        standing = standings(self.index, query, multilingual, latin, query_latin, mask)
        return [Signals(cover=round(float(c), 4), cosine=b.leg_scores.get(Leg.VECTOR.value),
                        code=Leg.EXACT.value in b.leg_scores,
                        agree=all(b.leg_ranks.get(leg, AGREE + 1) <= AGREE for leg in agreeing),
                        multilingual=m, latin=lat, same_script=lat == query_latin, sentence=s,
                        titled=t, topical=e, defines=bool(d), standing=st)
                for b, c, m, lat, s, t, e, d, st in zip(
                    ranked, cover.tolist(), multilingual, latin, sentence, titled, topical,
                    defines, standing, strict=True)]

    def leg_search(self, leg: Leg, query: str, flt: Filter, k: int) -> list[LegHit]:
        """One leg alone: the k best admitted pieces, best first (`retrievers.parts`)."""
        return self._run_leg(leg, query, flt, flt.mask(self.index.columns), k)

    def _run_leg(self, leg: Leg, query: str, flt: Filter, mask: np.ndarray, k: int) -> list[LegHit]:
        return self._legs.run(leg, self.index, query, flt, mask, k)


def _judged_on_topic(search: HybridSearch, topic: str, ranked: list[RankedBlock],
                     signals: list[Signals], flt: Filter, mask: np.ndarray, k: int,
                     ) -> list[Signals]:
    """Where the question names the product of its situation, a block of a document declaring
    that product is judged on the `topic` (the query without the name): every block of the
    product shares the name, which must not make an off-topic question look answered ("What
    licence is pixpack released under?" over pixpack's docs). A block of a document for any
    product keeps its signals of the whole query: for it the name is information (the Atlas
    returns procedure is not about the Старт tariff's return period). The topic's cosine is
    the vector leg's for the topic (one more encoding and vector search)."""
    product = flt.situation.product
    fields = search.index.fields_of([b.best_piece for b in ranked])
    on_topic = search.signals(topic, ranked, flt.scope, mask)
    cosines: dict[str, float] = {}
    if Leg.VECTOR in search.legs:  # each block's best cosine among the topic's k pieces
        hits = search._run_leg(Leg.VECTOR, topic, flt, mask, k)
        block_of = search.index.block_ids({h.pos for h in hits})
        for h in hits:
            cosines[block_of[h.pos]] = max(cosines.get(block_of[h.pos], h.score), h.score)
    return [dataclasses.replace(t, cosine=cosines.get(b.block_id)) if product in f.products else q
            for b, f, q, t in zip(ranked, fields, signals, on_topic, strict=True)]


def _located(index: Index, versions: Versions, blocks: list[RankedBlock]) -> list[RankedBlock]:
    """Each block with its document, family key and stored filter fields, read from the
    columns and the kept document rows (the blocks themselves are not read)."""
    if not blocks:
        return blocks
    positions = [b.best_piece for b in blocks]
    return [dataclasses.replace(b, source_id=sid, fields=fields,
                                family=versions.family_key(sid))
            for b, sid, fields in zip(blocks, index.block_sources(positions),
                                      index.fields_of(positions), strict=True)]


def _meaning(index: Index, query: str, ranked: list[RankedBlock], depth: int,
             mask: np.ndarray) -> tuple[list[float | None], ...]:
    """The first `depth` blocks' readings by meaning, None for the blocks past them: MiniLM's
    best unit cosines, bare and under their titles (`relevance.unit_cosines`), and e5's best
    piece cosine (`relevance.topical_cosines`)."""
    bare, titled = unit_cosines(index, query, ranked[:depth])
    topical = topical_cosines(index, query, ranked[:depth], mask)
    rest: list[float | None] = [None] * (len(ranked) - len(bare))
    return bare + rest, titled + rest, topical + rest

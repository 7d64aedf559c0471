"""The search legs. Each applies the compiled filter *before* ranking, so k results are k
eligible results, and re-checks every piece it returns against `Filter.admits`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from situated.documents import extract_codes
from situated.index.reader import Index
from situated.index.text import mostly_latin
from situated.modes import Mode
from situated.retrievers.filter import Filter


class Leg(Mode):
    EXACT = "exact"
    BM25 = "bm25"
    VECTOR = "vector"
    MULTILINGUAL = "multilingual"


@dataclass(frozen=True)
class LegHit:
    pos: int  # position of the piece in the index
    score: float  # the leg's own score (idf sum, BM25, cosine similarity)


def _recheck(index: Index, flt: Filter, hits: list[LegHit]) -> list[LegHit]:
    """Defence in depth: whatever a backend returned, only admitted pieces leave the leg."""
    fields = index.fields_of([h.pos for h in hits])
    return [h for h, f in zip(hits, fields, strict=True) if flt.admits(f)]


def _top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k highest positive scores, best first (ties by position)."""
    candidates = np.flatnonzero(scores > 0)
    if candidates.size == 0:
        return candidates
    if candidates.size > k:
        part = np.argpartition(-scores[candidates], k - 1)[:k]
        candidates = candidates[part]
    order = np.lexsort((candidates, -scores[candidates]))
    return candidates[order]


class ExactLeg:
    """Identifiers (`E-417`, `R07`, `P-2`) looked up in a postings table.

    A piece scores the summed idf of the query codes it contains, plus half again for the code
    that is its record id (first column of a table row). Product ids are left to the
    applicability filter: a product code says which documents apply, not what the question is
    about.
    """

    def query_codes(self, index: Index, query: str) -> list[str]:
        products = {self._norm(p) for p in index.products}
        return [c for c in extract_codes(query) if c not in products]

    @staticmethod
    def _norm(product: str) -> str:
        codes = extract_codes(product)
        return codes[0] if len(codes) == 1 else product.upper()

    def search(self, index: Index, query: str, flt: Filter, mask: np.ndarray, k: int) -> list[LegHit]:
        codes = self.query_codes(index, query)
        if not codes:
            return []
        scores: np.ndarray = np.zeros(len(index), dtype=np.float64)
        # idf over what the caller may read: a restricted piece moves no public score
        readable = flt.readable().mask(index.columns)
        n = int(np.count_nonzero(readable))
        for code in codes:
            post = index.code_positions(code)
            held = 0 if post is None else int(np.count_nonzero(readable[post]))
            if not held:
                continue
            idf = math.log(1 + n / held)
            scores[post] += idf
            primary = index.code_positions(code, primary=True)
            if primary is not None:
                scores[primary] += 0.5 * idf
        scores[~mask] = 0
        return _recheck(index, flt, [LegHit(int(i), float(scores[i])) for i in _top_k(scores, k)])


class BM25Leg:
    """bm25s scores over all pieces, masked by the filter before the top-k is taken.

    Pieces are ranked by their own BM25 score plus `block_weight` times the BM25 score of their
    whole block (title + block text, a second bm25s index): splitting a document into pieces
    loses the words a piece does not repeat (SciFact, BM25 leg: 0.684 nDCG@10 over pieces
    against 0.694 over whole abstracts); the block field gives them back without losing the
    piece that matched. Measured (`benchmarks/scifact_quality.py --tune`, weight chosen on
    SciFact *train*: 1.5): BM25 leg 0.699 → 0.714 nDCG@10 on test, but the hybrid only 0.733 →
    0.735 while Recall@100 falls 0.965 → 0.957, and on the sample corpus long warranty blocks
    that share many words with a question about the battery *test* outrank it. So the default
    weight is 0 (off) and the field is built for whoever's corpus gains from it. A hit's `score`
    stays the piece's own BM25 score, so the relevance floor means what it meant.

    `get_scores` + our own top-k instead of `retrieve(weight_mask=...)`: the latter fills the
    top-k with masked pieces at score 0 and raises when k exceeds the corpus size.
    """

    def __init__(self, block_weight: float = 0.0):
        self.block_weight = block_weight

    def search(self, index: Index, query: str, flt: Filter, mask: np.ndarray, k: int) -> list[LegHit]:
        words = index.tokenizer(query)
        own = self._scores(index, words, flt)
        if own is None:
            return []
        ranking = own
        field = index.bm25_blocks
        if self.block_weight > 0 and field is not None:
            block_tokens = [t for t in words if t in field.vocab_dict]
            if block_tokens:
                block_scores = np.asarray(field.get_scores(block_tokens), dtype=np.float64)
                ranking = own + self.block_weight * block_scores[index.piece_block]
                ranking = np.where(own > 0, ranking, 0.0)  # a piece must match by itself
        ranking = np.where(mask, ranking, 0.0)
        return _recheck(index, flt, [LegHit(int(i), float(own[i])) for i in _top_k(ranking, k)])


    @staticmethod
    def _scores(index: Index, words: list[str], flt: Filter) -> np.ndarray | None:
        """Each piece's BM25 score for `words`; a public caller's from the public pieces'
        own index (`Index.bm25_public`: their idf and lengths), so a restricted piece changes
        no public score. None when no word is in the vocabulary read."""
        public = index.bm25_public if not (flt.scope.roles or flt.scope.assets) else None
        bm25 = public[0] if public is not None else index.bm25
        tokens = [t for t in words if t in bm25.vocab_dict]
        if not tokens:
            return None
        scores = np.asarray(bm25.get_scores(tokens), dtype=np.float64)
        if public is None:
            return scores
        own: np.ndarray = np.zeros(len(index), dtype=np.float64)
        own[public[1]] = scores
        return own


class VectorLeg:
    """Chroma nearest neighbours among the admitted pieces; score = cosine similarity.

    Chroma's metadata `where` is evaluated row by row (68 ms at 10k pieces here against 1.7 ms
    for an unfiltered query), so the leg first asks Chroma for `oversample × k` unfiltered
    neighbours and keeps the admitted ones (mask lookup); only when that query cannot tell the
    k nearest admitted pieces does it ask again within the admitted pieces: by their ids when
    there are at most `ids_limit` of them (Chroma's `ids` restriction: 6–8 ms for 6,618 of
    40,207 genai-eu pieces, where the same `where` took 305 ms), else with the compiled `where`.
    Either way the k results are the k nearest *admitted* pieces, as with a pre-filtered query.

    Versioned corpora repeat a piece word for word across releases, so many neighbours lie at
    the same distance, and Chroma returns tied neighbours in no fixed order. So a result is
    ordered by distance, then index position, and a cut that falls inside a tie is never
    taken: the unfiltered query counts only when its farthest neighbour is farther than the
    k-th admitted one, and a restricted query asks for more until the tie is inside it.
    """

    def __init__(self, oversample: int = 20, ids_limit: int = 20_000):
        self.oversample = oversample
        self.ids_limit = ids_limit

    def search(
        self, index: Index, query_vec: np.ndarray, flt: Filter, admitted: int, k: int,
        mask: np.ndarray | None = None,
    ) -> list[LegHit]:
        if admitted == 0:
            return []
        want = min(k, admitted)
        vec = [np.asarray(query_vec, dtype=np.float32)]
        if mask is not None and self.oversample > 1:
            hits = self._among_nearest(index, vec, mask, want)
            if hits is not None:
                return _recheck(index, flt, hits)
        if mask is not None and admitted <= self.ids_limit:
            ids = [b.decode("utf-8") for b in index.piece_id_at[np.flatnonzero(mask)].tolist()]
            restrict: dict = {"ids": ids}
        else:
            restrict = {"where": flt.chroma_where()}
        n = want
        while True:
            res = index.collection.query(query_embeddings=vec, n_results=n, include=["distances"],
                                         **restrict)
            hits, farthest = _hits(index, res)
            if len(res["ids"][0]) < n or n >= admitted or len(hits) < want \
                    or hits[want - 1].score > 1.0 - farthest:
                return _recheck(index, flt, hits[:want])
            n = min(admitted, 2 * n)  # the k-th is tied with the farthest returned: ask for more

    def _among_nearest(self, index: Index, vec: list, mask: np.ndarray,
                       want: int) -> list[LegHit] | None:
        """The `want` nearest admitted pieces among `oversample × want` unfiltered neighbours;
        None when those cannot tell (fewer admitted among them, or the last one kept tied with
        the farthest neighbour returned)."""
        n = min(len(index), want * self.oversample)
        res = index.collection.query(query_embeddings=vec, n_results=n, include=["distances"])
        hits, farthest = _hits(index, res)
        hits = [h for h in hits if mask[h.pos]]
        if n >= len(index):
            return hits[:want]  # every piece was returned
        if len(hits) < want or hits[want - 1].score <= 1.0 - farthest:
            return None
        return hits[:want]


def _hits(index: Index, res: dict) -> tuple[list[LegHit], float]:
    """A Chroma query's pieces in this generation, nearest first and, at one distance, in index
    order; and the distance of the farthest returned."""
    ids, dists = res["ids"][0], res["distances"][0]
    where = index.positions_of(ids)
    hits = [LegHit(pos, 1.0 - float(dist)) for pid, dist in zip(ids, dists, strict=True)
            if (pos := where.get(pid)) is not None]
    hits.sort(key=lambda h: (-h.score, h.pos))
    return hits, float(dists[-1]) if dists else 0.0


class MultilingualLeg:
    """multilingual-e5-small cosine over the admitted pieces (`index.multilingual`): exact, a
    matrix product over the rows the filter admits, so the filter is applied before ranking as
    in every leg. It runs when all-MiniLM-L6-v2 cannot read the pair: the question is not
    mostly Latin script, or some admitted piece is not (`runs`)."""

    @staticmethod
    def runs(index: Index, query_latin: bool, mask: np.ndarray) -> bool:
        vectors = index.multilingual
        return vectors is not None and (not query_latin or bool((mask & ~vectors.latin).any()))

    def search(self, index: Index, query: str, flt: Filter, mask: np.ndarray, k: int) -> list[LegHit]:
        rows = np.flatnonzero(mask)
        if index.multilingual is None or rows.size == 0:
            return []
        scores: np.ndarray = np.zeros(len(index), dtype=np.float64)
        scores[rows] = index.multilingual.scores(query, rows)
        return _recheck(index, flt, [LegHit(int(i), float(scores[i])) for i in _top_k(scores, k)])


class Legs:
    """Every leg, and which runs for a question: the multilingual leg only where MiniLM cannot
    read the pair (`MultilingualLeg.runs`), the MiniLM leg not for a question it does not read
    when the multilingual leg does (its ranking of another script is noise)."""

    def __init__(self, bm25_block_weight: float = 0.0):
        self.exact, self.bm25 = ExactLeg(), BM25Leg(bm25_block_weight)
        self.vector, self.multilingual = VectorLeg(), MultilingualLeg()

    def run(self, leg: Leg, index: Index, query: str, flt: Filter, mask: np.ndarray,
            k: int) -> list[LegHit]:
        if leg is Leg.EXACT:
            return self.exact.search(index, query, flt, mask, k)
        if leg is Leg.BM25:
            return self.bm25.search(index, query, flt, mask, k)
        latin = mostly_latin(query)
        if leg is Leg.MULTILINGUAL:
            if not MultilingualLeg.runs(index, latin, mask):
                return []
            return self.multilingual.search(index, query, flt, mask, k)
        if not latin and MultilingualLeg.runs(index, False, mask):
            return []  # MiniLM does not read the question; the multilingual leg does
        admitted = int(mask.sum())
        if not admitted:
            return []
        return self.vector.search(index, index.embeddings.encode_query(query), flt, admitted, k,
                                  mask)


__all__ = ["BM25Leg", "ExactLeg", "Leg", "LegHit", "Legs", "MultilingualLeg", "VectorLeg"]

"""Whether a block answers the question at all: signals whose meaning does not change with the
size of the corpus, and the thresholds that turn them into a decision.

A raw BM25 score is not such a signal: a rare word's idf is about 3.9 among 71 pieces and about
11 among 100k, so one shared word clears any fixed BM25 floor in a large index. The signals here
are shares and similarities:

* `cover`: the share of the question's content terms that the block (its document title and
  text, the BM25 block field) contains, each term weighted by its idf in this index. A word the
  index has never seen weighs the mean idf of the question's known terms (an unknown ordinary
  word is as likely a paraphrase as a change of topic; an unknown *name* is decided apart, see
  `unheld_names`), and a question none of whose words the index knows covers nothing. It is a
  ratio of idfs of one index: growing the corpus raises every idf together.
* `cosine`: the best cosine similarity between the question and one of the block's pieces (the
  vector leg). Its scale belongs to the embedding model, not the corpus; all-MiniLM-L6-v2 is
  trained on English, so it vouches only for questions in a Latin script (`mostly_latin`).
* `sentence`: the best cosine between the question and one of the block's quotable units
  (embedded bare at ingest, `index.sentences`), on the first `SENTENCE_DEPTH` fused blocks. A
  piece is embedded with its document title and heading path, which hides a short paraphrase of
  one of its sentences ("Do I have to give notice in writing?": 0.149 to the cancellation
  piece, 0.392 to its sentence). Its floor is the package's, sized to the pieces the search
  admits (`Thresholds.sized`: 0.38 over 10, +0.03 a decade), or a calibration's higher one.
* `titled`: the same, each unit under its section's title (`index.titled`, "Sauna: Sessions
  should not exceed 15 minutes."), where a question names the section's subject in other
  words than its sentences ("How long should I stay in the hot room?": 0.321 bare, 0.496
  titled). A title lends every unit its topic words, so its floor is the sentence floor plus
  `TITLED_MARGIN` (set on the dev corpora, docs/design.md).
* `topical`: multilingual-e5's best cosine between the question and one of the block's
  admitted pieces, on the same first blocks, where the index has the multilingual leg. MiniLM
  reads a sentence's words; e5 reads what the block is about ("Can you recommend a good
  restaurant in town?" scores 0.38 to a hotel's breakfast sentence and 0.78 under e5, a
  stranger's cosine). The unit score is the best unit plus `TOPICAL_WEIGHT` times e5's cosine
  above `TOPICAL_CENTRE` (`Signals.unit`), so e5 lifts a paraphrase MiniLM scores low and
  lowers a stranger's sentence that shares a word.
* `standing`: for a block in another script than the question's, its multilingual cosine less
  the mean cosine of the admitted pieces in its script (`standings`). e5 scores any Russian
  question about 0.79 against any English text, so across scripts what tells the answer is how
  far it stands above the rest; its floor rises with the log of the admitted pieces
  (`index.store.package_standing`).
* a code (`E-417`, `P-2`) the question names and the block carries (the exact leg) vouches
  alone; a code the question names that *no admitted piece* carries makes the whole question
  unanswerable (`missing_codes`): the asker asked about something else.
* `defines`: the question asks nothing but what a name is ("What is the NASUWT?",
  `names.asked_what`) and the block holds every word of the name. MiniLM cannot read an
  acronym (0.12 to the sentence that names it), so the name vouches as a code does.

A block is relevant when it carries a code the question names or holds the name a question
asks only what it is, or:

* for a question the vector leg reads (Latin script, vector leg running): `cosine >=
  min_cosine`, or its unit score (`Signals.unit`) `>= min_sentence`, or the BM25 and vector
  legs both rank it among their first `AGREE` blocks and it covers *every* content term of the
  question. Partial cover does not count here: on real terms pages off-topic questions reach
  cover 0.63 on a block both legs rank first ("Recommend a good science fiction novel."), and
  "What is the capital of France?" covers 1.0 of a legal notice that neither leg ranks near
  the top, while a short on-topic question like "How do I file the return?" has a cosine of
  only 0.42 but covers all of itself on the block both legs rank first;
* for any other pair: the multilingual cosine over the floor of the pair (same script or
  across), or across scripts its standing over `min_standing_across`; else BM25 ranks it among
  its first `AGREE` blocks and `cover >= min_cover` (all-MiniLM-L6-v2 cannot vouch outside
  English).

Figures in `benchmarks/calibrate_floor.py`. A question that gives a name or code nothing admitted
holds is decided before any block (`unheld_names`, `missing_codes`). The thresholds are set
per index by `situated.calibration` on that index's own questions and stored in its manifest, never
below the package's (`Thresholds.floored`); an index without a calibration uses
`Thresholds.default()`, set on corpora other than the sample (docs/design.md "One relevance rule
for every index").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from situated.documents import without_long_codes
from situated.index.store import Thresholds, ThresholdSource
from situated.retrievers.spelling import accent_map
from situated.words import alt

if TYPE_CHECKING:
    import bm25s

    from situated.index.reader import Index
    from situated.settings import Settings

# words that frame a question rather than say what it is about (after the tokenizer's stop
# words): an index that lacks them is not thereby less relevant
_FRAMING = re.compile(rf"^(?:{alt('names', 'FRAMING')})$", re.IGNORECASE)
AGREE = 3  # ranks within which both legs must place a block for its cover to count
FULL_COVER = 0.999  # every content term (cover is a ratio of float sums)
_WORDS = re.compile(r"[\w‐‑-]+", re.UNICODE)


@dataclass(frozen=True)
class QueryTerms:
    """A question's content terms with their idf weights in one index."""

    ids: np.ndarray  # term id in the block field, -1 for a term the index never saw
    weights: np.ndarray

    @property
    def total(self) -> float:
        return float(self.weights.sum())


class TermCover:
    """`cover` over the BM25 block field (one row per block: document title + block text).

    Reads the field through the index on every call and keeps none of its arrays: they are
    memory maps that `Index.close` must be able to release."""

    def __init__(self, index: Index) -> None:
        self._index = index
        self._accents: dict[str, tuple[str, ...]] | None = None

    @property
    def _field(self) -> bm25s.BM25:
        return self._index.bm25_blocks

    def terms(self, query: str, readable: np.ndarray, products: frozenset[str]) -> QueryTerms:
        """The question's content terms, weighted by idf, every statistic from what the caller
        may read (`readable`: their block rows; `products`: theirs): a term only restricted
        blocks hold weighs as a term nobody holds, and a product only a restricted document
        names is an ordinary word, so no reply differs with what the caller may not read."""
        content = " ".join(w for w in _WORDS.findall(query) if not _FRAMING.match(w))
        # a product id says which documents apply (the filter's job), not what is asked
        own = {t for p in products for t in self._index.tokenizer(p)}
        words = [w for w in dict.fromkeys(self._index.tokenizer(content)) if w not in own]
        ids, df = [], {}
        for w in words:
            tid = self._id(w)
            held = self.holders_of(tid)
            held = held[readable[held]]
            if tid >= 0 and len(held):
                df[tid] = len(held)
            ids.append(tid if tid in df else -1)
        n = int(readable.sum())
        idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        unknown = sum(idf.values()) / len(idf) if idf else 0.0
        weights = [idf.get(t, unknown) for t in ids]
        return QueryTerms(np.asarray(ids, dtype=np.int64), np.asarray(weights, dtype=np.float64))

    def _id(self, term: str) -> int:
        tid = self._field.vocab_dict.get(term, -1)
        return tid if 0 <= tid < len(self._field.scores["indptr"]) - 1 else -1

    def known(self, term: str) -> bool:
        """Whether any block of the index holds `term` (a tokenizer term)."""
        return self._id(term) >= 0

    @property
    def accents(self) -> dict[str, tuple[str, ...]]:
        """The vocabulary's accented terms under their unaccented spelling (made once)."""
        if self._accents is None:
            self._accents = accent_map(self._field.vocab_dict)
        return self._accents

    def holders(self, term: str) -> np.ndarray:
        """Block rows that contain `term` (a tokenizer term)."""
        return self.holders_of(self._id(term))

    def holders_of(self, tid: int) -> np.ndarray:
        """Block rows that contain the term with id `tid` (none for -1, an unknown term)."""
        if tid < 0:
            return np.zeros(0, dtype=np.int64)
        indptr = self._field.scores["indptr"]
        return self._field.scores["indices"][indptr[tid]:indptr[tid + 1]]

    def holding_every(self, terms: list[str]) -> np.ndarray:
        """Block rows that contain every one of `terms` (tokenizer terms; none: no rows)."""
        rows = np.zeros(0, dtype=np.int64)
        for i, term in enumerate(terms):
            held = self.holders(term)
            rows = held if i == 0 else np.intersect1d(rows, held)
        return rows

    def cover(self, terms: QueryTerms, rows: np.ndarray) -> np.ndarray:
        """The idf-weighted share of `terms` each block row contains (0 when there are none)."""
        rows = np.asarray(rows, dtype=np.int64)
        got: np.ndarray = np.zeros(len(rows), dtype=np.float64)
        if terms.total <= 0 or len(rows) == 0:
            return got
        for tid, weight in zip(terms.ids.tolist(), terms.weights.tolist(), strict=True):
            if tid >= 0:
                got += weight * np.isin(rows, self.holders_of(tid))
        return got / terms.total


@dataclass(frozen=True)
class Signals:
    """One block's relevance signals (kept on `RankedBlock` for traces and calibration)."""

    cover: float
    cosine: float | None  # None: the vector leg did not return the block
    code: bool  # carries a code the question names
    agree: bool  # the legs rank it among their first `AGREE` blocks
    multilingual: float | None = None  # the multilingual leg's cosine; None: not returned
    latin: bool = True  # the block's best piece is mostly Latin script
    same_script: bool = True  # ... and so is the question, or neither is
    sentence: float | None = None  # its best quotable unit's cosine; None: not measured
    titled: float | None = None  # ... of a unit under its section's title; None: no title
    topical: float | None = None  # multilingual-e5's best piece cosine; None: not measured
    defines: bool = False  # holds the name the question asks only what it is ("the NASUWT")
    standing: float | None = None  # across scripts: `multilingual` less its script's mean

    def unit(self) -> float | None:
        """The score the sentence floor decides on: the best unit, bare or under its title less
        `TITLED_MARGIN`, moved by multilingual-e5's reading of the block where it was measured
        (`TOPICAL_WEIGHT` · (topical − `TOPICAL_CENTRE`)); None where no unit was measured."""
        titled = None if self.titled is None else self.titled - TITLED_MARGIN
        best = max((v for v in (self.sentence, titled) if v is not None), default=None)
        if best is None or self.topical is None:
            return best
        return round(best + TOPICAL_WEIGHT * (self.topical - TOPICAL_CENTRE), 4)

    def relevant(self, th: Thresholds, vector_reads: bool) -> bool:
        """`vector_reads`: the question is in the embedding model's script (`mostly_latin`)
        and the vector leg ran. Decided per pair: where the model reads both the question
        and the block, its cosine (as before the multilingual leg); else the multilingual
        cosine against the floor of the pair (same script or across), else the cover rule. A
        code the question names, or the name it asks only what it is, vouches alone."""
        if self.code or self.defines:
            return True
        if vector_reads and self.latin:
            unit = self.unit()
            return (self.cosine is not None and self.cosine >= th.min_cosine) or (
                unit is not None and th.min_sentence is not None
                and unit >= th.min_sentence) or (self.agree and self.cover >= FULL_COVER)
        if self.multilingual is not None and (
                self.multilingual >= th.multilingual_floor(self.same_script)):
            return True
        if self.standing is not None and th.min_standing_across is not None and (
                self.standing >= th.min_standing_across):
            return True
        return self.agree and self.cover >= th.min_cover


SENTENCE_DEPTH = 5  # fused blocks whose sentences are measured (deeper ones: by their piece)
TITLED_MARGIN = 0.02  # a titled unit's floor above the sentence floor (docs/design.md)
TOPICAL_WEIGHT = 3.0  # e5 beside MiniLM (docs/design.md "e5 reads the topic, MiniLM the sentence")
TOPICAL_CENTRE = 0.825  # ... the cosine at which it neither lifts the unit nor lowers it


def unit_cosines(index: Index, query: str, blocks: list) -> tuple[list[float | None],
                                                          list[float | None]]:
    """Each ranked block's best cosine between the question and one of its quotable units, bare
    (`index.sentences`) and under its section's title (`index.titled`; None there: measured
    without them), from the vectors computed at ingest, found through the generation's block
    map without reading the block; None for a block none of whose units has one (a title with
    no word has none). Only blocks the filter admitted are given. The question is encoded and
    the blocks' rows found once for both."""
    if not blocks:
        return [], []
    q = index.embeddings.encode_query(query)
    rows = index.piece_block[np.asarray([b.best_piece for b in blocks], dtype=np.int64)].tolist()
    titled = index.titled
    return (_best([index.sentences.of_block_row(int(r)) for r in rows], q),
            _best([titled.of_block_row(int(r)) for r in rows], q) if titled is not None
            else [None] * len(blocks))


def topical_text(query: str) -> str:
    """What e5 reads of a question for the unit score: the question without its long codes
    (`without_long_codes`). "SPARK-31967" would lend its topic to every block of another SPARK
    code, and which code a block carries is the exact leg's to say (`Signals.code`). Empty: e5
    reads nothing."""
    return without_long_codes(query)


def topical_cosines(index: Index, query: str, blocks: list, mask: np.ndarray) -> list[float | None]:
    """Each block's best multilingual-e5 cosine between the question (`topical_text`) and one
    of its admitted pieces (`index.multilingual`), for a question MiniLM reads: e5 reads a
    block's topic where MiniLM reads its sentences. None for a block that is not mostly Latin
    script (MiniLM does not read it; the multilingual floors decide there) and all None without
    the leg. The blocks' admitted pieces are found in one pass over the piece map."""
    vectors = index.multilingual
    words = topical_text(query)
    if vectors is None or not blocks or not words:
        return [None] * len(blocks)
    best = np.asarray([b.best_piece for b in blocks], dtype=np.int64)
    rows = index.piece_block[best]
    pieces = np.flatnonzero(np.isin(index.piece_block, rows) & mask)
    scores, owner = vectors.vectors[pieces] @ vectors.encode_query(words), index.piece_block[pieces]
    out: list[float | None] = []
    for row, latin in zip(rows.tolist(), vectors.latin[best].tolist(), strict=True):
        mine = scores[owner == row]
        out.append(round(float(mine.max()), 4) if mine.size and latin else None)
    return out


def standings(index: Index, query: str, multilingual: list[float | None], latin: list[bool],
              query_latin: bool, mask: np.ndarray) -> list[float | None]:
    """Each block's standing across scripts: its multilingual cosine less the mean cosine of
    the admitted pieces (`mask`) in the block's script, for a block in another script than
    the question's (None elsewhere). e5 scores any Russian question about 0.79 against any
    English text, the answer's block too; what tells the answer is how far it stands above
    the rest. Only what the caller may read makes the mean."""
    vectors = index.multilingual
    wanted = [m is not None and lat != query_latin for m, lat in zip(multilingual, latin,
                                                                      strict=True)]
    if vectors is None or not any(wanted):
        return [None] * len(latin)
    mean: dict[bool, float] = {}
    for script in {lat for lat, w in zip(latin, wanted, strict=True) if w}:
        rows = np.flatnonzero(mask & (vectors.latin == script))
        if rows.size:
            mean[script] = float(vectors.scores(query, rows).mean())
    return [round(m - mean[lat], 4) if w and m is not None and lat in mean else None
            for m, lat, w in zip(multilingual, latin, wanted, strict=True)]


def _best(found_by_row: list, q: np.ndarray) -> list[float | None]:
    """The best cosine with `q` of each block's found vectors; None where none was found."""
    return [round(float((f[0][f[1]] @ q).max()), 4) if f is not None and f[1].any() else None
            for f in found_by_row]


def missing_codes(index: Index, codes: list[str], mask: np.ndarray) -> list[str]:
    """The codes the question names that no admitted piece carries."""
    missing = []
    for code in codes:
        post = index.code_positions(code)
        if post is None or not mask[post].any():
            missing.append(code)
    return missing


__all__ = [
    "AGREE",
    "FULL_COVER",
    "SENTENCE_DEPTH",
    "TITLED_MARGIN",
    "TOPICAL_CENTRE",
    "TOPICAL_WEIGHT",
    "QueryTerms",
    "Signals",
    "TermCover",
    "Thresholds",
    "missing_codes",
    "topical_cosines",
    "topical_text",
    "unit_cosines",
]


def thresholds_for(index: Index, settings: Settings) -> Thresholds:
    """The relevance thresholds that decide for this index: the settings' when given, else the
    index's calibration (its manifest), else the package default. A cosine floor from the
    settings is the only MiniLM floor then (the calibrated ones, within a product and on
    sentences, were set beside the index's own and would disagree with it)."""
    package = Thresholds.default(index.manifest.embedding_model)
    base = (index.manifest.relevance or package).floored(package)
    if settings.min_cover is None and settings.min_cosine is None:
        return base
    update: dict[str, object] = {"source": ThresholdSource.SETTINGS, "dev": None, "held_out": None,
              "note": "set in the settings (SITUATED_MIN_COVER, SITUATED_MIN_COSINE)"}
    if settings.min_cover is not None:
        update["min_cover"] = settings.min_cover
    if settings.min_cosine is not None:
        update.update(min_cosine=settings.min_cosine, min_cosine_in_product=None,
                      min_sentence=None, min_sentence_in_product=None, sentence_floor=None)
    return base.model_copy(update=update)

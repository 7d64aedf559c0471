"""Setting an index's relevance thresholds on its own questions (`calibration.questions`).

Each question is searched under a scope that reads everything: across the index, and — when the
index has products — again within one product's documents, as an asker whose situation names a
product asks it (`observe`). Each fused block is decided with trial thresholds
(`HybridSearch.assess`, `Signals.relevant`): a question with a name or code nothing holds, or a
block carrying a named code, is decided without a threshold. `min_cosine` is fitted on the
questions the vector leg reads across the index, `min_cosine_in_product` on those asked within a
product: each is the threshold with the fewest dev errors, placed `MARGIN` above the low end of
the run of thresholds that tie (just above the off-topic questions; `MARGIN_IN_PRODUCT` within a
product), or in its middle when the run is narrow. The sentence cosine's floors sit the same
margins above the dev off-topic questions the other signals refuse, the highest but one
(`_sentence_floors`).
`min_cover` stays the package prior (see `fit`). The multilingual leg's two floors
start from their priors and are raised above the dev off-topic questions of their pair that
reach them (`_multilingual_floors`). A cosine floor with fewer than
`MIN_POSITIVES` dev positives or `MIN_NEGATIVES` negatives keeps the package default, and the
note says so. Precision and recall are reported on the dev half and on the held-out half (never
used to fit).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from situated.calibration.questions import Half, Question, negatives, positives
from situated.chains.read.dates import find_dates, strip_dates
from situated.documents import LoadedDocument
from situated.index.cache import EmbeddingCache
from situated.index.multilingual import multilingual_model
from situated.index.store import Thresholds, ThresholdSource
from situated.retrievers.filter import Filter
from situated.retrievers.hybrid import HybridSearch
from situated.retrievers.relevance import FULL_COVER, Signals, topical_text
from situated.situation import Scope, Situation

MIN_POSITIVES, MIN_NEGATIVES = 20, 20  # dev questions a threshold is fitted on, at least
# where in the run of best thresholds the threshold sits: MARGIN above its low end (just above
# the off-topic questions), or its middle when the run is narrower than twice that. Not the
# middle of a wide run: the positives quote the documents, natural questions score far lower
# (PolicyQA's crowd questions: a tenth under 0.354 within their site, where no off-topic
# question reached 0.25; set on the dev halves of PolicyQA and genai-eu)
MARGIN = 0.08
# within one product's documents (the asker's situation names the product) the margin is
# smaller: the documents searched are the asker's own, and PolicyQA's crowd questions asked
# within their site refused 7% at 0.08 (dev half; 1.0% of the shipped and fresh off-topic
# questions asked within a dev site reached that floor, 1.8% reach the one 0.03 gives, which
# refuses 2.6%). Set on the dev halves of PolicyQA and genai-eu
MARGIN_IN_PRODUCT = 0.03
MIN_PRODUCTS = 2  # products an index needs for its in-product threshold
# the multilingual floors sit this far above the highest dev off-topic question that reaches
# them (e5's cosines span about a fifth of MiniLM's range; two steps of the 0.005 grid)
E5_MARGIN = 0.01


@dataclass(frozen=True)
class Observation:
    question: Question
    latin: bool  # the vector leg reads it
    decided: bool | None  # True/False whatever the thresholds (code, missing name, full cover)
    unheld: bool = False  # a name or code nothing holds: no signal was measured
    in_product: bool = False  # searched within one product's documents, as an asker with one
    signals: tuple[Signals, ...] = ()  # every fused block's, decided by `Signals.relevant`
    admitted: int = 0  # pieces the search admitted (`Thresholds.sized`)

    @property
    def cover(self) -> float:
        """The best cover of a block the legs agree on."""
        return max((s.cover for s in self.signals if s.agree), default=0.0)

    @property
    def cosine(self) -> float | None:
        """The best MiniLM cosine of a block MiniLM reads (the fitted signal)."""
        return max((s.cosine for s in self.signals if s.cosine is not None and s.latin),
                   default=None)

    def relevant(self, th: Thresholds) -> bool:
        """The product's own decision (`Signals.relevant`) under trial thresholds."""
        if self.decided is not None:
            return self.decided
        decides = th.for_search(self.in_product, self.admitted)
        return any(s.relevant(decides, self.latin) for s in self.signals)


def fitted_on(docs: list[LoadedDocument]) -> tuple[list[LoadedDocument], Scope]:
    """The documents the thresholds are fitted on, and the scope that reads them: what the
    public reads, so that no restricted text moves a threshold every public reply is decided
    by. An index with no public document has no public reply to move: it is fitted on
    everything, read by a scope that reads everything."""
    public = [d for d in docs if not d.meta.access and not d.meta.assets]
    if public:
        return public, Scope()
    return docs, Scope(roles=sorted({r for d in docs for r in d.meta.access}),
                       assets=sorted({a for d in docs for a in d.meta.assets}))


def _products(docs: list[LoadedDocument]) -> list[str]:
    return sorted({p for d in docs for p in d.meta.product})


def _asked_in(q: Question, products: list[str]) -> str | None:
    """The product an asker of `q` would have: a positive's own, a negative's by a hash."""
    if len(products) < MIN_PRODUCTS:
        return None
    if q.positive:
        return q.product
    return products[hashlib.sha256(q.text.encode("utf-8")).digest()[0] % len(products)]


def observe(engine: HybridSearch, questions: list[Question], scope: Scope,
            products: Sequence[str] = ()) -> list[Observation]:
    """Each question searched across the index, and again within one product's documents when
    the index has products (`_asked_in`): fewer candidates, so lower cosines for strangers."""
    out = []
    for q in questions:
        out.append(_observe_one(engine, q, engine.filter_for(scope)))
        product = _asked_in(q, list(products))
        if product is not None:
            flt = engine.filter_for(scope, Situation(product=product))
            out.append(_observe_one(engine, q, flt, in_product=True))
    return out


def _observe_one(engine: HybridSearch, q: Question, flt: Filter,
                 in_product: bool = False) -> Observation:
    query = _query(q)
    found = engine.assess(query, flt, engine.settings.leg_k)
    sigs = [b.signals for b in found.ranked if b.signals is not None]
    reads = engine.vector_reads(query)
    full = reads and any(s.agree and s.cover >= FULL_COVER for s in sigs)
    decided = False if found.missing else (True if full or any(s.code for s in sigs)
                                           else None)
    return Observation(q, reads, decided, bool(found.missing), in_product, tuple(sigs),
                       found.admitted)


def _fit_one(pos: list[float], neg: list[float], margin: float = MARGIN) -> float | None:
    if len(pos) < MIN_POSITIVES or len(neg) < MIN_NEGATIVES:
        return None
    grid = np.round(np.arange(0.0, 1.0001, 0.005), 3)
    p, n = np.asarray(pos), np.asarray(neg)
    errors = np.array([(p < t).sum() + (n >= t).sum() for t in grid])
    best = np.flatnonzero(errors == errors.min())
    run_end = best[0]
    while run_end + 1 in best:
        run_end += 1
    lo, hi = grid[best[0]], grid[run_end]
    return round(float(min(lo + margin, lo + 0.5 * (hi - lo))), 3)


def _step_above(value: float, margin: float) -> float:
    """`value + margin` raised to the threshold grid's next step (0.005), read to the grid (a
    sum that lands on a step in decimals stays on it: 0.40 + 0.08 is 0.48, not 0.485)."""
    return round(float(np.ceil(round((value + margin) * 200, 6)) / 200), 3)


def _multilingual_floors(dev: list[Observation], base: Thresholds) -> dict[str, float]:
    """The multilingual floors: the priors (`base`'s), raised above this index's own dev
    off-topic questions where they reach them (e5's cosine between a stranger and a long
    legal page can pass a floor set on encyclopaedia paragraphs), per pair: same script and
    across. Only strangers the floor decides count: one the other signals accept anyway (the
    cover rule) is no reason to refuse the questions it would also refuse. A pair with fewer
    than `MIN_NEGATIVES` dev off-topic questions scored keeps the prior."""
    others = base.model_copy(update={"min_multilingual": 1.0, "min_multilingual_across": 1.0})
    best: dict[bool, list[float]] = {True: [], False: []}
    for o in dev:
        if o.question.positive or o.decided is not None or o.relevant(others):
            continue
        for same in (True, False):
            got = [s.multilingual for s in o.signals if s.multilingual is not None
                   and s.same_script is same and not (o.latin and s.latin)]
            if got:
                best[same].append(max(got))
    out = {}
    for same, name in ((True, "min_multilingual"), (False, "min_multilingual_across")):
        prior = getattr(base, name)
        if len(best[same]) >= MIN_NEGATIVES and max(best[same]) + E5_MARGIN > prior:
            out[name] = _step_above(max(best[same]), E5_MARGIN)
        else:
            out[name] = prior
    return out


def _sentence_floors(dev: list[Observation], th: Thresholds) -> dict[str, float | None]:
    """The sentence floors, across the index and within a product: `MARGIN` (within a product
    `MARGIN_IN_PRODUCT`) above the second best sentence cosine of the dev off-topic questions
    the other signals refuse under `th` (one they accept anyway is no reason to refuse more), on the
    grid's next step. None — the sentence decides nothing there — with fewer than
    `MIN_NEGATIVES` such questions. The positives quote the documents, so the piece cosine
    accepts them all and they cannot place it; natural questions are what it is for."""
    out: dict[str, float | None] = {}
    others = th.model_copy(update={"sentence_floor": None})  # the other signals alone
    for in_product, name, margin in ((False, "min_sentence", MARGIN),
                                     (True, "min_sentence_in_product", MARGIN_IN_PRODUCT)):
        best = [max((u for s in o.signals if s.latin and (u := s.unit()) is not None),
                    default=-1.0) for o in dev
                if not o.question.positive and o.decided is None and o.latin
                and o.in_product is in_product and not o.relevant(others)]
        # above the highest but one: a single question near the corpus's own subject ("Who won
        # the football world cup in 1998?" asked of an encyclopedia holding the Super Bowl) would
        # otherwise set the floor for every question (docs/design.md)
        out[name] = (min(1.0, _step_above(sorted(best)[-2], margin))
                     if len(best) >= MIN_NEGATIVES else None)
    return out


def _stats(obs: list[Observation], th: Thresholds, half: Half) -> dict[str, float]:
    mine = [o for o in obs if o.question.half is half]
    pos = [o for o in mine if o.question.positive]
    neg = [o for o in mine if not o.question.positive]
    tp = sum(o.relevant(th) for o in pos)
    fp = sum(o.relevant(th) for o in neg)
    return {"precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
            "recall": round(tp / len(pos), 4) if pos else 0.0,
            "negatives_refused": round(1 - fp / len(neg), 4) if neg else 1.0,
            "positives": float(len(pos)), "negatives": float(len(neg))}


def fit(obs: list[Observation], default: Thresholds | None = None) -> Thresholds:
    """Thresholds from the dev observations; stats on both halves."""
    default = default or Thresholds.default()
    # each threshold is fitted on every dev question its signal scores (not only those it
    # decides alone): the decision is an "or" of the signals
    dev = [o for o in obs if o.question.half is Half.DEV and not o.unheld]

    def cosines(positive: bool, in_product: bool) -> list[float]:
        return [o.cosine if o.cosine is not None else -1.0 for o in dev
                if o.latin and o.question.positive is positive and o.in_product is in_product]

    cosine = _fit_one(cosines(True, False), cosines(False, False))
    in_product = _fit_one(cosines(True, True), cosines(False, True), MARGIN_IN_PRODUCT)
    # `min_cover` stays the package prior: fitted between off-topic questions and positives
    # that quote the documents it refuses natural ones (XQuAD's Russian dev half: quoted
    # positives cover >= 0.8, off-topic questions up to 0.67, natural questions a median 0.75
    # and a quarter under 0.59: a fitted 0.735 would refuse half of them)
    source, note = ThresholdSource.CALIBRATED, ("calibrated on this index's own dev questions "
                                                "(min_cover: the package prior; the "
                                                "multilingual floors: the priors, raised above "
                                                "this index's off-topic questions)")
    too_few = (f"fewer than {MIN_POSITIVES} dev on-topic or {MIN_NEGATIVES} off-topic questions "
               "scored by it")
    if cosine is None:
        source = ThresholdSource.DEFAULT
        note = f"{default.note}; this index is too small to calibrate ({too_few})"
        in_product = None
    th = Thresholds(min_cover=default.min_cover,
                    min_cosine=default.min_cosine if cosine is None else cosine,
                    min_cosine_in_product=in_product, source=source, note=note,
                    min_multilingual=default.min_multilingual,
                    min_multilingual_across=default.min_multilingual_across,
                    sentence_floor=default.sentence_floor).floored(default)
    th = th.model_copy(update=_multilingual_floors(dev, th))
    if cosine is not None:
        th = th.model_copy(update=_sentence_floors(dev, th))
    return th.model_copy(update={"dev": _stats(obs, th, Half.DEV),
                                 "held_out": _stats(obs, th, Half.TEST)})


def questions_for(engine: HybridSearch, docs: list[LoadedDocument],
                  negatives_file: Path | None = None) -> list[Question]:
    """The dev questions of the documents the thresholds are fitted on (`fitted_on`)."""
    docs, scope = fitted_on(docs)
    everything = engine.filter_for(scope)

    def known(name: str) -> bool:  # some document of the index names it
        return not engine.named.unheld(f"x {name}", everything)

    return [*positives(docs), *negatives(docs, known, negatives_file)]


def _query(q: Question) -> str:
    """The text a question is searched with (its dates are the filter's, not the search's)."""
    return strip_dates(q.text, find_dates(q.text)) or q.text


def _multilingual_reads(engine: HybridSearch) -> Callable[[str], bool]:
    """Whether the multilingual leg may run for a question: MiniLM does not read it, or the
    index holds text MiniLM does not read (the leg runs where a pair is not Latin to Latin).
    The index's side is read once."""
    legs = engine.index.multilingual
    if legs is None:
        return lambda text: False
    if not bool(np.all(legs.latin)):
        return lambda text: True
    return lambda text: not engine.vector_reads(text)


def worth_searching(engine: HybridSearch, questions: list[Question]) -> list[Question]:
    """The questions whose searches can move a threshold, decided before any is searched. The
    cosine floors are fitted only with `MIN_POSITIVES` dev on-topic questions the vector leg
    reads (`_fit_one`): then every question is searched. Too few (a README-sized index) and the
    package floors stand whatever the searches find: the on-topic questions are searched for
    the report, and the off-topic ones only where the multilingual floors read them
    (`_multilingual_reads`), so the thresholds are those searching every question gives
    (`tests/index/test_calibration.py`)."""
    fits = sum(q.positive and q.half is Half.DEV and engine.vector_reads(_query(q))
               for q in questions) >= MIN_POSITIVES
    if fits:
        return questions
    multilingual = _multilingual_reads(engine)
    return [q for q in questions if q.positive or multilingual(_query(q))]


@contextlib.contextmanager
def _vectors_known(engine: HybridSearch, questions: list[Question], cache: EmbeddingCache | None):
    """The vectors of the questions each leg reads (MiniLM: those it reads; e5: those the
    multilingual leg may run for, and those MiniLM reads as e5 reads them for the unit score,
    `relevance.topical_text`), through the embedding cache, so a re-ingest searches the
    same questions without encoding them again. A vector not primed here is encoded when a
    search asks for it, as always."""
    texts = list(dict.fromkeys(_query(q) for q in questions))
    read = [t for t in texts if engine.vector_reads(t)]
    wanted = [(engine.index.embeddings, read)]
    if engine.index.multilingual is not None:
        multilingual = _multilingual_reads(engine)
        topical = [w for t in read if (w := topical_text(t))]
        wanted.append((multilingual_model(), list(dict.fromkeys(
            [t for t in texts if multilingual(t)] + topical))))
    with contextlib.ExitStack() as stack:
        for model, mine in wanted:
            known = (cache.queries(model, mine) if cache is not None
                     else dict(zip(mine, model.encode_queries(mine))))
            stack.enter_context(model.knowing(known))
        yield


def calibrate(engine: HybridSearch, docs: list[LoadedDocument],
              negatives_file: Path | None = None, cache: EmbeddingCache | None = None
              ) -> tuple[Thresholds, list[Observation]]:
    """This index's thresholds, fitted on its dev questions, and every observation."""
    questions = worth_searching(engine, questions_for(engine, docs, negatives_file))
    docs, scope = fitted_on(docs)
    with _vectors_known(engine, questions, cache):
        obs = observe(engine, questions, scope, _products(docs))
    return fit(obs, Thresholds.default(engine.index.manifest.embedding_model)), obs


def index_calibrator(settings, embeddings, negatives_file: Path | None = None):
    """A `writer.Calibrator`: opens the built generation, calibrates it, closes it."""
    from situated.index.reader import Index

    def run(generation: Path, docs: list[LoadedDocument]) -> Thresholds:
        index = Index(generation.parent.parent, embeddings, generation=generation,
                      verify=False)  # the writer's own, before its checksums are recorded
        cache = EmbeddingCache.of(settings)
        try:
            return calibrate(HybridSearch(index, settings), docs, negatives_file, cache)[0]
        finally:
            cache.close()
            index.close()

    return run

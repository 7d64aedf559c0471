"""A name as its asker writes it (`retrievers.spelling`, `retrievers.names.unheld_names`):
without its accents, one slip of the keyboard away, or written as one word, and never held
through a document the caller may not read."""

from __future__ import annotations

import pytest
from conftest import indexed_app, md, write

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status
from situated.retrievers.spelling import accent_map, near_terms, run_together, unaccented
from situated.situation import Scope, Situation

VOCABULARY = {"setanta", "bendigo", "maizièr", "arpanet", "sheepshank", "super", "bowl", "user",
              "datagram", "tesla", "testa", "сайманс"}
ACCENTS = accent_map(VOCABULARY)


def known(term: str) -> bool:
    return term in VOCABULARY


@pytest.mark.unit
@pytest.mark.parametrize("asked, meant", [
    ("sentanta", "setanta"),  # a letter added
    ("bedigo", "bendigo"),  # a letter dropped
    ("arpnet", "arpanet"),
    ("sheeshank", "sheepshank"),
    ("maizier", "maizièr"),  # no accent where the documents have one
    ("maizièr", "maizièr"),
    ("саймамс", "сайманс"),  # a slip in its own alphabet
    ("сaйманс", "сайманс"),  # a Latin letter among Cyrillic ones
])
def test_a_name_is_held_as_its_asker_may_write_it(asked, meant):
    assert meant in near_terms(asked, known, ACCENTS) | ({asked} & VOCABULARY)


@pytest.mark.unit
def test_a_short_name_is_only_itself_and_its_accents():
    assert near_terms("tesla", known, ACCENTS) == set()  # "testa" is one letter away: too near
    assert near_terms("zuric", lambda t: t == "zürich", {"zurich": ("zürich",)}) == set()
    assert near_terms("zurich", lambda t: t == "zürich", {"zurich": ("zürich",)}) == {"zürich"}
    assert unaccented("Maizière") == "Maiziere" and unaccented("ёлка") == "елка"


@pytest.mark.unit
def test_a_name_written_as_one_word_splits_into_two_the_documents_hold():
    def tokenizer(word: str) -> list[str]:
        return [word.lower()] if len(word) > 2 and word.lower() not in {"the", "and"} else []

    assert run_together("Superbowl", tokenizer, known) == [("Super", "bowl")]
    assert run_together("UserDatagram", tokenizer, known) == [("User", "Datagram")]
    assert run_together("Facebook", tokenizer, known) == []


@pytest.fixture(scope="module")
def league(tmp_path_factory, embeddings):
    root = tmp_path_factory.mktemp("league")
    write(root / "docs" / "tv.md", md("TV-RIGHTS", (
        "## 1 Broadcasters\n\nSetanta Sports planned to launch its channel on the Sky "
        "platform in 2008. Thomas de Maizière leads the federal interior ministry.\n\n"
        "## 2 Finals\n\nThe Super Bowl final is shown live at 23:30. It is expedient to book "
        "a seat early; no book is sold at the gate, and face paint is free.\n"),
        title="TV rights"))
    write(root / "docs" / "scouts.md", md("SCOUT-NOTES", (
        "## 1 Players\n\nKowalczyk is being watched for a transfer next season.\n"),
        title="Scouting notes", access="[scout]"))
    return indexed_app(root, embeddings)


@pytest.mark.integration
@pytest.mark.parametrize("question", [
    "What platform was Sentanta Sports planning to launch on?",
    "Which ministry does Thomas de Maiziere lead?",
    "When is the Superbowl final shown?",
])
def test_a_name_asked_with_a_slip_is_searched_not_refused(league, question):
    a = build_ask_chain(league).invoke({"question": question, "scope": Scope()})
    assert a.relevance.unheld == [], a.answer
    assert a.status is Status.ANSWERED and a.evidence[0].source_id == "TV-RIGHTS", a.answer


@pytest.mark.integration
def test_a_stem_near_a_name_is_not_the_name_unless_a_block_writes_a_word_near_it(league):
    chain = build_ask_chain(league)
    # "Expedia" is one letter from "expedi", the stem of "expedient"; "Facebook" splits into
    # "face" and "book", both held, never written one after the other
    for name in ("Expedia", "Facebook"):
        a = chain.invoke({"question": f"Can I book a seat through {name}?", "scope": Scope()})
        assert a.status is Status.NO_EVIDENCE and a.relevance.unheld == [name], a.answer


@pytest.mark.integration
def test_a_slip_never_reaches_a_name_only_a_document_the_caller_may_not_read_holds(league):
    chain = build_ask_chain(league)
    asked = {"question": "Is Kowalczik being watched for a transfer?", "situation": Situation()}
    outsider = chain.invoke({**asked, "scope": Scope()})
    assert outsider.status is Status.NO_EVIDENCE and outsider.relevance.unheld == ["Kowalczik"]
    scout = chain.invoke({**asked, "scope": Scope(roles=("scout",))})
    assert scout.relevance.unheld == [] and scout.evidence[0].source_id == "SCOUT-NOTES"

"""The thing a question asks the hours, price, age or sale of (`retrievers.asked_things`): where
no block the caller may read holds any word of it, the question is about something else, as one
giving an unheld name is; the same reply whether or not a document the caller may not read
holds it."""

from __future__ import annotations

import pytest
from conftest import indexed_app, md, write

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status
from situated.retrievers.asked_things import asked_things
from situated.situation import Scope


@pytest.mark.unit
@pytest.mark.parametrize("question, things", [
    ("What time does the museum open?", [("museum",)]),
    ("What are the opening hours of the zoo?", [("zoo",)]),
    ("How much does a hearing test cost?", [("hearing", "test")]),
    ("How much does it cost to hire a sailing boat?", [("sailing", "boat")]),
    ("When was the harbour built?", [("harbour",)]),
    ("Where can I buy a new bin bag dispenser?", [("bin", "bag", "dispenser")]),
    # the thing ends at its first preposition; words of age or size say which one
    ("What time does the train to the airport leave?", [("train",)]),
    ("How much is an hour with a coach?", [("hour",)]),
    ("How much does a new kitchen cost?", [("kitchen",)]),
    ("Во сколько закрывается почта?", [("почта",)]),
    ("До скольки работает почта?", [("почта",)]),
    ("Сколько стоит проверка слуха?", [("проверка", "слуха")]),
    ("Когда была построена гавань?", [("гавань",)]),
    ("Вы продаёте автозапчасти?", [("автозапчасти",)]),
    # its being there, at a place the question names
    ("Is there a café in the central library?", [("café",)]),
    ("Are there any lockers at the pool?", [("lockers",)]),
    ("Is there a car wash nearby?", [("car", "wash")]),
    ("Есть ли кафе в библиотеке?", [("кафе",)]),
    ("Есть ли автомойка поблизости?", [("автомойка",)]),
    ("Есть ли рядом автомойка?", [("автомойка",)]),
    # the documents' own place, by its kind or as the one addressed: the relevance rule decides
    ("What time does the shop close?", []),
    ("What time does your pharmacy close?", []),
    ("Во сколько закрывается офис?", []),
    ("What time does the post office close?", [("post", "office")]),
    # not these frames: the relevance rule decides
    ("Is my friend allowed to work out with me?", []),
    ("Can I return a damaged item I bought online?", []),
    ("What time should I arrive for my first visit?", []),
    ("How much deposit is blocked when I collect the car?", []),
    ("Сколько дней длится гарантия?", []),
    ("Is there a limit on how far I can drive in a week-long hire?", []),
    ("Is there a discount if I pay for three months at once?", []),
    ("Is there power for a camper van?", []),
    # "in the contract", "at the weekend": a document or a time, no place
    ("Is there a penalty in the contract?", []),
    ("Is there a discount at the weekend?", []),
    ("Есть ли штраф в договоре?", []),
    ("Есть ли скидка в выходные?", []),
    ("Is there somewhere to sleep on the overnight boat?", []),
])
def test_the_thing_asked_about_is_read_from_where_it_stands(question, things):
    assert asked_things(question) == things


HOURS = ("## 1 Opening hours\n\nThe pharmacy is open Monday to Friday from 9:00 to 18:00 and on "
         "Saturday from 9:00 to 13:00.\n\n## 2 Prices\n\nA blood pressure check costs 5 and a "
         "flu jab costs 15.\n")
HOURS_RU = ("## 1 Часы работы\n\nАптека открыта с понедельника по пятницу с 9:00 до 18:00, в "
            "субботу с 9:00 до 13:00 и закрывается в 18:00.\n\n## 2 Цены\n\nИзмерение давления "
            "стоит 5 евро, прививка от гриппа стоит 15 евро.\n")


@pytest.fixture(scope="module")
def pharmacy(tmp_path_factory, embeddings):
    root = tmp_path_factory.mktemp("pharmacy")
    write(root / "docs" / "hours.md", md("PH-HOURS", HOURS, title="Hill Street Pharmacy"))
    write(root / "docs" / "hours_ru.md", md("PH-HOURS-RU", HOURS_RU, title="Аптека на Холме"))
    write(root / "docs" / "staff.md", md("PH-STAFF", (
        "## 1 Errands\n\nStaff take the parcels to the post office at 17:00.\n"),
        title="Staff notes", access="[staff]"))
    return indexed_app(root, embeddings)


@pytest.mark.integration
@pytest.mark.parametrize("question, unheld", [
    ("What time does the post office close?", "post office"),
    ("How much does a hearing test cost?", "hearing test"),
    ("Во сколько закрывается почта?", "почта"),
    ("Сколько стоит проверка слуха?", "проверка слуха"),
])
def test_the_hours_or_price_of_a_thing_no_readable_block_names_are_not_answered(
        pharmacy, question, unheld):
    a = build_ask_chain(pharmacy).invoke({"question": question, "scope": Scope()})
    assert a.status is Status.NO_EVIDENCE and a.relevance.unheld == [unheld], a.answer
    assert unheld in a.answer and a.evidence == []


@pytest.mark.integration
@pytest.mark.parametrize("question, source", [
    ("What time does the pharmacy close on Saturday?", "PH-HOURS"),
    ("What time does the shop close on Saturday?", "PH-HOURS"),
    ("How much does a flu jab cost?", "PH-HOURS"),
    ("Во сколько закрывается аптека?", "PH-HOURS-RU"),
    ("Сколько стоит прививка от гриппа?", "PH-HOURS-RU"),
])
def test_the_hours_or_price_of_a_thing_the_documents_name_are_answered(pharmacy, question,
                                                                        source):
    a = build_ask_chain(pharmacy).invoke({"question": question, "scope": Scope()})
    assert a.relevance.unheld == [], a.answer
    assert a.status is Status.ANSWERED and a.evidence[0].source_id == source, a.answer


@pytest.mark.integration
def test_a_thing_only_a_document_the_caller_may_not_read_names_is_unheld_for_them(pharmacy):
    chain = build_ask_chain(pharmacy)
    asked = {"question": "What time does the post office close?"}
    outsider = chain.invoke({**asked, "scope": Scope()})
    staff = chain.invoke({**asked, "scope": Scope(roles=("staff",))})
    assert outsider.status is Status.NO_EVIDENCE and outsider.relevance.unheld == ["post office"]
    # the same words for a caller who may read the staff notes: held, so the rule decides
    assert staff.relevance.unheld == [], staff.answer
    # the reply never names what the caller may not read, and is the one for a stranger
    stranger = chain.invoke({"question": "What time does the museum close?", "scope": Scope()})
    assert outsider.answer == stranger.answer.replace("“museum”", "“post office”")


@pytest.mark.integration
def test_a_thing_asked_of_a_place_is_refused_by_name_not_met_with_a_clarification(tmp_path,
                                                                                  embeddings):
    """Issue 84: "Is there a café in the central library?" was met with opening hours, then with
    "I need the date": the place is the question's situation, the café its topic, and no
    version of the rules names one. A clarification is asked only about blocks the question is
    about (DESIGN "Routing")."""
    for sid, start, end, hours in (("LIB-2024", "2024-01-01", "2025-09-01", "9:00 to 18:00"),
                                   ("LIB-2025", "2025-09-01", None, "9:00 to 20:00")):
        meta = {"valid_from": start, "family": "lib-rules", "valid_for": "as_of",
                **({"valid_to": end} if end else {})}
        write(tmp_path / "docs" / f"{sid}.md", md(sid, (
            f"## 1 Loan periods\n\nBooks are lent for 3 weeks.\n\n## 2 Opening hours\n\n"
            f"The central library is open Monday to Saturday, {hours}.\n"),
            title="Library rules", **meta))
    app = indexed_app(tmp_path, embeddings)
    chain = build_ask_chain(app)
    a = chain.invoke({"question": "Is there a café in the central library?", "scope": Scope()})
    assert a.status is Status.NO_EVIDENCE and a.relevance.unheld == ["café"], a.answer
    hours = chain.invoke({"question": "When is the central library open on Saturday?",
                          "scope": Scope()})
    assert hours.status is Status.CLARIFY, hours.answer  # about the rules: which date decides

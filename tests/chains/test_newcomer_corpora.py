"""The newcomer round's quoted cases (issue 84) over corpora written as the issue describes
them: an image tool's guide at two releases beside its notes, a library's dated lending rules
beside its fees, and a car hire's terms. Each case is asked as the issue's user asked it."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import indexed_app, md, pages_and_notes, write

from situated.chains.ask import build_ask_chain
from situated.chains.contract import Status
from situated.situation import Scope

TODAY = dt.date(2026, 12, 6)

GUIDE = {
    "1.0": ("## Installing\n\nInstall pixpack with `pip install pixpack`.\n\n"
            "## Compressing images\n\nRun `pixpack compress photo.jpg` to write a smaller copy "
            "next to the original. The default quality is 85. Use `--quality` to set a value "
            "between 1 and 100.\n\n## Settings\n\npixpack reads its settings from "
            "`pixpack.toml` in the current folder. Each key in the file overrides the default "
            "of the same name.\n"),
    "2.0": ("## Installing\n\nInstall pixpack with `pip install pixpack`.\n\n"
            "## Compressing images\n\nRun `pixpack compress photo.jpg` to write a smaller copy "
            "next to the original. The default quality is 80. Use `--quality` to set a value "
            "between 1 and 100. Pass `--lossless` to keep every pixel.\n\n## Settings\n\n"
            "The settings file is `~/.config/pixpack/config.toml`; a `pixpack.toml` in the "
            "current folder is no longer read. Each key in the file overrides the default of "
            "the same name.\n"),
}
NOTES = ("# Changelog\n\n## 2.0\n\n- The default quality is now 80 (was 85).\n- Settings move "
         "to `~/.config/pixpack/config.toml`.\n\n## 1.1\n\n- Add `--lossless`.\n\n## 1.0\n\n"
         "- First release.\n")


@pytest.fixture(scope="module")
def pixpack(tmp_path_factory, embeddings):
    app = pages_and_notes(tmp_path_factory.mktemp("pixpack"), embeddings, "PIX-GUIDE", GUIDE,
                          NOTES, product="pixpack")
    return build_ask_chain(app, clock=lambda: TODAY)


LENDING = ("## 1 Loan periods\n\nBooks are lent for {books}. DVDs and Blu-ray discs are lent for "
           "{dvds}.\n\n## 2 Opening hours\n\nThe central library is open Monday to Saturday, "
           "9:00 to 18:00.\n")
FEES = ("## 1 Late returns\n\nA late book costs 20p a day, up to £5 an item.\n\n"
        "## 2 Lost or damaged items\n\nPay at the printer with your library card, or at the "
        "desk. If you lose or damage a book, you pay its replacement cost plus a £3 handling "
        "fee.\n")


@pytest.fixture(scope="module")
def library(tmp_path_factory, embeddings):
    root = tmp_path_factory.mktemp("library")
    for sid, start, end, books, dvds in (("MPL-LEND-2024", "2024-01-01", "2025-09-01",
                                          "3 weeks", "1 week"),
                                         ("MPL-LEND-2025", "2025-09-01", None, "4 weeks",
                                          "2 weeks")):
        meta = {"valid_from": start, "family": "mpl-lend", "valid_for": "as_of",
                **({"valid_to": end} if end else {})}
        write(root / "docs" / f"{sid}.md", md(sid, LENDING.format(books=books, dvds=dvds),
                                              title="Maple library lending rules", **meta))
    write(root / "docs" / "fees.md", md("MPL-FEES", FEES, title="Maple library fees"))
    return build_ask_chain(indexed_app(root, embeddings), clock=lambda: TODAY)


def _ask(chain, question: str):
    return chain.invoke({"question": question, "scope": Scope()})


@pytest.mark.integration
@pytest.mark.parametrize("question", [
    "How do I resize a video with pixpack?",
    "What licence is pixpack released under?",
    "How do I uninstall pixpack?",
])
def test_a_question_that_names_the_product_is_not_thereby_on_topic(pixpack, question):
    """Every block of the product holds its name: the name is the situation, not the topic."""
    a = _ask(pixpack, question)
    assert a.status is Status.NO_EVIDENCE and a.evidence == [], a.answer


@pytest.mark.integration
def test_the_asked_default_leads_the_answer(pixpack):
    """"What's the default quality in pixpack 1.0?" opened with the config-file sentence."""
    a = _ask(pixpack, "What's the default quality in pixpack 1.0?")
    assert a.status is Status.ANSWERED, a.answer
    assert a.answer.split("[")[0].endswith("The default quality is 85. "), a.answer


@pytest.mark.integration
def test_the_release_asked_answers_from_its_own_guide(pixpack):
    """"Where does version 2.0 look for its settings file?" got "Nothing in version 2.0 answers
    this; versions 1.0 do"."""
    a = _ask(pixpack, "Where does version 2.0 look for its settings file?")
    assert a.status is Status.ANSWERED and "~/.config/pixpack/config.toml" in a.answer, a.answer
    assert {c.source_id for c in a.citations} == {"PIX-GUIDE-2.0"}


@pytest.mark.integration
def test_a_flag_the_notes_add_between_the_guides_is_dated_by_the_notes(pixpack):
    a = _ask(pixpack, "In which version was --lossless added?")
    assert a.answer.startswith("“--lossless” was added in version 1.1"), a.answer


@pytest.mark.integration
def test_what_a_damaged_book_costs_leads_with_the_cost(library):
    """"What do I pay for a damaged book?" opened with "Pay at the printer with your library
    card."."""
    a = _ask(library, "What do I pay for a damaged book?")
    assert a.status is Status.ANSWERED, a.answer
    assert a.answer.startswith("If you lose or damage a book, you pay its replacement cost"), \
        a.answer


@pytest.mark.integration
@pytest.mark.parametrize("question", ["Is there a café in the central library?",
                                      "How much is a parking fine in the library car park?"])
def test_a_place_the_rules_name_does_not_make_a_stranger_on_topic(library, question):
    """The café was answered with opening hours and the parking fine asked for a date: a
    clarification is asked only about blocks the question is about."""
    a = _ask(library, question)
    assert a.status is Status.NO_EVIDENCE, a.answer


@pytest.mark.integration
def test_a_dvd_is_held_by_the_rules_on_dvds_at_the_date_given(library):
    a = _ask(library, "How long do I get to keep a DVD as of 12 March 2025?")
    assert a.status is Status.ANSWERED and "1 week" in a.answer, a.answer
    assert "for as of" not in a.answer and "by as of" not in a.answer


TERMS = ("## 3 Mileage\n\nRentals include 250 km per day. Each additional kilometre costs 0.28 "
         "EUR. Rentals of 7 days or longer have unlimited mileage.\n\n## 4 Drivers\n\nDrivers "
         "under 25 pay a young driver surcharge of 12 EUR per day.\n")
PROTECTION = ("## 1 Basic cover\n\nEvery rental includes collision damage waiver with an excess "
              "of 1,200 EUR. The excess is the most you pay if the car is damaged or stolen.\n")


@pytest.mark.integration
@pytest.mark.xfail(strict=True, reason="issue 84, blocked: 'pay' is shared with the excess and the "
                   "young-driver fee; MiniLM reads the mileage unit as closer (0.485 against "
                   "0.434), and the shared word's share (0.25) outweighs it "
                   "(docs/experiments.md)")
def test_driving_long_distances_is_answered_by_the_mileage_rule(tmp_path, embeddings):
    write(tmp_path / "docs" / "terms.md", md("KR-TERMS", TERMS, title="Kestrel rental terms"))
    write(tmp_path / "docs" / "protection.md", md("KR-PROTECT", PROTECTION,
                                                  title="Kestrel protection"))
    chain = build_ask_chain(indexed_app(tmp_path, embeddings), clock=lambda: TODAY)
    a = _ask(chain, "Do I pay extra for driving long distances?")
    assert a.answer.split("[")[0].rstrip().endswith("mileage."), a.answer

"""The asker's situation on phrasings nobody here wrote: date roles from governing words, the
as-of stand-in, the query without its situation, product names, instants and timezones,
block sizes, and the app's own wording."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import app_over, md, write

from situated.chains.read.dates import find_dates, strip_dates
from situated.chains.read.products import ProductMatcher
from situated.chains.read.proposal import extraction_runnable
from situated.chains.say.wording import Lang, language_of, slice_text
from situated.documents import ValidFor, end_of_day, instant
from situated.errors import DocumentError
from situated.loaders.corpus import load_corpus
from situated.loaders.sentences import split_sentences
from situated.loaders.sizing import BlockLimit, Unit, pack_units
from situated.retrievers.filter import Filter
from situated.situation import Situation

pytestmark = pytest.mark.unit
TODAY = dt.date(2026, 11, 29)
PRODUCTS = frozenset({"C-3", "S-2", "Старт", "X", "Buffer", "Google Generative AI Services",
                      "Google", "Meta AI"})
D = dt.date(2026, 3, 15)


def extract(question, carried=None):
    return extraction_runnable(PRODUCTS, lambda: TODAY).invoke(
        {"question": question, "situation": carried})


@pytest.mark.parametrize("question, role", [
    ("What battery warranty applies to a C-3 bought on 15 March 2026?", "purchase_date"),
    ("I bought my C-3 on 15 March 2026", "purchase_date"),
    ("On 15 March 2026 I bought a C-3; what warranty applies?", "purchase_date"),
    ("Сколько дней на возврат при покупке 15 марта 2026 года?", "purchase_date"),
    ("Я подключил тариф «Старт» 15 марта 2026 года", "purchase_date"),
    ("I returned it on 15 March 2026", "request_date"),
    ("заявка от 15 марта 2026 года", "request_date"),
    ("What is the policy as of 15 March 2026?", "as_of"),
    ("Какие правила по состоянию на 15 марта 2026 г.?", "as_of"),
    # topic words elsewhere govern nothing: the date is the as-of date
    ("Какой срок возврата был у тарифа Старт 15 марта 2026 года?", "as_of"),
    ("What was the return period on 15 March 2026?", "as_of"),
    ("What did X's terms say about Requesting data on 15 March 2026?", "as_of"),
    ("What did X's terms say about “requested refunds” on 15 March 2026?", "as_of"),
    ("What did the policy say about returns on 2026-03-15?", "as_of"),
])
def test_a_date_takes_its_role_only_from_the_words_that_govern_it(question, role):
    s = extract(question).situation
    assert s.model_dump()[role] == D
    assert [k for k in ("purchase_date", "request_date", "as_of") if s.model_dump()[k]] == [role]


def test_the_as_of_date_stands_in_for_every_role_without_its_own():
    s = Situation(as_of=D, purchase_date=dt.date(2025, 1, 5))
    assert s.date_for(ValidFor.PURCHASE_DATE) == dt.date(2025, 1, 5)  # its own wins
    assert s.date_for(ValidFor.REQUEST_DATE) == D and s.given(ValidFor.REQUEST_DATE) is None
    assert Situation().date_for(ValidFor.AS_OF) is None


def test_two_dates_without_a_role_are_not_guessed_between():
    v = extract("What was the warranty on 15 March 2025 and on 15 March 2026?")
    assert v.situation == Situation()
    assert v.unplaced == ("15 March 2025", "15 March 2026")


@pytest.mark.parametrize("question, query", [
    ("What battery warranty applies to a C-3 bought on 15 March 2026?",
     "What battery warranty applies to a C-3?"),
    ("Какой срок возврата был у тарифа Старт 15 марта 2026 года?",
     "Какой срок возврата был у тарифа Старт?"),
    ("What is the policy as of 2026-03-15?", "What is the policy?"),
    ("1 апреля 2026", ""),
])
def test_the_query_is_the_question_without_its_situation(question, query):
    assert extract(question).query == query


def test_stripping_keeps_every_other_word():
    text = "Warranty 15 March 2026 battery, bought on 2 April 2026: pump"
    assert strip_dates(text, find_dates(text)) == "Warranty battery, pump"


@pytest.mark.parametrize("text, found", [
    ("What did X's terms say?", ["X"]),
    ("an x-ray of the X-ray", []),
    ("what is the buffer size?", []),
    ("Buffer's privacy policy", ["Buffer"]),
    ("What did Google Generative AI Services say?", ["Google Generative AI Services"]),
    ("Google's terms", ["Google"]),
    ("Meta AI terms", ["Meta AI"]),
    ("the S-2 or a c3", ["S-2", "C-3"]),
    ("тариф «Старта»", ["Старт"]),
    ("старт двигателя", []),
])
def test_products_match_by_normalised_name_without_ordinary_words(text, found):
    assert ProductMatcher(PRODUCTS).find(text) == found


@pytest.mark.parametrize("text, found", [
    ("How can I redirect all traffic to HTTPS in Starlette?", ["starlette"]),
    ("How do I install HTTPX with HTTP/2 support?", ["httpx"]),
    ("does starlette have sessions", ["starlette"]),
    ("Starlette sessions?", []),  # a sentence's first word is capitalised whatever it is
    ("Buffer size? Is it full?", []),
    ("Which size does Buffer use?", ["buffer"]),
])
def test_a_name_written_in_lower_case_is_read_capitalised_inside_a_sentence(text, found):
    """"… in Starlette?" named no product where the index writes it "starlette": the reply fell
    back to httpx's pages. Capitals inside a sentence mark a name; at its start they do not."""
    assert ProductMatcher({"starlette", "httpx", "buffer"}, as_written_loosely=True).find(
        text) == found
    # a family's name is read as written: "Which version added `Client`?" names no "client"
    assert ProductMatcher({"client"}).find("In which version was `Client` added?") == []


def test_a_one_word_reply_completes_the_carried_situation():
    carried = Situation(purchase_date=D)
    assert extract("X", carried).situation == Situation(product="X", purchase_date=D)
    assert extract("the S-2", carried).situation.product == "S-2"
    reply = extract("1 апреля 2026", Situation(product="Старт")).situation
    assert reply == Situation(product="Старт", as_of=dt.date(2026, 4, 1))
    assert reply.date_for(ValidFor.PURCHASE_DATE) == dt.date(2026, 4, 1)


@pytest.mark.parametrize(("question", "lang"), [
    ("Какой срок у тарифа C-3?", Lang.RU),
    # the words that frame it decide, not the count of letters: more Latin letters here
    ("С какой версией httpx пришёл zstd content decoding?", Lang.RU),
    ("What does the Старт tariff cost?", Lang.EN),
    ("Сколько стоит тариф Старт?", Lang.RU),
    ("httpx zstd?", Lang.EN),  # no word frames it: the letters
])
def test_a_question_is_in_the_language_of_the_words_that_frame_it(question, lang):
    """httpx's Russian paraphrases that name English terms ("zstd content decoding") were
    answered in English: their Latin letters outnumbered the Cyrillic ones."""
    assert language_of(question) is lang


def test_slice_is_written_in_the_question_language():
    s = Situation(product="Старт", as_of=D)
    assert slice_text(s, Lang.RU) == "По состоянию на 15 марта 2026, для Старт: "
    assert slice_text(Situation(product="C-3", purchase_date=D), Lang.EN) == \
        "For a purchase on 15 March 2026, for C-3: "
    assert slice_text(Situation(), Lang.EN) == ""


# --- instants and timezones -----------------------------------------------------------------

def _versions(tmp_path, first_end="2026-05-03T09:00:00+02:00"):
    write(tmp_path / "v1.md", md("TOS-1", product="Svc", family="terms", valid_for="as_of",
                                 valid_from="2026-01-10T12:00:00+01:00", valid_to=first_end))
    write(tmp_path / "v2.md", md("TOS-2", product="Svc", family="terms", valid_for="as_of",
                                 valid_from=first_end))
    corpus = load_corpus([tmp_path])
    return {d.meta.source_id: d.blocks[0].fields for d in corpus.documents}


def test_instants_are_compared_as_instants_and_a_day_means_its_end(tmp_path):
    fields = _versions(tmp_path)
    assert fields["TOS-1"].valid_to_s == fields["TOS-2"].valid_from_s
    assert fields["TOS-2"].valid_from_s == instant(dt.datetime(2026, 5, 3, 7, tzinfo=dt.UTC))

    def admitted(day, tz="UTC"):
        flt = Filter(situation=Situation(as_of=day), timezone=tz)
        return sorted(s for s, f in fields.items() if flt.admits(f))

    assert admitted(dt.date(2026, 5, 2)) == ["TOS-1"]
    assert admitted(dt.date(2026, 5, 3)) == ["TOS-2"]  # two versions that day: the later one
    assert admitted(dt.date(2026, 1, 10)) == ["TOS-1"]  # first day
    assert admitted(dt.date(2026, 1, 9)) == []  # before the first version
    # 10 January ends at 09:59:59 UTC in Kiritimati (UTC+14), before TOS-1 began (11:00 UTC)
    assert admitted(dt.date(2026, 1, 10), "Pacific/Kiritimati") == []
    assert admitted(dt.date(2026, 1, 10), "Pacific/Honolulu") == ["TOS-1"]


def test_date_only_bounds_are_read_in_the_index_timezone(tmp_path):
    write(tmp_path / "a.md", md("A", valid_from="2026-03-01", valid_for="as_of"))
    for tz in ("UTC", "Pacific/Honolulu", "Asia/Tokyo"):
        fields = load_corpus([tmp_path], timezone=tz).documents[0].blocks[0].fields
        flt = Filter(situation=Situation(as_of=dt.date(2026, 3, 1)), timezone=tz)
        assert flt.admits(fields)
        assert not Filter(situation=Situation(as_of=dt.date(2026, 2, 28)),
                          timezone=tz).admits(fields)
    assert end_of_day(dt.date(2026, 3, 1), "UTC") == instant(dt.date(2026, 3, 2)) - 1


@pytest.mark.parametrize("value, message", [
    ("2026-01-10T12:00:00", "has no UTC offset"),
    ("2026-01-10T25:00:00+01:00", "unreadable date-time valid_from"),
])
def test_bad_instants_are_ingest_errors_naming_the_file(tmp_path, value, message):
    write(tmp_path / "bad.md", md("BAD", valid_from=value))
    with pytest.raises(DocumentError) as err:
        load_corpus([tmp_path])
    assert message in str(err.value) and "bad.md" in str(err.value)


def test_overlapping_instant_versions_are_rejected(tmp_path):
    write(tmp_path / "v1.md", md("V1", family="f", valid_from="2026-01-01T00:00:00+00:00",
                                 valid_to="2026-02-01T12:00:00+00:00"))
    write(tmp_path / "v2.md", md("V2", family="f", valid_from="2026-02-01"))
    with pytest.raises(DocumentError, match="overlapping versions"):
        load_corpus([tmp_path])


# --- block sizes ----------------------------------------------------------------------------

def test_sentences_do_not_break_after_abbreviations():
    assert split_sentences("Use a lock, e.g. the P-2 lock. Then check it. 1.1. Next, т.е. всё.") \
        == ["Use a lock, e.g. the P-2 lock.", "Then check it.", "1.1. Next, т.е. всё."]


def test_long_sections_become_blocks_within_the_limit_and_keep_exceptions_with_rules():
    limit = BlockLimit(tokens=120)
    intro, rule = "Short intro.", "A rule sentence that is rather long. " * 4
    exception = "Unless the casing was opened, the rule applies."
    groups = pack_units("3 Heading", [Unit(t) for t in (intro, rule, exception, rule)], limit)
    assert groups == [[intro], [rule, exception], [rule]]  # the exception stays with its rule
    assert all(limit.count("3 Heading\n\n" + "\n\n".join(g)) <= 120 for g in groups)
    other = "Whenever the casing is opened, the rule applies."  # same length, no exception
    plain = pack_units("3 Heading", [Unit(t) for t in (intro, rule, other, rule)], limit)
    assert plain[0] == [intro, rule]
    huge = "word " * 500
    parts = pack_units("H", [Unit(huge)], limit)
    assert len(parts) > 1 and all(limit.count("H\n\n" + p[0]) <= 120 for p in parts)


def test_a_split_section_keeps_its_path_and_gets_its_own_anchors(tmp_path):
    body = "## 3 Long section\n\n" + "\n\n".join(f"Paragraph {i}. " + "text " * 200
                                               for i in range(4)) + "\n"
    write(tmp_path / "long.md", md("LONG", body=body))
    doc = load_corpus([tmp_path], limit=BlockLimit(tokens=300)).documents[0]
    assert len(doc.blocks) >= 3
    assert {b.section for b in doc.blocks} == {"3"}
    assert doc.blocks[0].link.endswith("#section-3")
    assert doc.blocks[1].link.endswith("#section-3-part2")
    assert all(len(b.text) // 2 + 1 <= 300 for b in doc.blocks)
    assert {p.block_id for p in doc.pieces} == {b.block_id for b in doc.blocks}


@pytest.mark.parametrize("text, found", [
    ("What did Meta AI's terms say about “ads shown by Google” on 2026-01-05?", ["Meta AI"]),
    ("What did Meta AI's terms say about ads shown by Google on 2026-01-05?", ["Meta AI"]),
    ("What does “Buffer” mean in the S-2 manual?", ["S-2"]),
    ("What does “Buffer” mean?", ["Buffer"]),
    ("compare the C-3 and the S-2", ["C-3", "S-2"]),
])
def test_quoted_names_and_possessives(text, found):
    assert ProductMatcher(PRODUCTS).find(text) == found


def test_a_date_inside_a_quoted_phrase_is_part_of_the_phrase():
    v = extract("What did it say about “valid until 1 May 2026” on 3 May 2026?")
    assert v.situation == Situation(as_of=dt.date(2026, 5, 3))
    assert v.query == "What did it say about “valid until 1 May 2026”?"


def test_an_unknown_timezone_is_a_settings_error_naming_it():
    from pydantic import ValidationError

    from situated.settings import Settings

    with pytest.raises(ValidationError, match="'Mars/Olympus' is not an IANA timezone"):
        Settings(timezone="Mars/Olympus")


@pytest.mark.integration
def test_an_index_opened_with_another_timezone_is_refused_with_the_fix(sample_root, embeddings):
    from situated.errors import IndexError_
    from situated.settings import Settings

    app = app_over(Settings(index_dir=sample_root, cache_dir=sample_root / "cache",
                       timezone="Asia/Tokyo"), embeddings)
    with pytest.raises(IndexError_, match="SITUATED_TIMEZONE=UTC"):
        _ = app.index  # opening the index checks its timezone


@pytest.mark.parametrize("text", [
    "How many separate quickq versions can I ask about?",
    "Recommend a good science fiction novel.",
    "Does the octopus exhibit open in the morning?",
    "Can I augment my plan?",
])
def test_a_word_that_begins_like_a_month_names_no_date(text):
    """"separate" was read as "sep" and the asker was asked which year: a month word ends
    where no letter follows."""
    assert find_dates(text) == []


@pytest.mark.parametrize("text,said", [("Was it in Sept. 2025?", "in Sept. 2025"),
                                       ("bought on 5 Aug", "5 Aug"), ("due in Nov", "in Nov")])
def test_a_short_month_is_still_a_month(text, said):
    assert [m.text for m in find_dates(text)] == [said]

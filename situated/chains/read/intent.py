"""What a question asks for (DESIGN "Questions about change"): what applied at a moment, how two
periods compare, what changed in a family, or which versions it has.

Read by rules first (English and Russian cue phrases: here, `since_cues` and `change_cues`), the
structured-output model second (`ExtractedSituation.intent`), and validated in code
(`validate_extraction`). A comparison needs two periods in the question and is found apart
(`chains.read.compare`). The cues name the rule's change, not the asker's: "What changed in the
terms?", "When did the return period change?", «Что изменилось в тарифе Старт?» are about
versions; "Can I change the battery?" is not.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from situated.chains.read.change_cues import CHANGES, CHANGES_OF, MAKING_CHANGES, NOT_A_CHANGE
from situated.chains.read.since_cues import HELD_SINCE, LEAST_RELEASE, SINCE_Q
from situated.chains.read.version_words import (
    ASKING_EN,
    LISTING_ORDER,
    NEWEST_WORDS,
    OLDEST_WORDS,
    RU_NEWEST_WORDS,
    RU_OLDEST_WORDS,
    RU_RELEASE_NOUNS,
)
from situated.chains.read.version_words_ru import ASKING_RU
from situated.modes import Mode


class Intent(Mode):
    AT = "at"  # what applied at a moment (or now)
    COMPARE = "compare"  # two periods side by side
    CHANGES = "changes"  # what changed between consecutive versions
    VERSIONS = "versions"  # which versions exist
    SINCE = "since"  # in which version something was added, removed or deprecated


class LineFact(Mode):
    """Which fact of a release line a question about versions asks for, when its words do not
    say (a model's proposal, validated: `extract.validate_line_fact`)."""

    LIST = "list"  # which versions there are
    COUNT = "count"  # how many (answered by the listing, which counts them)
    OLDEST = "oldest"
    LATEST = "latest"
    EXISTS = "exists"  # whether the version the question names exists


_VERSIONS = re.compile(
    r"\b(?:list|show|which|what|all|how\s+many)\b[^.?!]{0,40}\b(?:versions|revisions|editions)\b|"
    r"\bversion\s+history\b|\b(?:versions|revisions)\s+of\b|"
    # "Show me every version of the quickq-guide family", "List each release"
    r"\b(?:list|show)\b(?:(?!\b(?:how|what|why|whether|where|when|which)\b)[^.?!]){0,30}"
    r"\b(?:every|each)\s+(?:[\w.-]+\s+){0,2}?(?:version|"
    r"revision|edition|release)\b|"
    # «Какие изменения в версии 1.1.0?» asks what changed
    # («Сколько стоит версия 1.1.0?» asks a price)
    r"(?:перечисли|покажи|список|как(?:ие|им|их|ими)|сколько(?!\s+сто[иая])|количеств\w*|все)\b"
    r"(?![^.?!]{0,20}изменени)[^.?!]{0,40}(?:верси(?:й|и|ях)|редакци(?:й|и|ях))|"
    r"истори[яюи]\s+(?:версий|редакций)|(?:версии|редакции)\s+(?:тарифа|документа|правил)|"
    # one release asked about as a fact of the line: the latest, the oldest, does X exist
    r"\b(?:what|which)(?:'s|’s|\s+is|\s+was)\s+(?:the\s+)?(?:latest|newest|current|most\s+"
    r"recent|oldest|earliest|first|last)\s+(?:version|release)(?:\s+of\s+[^?.!]{1,60})?\s*"
    r"[?.!]?\s*$|\b(?:does|did)\s+(?:a\s+|the\s+)?(?:version|release)\s+\S+\s+exist\b|"
    r"\bis\s+there\s+(?:a\s+)?(?:version|release)\s+\S+?\s*(?:of\s+[^?.!]{1,60})?[?.!]?\s*$|"
    rf"(?:есть|существует)\s+ли\s+(?:{RU_RELEASE_NOUNS})|"
    r"(?:какая|какой)\s+(?:сейчас\s+)?(?:последн|новейш|самая\s+нов|перв|самая\s+стар)\w*"
    rf"\s+(?:{RU_RELEASE_NOUNS})",
    re.IGNORECASE)
# what a question about versions says besides its subject: left out when checking that a
# question names anything at all ("What changed?" names nothing; "What changed in the fees?" does)
_FRAME = re.compile(
    r"\b(?:what|which|when|how|did|does|has|have|had|was|were|is|are|been|the|a|an|of|in|on|"
    r"to|for|since|from|after|list|show|me|all|many|often|versions?|revisions?|editions?|"
    r"history|new|different|changed?|changes|added|removed|made|summari[sz]e|changelog|"
    r"between|and|during|over|exists?|latest|newest|oldest|earliest|current|most|recent|"
    r"there|releases?|first|last|number|count|available)\b|"
    r"(?<!\w)(?:что|какие|какой|когда|как|часто|ли|в|во|по|с|со|после|все|сколько|покажи|"
    r"перечисли|список|нового|именно|было|были|изменено|изменилось|поменялось|изменени\w*|"
    r"изменил\w*|поменял\w*|редакци\w*|истори\w*|последн\w*|перв\w*|есть|"
    rf"существует|{RU_RELEASE_NOUNS}|какая|самая|новая|старая)(?!\w)",
    re.IGNORECASE)
# a comparison's cue; it is one only with two periods in the question (`compare.find_comparison`)
_COMPARE = re.compile(
    r"\b(?:compar\w*|differ\w*|versus|vs\.?|changed|changes)\b|"
    r"\b(?:how|what|did|has|have|had|does)\b[^.?!]*\bchange\b|"
    r"сравн\w*|измени(?:лс[яь]|лась|лось|лись|л[аио]?)\b|изменени\w*|разниц\w*|отлича\w*",
    re.IGNORECASE)
_SINCE = re.compile(r"(?:since|from|after|starting|с|со|после|начиная\s+с)\s*$", re.IGNORECASE)


# a question about the release line in people's words: what is left when the names of the
# line, the version numbers and the words of asking are taken away is nothing ("How many
# Node.js versions are you aware of?", "What is the oldest Apache Spark version in the
# system?", «Какие версии тебе известны?»)
_DOTTED = r"(?<![\w.])v?\d+(?:\.\d+)+(?![\w.]*\d)"  # a version number: "1.1.0", "v2.0"
_VERSION_NUMBER = re.compile(_DOTTED)
# "build" is a release where it stands as a noun ("Which quickq build is the oldest?"), not a
# verb ("How do I build quickq?", "Do I need to build?")
_BUILD_NOUN = (r"\bbuilds\b|(?<!\bto\s)(?<!\bi\s)(?<!\bwe\s)(?<!\byou\s)(?<!\bthey\s)\bbuild\b"
               r"(?=\s*(?:[?.!,]|$|\b(?:is|was|in|to|of|that|which|you|do|can|for|number)\b))")
# "released" says the line too ("How many times has quickq been released?")
_LINE_WORD = re.compile(rf"\b(?:versions?|releases?|released|editions?)\b|{_BUILD_NOUN}|"
                        rf"(?<!\w)(?:{RU_RELEASE_NOUNS}|редакци\w*)|"
                        rf"{_DOTTED}",
                        re.IGNORECASE)
# up to three names just before the word: capitalised, dotted or with digits ("Node.js",
# "Apache Spark", "NodeJs", "Qt6")
_LINE_NAME = re.compile(r"(?:(?<=\s)|^)(?:(?:[A-ZА-ЯЁ][\w.+-]*|[\w+-]*[.\d][\w.+-]*)\s+){1,3}"
                        rf"(?=(?:versions?|releases?|editions?|builds?|{RU_RELEASE_NOUNS}|"
                        r"редакци\w*)\b)")
_NUMBERS = re.compile(r"(?<![\w.])v?\d+(?:\.\d+){0,3}(?:\.[xX*])?(?![\w.]*\d)")
# the words of asking and the words that order releases (`version_words`)
_ASKING = re.compile(rf"\b(?:{ASKING_EN})\b|(?<!\w)(?:{ASKING_RU})(?!\w)", re.IGNORECASE)
_ORDER_WORD = re.compile(rf"{LISTING_ORDER}|\b(?:{NEWEST_WORDS}|{OLDEST_WORDS})\b|"
                         rf"(?<!\w)(?:{RU_NEWEST_WORDS}|{RU_OLDEST_WORDS})(?!\w)", re.IGNORECASE)


def _of_another_thing(question: str, whole: str) -> bool:
    """A version of something else, the product named after it ("What's the minimum Python
    version for quickq?": `question` is `whole` without the product's name): the name before
    the version word stood there in the whole question, and a name was taken out further on.
    "What is the oldest Apache Spark version?" is the product's own line (the name taken out
    stood just before the word)."""
    m = next((m for m in _LINE_NAME.finditer(question)
              # a name, not "Which version" nor a release number ("a 1.1.0 release of quickq")
              if re.search(r"[^\W\d_]", _ASKING.sub(" ", _NUMBERS.sub(" ", m.group())))), None)
    return m is not None and question != whole and whole.startswith(
        question[:m.end()] + question[m.end():].split(" ", 1)[0])


# a phrase of three words or more in quotes: the words looked for ("What does the index say
# about “release includes some improvements”?"), not a cue; a quoted name («Старт») stays
_QUOTED_PHRASE = re.compile(r"[“\"«`][^”\"»`\s]*\s[^”\"»`]*?\s[^”\"»`]*[”\"»`]")
# a question that asks when: no fact of the line answers it
_ASKS_WHEN = re.compile(r"\W*(?:when|когда)\b", re.IGNORECASE)
# what the asker says of themselves before the question, closed by a semicolon or a colon ("I'm
# writing a migration guide; which versions do the docs cover?", «Я пишу руководство по
# миграции; …»): their circumstance, not what they ask
_PREFACE = re.compile(r"^\W*(?:i['’]?m|i\s+am|we['’]?re|we\s+are|i['’]?ve|i\s+have|we['’]?ve|"
                      r"we\s+have|my|our|я|мы|у\s+(?:меня|нас)|мой|моя|мо[её]|наш\w*)\s"
                      r"[^?!;:]{1,100}[;:]\s*", re.IGNORECASE)


def about_the_line(question: str, whole: str = "") -> bool:
    """The question asks about the release line itself (which versions, how many, the oldest,
    the latest, does one exist) in any phrasing: it names a version word or number, says
    something besides, and nothing is left once the line's names, version numbers and the
    words of asking are removed. `whole`: the question before the index's names were taken
    out of it (`question`), when they were."""
    if not (_LINE_WORD.search(question) or _ORDER_WORD.search(question)):
        return False
    if whole and _of_another_thing(question, whole):
        return False
    if not re.search(r"[^\W\d_]", _NUMBERS.sub(" ", question)):
        return False  # a release alone ("2.0") is a reply naming one, not a question
    if _ASKS_WHEN.match(question):
        return False  # a date is asked ("When was 1.1.0 released?"): the text tells it
    said = _PREFACE.sub(" ", question)  # what the asker says of themselves is not asked
    rest = _LINE_WORD.sub(" ", _NUMBERS.sub(" ", _LINE_NAME.sub(" ", said)))
    return names_nothing(_ASKING.sub(" ", _ORDER_WORD.sub(" ", rest)))


def find_intent(question: str, unnamed: Callable[[str], str] | None = None) -> Intent | None:
    """The intent the question's own words give, or None when they give none (the model's
    proposal may then decide; a question with no cue is about a moment). `unnamed`: the
    question without the product and document names the index knows. A version number's
    dots are not the end of a sentence ("What did version 1.1.0 change?"), and a quoted phrase
    is what is looked for, never how it is asked."""
    whole = question = _QUOTED_PHRASE.sub(" quoted ", question)
    question = _VERSION_NUMBER.sub("0", question)
    named_out = unnamed(whole) if unnamed else whole
    if SINCE_Q.search(question) or LEAST_RELEASE.search(named_out) or (
            named_out != whole and HELD_SINCE.search(named_out)):
        # "Which version came first?" asks for no subject
        return Intent.VERSIONS if about_the_line(named_out, whole) else Intent.SINCE
    if _VERSIONS.search(question) and not _of_another_thing(named_out, whole):
        return Intent.VERSIONS
    if not NOT_A_CHANGE.search(question) and (
            CHANGES.search(question) or (CHANGES_OF.search(question)
                                         and not MAKING_CHANGES.search(question))):
        return Intent.CHANGES
    return Intent.VERSIONS if about_the_line(named_out, whole) else None


def read_cue(question: str, follows: str = "", compared: bool = False,
             unnamed: Callable[[str], str] | None = None) -> Intent | None:
    """The intent the words give, read once per question: a comparison when the question
    names two periods to compare (`compared`, found by `compare.find_comparison`), else the
    question's own cue, else that of the question a reply follows; None when none gives one
    (the model's proposal may then decide)."""
    if compared:
        return Intent.COMPARE
    return find_intent(question, unnamed) or (find_intent(follows, unnamed) if follows else None)


# the words any question about change or versions uses, in some form: a model's proposed intent
# stands only where the question says one of them (it is grounded, as a proposed date must be)
_TALKS_OF_VERSIONS = re.compile(
    r"\b(?:chang\w*|new|newer|different|differ\w*|updat\w*|amend\w*|revis\w*|versions?|"
    r"editions?|history|histor\w*|added|removed|replaced|since)\b|"
    r"(?<!\w)(?:измен\w*|помен\w*|нов\w*|обновл\w*|верси\w*|редакци\w*|истори\w*|"
    r"добавл\w*|удал\w*)",
    re.IGNORECASE)


# the nouns a document is called by: a change question about one asks of its versions ("What
# changed in the privacy policy?", «Что изменилось в условиях?»), one about anything else may
# ask what the text tells of a change ("What changes were made to the engine design?")
_DOCUMENT_WORD = re.compile(
    r"\b(?:polic(?:y|ies)|terms|conditions|agreements?|contracts?|notices?|documents?|docs|"
    r"documentation|manuals?|guides?|handbooks?|pages?|rules|regulations|tariffs?|price\s+lists?|"
    r"plans?|statements?|licen[cs]es?|faqs?|changelog|release\s+notes|text|wording)\b|"
    r"(?<!\w)(?:политик\w*|услови\w*|договор\w*|документ\w*|правил\w*|тариф\w*|"
    r"соглашени\w*|инструкци\w*|руководств\w*|страниц\w*|текст\w*|оферт\w*|регламент\w*)",
    re.IGNORECASE)


def line_word(question: str) -> bool:
    """The question holds a word of the release line or a version number (`_LINE_WORD`)."""
    return bool(_LINE_WORD.search(question))


def quotes_a_phrase(question: str) -> bool:
    """The question quotes a phrase of three words or more: the words looked for."""
    return bool(_QUOTED_PHRASE.search(question))


def names_a_document(question: str) -> bool:
    """The question calls something by a document's noun (`_DOCUMENT_WORD`)."""
    return bool(_DOCUMENT_WORD.search(question))


def talks_of_versions(question: str) -> bool:
    """The question uses a word of change or versions (not necessarily a rule's cue phrase):
    what a model's proposal of `changes` or `versions` needs to stand."""
    return bool(_TALKS_OF_VERSIONS.search(question))


def compares(question: str) -> bool:
    """The question says it compares ("How did … change between …", «сравни …»)."""
    return bool(_COMPARE.search(question))


def names_nothing(query: str) -> bool:
    """The question, dates already removed, says nothing but how it asks ("What changed?",
    «Что изменилось?»): it names no document, product or topic to look for."""
    return not re.search(r"\w", _FRAME.sub(" ", query))


def since_cue(text_before_date: str) -> bool:
    """The words governing a date say "from then on" ("since 1 April", «с 1 апреля»)."""
    return bool(_SINCE.search(text_before_date))


__all__ = ["Intent", "LineFact", "about_the_line", "compares", "find_intent", "line_word",
           "names_a_document", "names_nothing", "quotes_a_phrase", "read_cue", "since_cue",
           "talks_of_versions"]

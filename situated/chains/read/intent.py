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
from situated.modes import Mode
from situated.words import alt, letters


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




def _words(name: str, concern: str = "intent") -> re.Pattern[str]:
    return re.compile(alt(concern, name), re.IGNORECASE)


# which versions there are ("List every version", «Какие версии есть?»), and one release asked
# about as a fact of the line: the latest, the oldest, does X exist
_VERSIONS = _words("VERSIONS")
# what a question about versions says besides its subject: left out when checking that a
# question names anything at all ("What changed?" names nothing; "What changed in the fees?" does)
_FRAME = _words("FRAME")
# a comparison's cue; it is one only with two periods in the question (`compare.find_comparison`)
_COMPARE = _words("COMPARE")
_SINCE = _words("SINCE")


# a question about the release line in people's words: what is left when the names of the
# line, the version numbers and the words of asking are taken away is nothing ("How many
# Node.js versions are you aware of?", "What is the oldest Apache Spark version in the
# system?", «Какие версии тебе известны?»)
_DOTTED = r"(?<![\w.])v?\d+(?:\.\d+)+(?![\w.]*\d)"  # a version number: "1.1.0", "v2.0"
_VERSION_NUMBER = re.compile(_DOTTED)
# the line's own words ("version", "release", «версия»), and a version number
_LINE_WORD = re.compile(rf"{alt('intent', 'LINE_WORD')}|{_DOTTED}", re.IGNORECASE)
# up to three names just before the word: capitalised, dotted or with digits ("Node.js",
# "Apache Spark", "NodeJs", "Qt6")
_LINE_NAME = re.compile(rf"(?:(?<=\s)|^)(?:(?:[{letters('UPPER')}][\w.+-]*|[\w+-]*[.\d][\w.+-]*)"
                        r"\s+){1,3}"
                        rf"(?=(?:{alt('intent', 'LINE_NOUN')})\b)")
_NUMBERS = re.compile(r"(?<![\w.])v?\d+(?:\.\d+){0,3}(?:\.[xX*])?(?![\w.]*\d)")
# the words of asking and the words that order releases (words/<lang>/asking.py, versions.py)
_ASKING = re.compile(rf"(?<!\w)(?:{alt('asking', 'ASKING')})(?!\w)", re.IGNORECASE)
_ORDER_WORD = _words("ORDER_WORD")


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
_ASKS_WHEN = re.compile(rf"\W*(?:{alt('intent', 'WHEN')})\b", re.IGNORECASE)
# what the asker says of themselves before the question, closed by a semicolon or a colon ("I'm
# writing a migration guide; which versions do the docs cover?", «Я пишу руководство по
# миграции; …»): their circumstance, not what they ask
_PREFACE = re.compile(rf"^\W*(?:{alt('intent', 'SELF')})\s[^?!;:]{{1,100}}[;:]\s*",
                      re.IGNORECASE)


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
_TALKS_OF_VERSIONS = _words("TALKS_OF_VERSIONS")


# the nouns a document is called by: a change question about one asks of its versions ("What
# changed in the privacy policy?", «Что изменилось в условиях?»), one about anything else may
# ask what the text tells of a change ("What changes were made to the engine design?")
_DOCUMENT_WORD = _words("DOCUMENT_WORD")


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

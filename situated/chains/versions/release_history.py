"""Facts of a release line from metadata, without a model (docs/design.md "Releases"): which
versions exist and how many (in the order asked, or for a place in a list the whole line), the
latest and the oldest, and whether a version exists (a clear no naming the nearest). A line is
the releases the readable documents declare, for the question's product when it names one."""

from __future__ import annotations

import re

from packaging.version import Version

from situated.chains.contract import Answer
from situated.chains.read.intent import LineFact
from situated.chains.read.release import ReleaseReading, find_mentions, unknown_text
from situated.chains.read.version_words import (
    BACKWARD_WORDS,
    LISTING_ORDER,
    NEWEST_FIRST,
    NEWEST_WORDS,
    OLDEST_WORDS,
    ORDER_NAMED,
    RU_NEWEST_WORDS,
    RU_OLDEST_WORDS,
)
from situated.chains.say import assemble
from situated.chains.say import wording as w
from situated.chains.say.citations import safe_text
from situated.chains.say.wording import Lang
from situated.situation import Situation

_EXISTS = re.compile(r"\bexists?\b|\bis\s+there\b|\bare\s+there\b(?!.*\bhow\s+many\b)|"
                     r"\b(?:include|includes|contain|contains)\b|"
                     r"(?:есть|существует)\s+ли|(?:есть|существует)\b", re.IGNORECASE)
_LATEST = re.compile(rf"\b(?:{NEWEST_WORDS}|current|last|final|greatest|biggest|maximum|max|"
                     rf"top)\b|(?<!\w)(?:{RU_NEWEST_WORDS})", re.IGNORECASE)
_OLDEST = re.compile(rf"\b(?:{OLDEST_WORDS}|first|initial|original|ancient|smallest|minimum|"
                     rf"min)\b|(?<!\w)(?:{RU_OLDEST_WORDS}|перв\w*|ранн\w*)", re.IGNORECASE)
_IN_ORDER = re.compile(LISTING_ORDER, re.IGNORECASE)
_NEWEST_FIRST = re.compile(NEWEST_FIRST, re.IGNORECASE)
_ORDER_NAMED = re.compile(ORDER_NAMED, re.IGNORECASE)
_BACKWARD = re.compile(BACKWARD_WORDS, re.IGNORECASE)
_WHICH_END = re.compile(r"\b(?:which|what)(?:['’]s|\s+is|\s+was)?\s+(?:the\s+)?(?:very\s+)?"
                        r"(?:oldest|earliest|first|newest|latest|most\s+recent|last)\b|"
                        r"(?<!\w)как(?:ая|ой|ое)\s+(?:сам\w+\s+(?:стар|ранн|нов|свеж|поздн)\w*|"
                        r"последн\w*|перв\w*)", re.IGNORECASE)
# the release named, said to be one end of the line ("Is 1.1.0 the latest version?", "Is 1.0
# really the first version you have?", «Версия 1.1.0 последняя?»): yes or no, and that end
_NAMED_END = re.compile(
    r"(?<![\w.])v?\d+(?:\.\d+)+\s+(?:really\s+|actually\s+|still\s+)?(?:the|your)\s+"
    r"(?:very\s+)?(?:(?P<new>latest|newest|most\s+recent|last|freshest)|"
    r"(?P<old>oldest|earliest|first))\b|"
    r"(?<![\w.])v?\d+(?:\.\d+)+\s+(?:—\s+|-\s+)?(?:это\s+)?(?:и\s+есть\s+)?"
    r"(?:(?P<ru_new>сам\w+\s+(?:нов|поздн|свеж)\w*|последн\w*|новейш\w*)|"
    r"(?P<ru_old>сам\w+\s+(?:стар|ранн)\w*|перв\w*|старейш\w*))", re.IGNORECASE)
# a question about the whole line, not one release: "Which versions …", "How many …"
# ("Is 1.1.0 documented here at all?" asks of one)
_WHOLE = re.compile(r"\b(?:which|list|(?<!\bat\s)all|how\s+many|number|count)\b|какие|сколько|"
                    r"перечисл|список|все\b", re.IGNORECASE)


def plural_line(lang: Lang) -> str:
    """How a line of several products is named (`ReleaseSteps.line_name`)."""
    return w.fixed("documents", lang)


def line_text(question: str, reading: ReleaseReading, declared: list[Version], line: str,
              lang: Lang, fact: LineFact | None = None, meant: bool = False,
              ) -> tuple[str, list[Version]]:
    """The answer's text and the releases it shows. The question's words say which fact it
    asks for; where they say none, the model's validated `fact` does ("Up to which version does
    your coverage extend?"), else the line is listed. `meant`: `fact` was read from the whole
    question's meaning where no rule read it, and wins over a word the rules would take for an
    order ("Your last answer quoted one release. How many do you have?": the count, not the
    latest)."""
    n = len(declared)
    # a release exists when a document declares it; one a range only covers (2.0.7 under
    # ">=2.0,<3.0") is not among the versions
    missing = reading.unknown or (reading.version if reading.version is not None and Version(
        reading.version) not in declared else None) or _unknown_number(question, reading,
                                                                       declared)
    facts = {"line": line, "n": n, "first": declared[0], "last": declared[-1]}
    end = _named_end(question) if reading.version is not None or missing is not None else None
    if missing is not None:  # "Is 1.0 the first?" of a line that starts at 0.13.3: no, and it
        said = w.fixed("no", lang) + unknown_text(missing, line, declared, lang)
        return (said, []) if end is None else _end_text(said + " ", end, facts, lang)
    words = _asked_fact(question, reading)  # a whole-line word ("which") yields to the model;
    # an order asked for ("…, oldest first") does not: the line is listed in it
    yields = words is None or (words is LineFact.LIST and not _ORDER_NAMED.search(question))
    asked = fact if fact is not None and (meant or yields) else words
    if end is not None:  # "Is 1.1.0 the latest?": "No. The latest version of quickq is 2.0.0 …"
        at = facts["last"] if end is LineFact.LATEST else facts["first"]
        said = w.fixed("yes" if Version(str(reading.version)) == at else "no", lang)
        return _end_text(said, end, facts, lang)
    if reading.version is not None and asked is LineFact.EXISTS:
        return w.fixed("line_has", lang, v=reading.version, **facts), [Version(reading.version)]
    if asked is LineFact.LATEST:
        return w.fixed("line_latest", lang, **facts), [declared[-1]]
    if asked is LineFact.OLDEST:
        return w.fixed("line_oldest", lang, **facts), [declared[0]]
    # "httpx has …", "The documents have …"; backwards where the newest is asked first
    listing = "line_listing_plural" if line == plural_line(lang) else "line_listing"
    shown = list(declared)
    if _NEWEST_FIRST.search(question):
        listing, shown = listing + "_newest", shown[::-1]
    names = ", ".join(str(v) for v in shown)
    return w.fixed(listing, lang, names=names, **facts), shown


def _end_text(said: str, end: LineFact, facts: dict, lang: Lang) -> tuple[str, list[Version]]:
    """`said` (yes or no) before the end of the line asked about, and that end shown."""
    if end is LineFact.LATEST:
        return said + w.fixed("line_latest", lang, **facts), [facts["last"]]
    return said + w.fixed("line_oldest", lang, **facts), [facts["first"]]


def _named_end(question: str) -> LineFact | None:
    """The end of the line the question says its named release is (`_NAMED_END`), or None."""
    m = _NAMED_END.search(question)
    if m is None:
        return None
    return LineFact.LATEST if m.group("new") or m.group("ru_new") else LineFact.OLDEST


def _asked_fact(question: str, reading: ReleaseReading) -> LineFact | None:
    """The fact the question's words ask for: whether the version it names exists (a
    version named and no word of the whole line), the latest, the oldest, the whole line;
    None when they say none of these. Which end, asked outright, is asked whatever release is
    named beside it («Есть у тебя что-то старше 1.1.0? Какая самая старая?»)."""
    if reading.version is not None and not _WHICH_END.search(question) and (
            _EXISTS.search(question) or not _WHOLE.search(question)):
        return LineFact.EXISTS
    if _IN_ORDER.search(question):
        return LineFact.LIST  # "List every release, oldest first": the line, in that order
    if _BACKWARD.search(question):
        return LineFact.OLDEST  # "Going back in time, where does your coverage stop?"
    if _LATEST.search(question):
        return LineFact.LATEST
    if _OLDEST.search(question):
        return LineFact.OLDEST
    return LineFact.LIST if _WHOLE.search(question) else None


def _unknown_number(question: str, reading: ReleaseReading, declared: list[Version],
                    ) -> str | None:
    """A number the question about the line names without a cue ("Is 1.5.0 a version you
    have?") that is not among the releases: a version asked about (`find_mentions` reads it;
    never a section's "4.2")."""
    if reading.version is not None:
        return None
    return next((m.asked.text for m in find_mentions(question) if m.bare and not m.asked.series
                 and m.asked.version not in declared), None)


def line_answer(question: str, reading: ReleaseReading, lines: list[tuple[str, list[Version]]],
                situation: Situation, lang: Lang, fact: LineFact | None = None,
                tail: str = "", meant: bool = False) -> Answer:
    """The fact asked of each line (`lines`: name, its releases; several products' lines one
    after another); `tail`: said after the fact (where notes hold a release the line lacks);
    `meant`: as `line_text`'s."""
    texts, shown = [], []
    for line, declared in lines:
        text, own = line_text(question, reading, declared, line, lang, fact, meant)
        texts.append(text)
        shown += [str(v) for v in own if str(v) not in shown]
    return assemble.from_metadata(safe_text(" ".join(texts) + tail), situation, releases=shown)


__all__ = ["line_answer", "line_text"]

"""What a question asks for (DESIGN "Questions about change"): what applied at a moment, how two
periods compare, what changed in a family, or which versions it has.

Read by rules first (English and Russian cue phrases, below), the structured-output model second
(`ExtractedSituation.intent`), and validated in code (`validate_extraction`). A comparison needs
two periods in the question and is found apart (`chains.compare`). The cues name the rule's
change, not the asker's: "What changed in the terms?", "When did the return period change?",
«Что изменилось в тарифе Старт?» are about versions; "Can I change the battery?" is not.
"""

from __future__ import annotations

import re

from situated.modes import Mode


class Intent(Mode):
    AT = "at"  # what applied at a moment (or now)
    COMPARE = "compare"  # two periods side by side
    CHANGES = "changes"  # what changed between consecutive versions
    VERSIONS = "versions"  # which versions exist
    SINCE = "since"  # in which version something was added, removed or deprecated


_CHANGES = re.compile(
    r"\bwhat(?:'s|’s|\s+has|\s+have|\s+had)?\s+(?:been\s+)?chang(?:ed|es)\b|"
    r"\bwhat(?:\s+is|\s+was|'s|’s)\s+(?:new|different)\b|"
    r"\bwhat\s+changes\b|\b(?:list|show|summari[sz]e)\s+(?:of\s+|me\s+)?(?:the\s+)?changes\b|"
    r"\bchanges\s+(?:in|to|of|made)\b|\bchangelog\b|\bwhat\s+was\s+(?:added|removed)\b|"
    r"\b(?:has|have|was|were)\b[^.?!]{0,80}\bchanged\b|"
    r"\b(?:when|did|how\s+often)\b[^.?!]{0,80}\bchange\b\s*(?:[?.!]|$|\b(?:in|on|since|from|"
    r"after|between|during|over)\b)|"
    r"что\s+(?:именно\s+)?(?:изменилось|поменялось|нового|было\s+изменено)|"
    r"какие\s+(?:были\s+)?изменени|изменени[яй]\s+(?:в|по)\b|"
    r"(?:когда|как\s+часто)\b[^.?!]{0,80}(?:изменил|поменял)|"
    r"(?:изменил|поменял)(?:ся|ась|ось|ись)\s+ли\b",
    re.IGNORECASE)
_VERSIONS = re.compile(
    r"\b(?:list|show|which|what|all|how\s+many)\b[^.?!]{0,40}\b(?:versions|revisions|editions)\b|"
    r"\bversion\s+history\b|\b(?:versions|revisions)\s+of\b|"
    r"(?:перечисли|покажи|список|какие|сколько|все)\b[^.?!]{0,40}(?:верси[йиях]|редакци[йиях])|"
    r"истори[яюи]\s+(?:версий|редакций)|(?:версии|редакции)\s+(?:тарифа|документа|правил)|"
    # one release asked about as a fact of the line: the latest, the oldest, does X exist
    r"\b(?:what|which)(?:'s|’s|\s+is|\s+was)\s+(?:the\s+)?(?:latest|newest|current|most\s+"
    r"recent|oldest|earliest|first|last)\s+(?:version|release)(?:\s+of\s+[^?.!]{1,60})?\s*"
    r"[?.!]?\s*$|\b(?:does|did)\s+(?:a\s+|the\s+)?(?:version|release)\s+\S+\s+exist\b|"
    r"\bis\s+there\s+(?:a\s+)?(?:version|release)\s+\S+?\s*(?:of\s+[^?.!]{1,60})?[?.!]?\s*$|"
    r"(?:есть|существует)\s+ли\s+(?:верси|релиз)\w*|"
    r"(?:какая|какой)\s+(?:сейчас\s+)?(?:последн|новейш|самая\s+нов|перв|самая\s+стар)\w*"
    r"\s+(?:верси|релиз)\w*",
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
    r"изменил\w*|поменял\w*|верси\w*|редакци\w*|истори\w*|последн\w*|перв\w*|есть|"
    r"существует|релиз\w*|какая|самая|новая|старая)(?!\w)",
    re.IGNORECASE)
# a comparison's cue; it is one only with two periods in the question (`compare.find_comparison`)
_COMPARE = re.compile(
    r"\b(?:compar\w*|differ\w*|versus|vs\.?|changed|changes)\b|"
    r"\b(?:how|what|did|has|have|had|does)\b[^.?!]*\bchange\b|"
    r"сравн\w*|измени(?:лс[яь]|лась|лось|лись|л[аио]?)\b|изменени\w*|разниц\w*|отлича\w*",
    re.IGNORECASE)
_SINCE = re.compile(r"(?:since|from|after|starting|с|со|после|начиная\s+с)\s*$", re.IGNORECASE)


_SINCE_Q = re.compile(
    r"\b(?:which|what)\s+(?:version|release)\b[^?!]{0,100}\b(?:added|introduced|removed|"
    r"deprecated|dropped|appear\w*|first|supported)\b|"
    r"\b(?:since|from)\s+(?:which|what)\s+(?:version|release)\b|"
    r"\bwhen\s+(?:was|were|did)\b[^?!]{0,100}\b(?:added|introduced|removed|deprecated|"
    r"dropped|first\s+appear\w*)\b|"
    r"(?:в|с|начиная\s+с)\s+какой\s+(?:версии|редакции|релиз\w*)|"
    r"когда\b[^?!]{0,100}(?:появил|добавил|удалил|убрал|устарел)\w*",
    re.IGNORECASE)


def find_intent(question: str) -> Intent | None:
    """The intent the question's own words give, or None when they give none (the model's
    proposal may then decide; a question with no cue is about a moment)."""
    if _SINCE_Q.search(question):
        return Intent.SINCE
    if _VERSIONS.search(question):
        return Intent.VERSIONS
    if _CHANGES.search(question):
        return Intent.CHANGES
    return None


def read_cue(question: str, follows: str = "", compared: bool = False) -> Intent | None:
    """The intent the words give, read once per question: a comparison when the question
    names two periods to compare (`compared`, found by `compare.find_comparison`), else the
    question's own cue, else that of the question a reply follows; None when none gives one
    (the model's proposal may then decide)."""
    if compared:
        return Intent.COMPARE
    return find_intent(question) or (find_intent(follows) if follows else None)


# the words any question about change or versions uses, in some form: a model's proposed intent
# stands only where the question says one of them (it is grounded, as a proposed date must be)
_TALKS_OF_VERSIONS = re.compile(
    r"\b(?:chang\w*|new|newer|different|differ\w*|updat\w*|amend\w*|revis\w*|versions?|"
    r"editions?|history|histor\w*|added|removed|replaced|since)\b|"
    r"(?<!\w)(?:измен\w*|помен\w*|нов\w*|обновл\w*|верси\w*|редакци\w*|истори\w*|"
    r"добавл\w*|удал\w*)",
    re.IGNORECASE)


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


__all__ = ["Intent", "compares", "find_intent", "names_nothing", "read_cue", "since_cue",
           "talks_of_versions"]

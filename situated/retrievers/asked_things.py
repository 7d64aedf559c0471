"""The thing a question asks the hours, the price, the age or the sale of, by where it stands in
the question: "What time does the museum open?", "How much does a hearing test cost?", "When
was the harbour built?", "Do you sell car parts?", «Во сколько закрывается почта?», «Сколько
стоит проверка слуха?».

Such a thing is what the question is about, as a name is (`names.unheld_names`): where no block
the caller may read holds any word of it, the documents are about something else, and their
own opening hours or prices do not answer it ("What time does the post office close?" asked of
a pharmacy's leaflet). Only these frames: elsewhere a word the documents lack is often the
asker's word for one they have ("Is my friend allowed to work out with me?" of "Each member may
bring one guest"), and the relevance rule decides. Read from the text alone, never from the
documents."""

from __future__ import annotations

import re

from situated.index.text import STOP_WORDS

# up to four words, the thing; it ends where the frame's verb or the question does
_THING = r"((?:[^\W\d_][\w'’-]*\s+){0,3}?[^\W\d_][\w'’-]*)"
# "your shop", "this place" are the documents' own: no determiner of the one addressed
_A = r"(?:the|a|an|one)\s+"
_END = r"\s*[?.!]?\s*$"
_FRAMES_EN = (
    # its hours: "What time does the museum open?", "What are the opening hours of the zoo?"
    rf"\b(?:what\s+time|when|how\s+late|how\s+early|until\s+when|till\s+when|at\s+what\s+time)"
    rf"\s+(?:does|do|will|did)\s+{_A}{_THING}\s+(?:open|close|shut|start|begin|finish|end|"
    r"leave|depart|arrive)s?\b",
    rf"\b(?:what|when)\s+are\s+the\s+(?:opening|closing|business)\s+(?:hours|times)\s+"
    rf"(?:of|for|at)\s+{_A}{_THING}{_END}",
    # its price: "How much does a hearing test cost?", "What does it cost to hire a sailing
    # boat?", "What's the price of a new kitchen?"
    rf"\bhow\s+much\s+(?:does|do|would|will|did)\s+{_A}{_THING}\s+cost\b",
    rf"\bhow\s+much\s+(?:is|are)\s+{_A}{_THING}{_END}",
    rf"\b(?:how\s+much|what)\s+(?:does|do|would|will)\s+it\s+cost\s+to\s+(?:hire|rent|buy|"
    rf"build|repair|replace|install)\s+{_A}{_THING}{_END}",
    rf"\bwhat(?:'s|’s|\s+is)\s+the\s+(?:price|cost)\s+(?:of|for)\s+{_A}{_THING}{_END}",
    # its age: "When was the harbour built?"
    rf"\bwhen\s+(?:was|were)\s+{_A}{_THING}\s+(?:built|founded|established|constructed)\b",
    # its sale: "Do you sell car parts?", "Where can I buy a bin bag dispenser?"
    rf"\b(?:do|does)\s+you\s+(?:sell|stock)\s+{_THING}{_END}",
    rf"\bwhere\s+can\s+i\s+(?:buy|purchase)\s+(?:(?:the|a|an|some)\s+)?{_THING}{_END}",
)
_RU_THING = r"((?:[а-яё][\w-]*\s+){0,3}?[а-яё][\w-]*)"
_FRAMES_RU = (
    # «Во сколько открывается музей?», «До скольки работает почта?»
    r"(?<!\w)(?:во\s+сколько|когда|до\s+скольки|со\s+скольки|в\s+котором\s+часу)\s+"
    r"(?:открыва\w*|закрыва\w*|отправля\w*|отходит|отплыва\w*|работа(?:ет|ют))\s+" + _RU_THING
    + _END,
    # «Сколько стоит проверка слуха?»
    r"(?<!\w)сколько\s+(?:стоит|стоят|стоила|стоил|стоило|будет\s+стоить)\s+" + _RU_THING
    + _END,
    # «Когда была построена гавань?»
    r"(?<!\w)когда\s+(?:был|была|было|были)\s+(?:построен|основан)\w*\s+" + _RU_THING
    + _END,
    # «Вы продаёте автозапчасти?»
    r"(?<!\w)(?:вы\s+)?прода[её]те\s+" + _RU_THING + _END,
)
_FRAMES = tuple(re.compile(f, re.IGNORECASE) for f in _FRAMES_EN + _FRAMES_RU)
# the thing ends at its first preposition ("a taxi to the airport" is a taxi, "an hour with a
# coach" an hour); words of age, size, worth or place say which one, not what it is ("a new
# kitchen", «ближайшая почта»)
_PREPOSITION = re.compile(
    r"\s(?:with|for|of|to|in|at|on|from|near|by|during|after|before|into|around|"
    r"до|в|во|на|для|с|со|из|у|по|от|к|при|за|о|об|около|рядом)\s.*$", re.IGNORECASE)
_WHICH_ONE = re.compile(
    r"(?:new|old|used|second-hand|secondhand|big|small|large|little|good|best|cheap|cheapest|"
    r"nearest|local|whole|full|average|typical|normal|"
    r"нов\w*|стар\w*|подержанн\w*|больш\w*|маленьк\w*|хорош\w*|лучш\w*|дешёв\w*|дешев\w*|"
    r"ближайш\w*|местн\w*|обычн\w*)", re.IGNORECASE)
# a place of business named by its kind alone ("the shop", "the front desk", «офис») is the
# documents' own more often than another's: "What time does the shop close?" asked of a
# pharmacy asks the pharmacy's hours
_OWN_PLACE = re.compile(
    r"shop|shops|store|stores|office|offices|centre|center|branch|place|site|premises|"
    r"building|venue|clinic|practice|surgery|studio|desk|counter|reception|front|main|door|"
    r"doors|entrance|gate|gates|outlet|location|facility|facilities|service|services|"
    r"магазин\w*|офис\w*|центр\w*|отделени\w*|филиал\w*|клиник\w*|кабинет\w*|приёмн\w*|"
    r"приемн\w*|вход\w*|здани\w*|помещени\w*|касс[аыеу]|стойк\w*|ресепшн|ресепшен",
    re.IGNORECASE)


def asked_things(text: str) -> list[tuple[str, ...]]:
    """The words of each thing the question asks the hours, price, age or sale of (`_FRAMES`),
    its stop words and words of which one left out: ("post", "office") for "What time does the
    post office close?"."""
    out: list[tuple[str, ...]] = []
    for frame in _FRAMES:
        for m in frame.finditer(text):
            thing = _PREPOSITION.sub("", " " + m.group(1)).split()
            words = tuple(w for w in thing if w.lower() not in STOP_WORDS
                          and not _WHICH_ONE.fullmatch(w) and len(w) > 1)
            if words and words not in out and not all(map(_OWN_PLACE.fullmatch, words)):
                out.append(words)
    return out


__all__ = ["asked_things"]

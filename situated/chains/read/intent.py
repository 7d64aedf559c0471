"""What a question asks for (DESIGN "Questions about change"): what applied at a moment, how two
periods compare, what changed in a family, or which versions it has.

Read by rules first (English and Russian cue phrases, below), the structured-output model second
(`ExtractedSituation.intent`), and validated in code (`validate_extraction`). A comparison needs
two periods in the question and is found apart (`chains.read.compare`). The cues name the rule's
change, not the asker's: "What changed in the terms?", "When did the return period change?",
«Что изменилось в тарифе Старт?» are about versions; "Can I change the battery?" is not.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from situated.chains.read.since_cues import HELD_SINCE, LEAST_RELEASE, SINCE_Q
from situated.chains.read.version_words import (
    ASKING_EN,
    ASKING_RU,
    CHANGE_NOUNS,
    LISTING_ORDER,
    NEWEST_WORDS,
    OLDEST_WORDS,
    RU_CHANGE_NOUNS,
    RU_NEWEST_WORDS,
    RU_OLDEST_WORDS,
    RU_RELEASE_NOUNS,
)
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


_CHANGES = re.compile(
    r"\bwhat(?:'s|’s|\s+has|\s+have|\s+had)?\s+(?:been\s+)?chang(?:ed|es)\b|"
    r"\bwhat(?:\s+is|\s+was|'s|’s)\s+(?:new|different)\b|"
    r"\b(?:what|which)\s+(?:changes|modifications|alterations|amendments)\b|"
    r"\b(?:list|show|summari[sz]e)\s+(?:of\s+|me\s+)?(?:the\s+)?changes\b|"
    r"\b(?:list|show|tell\s+me|(?:walk|take|run|talk)\s+(?:me|us)\s+through)\s+what\b"
    r"[^.?!]{0,60}\bchanged\b|"
    r"\b(?:summary|overview|rundown|recap)\s+of\s+(?:the\s+)?(?:changes\b|what\b[^.?!]{0,60}"
    r"\bchanged\b)|"
    # the news of a release, what a release brought ("What did quickq 1.1.0 bring?": the
    # number is read as 0 here); without a release, "bring" is anyone's
    r"\bwhat(?:'s|’s|\s+is|\s+are)\s+(?:the\s+)?news\b|"
    r"\b(?:what|which)\s+updates\b[^.?!]{0,40}\b0\b|"
    # and what it did, or its update did ("What did quickq 1.1.0 fix or add?", "What did the
    # quickq 1.1.0 update do?")
    # … or which of its things it added ("What features did quickq 1.1.0 add?")
    r"\b(?:what|which)\s+(?:[\w-]+\s+){0,2}?(?:did|does|will)\s+(?:[\w.+-]+\s+){0,3}?"
    r"(?:version\s+|release\s+)?0\s+"
    r"(?:bring|introduce|add|fix|change|remove|deprecate|drop|break|improve|"
    r"(?:update|upgrade|release|version|patch)\s+(?:do|contain|include|hold))\b|"
    # a release set beside the one before it ("How does 1.1.0 differ from the version before
    # it?", "… compared with the previous release"): consecutive versions, not two periods
    r"\bdiffer\w*\b[^.?!]{0,40}\b0\b[^.?!]{0,40}\b(?:previous|prior|preceding|earlier|"
    r"(?:version|release|one)\s+before)\b|"
    r"\b0\b[^.?!]{0,40}\b(?:differ\w*|compar\w*|changed?|vs\.?|versus)\b[^.?!]{0,30}"
    r"\b(?:previous|prior|preceding|earlier|(?:version|release|one)\s+before)\b|"
    # "the changelog" or "the release notes" is asked for, not asked what it says about
    # something ("What does the changelog say about zstd?" reads the notes)
    r"\b(?:changelog|release\s+notes)\b"
    r"(?![^.?!]*\b(?:say|says|said|mention|mentions|write|writes|about)\b)|"
    r"\bwhat\s+was\s+(?:added|removed)\b|"
    # everything new in a named release ("List everything new in 1.1.0", «Перечисли всё новое
    # в 1.1.0»)
    r"\b(?:everything|all|anything)\s+(?:that(?:'s|\s+is)\s+)?new\b[^.?!]{0,40}\b0\b|"
    r"(?<!\w)вс[её]\s+нов(?:ое|ого)\b[^.?!]{0,40}(?<![\w.])0(?!\w|\.\d)|"
    # what came with a named release ("What came with 1.1.0?", «Что пришло вместе с 1.1.0?»)
    r"\bwhat\s+came\s+(?:in|with|along\s+with)\b[^.?!]{0,40}\b0\b|"
    r"(?<!\w)что\s+пришл\w*\s+(?:вместе\s+)?(?:с|со)\b[^.?!]{0,40}(?<![\w.])0(?!\w|\.\d)|"
    # what stands out in a named release ("Anything notable in 1.1.0?", «Что примечательного в
    # релизе 1.1.0?»)
    r"\b(?:anything|what(?:'s|’s|\s+is|\s+was)?)\s+(?:notable|noteworthy|remarkable|"
    r"significant|important|major)\b[^.?!]{0,40}\b0\b|"
    r"(?:что|перечисли|покажи|расскажи|назови|опиши)\s+(?:примечательн|значим|важн|главн|"
    r"заметн)\w*[^.?!]{0,40}(?<![\w.])0(?!\w|\.\d)|"
    r"что\s+(?:другого|иного|особенного|(?:от|раз)лича(?:ется|ются|лось|лись))\b[^.?!]{0,40}"
    r"(?<![\w.])0(?!\w|\.\d)|"
    # what a named release does otherwise ("What does 1.1.0 do differently?", «Что 1.1.0 делает
    # по-другому?»)
    r"\bwhat\s+(?:does|did|will)\b[^.?!]{0,40}\b0\b[^.?!]{0,20}\bdifferently\b|"
    r"что\b[^.?!]{0,40}(?<![\w.])0(?!\w|\.\d)[^.?!]{0,30}(?:по-другому|по-иному|иначе)|"
    # a release's changelog entry, what a named release did, a release retold («Какая запись в
    # журнале изменений для 1.1.0?», «Что 1.1.0 добавил или исправил?», «Перескажи 1.1.0»)
    r"журнал\w*\s+изменений|"
    r"что\b[^.?!]{0,30}(?<![\w.])0(?!\w|\.\d)[^.?!]{0,20}(?:добавил|убрал|исправил|удалил|"
    r"поменял|изменил|обновил|улучшил|принес|принёс|привнес|привнёс|ввел|ввёл|сломал)\w*|"
    r"(?:перескаж|резюмир|подытож|обобщ)\w*[^.?!]{0,40}(?<![\w.])0(?!\w|\.\d)|"
    # a release described ("Describe the 1.1.0 release", «Кратко опиши релиз 1.1.0»): with
    # the release word, not a thing of it ("Describe the 1.1.0 worker" asks the text); «Описан
    # ли релиз 1.1.0?» asks whether it is there
    r"\bdescribe\b[^.?!]{0,30}\brelease\b[^.?!]{0,20}\b0\b|"
    r"\bdescribe\b[^.?!]{0,30}\b0\b\s+release\b|"
    # … or told of as an update ("Tell me about the quickq 1.1.0 update"; "Tell me about the
    # 1.1.0 worker" asks the text)
    r"\b(?:about|describe|explain|summari[sz]e)\s+(?:the\s+|this\s+)?(?:[\w.+-]+\s+)?0\s+"
    r"(?:update|upgrade|release)\b|"
    rf"(?<!\w)(?:опиши|опишите|описать)\s+(?:\S+\s+){{0,2}}?(?:{RU_RELEASE_NOUNS})[^.?!]{{0,20}}"
    r"(?<![\w.])0(?!\w|\.\d)|"
    # what a named release is about («О чём релиз 1.1.0?», "What's 1.1.0 about?")
    r"(?<!\w)о\s+ч[её]м\b[^.?!]{0,40}(?<![\w.])0(?!\w|\.\d)|"
    # a named release taken apart ("Break down the 1.1.0 release", «Разбери релиз 1.1.0»): the
    # release is what is taken apart ("How do I break down a big task in 1.1.0?" asks the text)
    r"\bbreak\s+down\s+(?:for\s+me\s+|me\s+)?(?:the\s+|what\s+)?(?:[\w.+-]+\s+)?"
    r"(?:version\s+|release\s+|update\s+)?0\b|"
    rf"(?<!\w)(?:разбер|разлож)\w*\s+(?:\S+\s+){{0,2}}?(?:{RU_RELEASE_NOUNS})\s+"
    r"(?:[\w.+-]+\s+)?(?<![\w.])0(?!\w|\.\d)|"
    rf"(?<!\w)(?:разбер|разлож)\w*\s+(?:мне\s+)?(?:[\w.+-]+\s+)?"
    rf"(?:(?:{RU_RELEASE_NOUNS})\s+)?(?<![\w.])0(?!\w|\.\d)|"
    # what a release fixed, named ("What was fixed in 1.1.0?"; "What was fixed in the
    # contract?" asks the text)
    r"\bwhat(?:'s|’s|\s+was|\s+were|\s+got|\s+has\s+been|\s+have\s+been|(?:'s|’s)\s+been)\s+"
    r"(?:fixed|deprecated|improved|dropped|"
    r"introduced|added|removed|"
    # … or reworked, as a verb of making over ("What was reworked in 1.1.0?")
    r"reworked|revamped|overhauled|redesigned|refactored|rewritten|tweaked|redone)"
    r"\b[^.?!]{0,40}\b0\b|"
    # "What was updated in …", "Which things changed with …" (no modal: "can be changed" is
    # about what the text allows)
    r"\b(?:what|which)(?:\s+(?:things?|parts?|items?|sections?|features?|functions?|options?|"
    r"settings?|methods?|commands?|apis?))?\s+"
    r"(?:(?:was|were|got|has\s+been|have\s+been)\s+)?(?:changed|updated|modified|altered|"
    r"revised)\b|"
    r"\b(?:has|have|was|were)\b[^.?!]{0,80}\bchanged\b|"
    # a named release that changed ("Is it true that 1.1.0 changed a lot?")
    r"\b0\s+(?:really\s+)?changed\b|"
    r"\b(?:when|did|how\s+often)\b[^.?!]{0,80}\bchange\b\s*(?:[?.!]|$|\b(?:in|on|since|from|"
    r"after|between|during|over)\b)|"
    r"что\s+(?:именно\s+)?(?:изменилось|поменялось|нового|было\s+изменено)|"
    # which of its parts changed («Какие функции изменились в quickq 1.1.0?": "Which features
    # changed …?")
    r"(?<!\w)какие\s+(?:\w+\s+){0,2}?(?:изменились|поменялись|обновились)(?!\w)|"
    # what a release added or brought, named («Что добавили в quickq 1.1.0?», «Что принесла
    # версия 1.1.0?»): the verbs of the English "What did 1.1.0 bring / introduce / …?"
    # («Какие функции добавила версия 1.1.0?»: "Which features did 1.1.0 add?")
    # (and what was made over: «Что переделали в 1.1.0?», "What was reworked?")
    r"(?:что|как(?:ие|ую|ой|ое)(?:\s+\w+){0,2}?)\s+(?:добавил\w*|убрал\w*|переделал\w*|"
    r"переработал\w*|доработал\w*|переписал\w*|исправил\w*|удалил\w*|поменял\w*|"
    r"изменил\w*|обновил\w*|"
    r"улучшил\w*|принес\w*|принёс|привнес\w*|привнёс|ввел\w*|ввёл|представил\w*|сломал\w*)"
    r"[^.?!]{0,40}\b0\b|"
    r"какие\s+(?:были\s+)?изменени|нововведени\w*|новшеств\w*|список\s+изменений|"
    r"примечани\w*\s+к\s+(?:выпуск|релиз|верси)\w*|заметк\w*\s+(?:о|к)\s+(?:выпуск|релиз)\w*|"
    # the nouns of what a release changed, beside a release number («Какие улучшения в 1.1.0?»,
    # "Any improvements in 1.1.0?", "1.1.0's highlights")
    rf"(?<!\w)(?:{RU_CHANGE_NOUNS})[^.?!]{{0,40}}(?<![\w.])0(?!\w|\.\d)|"
    rf"\b(?:{CHANGE_NOUNS})\b[^.?!]{{0,40}}\b0\b|\b0\b[^.?!]{{0,20}}\b(?:{CHANGE_NOUNS})\b|"
    # what was fixed or added in a named release («Что было исправлено в quickq 1.1.0?»)
    r"что\s+(?:было\s+|были\s+)?(?:исправлен|добавлен|удал[её]н|убран|улучшен|переделан|"
    r"переработан|доработан|переписан)\w*"
    r"[^.?!]{0,40}(?<![\w.])0(?!\w|\.\d)|"
    # which things were changed («Какие вещи были изменены в 1.1.0?": "Which things were
    # modified in 1.1.0?")
    r"(?<!\w)как(?:ие|ая|ой|ое)\s+(?:\w+\s+){0,2}?(?:был[иао]?\s+)?(?:изменен|исправлен|"
    r"добавлен|удал[её]н|обновл[её]н)\w*[^.?!]{0,40}(?<![\w.])0(?!\w|\.\d)|"
    r"(?:расскажи|покажи|перечисли|опиши|излож\w*)\s+(?:(?:об?|про)\s+)?изменени\w*|"
    # a summary of the changes, what to know of them («Дай краткую сводку изменений 1.1.0»,
    # «Я обновился до 1.1.0, что мне нужно знать об изменениях?»)
    r"(?:сводк\w*|обзор\w*|резюме|перечень|выжимк\w*)\s+(?:\w+\s+)?изменени\w*|"
    r"(?:знать|узнать|сказать|рассказать)\s+(?:об?|про)\s+изменени\w*|"
    # what will differ after upgrading to a release («Если я обновлюсь до 1.1.0, что будет
    # по-другому?», "If I upgrade to 1.1.0, what will be different?")
    # ("If I upgrade to 1.1.0, will the new retry policy apply?" asks of one thing)
    r"(?:обнов|перей|переход)\w*\s+(?:до|на)\s+(?:[\w.+-]+\s+)?(?<![\w.])0(?!\w|\.\d)"
    r"[^.?!]{0,20}(?<!\w)что(?!\w)[^.?!]{0,30}(?:по-другому|по-иному|иначе|изменит\w*|нового|"
    r"отлича\w*)|"
    r"\b(?:upgrade|update|move|switch|go)\s+to\s+(?:[\w.+-]+\s+)?0\b[^.?!]{0,20}\bwhat\b"
    r"[^.?!]{0,30}\b(?:different|differ|change|changes|changed|new)\b|"
    # walked through the changes («Проведи меня по изменениям 1.1.0»: "Walk me through …")
    r"(?:проведи|проведите|пройди\w*|пробеги\w*)\s+(?:меня\s+|нас\s+)?по\s+изменени\w*|"
    r"(?:когда|как\s+часто)\b[^.?!]{0,80}(?:изменил|поменял)|"
    r"(?:изменил|поменял)(?:ся|ась|ось|ись)\s+ли\b|"
    # how a named release differs, from nothing named or from the one before it («Чем
    # отличается quickq 1.1.0?», «… от предыдущей версии?»); from another thing it compares
    r"(?<!\w)чем\s+(?:[^.?!\s]+\s+){0,3}?отлича\w*\s+(?:[^.?!\s]+\s+){0,3}?0\s*[?.!]?\s*$|"
    r"(?<!\w)чем\b[^.?!]{0,40}(?<![\w.])0(?!\w|\.\d)[^.?!]{0,20}отлича\w*"
    r"(?:\s*[?.!]?\s*$|\s+от\s+(?:(?:предыдущ|прошл|прежн|предшеств)\w*|"
    # … or from the one before it («от релиза перед ним»)
    rf"(?:{RU_RELEASE_NOUNS})\s+(?:перед|до)\s+(?:ним|ней|него|неё|нее)))",
    re.IGNORECASE)
# "changes to the policy" asks what changed, unless the changes are what someone makes or
# announces ("Will they inform me if they make changes to the policy?", "Can I make changes in
# my account?": a question about what the text says of changes)
_CHANGES_OF = re.compile(r"\bchanges\s+(?:in|to|of|made)\b|изменени[яй]\s+(?:в|по)\b",
                         re.IGNORECASE)
_MAKING_CHANGES = re.compile(
    r"\b(?:make|makes|made|making|notify|notifies|notified|inform|informs|informed|tell|tells|"
    r"announce|announces|announced|post|posts|posted|publish|publishes|published|request|"
    r"requests|submit|submits|apply|applies|allowed\s+to)\b(?:\W+\w+){0,5}?\W+changes\b|"
    r"(?:внос|внес|внёс|уведом|сообщ|публику|опубликову)\w*(?:\W+\w+){0,3}?\W+изменени",
    re.IGNORECASE)
# a question that names change and asks something else: the value a thing was changed to ("To
# what gauge have some lines been changed?"), what changes need, or how changes are told ("What
# changes … are being informed to the users?"): what the text says, not a version history
_NOT_A_CHANGE = re.compile(
    r"^\W*(?:to|into)\s+(?:what|which)\b|"
    # what changes need or allow ("Which changes require a referendum?", «Какие изменения в
    # конституции требуют особой процедуры?»): what the text says of changes
    r"\b(?:what|which)\s+(?:\w+\s+){0,2}changes\b[^.?!]{0,60}\b(?:require|requires|need|needs|"
    r"must|can|may|should|are\s+(?:allowed|permitted|possible))\b|"
    r"(?<!\w)какие\s+изменени\w*[^.?!]{0,60}(?:требу|нужн|необходим|должн|могут|можно|"
    r"допуска|разреш)|"
    r"\bchanges\b[^.?!]{0,60}\b(?:be|being|is|are)\s+(?:informed|notified|communicated)\b",
    re.IGNORECASE)
_VERSIONS = re.compile(
    r"\b(?:list|show|which|what|all|how\s+many)\b[^.?!]{0,40}\b(?:versions|revisions|editions)\b|"
    r"\bversion\s+history\b|\b(?:versions|revisions)\s+of\b|"
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
    if not _NOT_A_CHANGE.search(question) and (
            _CHANGES.search(question) or (_CHANGES_OF.search(question)
                                          and not _MAKING_CHANGES.search(question))):
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


__all__ = ["Intent", "LineFact", "about_the_line", "compares", "find_intent",
           "names_a_document", "names_nothing", "read_cue", "since_cue", "talks_of_versions"]

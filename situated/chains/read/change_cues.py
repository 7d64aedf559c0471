"""The cues of a question about what changed (`chains.read.intent` reads them): what a release,
a family or a named thing changed ("What changed in quickq 1.1.0?", «Что изменилось в тарифе
Старт?», "What was reworked in 1.1.0?"), and what is not such a question though it names
changes ("Which changes require a referendum?", "Can I change the battery?"). The nouns of what a
release changed are written once (`version_words.CHANGE_NOUNS`, `RU_CHANGE_NOUNS`)."""

from __future__ import annotations

import re

from situated.chains.read.version_words import CHANGE_NOUNS, RU_CHANGE_NOUNS, RU_RELEASE_NOUNS

CHANGES = re.compile(
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
    # what a release has that was not there before, what it changes («Что есть в 1.1.0, чего
    # не было раньше?», "What's in 1.1.0 that wasn't there before?", «Что меняет релиз 1.1.0?»)
    r"(?<![\w.])0(?!\w|\.\d)[^.?!]{0,20}(?<!\w)чего\s+не\s+было\s+(?:раньше|прежде|до)|"
    r"\b0\b[^.?!]{0,30}\b(?:that|which)\s+(?:wasn['’]?t|was\s+not|weren['’]?t|were\s+not)\s+"
    r"(?:there|in)\b[^.?!]{0,20}\b(?:before|earlier)\b|"
    # the new things a named release gives ("What new things does 1.1.0 put at my disposal?",
    # «Какие новые вещи 1.1.0 даёт?»)
    r"\b(?:what|which)\s+new\s+(?:things?|features?|stuff|options?|capabilities)\b[^.?!]{0,30}"
    r"\b0\b|"
    r"(?<!\w)как(?:ие|ая|ое)\s+нов\w+\s+(?:вещи|функци\w*|возможност\w*|штуки)(?!\w)"
    r"[^.?!]{0,30}(?<![\w.])0(?!\w|\.\d)|"
    rf"(?<!\w)что\s+(?:меня|изменя)(?:ет|ют)\s+(?:(?:{RU_RELEASE_NOUNS})\s+)?(?:[\w.+-]+\s+)?"
    r"(?<![\w.])0(?!\w|\.\d)|"
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
CHANGES_OF = re.compile(r"\bchanges\s+(?:in|to|of|made)\b|изменени[яй]\s+(?:в|по)\b",
                         re.IGNORECASE)
MAKING_CHANGES = re.compile(
    r"\b(?:make|makes|made|making|notify|notifies|notified|inform|informs|informed|tell|tells|"
    r"announce|announces|announced|post|posts|posted|publish|publishes|published|request|"
    r"requests|submit|submits|apply|applies|allowed\s+to)\b(?:\W+\w+){0,5}?\W+changes\b|"
    r"(?:внос|внес|внёс|уведом|сообщ|публику|опубликову)\w*(?:\W+\w+){0,3}?\W+изменени",
    re.IGNORECASE)
# a question that names change and asks something else: the value a thing was changed to ("To
# what gauge have some lines been changed?"), what changes need, or how changes are told ("What
# changes … are being informed to the users?"): what the text says, not a version history
NOT_A_CHANGE = re.compile(
    r"^\W*(?:to|into)\s+(?:what|which)\b|"
    # what changes need or allow ("Which changes require a referendum?", «Какие изменения в
    # конституции требуют особой процедуры?»): what the text says of changes
    r"\b(?:what|which)\s+(?:\w+\s+){0,2}changes\b[^.?!]{0,60}\b(?:require|requires|need|needs|"
    r"must|can|may|should|are\s+(?:allowed|permitted|possible))\b|"
    r"(?<!\w)какие\s+изменени\w*[^.?!]{0,60}(?:требу|нужн|необходим|должн|могут|можно|"
    r"допуска|разреш)|"
    r"\bchanges\b[^.?!]{0,60}\b(?:be|being|is|are)\s+(?:informed|notified|communicated)\b",
    re.IGNORECASE)


__all__ = ["CHANGES", "CHANGES_OF", "MAKING_CHANGES", "NOT_A_CHANGE"]

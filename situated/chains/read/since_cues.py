"""The cues of a first-appearance question (`chains.read.intent` reads them): in which release
something was added, removed or deprecated ("Since which version can I schedule tasks?",
«В каком выпуске впервые появился X?»), and the least release that has a thing ("What's the
minimum quickq version I need for X?"). Russian release nouns are written once
(`version_words.RU_RELEASE_NOUNS`)."""

from __future__ import annotations

import re

from situated.chains.read.version_words import RU_RELEASE_NOUNS

# a first appearance in words of the stage ("did X make its debut"): a first-appearance cue,
# and a frame the subject is read without (`subject.subject_of`)
DEBUT_WORDS = (r"debut(?:ed|s)?|"
               # made or found its way in ("In what version did X make its way in?")
               r"(?:ma(?:ke|de|kes)|f(?:ind|ound|inds))\s+(?:its|their)\s+way(?:\s+in(?:to)?)?|"
               r"ma(?:ke|de|kes)\s+(?:its|their|a|an)\s+"
               r"(?:debut|first\s+appearance|appearance|entrance)")
# the verbs of offering a thing, begun: "start supporting", "began shipping", "start to offer"
_OFFERING = (r"supporting|offering|providing|shipping|including|having|carrying|bundling|"
             r"to\s+(?:support|offer|provide|ship|include|have|carry|bundle)")
# the verbs of something arriving in a release: "added", "did X arrive", "did it land"
_ARRIVES = (r"added|introduced|removed|deprecated|dropped|appear\w*|first|supported|arrived?|"
            # … in the present ("Which starlette release adds the lifespan argument?")
            r"adds|introduces|removes|deprecates|drops|"
            rf"(?:start|started|begin|began)\s+(?:{_OFFERING})|"
            r"land(?:ed)?|ship(?:ped)?|came|come|get|got|gain(?:ed)?|become\s+available|"
            r"became\s+available|show\s+up|showed\s+up|turn(?:ed)?\s+up|"
            r"(?:become|became)\s+(?:a\s+)?part\s+of|"
            # became a thing, a reality ("At which version did X become a thing?")
            r"(?:become|became|becomes)\s+(?:a\s+)?(?:thing|reality|real|possible)|"
            r"pick(?:ed|s)?\s+up|"
            # put at the asker's disposal ("Which version put X at my disposal?")
            r"put\s+[^?!]{1,60}?\s+at\s+(?:my|our|your|the\s+user['’]?s?)\s+disposal|"
            + DEBUT_WORDS)
# with a version or release word beside them, wider verbs say it too ("Which release brought
# X?"); alone they are history ("When was the stock exchange brought back to life?")
_ARRIVES_IN_RELEASE = (_ARRIVES + r"|brought|enabled|unlocked|rolled\s+out|"
                       r"(?:made|makes)\s+[^?!]{1,60}?\s+(?:possible|available|accessible)|"
                       rf"(?:starts|begins)\s+(?:{_OFFERING})|"
                       # new in a release, the preposition stranded ("Which version was X new
                       # in?")
                       r"new(?=\s+(?:in|with)\s*[?.!]?\s*$)")
# the least release that has something, the product's name taken away ("What's the minimum
# quickq version that has scheduled tasks?", "… for zstd decoding?"); with another name
# between, it asks what that needs ("What's the minimum Python version that quickq needs?":
# content)
LEAST_RELEASE = re.compile(r"\b(?:minimum|lowest|least|earliest)\s+(?:version|release)\s+"
                            r"(?:that|which|with|where|for|to\s+(?:use|get|have))\b|"
                            r"\b(?:minimum|lowest|least|earliest)\s+(?:version|release)\s+"
                            r"(?:do\s+|would\s+|will\s+)?(?:i|we|you|one)\s+(?:need|require)\b|"
                            # the release one needs for a thing ("What version do I need for
                            # zstd decoding?")
                            r"\b(?:which|what)\s+(?:version|release)\s+(?:do|would|will|does)\s+"
                            r"(?:i|we|you|one)\s+(?:need|require)\s+(?:at\s+least\s+|as\s+a\s+"
                            r"minimum\s+)?(?:for|to)\b|"
                            # … in Russian, with no name between («Какая версия нужна мне как
                            # минимум, чтобы …?»; «Какая версия Python нужна для quickq?» is
                            # content)
                            rf"(?<!\w)как(?:ая|ой|ую)\s+(?:{RU_RELEASE_NOUNS})\s+"
                            r"(?:нужн|требу|необходим)\w*(?:\s+(?:мне|нам))?(?:\s+как\s+минимум|"
                            r"\s+минимум)?,?\s+(?:для|чтобы)(?!\w)|"
                            # … the one to be on for it ("What version do I have to be on to
                            # get X?", «На какой версии нужно быть, чтобы получить X?»)
                            r"\b(?:which|what)\s+(?:version|release)\s+(?:of\s+[\w.+-]+\s+)?"
                            r"(?:do|would|will|does|must|should)\s+(?:i|we|you|one)\s+"
                            r"(?:have\s+to|need\s+to|got\s+to)\s+(?:be\s+on|run|use)\s+"
                            r"(?:for|to)\b|"
                            rf"(?<!\w)(?:на|с)\s+как(?:ой|ом)\s+(?:{RU_RELEASE_NOUNS})"
                            r"[^?!]{0,40}(?<!\w)(?:нужно|надо|необходимо)\s+(?:быть|сидеть|"
                            r"работать)[^?!]{0,10}(?:чтобы|для)(?!\w)|"
                            # the earliest of the product's own line that has a thing, its name
                            # taken away ("What's the earliest quickq that supports X?", «Какой
                            # самый ранний quickq с поддержкой X?»)
                            r"\b(?:first|earliest|oldest|lowest|minimum)\s+(?:that|which)\s+"
                            r"(?:supports?|has|have|includes?|offers?|provides?|contains?)\b|"
                            r"(?<!\w)сам\w*\s+(?:ранн|перв|стар)\w*\s+(?:с|со)\s+поддержк|"
                            # … the earliest one can use a thing with ("What's the earliest
                            # quickq I can use X with?", «С какой самой ранней quickq можно
                            # использовать X?»)
                            r"\b(?:first|earliest|oldest|lowest|minimum)\s+(?:(?:that|which)\s+)?"
                            r"(?:i|we|you|one)\s+(?:can|could|may)\s+(?:use|run|get|have)\b|"
                            r"(?<!\w)с\s+как(?:ой|ого)\s+(?:сам\w*\s+)?(?:ранн|перв|стар|"
                            r"минимальн)\w*\s+(?:(?:" + RU_RELEASE_NOUNS + r")\s+)?(?:можно|могу|"
                            r"можем|сможу|сможем)\s+(?:использовать|пользоваться|применять|"
                            r"запустить|получить)(?!\w)|"
                            # the least release needed for a thing, the name taken away
                            # («Какая минимальная версия нужна для X?»: "What's the minimum
                            # version I need for X?")
                            # the release to upgrade to for a thing («До какой версии мне
                            # обновиться, чтобы получить X?»: "Which version would I need to
                            # upgrade to for X?")
                            r"(?<!\w)(?:до|на)\s+как(?:ой|ую)\s+(?:" + RU_RELEASE_NOUNS + r")"
                            r"[^?!]{0,40}(?<!\w)(?:обнов|перей|перейти|апгрейд)\w*[^?!]{0,20}"
                            r"(?:чтобы|для)(?!\w)|"
                            r"(?<!\w)(?:минимальн|наименьш)\w*\s+(?:" + RU_RELEASE_NOUNS + r")\s+"
                            r"(?:(?:нужн\w*|требу\w*|необходим\w*)\s+)?(?:для|чтобы)(?!\w)",
                            re.IGNORECASE)
# how long the product has had a thing, read with the product's name taken away, where it
# stood: its subject ("How long has quickq had X?", «Как давно quickq поддерживает X?») or
# what a thing goes back in ("How far back does X go in quickq?", «Как давно X есть в
# quickq?»); without the name they are content ("How far back does the audit log go?")
HELD_SINCE = re.compile(
    r"\bhow\s+(?:long|far\s+back)\s+(?:has|have|did|does|do)\s+(?:had|supported|offered|"
    r"included|provided|shipped|carried)\b|"
    r"\bhow\s+(?:far\s+back|long)\b[^?!.]{1,80}\b(?:go|goes|went|existed|exists?|been\s+"
    r"(?:around|available|supported|there|included))\s+(?:in|with)\s*[?.!]?\s*$|"
    r"(?<!\w)как\s+давно\s+(?:поддерживает|предлагает|умеет|имеет|включает|есть)(?!\w)|"
    # … or with the product's place before the verb («Как давно в quickq есть X?»)
    r"(?<!\w)как\s+давно\s+(?:в|во|у)\s+(?:есть|существует|доступ\w*|поддерживает\w*)(?!\w)|"
    r"(?<!\w)как\s+давно\b[^?!.]{1,80}(?<!\w)(?:есть|существует|доступ\w*|поддерживает\w*|"
    r"работает)\s+(?:в|во|у)\s*[?.!]?\s*$|"
    # when the product got a thing, its name taken away where it stood («Когда quickq получил
    # X?»; «Когда Тесла получил патент?» names no product of the index: history)
    r"(?<!\w)когда\s+(?:впервые\s+|же\s+)?получил\w*(?!\w)",
    re.IGNORECASE)
SINCE_Q = re.compile(
    # up to three names between the question word and "version": "what Node.js version"
    rf"\b(?:which|what)\s+(?:[\w.+-]+\s+){{0,3}}(?:version|release|build|update)\b[^?!]{{0,100}}"
    rf"\b(?:{_ARRIVES_IN_RELEASE})\b|"
    # the releases that have something ("Which httpx versions support Python 3.12?"): from
    # the first that has it on; the verb right after the word ("What does version 1.1.0 have
    # for proxies?" asks of one release)
    r"\b(?:which|what)\s+(?:[\w.+-]+\s+){0,3}(?:versions?|releases?)\s+(?:of\s+[\w.+-]+\s+)?"
    r"(?:supports?|has|have|includes?|offers?|contains?|provides?)\b|"
    r"\b(?:since|from|as\s+of|starting\s+(?:with|from))\s+(?:which|what)\s+"
    r"(?:[\w.+-]+\s+){0,3}(?:version|release)\b|\bsince\s+when\b|"
    r"\bfrom\s+what\s+release\s+on\b|(?<!\w)с\s+каких\s+пор(?!\w)|"
    # how many releases ago a thing arrived ("How long ago, in quickq versions, did X turn up?",
    # «Сколько версий назад в quickq появился X?»)
    rf"\bhow\s+(?:long|many\s+(?:versions|releases|builds))\s+ago\b[^?!]{{0,100}}"
    rf"\b(?:{_ARRIVES})\b|"
    rf"(?<!\w)сколько\s+(?:{RU_RELEASE_NOUNS})\s+назад(?!\w)|"
    # the release as the one that did it ("In which version did quickq add X?", "Which release
    # gave us X?"); "Which version should I add to my requirements?" is the asker's doing
    r"\b(?:in|with)\s+(?:which|what)\s+(?:[\w.+-]+\s+){0,3}(?:version|release)\s+did\b[^?!]{0,60}"
    r"\b(?:add|introduce|ship|gain|get|drop|remove|deprecate|pick\s+up|acquire)\b|"
    r"\b(?:version|release)\s+(?:of\s+[\w.+-]+\s+)?(?:gave|gives)\s+(?:us|you|users)\b|"
    # the release in which a thing arrived ("Tell me the release in which X was introduced",
    # «Назови релиз, в котором был представлен X»)
    rf"\b(?:version|release)\s+(?:in\s+which|where)\b[^?!]{{0,80}}\b(?:{_ARRIVES})\b|"
    # … or that did it ("Find the quickq release that introduced X", «Найди релиз quickq,
    # который ввёл X»)
    rf"\b(?:version|release)\s+(?:of\s+[\w.+-]+\s+)?(?:that|which)\s+(?:first\s+)?"
    rf"(?:{_ARRIVES_IN_RELEASE})\b|"
    rf"(?:{RU_RELEASE_NOUNS})(?:\s+[\w.+-]+)?,?\s+(?:котор(?:ый|ая|ое)|что)\s+(?:впервые\s+)?"
    r"(?:добавил|принес|принёс|принесл|привнес|привнёс|ввел|ввёл|ввела|представил|включил|"
    r"притащил)\w*|"
    # arrived only in a later release, which ("Is it true that X only arrived in a later
    # version? Which one?", «Правда, что X пришёл только в одной из поздних версий?»)
    rf"\b(?:{_ARRIVES})\s+(?:only\s+)?in\s+(?:a|an|one\s+of\s+the)\s+(?:later|newer|"
    r"subsequent|more\s+recent)\s+(?:[\w.+-]+\s+)?(?:version|release)s?\b|"
    r"(?<!\w)(?:пришл|пришёл|пришел|появил|добав)\w*\s+(?:только\s+)?в\s+(?:одн\w+\s+из\s+)?"
    rf"(?:поздн|нов|следующ)\w*\s+(?:[\w.+-]+\s+)?(?:{RU_RELEASE_NOUNS})|"
    rf"(?:{RU_RELEASE_NOUNS})[^?!]{{0,30}}(?<!\w)в\s+котор\w+[^?!]{{0,60}}(?<!\w)(?:появил|добав|"
    r"представлен|введ[её]н|впервые)\w*|"
    r"\b(?:first|earliest|oldest|lowest)\s+(?:[\w.+-]+\s+){0,2}(?:version|release|build)\s+"
    # … or with a participle of having ("the earliest release supporting X")
    r"(?:of\s+(?:[\w.+-]+\s+)?)?(?:that|which|to|with|where|in\s+which|supporting|having|"
    r"including|offering|providing|containing|shipping|carrying)\b|"
    rf"\bwhen\s+(?:exactly\s+|precisely\s+)?(?:was|were|did)\b[^?!]{{0,100}}\b(?:{_ARRIVES})\b|"
    # on which release a thing appeared («На какой версии появился X?»), with a verb of arriving
    rf"(?<!\w)на\s+как(?:ой|ом)\s+(?:{RU_RELEASE_NOUNS})(?=[^?!]{{0,60}}(?<!\w)(?:впервые|"
    r"появил|добав|стал\w*\s+(?:реальност|доступн|возможн|частью)))|"
    r"(?:в|с|со|начиная\s+с)\s+(?:какой|какого|каком)\s+(?:(?:минимальн|наименьш|ранн|"
    r"перв)\w*\s+)?(?:версии|редакции|релиз\w*|"
    # «выпуск» is also a magazine's issue: with a verb of arriving only
    r"выпуск\w*(?=[^?!]{0,60}(?<!\w)(?:впервые|появил|добав|доступ|поддерж)))|"
    # a release that added or brought a thing («Какой релиз quickq принёс X?»)
    rf"(?<!\w)(?:какая|какой|какое|какие|каком|какую|каким\s+был[аио]?|какой\s+был[аио]?)\s+"
    rf"(?:{RU_RELEASE_NOUNS}|обновлени\w*)\s+"
    r"(?:\S+\s+){0,3}?(?:добавил\w*|принес\w*|принёс|принесл\w*|привнес\w*|привнёс|ввел\w*|"
    r"ввёл|представил\w*|предоставил\w*|сделал\w*\s+(?:\S+\s+){0,4}?доступн\w*|обзав[её]л\w*|"
    r"обзавелась|обзавёлся)|"
    rf"(?:{RU_RELEASE_NOUNS})[^?!]{{0,40}}(?<!\w)впервые\s+"
    r"(?:поддерж|получ|добав|появ|вв[её]|предлож|име)\w*|"
    # … first got it, or came out with it first («Какая версия quickq первой вышла с X?»)
    rf"(?:{RU_RELEASE_NOUNS})[^?!]{{0,40}}(?<!\w)перв\w+\s+"
    r"(?:получил|добавил|поддержал|ввел|ввёл|представил|включил|выпустил|предложил|принес|"
    r"принёс|пришёл|пришел|пришл|стал|вышл|вышел|вышла|вышли|упомянул|упомина|дал|дала)\w*|"
    # the release to thank for a thing («Какому релизу quickq мы обязаны X?», "Which release
    # do I thank for X?"), and when it came, said by version ("When, version-wise, did quickq
    # pick up X?")
    rf"(?<!\w)как(?:ому|ой)\s+(?:{RU_RELEASE_NOUNS})[^?!]{{0,30}}(?<!\w)обязан\w*|"
    r"\b(?:which|what)\s+(?:[\w.+-]+\s+){0,3}(?:version|release)\s+(?:do|should|can|must)\s+"
    r"(?:i|we)\s+(?:thank|credit)\s+for\b|"
    r"\bwhen\s*,?\s+version-?wise\b|"
    r"когда\b[^?!]{0,100}(?:появил|добавил|удалил|убрал|устарел|обзав[её]л)\w*|"
    # began to support or to have («Когда quickq начал поддерживать X?»)
    r"когда\b[^?!]{0,100}(?<!\w)(?:начал|стал)\w*\s+(?:поддерживать|предлагать|"
    r"предоставлять|поставлять|включать|содержать|давать|уметь|иметь|частью|доступ\w*)(?!\w)|"
    # some release added it, the verb first («… или его добавила какая-то версия?»; «Какие
    # функции добавила версия 1.1.0?» names no «какая» and asks of the changes)
    r"(?<!\w)(?:добавил|принес|принёс|принесл|ввел|ввёл|ввела|представил)\w*\s+"
    rf"как(?:ая|ой|ое)(?:-(?:то|нибудь|либо))?\s+(?:{RU_RELEASE_NOUNS})|"
    # there from the first day, or added later ("Was X in quickq from day one, or added
    # later?", «X был в quickq с первого дня или его добавили позже?»)
    r"\b(?:from|since)\s+(?:day\s+one|the\s+(?:very\s+)?(?:start|beginning|outset|first\s+"
    r"(?:day|version|release)))\b[^?!]{0,40}\bor\b[^?!]{0,30}\b(?:added|introduced|came|"
    r"arrived|shipped)\b|"
    r"(?<!\w)с\s+(?:самого\s+)?(?:первого\s+дня|начала|первой\s+версии|первого\s+релиза)"
    r"[^?!]{0,30}(?<!\w)или(?!\w)[^?!]{0,40}(?<!\w)(?:добавил|появил|ввел|ввёл|пришл|пришёл|"
    r"представил)\w*|"
    # a release that began to offer it («Какая версия quickq начала предлагать X?»)
    rf"(?:{RU_RELEASE_NOUNS})[^?!]{{0,40}}(?<!\w)(?:начал|стал)\w*\s+(?:поддерживать|"
    r"предлагать|предоставлять|поставлять|включать|содержать|давать|уметь|иметь)(?!\w)|"
    # the release a thing came with («С какой версией quickq пришёл X?»)
    r"(?<!\w)(?:с|со)\s+как(?:ой|им)\s+(?:версией|релизом|выпуском|сборкой)(?=[^?!]{0,60}"
    r"(?<!\w)(?:пришл|пришёл|пришел|вышл|вышел|вышла|появил|добав|стал\w*\s+доступ))|"
    # the earliest release with a thing («Какой самый ранний релиз quickq с X?»)
    # («Какая наименьшая версия quickq с X?»: the English "the lowest version with X")
    rf"(?<!\w)(?:сам\w*\s+)?(?:ранн|перв|стар|наименьш|минимальн)\w*\s+(?:{RU_RELEASE_NOUNS})\s+"
    r"(?:\S+\s+)?(?:с|со)\s+\w|"
    # the first or earliest release in which a thing is («Какая первая версия, в которой есть
    # X?», «самая ранняя версия, где есть X»)
    rf"(?<!\w)(?:перв|ранн|стар)\w*\s+(?:{RU_RELEASE_NOUNS})[^?!]{{0,60}}(?:в\s+котор\w+|где)\s+"
    r"(?:(?:это|он|она|оно|они)\s+)?"
    r"(?:есть|появил\w*|поддерж\w*|доступ\w*|работа\w*)",
    re.IGNORECASE)


__all__ = ["DEBUT_WORDS", "HELD_SINCE", "LEAST_RELEASE", "SINCE_Q"]

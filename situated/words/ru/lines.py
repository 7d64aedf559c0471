"""The Russian words of how a question about a release line asks (`words.en.lines` says what
each is): «есть ли», «последняя», «самая старая», «после 1.0», «с 1.0 по 2.0»."""

from situated.words import RELEASE_NUMBER as RELEASE
from situated.words.ru.versions import NEWEST_WORDS, OLDEST_WORDS

EXISTS = r"(?:есть|существует)\s+ли|(?:есть|существует)\b"
LATEST = rf"(?<!\w)(?:{NEWEST_WORDS})"
OLDEST = rf"(?<!\w)(?:{OLDEST_WORDS}|перв\w*|ранн\w*)"
WHICH_END = (r"(?<!\w)как(?:ая|ой|ое)\s+(?:сам\w+\s+(?:стар|ранн|нов|свеж|поздн)\w*|"
             r"последн\w*|перв\w*)")
# «Версия 1.1.0 последняя?»
NAMED_END = (r"(?<![\w.])v?\d+(?:\.\d+)+\s+(?:—\s+|-\s+)?(?:это\s+)?(?:и\s+есть\s+)?"
             r"(?:(?P<new>сам\w+\s+(?:нов|поздн|свеж)\w*|последн\w*|новейш\w*)|"
             r"(?P<old>сам\w+\s+(?:стар|ранн)\w*|перв\w*|старейш\w*))")
# «Какие версии вышли после 1.0?»; «до 1.0 включительно» includes it; «по» alone is "about"
# («документация по 1.1.0»), a bound only in «с … по …»
BETWEEN = (rf"(?<!\w)(?:между|от|с)\s+(?P<lo>{RELEASE})\s+(?:и|до|по)\s+"
           rf"(?P<hi>{RELEASE})(?![\w.])")
AFTER = (rf"(?<!\w)(?:(?P<open>после|новее|позже)\s+(?:версии\s+|релиза\s+)?|"
         rf"(?P<closed>начиная\s+с\s+(?:версии\s+|релиза\s+)?|"
         rf"с\s+(?:версии|релиза)\s+))(?P<v>{RELEASE})(?![\w.])")
BEFORE = (rf"(?<!\w)(?:до|раньше|старше)\s+(?:версии\s+|релиза\s+)?"
          rf"(?P<v>{RELEASE})(?![\w.])(?P<closed>\s+включительно)?")
RELEASE_NOUN = r"верси|релиз"
WHOLE = r"какие|сколько|перечисл|список|все\b"

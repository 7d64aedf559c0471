"""The English words of how a question about a release line asks (`chains.read.line_words`
reads them): its order, its end and its whole, and the part of the line a listing asks for."""

from situated.words import RELEASE_NUMBER as RELEASE
from situated.words.en.versions import NEWEST_WORDS, OLDEST_WORDS

EXISTS = (r"\bexists?\b|\bis\s+there\b|\bare\s+there\b(?!.*\bhow\s+many\b)|"
          r"\b(?:include|includes|contain|contains)\b")
LATEST = (rf"\b(?:{NEWEST_WORDS}|current|last|final|greatest|biggest|maximum|max|"
          rf"top)\b")
OLDEST = (rf"\b(?:{OLDEST_WORDS}|first|initial|original|ancient|smallest|minimum|"
          rf"min)\b")
WHICH_END = (r"\b(?:which|what)(?:['’]s|\s+is|\s+was)?\s+(?:the\s+)?(?:very\s+)?"
             r"(?:oldest|earliest|first|newest|latest|most\s+recent|last)\b")
# the release named, said to be one end of the line ("Is 1.1.0 the latest version?", "Is 1.0
# really the first version you have?"): yes or no, and that end
NAMED_END = (r"(?<![\w.])v?\d+(?:\.\d+)+\s+(?:really\s+|actually\s+|still\s+)?(?:the|your)\s+"
             r"(?:very\s+)?(?:(?P<new>latest|newest|most\s+recent|last|freshest)|"
             r"(?P<old>oldest|earliest|first))\b")
# the part of the line a listing asks for: releases after one, before one, or between two
# ("Which starlette versions came out after 0.40.0?", "list every httpx version between 0.20
# and 0.25"); "since" and "from" include the release named, "after" does not; "up to" and
# "until" include it, "before" does not
BETWEEN = (rf"\b(?:between|from)\s+(?P<lo>{RELEASE})\s+(?:and|to|through|till|"
           rf"until)\s+(?P<hi>{RELEASE})(?![\w.])")
AFTER = (rf"\b(?:(?P<open>after|newer\s+than|later\s+than|above|past)|"
         rf"(?P<closed>since|from|starting\s+(?:at|with|from)))\s+"
         rf"(?:version\s+|release\s+)?(?P<v>{RELEASE})(?![\w.])")
BEFORE = (rf"\b(?:(?P<open>before|older\s+than|earlier\s+than|below|prior\s+to)|"
          rf"(?P<closed>up\s+to|until|till|through))\s+(?:version\s+|release\s+)?"
          rf"(?P<v>{RELEASE})(?![\w.])")
# a bound's number after a release noun reads as a release ("after version 18")
RELEASE_NOUN = r"version|release"
# a question about the whole line, not one release: "Which versions …", "How many …"
# ("Is 1.1.0 documented here at all?" asks of one)
WHOLE = r"\b(?:which|list|(?<!\bat\s)all|how\s+many|number|count)\b"

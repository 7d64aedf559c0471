"""The English words of what a question asks for (`chains.read.intent` reads them): which
versions there are, the words a question about versions says besides its subject, a
comparison's cue, the words that make a date a "since", the line's words, what an asker says
of themselves before the question, and the nouns a document is called by."""

from situated.words.en.versions import LISTING_ORDER, NEWEST_WORDS, OLDEST_WORDS

VERSIONS = (
    r"\b(?:list|show|which|what|all|how\s+many)\b[^.?!]{0,40}\b(?:versions|revisions|editions)\b|"
    r"\bversion\s+history\b|\b(?:versions|revisions)\s+of\b|"
    # "Show me every version of the quickq-guide family", "List each release"
    r"\b(?:list|show)\b(?:(?!\b(?:how|what|why|whether|where|when|which)\b)[^.?!]){0,30}"
    r"\b(?:every|each)\s+(?:[\w.-]+\s+){0,2}?(?:version|"
    r"revision|edition|release)\b|"
    # one release asked about as a fact of the line: the latest, the oldest, does X exist
    r"\b(?:what|which)(?:'s|’s|\s+is|\s+was)\s+(?:the\s+)?(?:latest|newest|current|most\s+"
    r"recent|oldest|earliest|first|last)\s+(?:version|release)(?:\s+of\s+[^?.!]{1,60})?\s*"
    r"[?.!]?\s*$|\b(?:does|did)\s+(?:a\s+|the\s+)?(?:version|release)\s+\S+\s+exist\b|"
    r"\bis\s+there\s+(?:a\s+)?(?:version|release)\s+\S+?\s*(?:of\s+[^?.!]{1,60})?[?.!]?\s*$")
# what a question about versions says besides its subject ("What changed?" names nothing)
FRAME = (
    r"\b(?:what|which|when|how|did|does|has|have|had|was|were|is|are|been|the|a|an|of|in|on|"
    r"to|for|since|from|after|list|show|me|all|many|often|versions?|revisions?|editions?|"
    r"history|new|different|changed?|changes|added|removed|made|summari[sz]e|changelog|"
    r"between|and|during|over|exists?|latest|newest|oldest|earliest|current|most|recent|"
    r"there|releases?|first|last|number|count|available)\b")
COMPARE = (r"\b(?:compar\w*|differ\w*|versus|vs\.?|changed|changes)\b|"
           r"\b(?:how|what|did|has|have|had|does)\b[^.?!]*\bchange\b")
# the words governing a date that say "from then on" ("since 1 April")
SINCE = r"(?:since|from|after|starting)\s*$"
# "build" is a release where it stands as a noun ("Which quickq build is the oldest?"), not a
# verb ("How do I build quickq?", "Do I need to build?"); "released" says the line too ("How
# many times has quickq been released?")
_BUILD_NOUN = (r"\bbuilds\b|(?<!\bto\s)(?<!\bi\s)(?<!\bwe\s)(?<!\byou\s)(?<!\bthey\s)\bbuild\b"
               r"(?=\s*(?:[?.!,]|$|\b(?:is|was|in|to|of|that|which|you|do|can|for|number)\b))")
LINE_WORD = rf"\b(?:versions?|releases?|released|editions?)\b|{_BUILD_NOUN}"
# the nouns of a line that names may stand just before ("Apache Spark versions")
LINE_NOUN = r"versions?|releases?|editions?|builds?"
ORDER_WORD = rf"{LISTING_ORDER}|\b(?:{NEWEST_WORDS}|{OLDEST_WORDS})\b"
# a question that asks when: no fact of the line answers it
WHEN = r"when"
# what the asker says of themselves before the question ("I'm writing a migration guide; …")
SELF = (r"i['’]?m|i\s+am|we['’]?re|we\s+are|i['’]?ve|i\s+have|we['’]?ve|"
        r"we\s+have|my|our")
# the words any question about change or versions uses, in some form
TALKS_OF_VERSIONS = (
    r"\b(?:chang\w*|new|newer|different|differ\w*|updat\w*|amend\w*|revis\w*|versions?|"
    r"editions?|history|histor\w*|added|removed|replaced|since)\b")
# the nouns a document is called by ("What changed in the privacy policy?")
DOCUMENT_WORD = (
    r"\b(?:polic(?:y|ies)|terms|conditions|agreements?|contracts?|notices?|documents?|docs|"
    r"documentation|manuals?|guides?|handbooks?|pages?|rules|regulations|tariffs?|price\s+lists?|"
    r"plans?|statements?|licen[cs]es?|faqs?|changelog|release\s+notes|text|wording)\b")

"""The English words of dates in a question (`chains.read.dates` reads them): quarters, the
words before a year or a month, the cues that give a date its role ("bought on D", "as of D"),
the words that may stand between a cue and its date, and the words of now."""

from situated.words.en.calendar import MONTH

QUARTER = r"Q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter(?:\s+of)?"
QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2,
                 "3rd": 3, "4th": 4}
DAY_OF = r"of"  # "15th of March"
MONTH_IN = r"in"  # "in March 2026"
# month words that are other words too: "may" the verb, "mar", "jun", "dec"
AMBIGUOUS_MONTHS = ("may", "mar", "jun", "dec")
YEAR_IN = r"in|during|throughout"  # "in 2025"

# the cues of each role (`dates.DateRole`): verbs and fixed phrases, never bare topic nouns
PURCHASE = (
    r"bought|buy|buying|purchased|acquired|ordered|got|subscribed|signed\s+up|"
    r"paid(?:\s+for)?|pay\s+for|"
    r"purchase\s+date|date\s+of\s+(?:the\s+)?purchase|purchase\s+(?:was\s+)?made|"
    r"(?:the\s+|my\s+)?purchase\s+(?:was|took\s+place|happened)")
REQUEST = (
    r"handed\s+(?:it\s+|them\s+)?(?:over|back|in)|brought\s+(?:it\s+)?back|"
    r"(?:the\s+|my\s+)?(?:claim|request|return)\s+was\s+(?:filed|made|submitted|sent|on)|"
    r"returned|return(?:ed)?\s+(?:it|them|this|that)|(?:i|we|you|they|to|will|can|could|"
    r"would|should|must|did)\s+return|sen[dt]\s+(?:it|them)\s+back|requested|claimed|"
    r"(?:request|claim|return)\s+(?:was\s+)?(?:made|filed|submitted)|filed|submitted|"
    r"cancell?ed|request\s+date|date\s+of\s+(?:the\s+)?(?:request|return|claim)")
AS_OF = (r"as\s+of|as\s+at|as\s+on|valid\s+on|in\s+force\s+on|effective\s+on|on\s+the\s+date")
KNOWN = (r"as\s+(?:we|they|you|it\s+was)\s+kn[eo]w\w*|as\s+known|as\s+recorded|"
         r"(?:was|were)\s+known|what\s+(?:we|they)\s+knew")
# the closed-class words that may stand between a cue and its date ("bought my C-3 on D")
GLUE = (r"on|in|at|of|from|dated|the|a|an|it|them|this|that|one|my|our|their|his|her|your|was|"
        r"were|is|had|has|been|back|made|filed|placed|day|date")
# the subject before a cue that follows its date ("On D I bought …")
PRONOUN = r"i|we|you|they|he|she|it\s+was"
# a bare preposition before an unattached date belongs to the date ("… on D")
LEAD_PREP = r"on|at|in|for|from|since|by|to"
NOW = r"today|now|currently|at the moment|this week|right now"
ORDINAL = r"st|nd|rd|th"  # "15th March"
MONTH_FIRST = MONTH  # a month written before its day ("March 15, 2026")

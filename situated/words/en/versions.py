"""The English words of questions about versions (`chains.read.intent`, `line_words` and
`since_cues` read them): the words that order releases, the place of a release in a list, and the
nouns of what a release changed."""

# the rest of the line beside one release ("before all the others", "after every other one",
# "older than any other release")
_ALL_OTHERS = (r"(?:all|every|any)\s+(?:the\s+)?(?:others|rest|other(?:\s+(?:ones?|versions?|"
               r"releases?|builds?))?)")




# a listing asked in an order ("List every release, oldest first"): the whole line, in that
# order, not one release, whatever else the question is read as. One pattern per end put first:
# `NEWEST_FIRST` lists backwards, `ORDER_NAMED` is either.
def _put_first(first: str, last: str, order: str) -> str:
    """An order that puts `first` at the head of the list: "`first` first", "in `order` order",
    "(from) `first` to `last`"."""
    return (rf"\b(?:{first})\s+first\b|\bin\s+(?:{order})\s+order\b|"
            rf"\b(?:from\s+)?(?:{first})\s+to\s+(?:{last})\b")


_NEWEST_END, _OLDEST_END = r"newest|latest|most\s+recent|highest", r"oldest|earliest|lowest"
# "Which versions do you have, newest first?", "in reverse chronological order": the listing
# runs backwards
NEWEST_FIRST = _put_first(_NEWEST_END, _OLDEST_END,
                          r"reverse\s+(?:chronological|release)|descending")
ORDER_NAMED = NEWEST_FIRST + "|" + _put_first(_OLDEST_END, _NEWEST_END,
                                              r"chronological|ascending|release")
# … or a place in a list: which end is the oldest depends on the list (a changelog runs newest
# first), so the rules show the whole line ("Which version sits at the start of the list?"); a
# reading by meaning may still say which end
LISTING_ORDER = (ORDER_NAMED + "|"
                 r"\b(?:sits?|stands?|is|comes?)?\s*(?:at|on|in)\s+the\s+(?:very\s+)?(?:start|"
                 r"beginning|top|head|end|bottom|tail)\s+of\s+(?:the|your|its|this)\s+list"
                 r"(?=\s*[?.!]?\s*$)")  # the list the question ends on, not one in the text

# words that order releases, newest and oldest (`release_history` reads which fact is asked
# with them, and with the commoner "last", "first", "current", "initial" beside them): with
# nothing else named, one asks about the line ("Which is the latest quickq you hold?" names no
# version word; "How far back do your docs go?", "How recent are your docs?")
NEWEST_WORDS = (r"latest|newest|freshest|most\s+recent(?:ly)?|most\s+current|highest|up-to-date|"
                r"very\s+last|(?:top|upper|high)\s+end|upper\s+(?:bound|limit)|closes?\s+with|"
                # its tail ("Which version is last in line?")
                r"last\s+in\s+(?:the\s+)?(?:line|order|sequence|queue|row)|"
                r"up\s+to\s+date|how\s+(?:recent|new|current)|up\s+to\s+(?:which|what)|"
                r"(?:go|goes|run|runs|reach|reaches|extend|extends)\s+up\s+to|"
                r"(?:end|ending|finishing)\s+point|(?:end|ends|ended|finish|finishes|finished|stop|"
                r"stops|stopped)\s+(?:up\s+|off\s+|out\s+)?(?:at|with)|"
                r"where\s+(?:does|do)\s+(?:your|the|[\w.+-]*['’]s)\s+(?:[\w.+-]+\s+){0,2}"
                r"(?:coverage|docs|"
                r"documentation|documents|index|material|records|list|line|history)\s+"
                r"(?:(?:you|we|they|i)\s+\w+\s+)?(?:end|finish|stop)s?(?:\s+(?:at|with))?|"
                r"(?:after|later\s+than|newer\s+than|more\s+recent\s+than|postdates?)\s+"
                + _ALL_OTHERS + "|"
                # past the end the asker was told of ("Is there anything newer than your current
                # release?")
                r"(?:newer|later|more\s+recent|fresher)\s+than\s+(?:your|the|this)\s+"
                r"(?:current|latest|newest|last)")
OLDEST_WORDS = (r"oldest|earliest|lowest|most\s+ancient|most\s+(?:out)?dated|very\s+first|"
                # going back in time (`BACKWARD_WORDS`)
                r"(?:going|looking|counting|moving|travell?ing)\s+back(?:wards?)?"
                r"(?:\s+in\s+time)?|(?:go|look|count|move)\s+back(?:wards?)?\s+in\s+time|"
                r"backwards?\s+in\s+time|"
                # how old the oldest is ("How old is the oldest quickq you hold?"; "How old is
                # quickq 1.0.0?" asks a date and stays content)
                r"how\s+old\s+(?:is|was|are)\s+(?:the|your)\s+(?:very\s+)?(?:oldest|earliest|"
                r"first)|"
                # the head of the line or the order ("Which version is first in line?")
                r"first\s+in\s+(?:the\s+)?(?:line|order|sequence|queue|row)|"
                r"opens?\s+with|"
                r"(?:bottom|lower|low)\s+end|lower\s+(?:bound|limit)|"
                # a question that ends where the line begins ("From which release does your
                # coverage start?")
                r"(?:start|starts|begin|begins)(?=\s*[?.!]?\s*$)|"
                r"(?:furthest|farthest)\s+back|back\s+(?:the\s+)?(?:furthest|farthest)|"
                r"(?:furthest|farthest)\s+in\s+(?:the\s+)?past|"
                r"least\s+(?:recent|new|current|fresh|up[\s-]to[\s-]date)|"
                # the verb after it is a word of asking, the subject between is not ("How far
                # back does scheduled tasks go?" has one)
                r"how\s+far\s+back|"
                r"(?:date|dates)\s+back|(?:date|dates|dated|dating)\s+from|"
                r"where\s+(?:does|do)\s+(?:your|the|[\w.+-]*['’]s)\s+"
                r"(?:[\w.+-]+\s+){0,2}(?:coverage|docs|documentation|documents|index|material|"
                r"records|list|line|history)\s+(?:(?:you|we|they|i)\s+\w+\s+)?(?:start|begin)s?"
                r"(?:\s+(?:at|with|from))?|"
                r"(?:start|starts|started|begin|begins|began)\s+(?:out\s+|off\s+)?(?:at|with|from)|"
                r"(?:starting|start)\s+point|baseline|"
                r"(?:before|earlier\s+than|older\s+than|predates?)\s+" + _ALL_OTHERS + "|"
                r"(?:older|earlier)\s+than\s+(?:your|the|this)\s+(?:first|oldest|earliest)|"
                # where it all began ("Which release started it all?")
                r"(?:started|began|kicked\s+off)\s+(?:it\s+all|everything|things\s+off)")
# going back in time, which turns where the documents end into where they begin ("Going back
# in time, where does your coverage stop?"): read before the words of the newest end
# (`release_history`)
BACKWARD_WORDS = (r"\b(?:going|looking|counting|moving|travell?ing)\s+back(?:wards?)?"
                  r"(?:\s+in\s+time)?\b|\b(?:go|look|count|move)\s+back(?:wards?)?\s+in\s+time\b|"
                  r"\bbackwards?\s+in\s+time\b")


# what a release changed, named by its kind (read beside a release number only: "Which fixes
# does the plumber offer?" is content)
CHANGE_NOUNS = (r"fixes|bug\s*fixes|bugfixes|improvements|enhancements|additions|removals|"
                r"deprecations|highlights|release\s+highlights|updates|news|novelties|"
                r"differences?|changes")

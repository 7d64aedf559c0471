"""The English cues of a question about what changed (`chains.read.change_cues` reads them):
what a release, a family or a named thing changed ("What changed in quickq 1.1.0?", "What was
reworked in 1.1.0?"), what is not such a question though it names changes ("Which changes
require a referendum?"), and the words of each kind of change, in questions and in notes
(`chains.read.change_kind`)."""

from situated.words.en.versions import CHANGE_NOUNS

CHANGES = (
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
    # what came with a named release ("What came with 1.1.0?", «Что пришло вместе с 1.1.0?»)
    r"\bwhat\s+came\s+(?:in|with|along\s+with)\b[^.?!]{0,40}\b0\b|"
    # what stands out in a named release ("Anything notable in 1.1.0?", «Что примечательного в
    # релизе 1.1.0?»)
    r"\b(?:anything|what(?:'s|’s|\s+is|\s+was)?)\s+(?:notable|noteworthy|remarkable|"
    r"significant|important|major)\b[^.?!]{0,40}\b0\b|"
    # what a named release does otherwise ("What does 1.1.0 do differently?", «Что 1.1.0 делает
    # по-другому?»)
    r"\bwhat\s+(?:does|did|will)\b[^.?!]{0,40}\b0\b[^.?!]{0,20}\bdifferently\b|"
    # a release described ("Describe the 1.1.0 release", «Кратко опиши релиз 1.1.0»): with
    # the release word, not a thing of it ("Describe the 1.1.0 worker" asks the text); «Описан
    # ли релиз 1.1.0?» asks whether it is there
    r"\bdescribe\b[^.?!]{0,30}\brelease\b[^.?!]{0,20}\b0\b|"
    r"\bdescribe\b[^.?!]{0,30}\b0\b\s+release\b|"
    # … or told of as an update ("Tell me about the quickq 1.1.0 update"; "Tell me about the
    # 1.1.0 worker" asks the text)
    r"\b(?:about|describe|explain|summari[sz]e)\s+(?:the\s+|this\s+)?(?:[\w.+-]+\s+)?0\s+"
    r"(?:update|upgrade|release)\b|"
    # a named release taken apart ("Break down the 1.1.0 release", «Разбери релиз 1.1.0»): the
    # release is what is taken apart ("How do I break down a big task in 1.1.0?" asks the text)
    r"\bbreak\s+down\s+(?:for\s+me\s+|me\s+)?(?:the\s+|what\s+)?(?:[\w.+-]+\s+)?"
    r"(?:version\s+|release\s+|update\s+)?0\b|"
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
    # the nouns of what a release changed, beside a release number («Какие улучшения в 1.1.0?»,
    # "Any improvements in 1.1.0?", "1.1.0's highlights")
    rf"\b(?:{CHANGE_NOUNS})\b[^.?!]{{0,40}}\b0\b|\b0\b[^.?!]{{0,20}}\b(?:{CHANGE_NOUNS})\b|"
    r"\b0\b[^.?!]{0,30}\b(?:that|which)\s+(?:wasn['’]?t|was\s+not|weren['’]?t|were\s+not)\s+"
    r"(?:there|in)\b[^.?!]{0,20}\b(?:before|earlier)\b|"
    # the new things a named release gives ("What new things does 1.1.0 put at my disposal?",
    # «Какие новые вещи 1.1.0 даёт?»)
    r"\b(?:what|which)\s+new\s+(?:things?|features?|stuff|options?|capabilities)\b[^.?!]{0,30}"
    r"\b0\b|"
    r"\b(?:upgrade|update|move|switch|go)\s+to\s+(?:[\w.+-]+\s+)?0\b[^.?!]{0,20}\bwhat\b"
    r"[^.?!]{0,30}\b(?:different|differ|change|changes|changed|new)\b")

MAKING_CHANGES = (
    r"\b(?:make|makes|made|making|notify|notifies|notified|inform|informs|informed|tell|tells|"
    r"announce|announces|announced|post|posts|posted|publish|publishes|published|request|"
    r"requests|submit|submits|apply|applies|allowed\s+to)\b(?:\W+\w+){0,5}?\W+changes\b")

NOT_A_CHANGE = (
    r"^\W*(?:to|into)\s+(?:what|which)\b|"
    # what changes need or allow ("Which changes require a referendum?", «Какие изменения в
    # конституции требуют особой процедуры?»): what the text says of changes
    r"\b(?:what|which)\s+(?:\w+\s+){0,2}changes\b[^.?!]{0,60}\b(?:require|requires|need|needs|"
    r"must|can|may|should|are\s+(?:allowed|permitted|possible))\b|"
    r"\bchanges\b[^.?!]{0,60}\b(?:be|being|is|are)\s+(?:informed|notified|communicated)\b")

# "changes to the policy" asks what changed, unless the changes are what someone makes or
# announces ("Will they inform me if they make changes to the policy?": `MAKING_CHANGES`)
CHANGES_OF = r"\bchanges\s+(?:in|to|of|made)\b"
# the words of each kind of change, in questions and in notes: the one list of them
ADDED = r"add(?:ed|s)?|introduc\w*|new|supports?|supported|expose[sd]?"
REMOVED = (r"remov\w*|drop(?:s|ped)?|delet\w*|gone|no\s+longer|discontinu\w*|"
           r"stop(?:s|ped)?\s+(?:support\w*|shipping|offering|including)")
DEPRECATED = r"deprecat\w*"

# a note's statement of a change (`chains.versions.appearance`): what may stand between the
# verb and its object ("Add support for `X`", "Drop the `X` flag"), where the object ends (what
# it is added to, with, for …), the pronouns that stand for a subject, and the auxiliaries and
# adverbs before a verb that follows its subject ("`X` is now deprecated")
NOTE_FRAME = r"the|a|an|new|missing|optional|support|for|of"
NOTE_GOVERNS = (r"to|on|in|into|for|of|from|within|at|by|when|so|which|that|"
                r"allowing|using|instead|via|because")
NOTE_PRONOUN = r"it|they|this|these"
NOTE_AUX = r"is|are|was|were|has\s+been|have\s+been|now|been"
NOTE_ADVERB = r"now|fully|also|officially"

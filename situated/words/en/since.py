"""The English cues of a first-appearance question (`chains.read.since_cues` reads them):
in which release something was added, removed or deprecated ("Since which version can I
schedule tasks?"), and the least release that has a thing ("What's the minimum quickq
version I need for X?")."""


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
LEAST_RELEASE = (
    r"\b(?:minimum|lowest|least|earliest)\s+(?:version|release)\s+"
    r"(?:that|which|with|where|for|to\s+(?:use|get|have))\b|"
    r"\b(?:minimum|lowest|least|earliest)\s+(?:version|release)\s+"
    r"(?:do\s+|would\s+|will\s+)?(?:i|we|you|one)\s+(?:need|require)\b|"
    # the release one needs for a thing ("What version do I need for
    # zstd decoding?")
    r"\b(?:which|what)\s+(?:version|release)\s+(?:do|would|will|does)\s+"
    r"(?:i|we|you|one)\s+(?:need|require)\s+(?:at\s+least\s+|as\s+a\s+"
    r"minimum\s+)?(?:for|to)\b|"
    # … the one to be on for it ("What version do I have to be on to
    # get X?", «На какой версии нужно быть, чтобы получить X?»)
    r"\b(?:which|what)\s+(?:version|release)\s+(?:of\s+[\w.+-]+\s+)?"
    r"(?:do|would|will|does|must|should)\s+(?:i|we|you|one)\s+"
    r"(?:have\s+to|need\s+to|got\s+to)\s+(?:be\s+on|run|use)\s+"
    r"(?:for|to)\b|"
    # the earliest of the product's own line that has a thing, its name
    # taken away ("What's the earliest quickq that supports X?", «Какой
    # самый ранний quickq с поддержкой X?»)
    r"\b(?:first|earliest|oldest|lowest|minimum)\s+(?:that|which)\s+"
    r"(?:supports?|has|have|includes?|offers?|provides?|contains?)\b|"
    # … the earliest one can use a thing with ("What's the earliest
    # quickq I can use X with?", «С какой самой ранней quickq можно
    # использовать X?»)
    r"\b(?:first|earliest|oldest|lowest|minimum)\s+(?:(?:that|which)\s+)?"
    r"(?:i|we|you|one)\s+(?:can|could|may)\s+(?:use|run|get|have)\b")

# how long the product has had a thing, read with the product's name taken away, where it
# stood: its subject ("How long has quickq had X?", «Как давно quickq поддерживает X?») or
# what a thing goes back in ("How far back does X go in quickq?", «Как давно X есть в
# quickq?»); without the name they are content ("How far back does the audit log go?")
HELD_SINCE = (
    r"\bhow\s+(?:long|far\s+back)\s+(?:has|have|did|does|do)\s+(?:had|supported|offered|"
    r"included|provided|shipped|carried)\b|"
    r"\bhow\s+(?:far\s+back|long)\b[^?!.]{1,80}\b(?:go|goes|went|existed|exists?|been\s+"
    r"(?:around|available|supported|there|included))\s+(?:in|with)\s*[?.!]?\s*$")

SINCE_Q = (
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
    r"\bfrom\s+what\s+release\s+on\b|"
    # how many releases ago a thing arrived ("How long ago, in quickq versions, did X turn up?",
    # «Сколько версий назад в quickq появился X?»)
    rf"\bhow\s+(?:long|many\s+(?:versions|releases|builds))\s+ago\b[^?!]{{0,100}}"
    rf"\b(?:{_ARRIVES})\b|"
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
    # arrived only in a later release, which ("Is it true that X only arrived in a later
    # version? Which one?", «Правда, что X пришёл только в одной из поздних версий?»)
    rf"\b(?:{_ARRIVES})\s+(?:only\s+)?in\s+(?:a|an|one\s+of\s+the)\s+(?:later|newer|"
    r"subsequent|more\s+recent)\s+(?:[\w.+-]+\s+)?(?:version|release)s?\b|"
    r"\b(?:first|earliest|oldest|lowest)\s+(?:[\w.+-]+\s+){0,2}(?:version|release|build)\s+"
    # … or with a participle of having ("the earliest release supporting X")
    r"(?:of\s+(?:[\w.+-]+\s+)?)?(?:that|which|to|with|where|in\s+which|supporting|having|"
    r"including|offering|providing|containing|shipping|carrying)\b|"
    rf"\bwhen\s+(?:exactly\s+|precisely\s+)?(?:was|were|did)\b[^?!]{{0,100}}\b(?:{_ARRIVES})\b|"
    # … the product doing it, its verb in the base form ("When did starlette add websockets?");
    # the asker's own doing is no release's ("When did I add the card?")
    r"\bwhen\s+(?:exactly\s+|precisely\s+)?did\s+(?!(?:i|we|you)\b)[^?!]{0,60}?"
    r"\b(?:add|introduce|remove|drop|deprecate|gain|acquire)\b|"
    # the release to thank for a thing («Какому релизу quickq мы обязаны X?», "Which release
    # do I thank for X?"), and when it came, said by version ("When, version-wise, did quickq
    # pick up X?")
    r"\b(?:which|what)\s+(?:[\w.+-]+\s+){0,3}(?:version|release)\s+(?:do|should|can|must)\s+"
    r"(?:i|we)\s+(?:thank|credit)\s+for\b|"
    r"\bwhen\s*,?\s+version-?wise\b|"
    # there from the first day, or added later ("Was X in quickq from day one, or added
    # later?", «X был в quickq с первого дня или его добавили позже?»)
    r"\b(?:from|since)\s+(?:day\s+one|the\s+(?:very\s+)?(?:start|beginning|outset|first\s+"
    r"(?:day|version|release)))\b[^?!]{0,40}\bor\b[^?!]{0,30}\b(?:added|introduced|came|"
    r"arrived|shipped)\b")

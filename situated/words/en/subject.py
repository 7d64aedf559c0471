"""The English words of a first-appearance question's frame (`chains.read.subject` reads
them): how it asks, left out of its subject, the release nouns its parts meet at, and the
forms a subject word is written in."""

from situated.words.en.since import DEBUT_WORDS

FRAME = (
    rf"\b(?:{DEBUT_WORDS})\b|"
    r"\b(?:in|since|from|with|which|what|when|was|were|did|does|do|is|are|has|have|had|the|a|an|"
    r"version|versions|release|releases|build|builds|first|minimum|lowest|least|added|add|"
    r"introduced|include|includes|included|rolled\s+out|"
    r"introduce|removed|remove|"
    r"dropped|deprecated|deprecate|appear|appeared|supported|support|become|became|available|"
    # the verbs in the present ("When did httpx drop X?", "Which release adds X?")
    r"drop|drops|adds|removes|deprecates|introduces|"
    r"get|got|new|of|for|it|they|been|arrived?|land(?:ed)?|ship(?:ped)?|came|come|gain(?:ed)?|"
    r"there|(?<=been\s)around|accessible|at\s+least(?:\s+to)?|as\s+a\s+minimum(?:\s+to)?|"
    r"(?:(?<=need\s)|(?<=needs\s)|(?<=require\s)|(?<=requires\s))to|"
    r"on|can|could|use|using|start|starting|started|starts|show|showed|shown|up|"
    r"supporting|supports|brought|brings|bring|begin|began|begins|offering|offers|offer|"
    r"providing|provides|provide|having|i|we|you|need|needs|needed|require|requires|required|"
    r"made|makes|possible|enabled|unlocked|part\s+of|(?<=version\s)where|(?<=release\s)where|"
    r"works?(?=\s*[?.!]?\s*$)|"
    # there from the start, or added later ("Was X in quickq from day one, or added later?")
    r"day\s+one|(?<=the\s)(?:start|beginning|outset)|"
    r"or(?=\s+(?:was\s+it\s+|were\s+they\s+)?(?:added|introduced|came|arrived|shipped)\b)|"
    r"later(?=\s*[?.!]?\s*$)|"
    # … or arrived only in a later one, which ("Is it true that X only arrived in a later
    # version? Which one?"), and "What's" ("What's the version where X debuted?")
    r"only|(?<=\sa\s)later|(?<=which\s)one|(?<=what)['’]s|"
    r"arguments?|parameters?|options?|methods?|functions?|"
    r"classes|class|features?|settings?|flags?|keywords?|attributes?|propert(?:y|ies))\b")
# a thing named by the word before its kind ("the compresslevel option", "the GZipMiddleware
# compresslevel option", "a timeout parameter"): its name is that word, unless the word only
# describes the thing ("the new option", "the default argument")
NAMED_KIND = (r"\b(?:[Tt]he|[Aa]n?|[Ii]ts|[Tt]heir)\s+(?:[\w.]+\s+)?"
              r"(?!(?:new|default|same|old|first|last|optional|required|extra|other|main|"
              r"latest|original|whole|entire)\s)"
              r"(?P<name>[a-z][a-z0-9_]*[a-z0-9])\s+(?:arguments?|parameters?|options?|flags?|"
              r"settings?|keywords?|attributes?|propert(?:y|ies)|methods?|functions?|class)\b")
# the release nouns where a question's parts meet
PARTS = r"\b(?:version|versions|release|releases|build|builds)\b"
# a plain word of four letters or more, its ending taken off where a stem of three is left,
# then found with a short ending ("schedule tasks" finds "scheduled task"): (the word, its
# ending, the least stem, the endings it is found with)
WORD_FORMS = (r"[a-z]{4,}", r"(?:ies|es|s|ed|ing|e)$", 3, r"(?:e|es|s|ed|d|ing|ies)?")

"""The English words around the names a question gives (`retrievers.names` and
`retrievers.relevance` read them): where the asker is going, a question that asks only what
something is, and the words that frame a question rather than say what it is about."""

# where the asker is going, written right before a name ("a trip to Kenya")
CIRCUMSTANCE = (r"\b(?:trips?|holidays?|vacation|travel(?:l?ing)?|flights?|flying|going|moving|"
                r"visiting)(?:\s+(?:to|in))?")
# a question that asks only what or who something is ("What is the NASUWT?", "What does NTL
# stand for?"), once its names are taken out
WHAT_IS = (r"(?:what|who|which)(?:'s|’s|\s+(?:is|are|was|were))\s+(?:the\s+|an?\s+)?|"
           r"what\s+(?:does|do|did)\s+(?:the\s+)?(?=.*\b(?:stand\s+for|mean)\b)")
WHAT_IS_END = r"stand\s+for|mean"
# words that frame a question rather than say what it is about (after the stop words)
FRAMING = (r"say|says|said|tell|explain|mean|means|meant|describ\w*|state|stated|know|want|need|"
           r"pleas\w*|question|happen\w*|appli\w*|appl[iy]|exact\w*")
# a name: a capitalised word, ending in a letter ("ChatGPT", "O'Neill", "AT&T")
NAME = r"[A-Z][\w’'&.-]*[A-Za-z]"
# endings that turn a place into its people or language and back, on the tokenizer's stems
# ("california" / "californian", "mexico" / "mexican", "japan" / "japanes")
PLACE_ENDINGS = ("", "a", "e", "i", "o", "y")
PEOPLE_ENDINGS = ("n", "an", "ian", "ean", "es", "ese", "ish")

"""The English words the reading by meaning looks for (`chains.read.meaning` reads them): what a
text says about something, the interrogatives, and how-to questions."""

# what a text says about something is asked of the text ("What does the guide say about X?")
TEXT_SAYS = (r"\b(?:say|says|said|mention|mentions|write|writes|state|states)\s+(?:about|on|"
             r"regarding|concerning)\b")
# the words that ask: a lead-in holding one asks in its lead ("Which one, 1.1.0 or 2.0?")
ASKS = r"what\w*|which|who\w*|where\w*|when\w*|why|how|whether"
# a question asking how to do something ("How do I turn on HTTP/2?"): its answer is a procedure
HOW_TO = (r"\bhow\s+(?:do|can|could|should|would|may|might|does|to)\b|"
          r"\bwhat(?:'s|\s+is)\s+the\s+way\s+to\b")

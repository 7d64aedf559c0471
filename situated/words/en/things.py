"""The English frames of a question that asks the hours, the price, the age, the sale or the
being there of a thing (`retrievers.asked_things` reads them), each capturing the thing in its
first group, and the words that end a thing or say which one it is."""

# up to four words, the thing; it ends where the frame's verb or the question does
_THING = r"((?:[^\W\d_][\w'’-]*\s+){0,3}?[^\W\d_][\w'’-]*)"
# "your shop", "this place" are the documents' own: no determiner of the one addressed
_A = r"(?:the|a|an|one)\s+"
_END = r"\s*[?.!]?\s*$"
# what follows "in the" or "at the" and is no place: a document or a plan ("Is there a penalty
# in the contract?", where "penalty" is the asker's word for the documents' "fee") or a time
# ("Is there a discount at the weekend?")
_NOT_A_PLACE = (r"contract|terms|policy|agreement|rules|documents?|guide|manual|handbook|"
                r"leaflet|brochure|price\s+list|small\s+print|fine\s+print|conditions|booking|"
                r"reservation|plan|package|subscription|membership|deal|offer|price|cost|"
                r"weekend|weekends|end|start|beginning|moment|time|same\s+time|day|evening|"
                r"morning|night|summer|winter|holidays|week|month|year")
FRAMES = (
    # its hours: "What time does the museum open?", "What are the opening hours of the zoo?"
    (rf"\b(?:what\s+time|when|how\s+late|how\s+early|until\s+when|till\s+when|at\s+what\s+time)"
    rf"\s+(?:does|do|will|did)\s+{_A}{_THING}\s+(?:open|close|shut|start|begin|finish|end|"
    r"leave|depart|arrive)s?\b"),
    (rf"\b(?:what|when)\s+are\s+the\s+(?:opening|closing|business)\s+(?:hours|times)\s+"
    rf"(?:of|for|at)\s+{_A}{_THING}{_END}"),
    # its price: "How much does a hearing test cost?", "What does it cost to hire a sailing
    # boat?", "What's the price of a new kitchen?"
    rf"\bhow\s+much\s+(?:does|do|would|will|did)\s+{_A}{_THING}\s+cost\b",
    rf"\bhow\s+much\s+(?:is|are)\s+{_A}{_THING}{_END}",
    (rf"\b(?:how\s+much|what)\s+(?:does|do|would|will)\s+it\s+cost\s+to\s+(?:hire|rent|buy|"
    rf"build|repair|replace|install)\s+{_A}{_THING}{_END}"),
    rf"\bwhat(?:'s|’s|\s+is)\s+the\s+(?:price|cost)\s+(?:of|for)\s+{_A}{_THING}{_END}",
    # its age: "When was the harbour built?"
    rf"\bwhen\s+(?:was|were)\s+{_A}{_THING}\s+(?:built|founded|established|constructed)\b",
    # its sale: "Do you sell car parts?", "Where can I buy a bin bag dispenser?"
    rf"\b(?:do|does)\s+you\s+(?:sell|stock)\s+{_THING}{_END}",
    rf"\bwhere\s+can\s+i\s+(?:buy|purchase)\s+(?:(?:the|a|an|some)\s+)?{_THING}{_END}",
    # its being there, at a place the question names: "Is there a café in the central
    # library?", "Are there any lockers at the pool?", "Is there a car wash nearby?" (never
    # "Is there a limit on …" or "a discount if …": there the thing is the asker's word for
    # a rule, and the relevance rule decides)
    (rf"\b(?:is|are)\s+there\s+(?:(?:a|an|any|some)\s+)?{_THING}\s+(?:(?:in|at|inside|near|"
     rf"next\s+to)\s+(?:the|your|this)\s+(?!(?:{_NOT_A_PLACE})\b)|(?:nearby|near\s+here|"
     rf"close\s+by|around\s+here){_END})"),
)
# the thing ends at its first preposition ("a taxi to the airport" is a taxi)
PREPOSITIONS = r"with|for|of|to|in|at|on|from|near|by|during|after|before|into|around"
# words of age, size, worth or place say which one, not what it is ("a new kitchen")
WHICH_ONE = (r"new|old|used|second-hand|secondhand|big|small|large|little|good|best|cheap|"
             r"cheapest|nearest|local|whole|full|average|typical|normal")
# a place of business named by its kind alone ("the shop", "the front desk")
OWN_PLACE = (
    r"shop|shops|store|stores|office|offices|centre|center|branch|place|site|premises|"
    r"building|venue|clinic|practice|surgery|studio|desk|counter|reception|front|main|door|"
    r"doors|entrance|gate|gates|outlet|location|facility|facilities|service|services")

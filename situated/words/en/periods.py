"""The English words around the periods and releases a question names (`chains.read.compare`,
`extract`, `release`, `version_cue` and `reader` read them): the joiners of two periods, the
words that open and join a range, the prepositions that govern a date, a version or a facet, the
nouns that make a number something else, and the words of a release."""

# what is left of "between D1 and D2" once the dates are out
JOINERS = r"between|and|from|to|vs\.?|versus"
BETWEEN = r"between"  # "between and?"
AND = r"and"
IN = r"in"  # "in March 2026" said as "March 2026"
# a range: "between D1 and D2", "from D1 to D2"
RANGE_OPEN = r"between|from"
RANGE_JOIN = r"and|to|until|till|through"
# words before a number that make it something else: "section 4.2", "step 2.1"
NOT_A_RELEASE = (r"section|sections|clause|chapter|step|table|figure|fig\.|page|"
                 r"item|rule|art\.|article")
# the words that govern a version and go with it out of the query: "in version"
GOVERNING = r"in|for|of|on|at|since|from|with|to"
# a release word before a number ("version 2.1", "firmware 2.1")
RELEASE_CUE = r"versions?|releases?|rel\.|ver\.|firmware|fw|build|revision"
# the words alone that ask about releases ("build", "revision" are ordinary words too)
RELEASE_WORDS = r"versions?|releases?"
# the words that govern a facet value ("in the EU"): the legs see neither
FACET_LEAD = r"\b(?:in|for|at|from|of|within)\s+(?:the\s+)?"

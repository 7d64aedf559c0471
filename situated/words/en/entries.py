"""The English words that ask for a property of an API entry (`chains.read.entry_words` reads
them), and the words that say what kind of thing a name is ("the Error class")."""

# property name (`entry_words.Property`) -> the question's words for it
STABILITY = r"\bstabilit\w*|\bstable\b"
SIGNATURE = r"\bsignatures?\b|\bconstructor\b|\bparameters\b|\barguments\b"
DEFAULT = r"\bdefaults?\b"
TYPE = r"\bwhat\s+type\b|\btype\s+of\b|\breturn\s+type\b"
IMPORT = r"\bimport\w*|\brequire\w*"
HISTORY = r"\bhistory\b|\badded\b|\bintroduced\b"
DEPRECATION = r"\bdeprecat\w*"
EXAMPLE = r"\bexamples?\b|\bsample\s+code\b"
# the kinds of thing a name is said to be: "the Error class", "method partialDeepStrictEqual"
KIND = r"class|method|function|module|property|event|option|setting"
# a name said to be a module: "the assert module", "the node:assert module"
MODULE_NAMED = r"\b([A-Za-z_$][\w$:.]*)\s+module\b"
# words the kind patterns catch that name nothing ("the new method", "this class")
NOT_NAMES = ("the", "a", "an", "this", "that", "which", "what", "new", "its", "each", "every",
             "of", "in", "is", "does")

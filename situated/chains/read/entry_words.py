"""The words that ask for a property of an API entry (`chains.say.entries`): its stability, its
signature, a default, a type, how it is imported, its history, its deprecation, an example —
in each language the product reads; and the words that say what kind of thing a name is ("the
Error class", «модуль assert»). The lines that carry each property are the documents' own
structure ("Stability: 1.2 - …", "Default: 30", "History: added in …") and are in
`chains.say.entries`."""

from __future__ import annotations

import re
from enum import Enum

from situated.words import alt, each


class Property(Enum):
    STABILITY = "stability"
    SIGNATURE = "signature"
    DEFAULT = "default"
    TYPE = "type"
    IMPORT = "import"
    HISTORY = "history"
    DEPRECATION = "deprecation"
    EXAMPLE = "example"


# property -> the question's words for it, in every language (words/<lang>/entries.py)
ASKED = {prop: alt("entries", prop.name) for prop in Property}
# a name said to be a kind of thing: "the Error class", "class Error", "the assert module",
# "method partialDeepStrictEqual", «класс Error», «модуль assert»
_KIND = rf"(?:{alt('entries', 'KIND')})"
_NAME = r"([A-Za-z_$][\w$:.]*)"
KIND_NAMED = (re.compile(rf"\b{_NAME}\s+{_KIND}\b", re.IGNORECASE),
              re.compile(rf"\b{_KIND}\s+{_NAME}", re.IGNORECASE))
# a name said to be a module: "the assert module", "the node:assert module", «модуль assert»;
# each language's form captures the name in its own group
MODULE_NAMED = re.compile(alt("entries", "MODULE_NAMED"), re.IGNORECASE)
# words the kind patterns catch that name nothing ("the new method", "this class")
NOT_NAMES = frozenset(w for words in each("entries", "NOT_NAMES") for w in words)


def asked_property(question: str) -> Property | None:
    """The property the question asks of an entry (the first the question names)."""
    found = [(m.start(), p) for p, pattern in ASKED.items()
             if (m := re.search(pattern, question, re.IGNORECASE))]
    return min(found, key=lambda x: x[0])[1] if found else None


__all__ = ["ASKED", "KIND_NAMED", "MODULE_NAMED", "NOT_NAMES", "Property", "asked_property"]

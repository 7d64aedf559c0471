"""How a question asks about a change — added, removed, deprecated — and the one list of words
of each kind, in questions and in notes (`chains.versions.appearance` reads notes with it)."""

from __future__ import annotations

import re
from functools import lru_cache

from situated.modes import Mode


class Kind(Mode):
    ADDED = "added"
    REMOVED = "removed"
    DEPRECATED = "deprecated"


# the words of each kind of change, in questions and in notes: the one list of them
VERB = {
    Kind.ADDED: r"add(?:ed|s)?|introduc\w*|new|supports?|supported|expose[sd]?|"
                r"добавл\w*|добавил\w*|появил\w*|введ[её]н\w*",
    Kind.REMOVED: r"remov\w*|drop(?:s|ped)?|delet\w*|gone|no\s+longer|discontinu\w*|"
                  r"stop(?:s|ped)?\s+(?:support\w*|shipping|offering|including)|"
                  r"удал[её]н\w*|удалил\w*|убран\w*|убрал\w*|перестал\w*|"
                  r"прекра(?:щ|т)\w*\s+поддержк\w*|больше\s+не",
    Kind.DEPRECATED: r"deprecat\w*|(?:объявлен\w*\s+)?устаревш\w*|устарел\w*",
}


@lru_cache(maxsize=8)
def _kind_words(kind: Kind) -> re.Pattern:
    return re.compile(rf"(?<!\w)(?:{VERB[kind]})(?!\w)", re.IGNORECASE)


def says_kind(text: str, kind: Kind) -> bool:
    """`text` uses a word of this kind of change ("deprecated", «удалён», "Added")."""
    return _kind_words(kind).search(text) is not None


def kind_of(question: str) -> Kind:
    if says_kind(question, Kind.DEPRECATED):
        return Kind.DEPRECATED
    if says_kind(question, Kind.REMOVED):
        return Kind.REMOVED
    return Kind.ADDED


__all__ = ["VERB", "Kind", "kind_of", "says_kind"]

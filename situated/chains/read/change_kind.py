"""How a question asks about a change — added, removed, deprecated — and the one list of words
of each kind, in questions and in notes (`chains.versions.appearance` reads notes with it)."""

from __future__ import annotations

import re
from functools import lru_cache

from situated.modes import Mode
from situated.words import alt


class Kind(Mode):
    ADDED = "added"
    REMOVED = "removed"
    DEPRECATED = "deprecated"


# the words of each kind of change, in questions and in notes: the one list of them
# (words/<lang>/changes.py)
VERB = {kind: alt("changes", kind.name) for kind in Kind}


@lru_cache(maxsize=8)
def _kind_words(kind: Kind) -> re.Pattern[str]:
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

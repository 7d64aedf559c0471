"""The thing a question asks the hours, the price, the age or the sale of, by where it stands in
the question: "What time does the museum open?", "How much does a hearing test cost?", "When
was the harbour built?", "Do you sell car parts?", «Во сколько закрывается почта?», «Сколько
стоит проверка слуха?».

Such a thing is what the question is about, as a name is (`names.unheld_names`): where no block
the caller may read holds any word of it, the documents are about something else, and their
own opening hours or prices do not answer it ("What time does the post office close?" asked of
a pharmacy's leaflet). Only these frames: elsewhere a word the documents lack is often the
asker's word for one they have ("Is my friend allowed to work out with me?" of "Each member may
bring one guest"), and the relevance rule decides. Read from the text alone, never from the
documents."""

from __future__ import annotations

import re

from situated.index.text import STOP_WORDS
from situated.words import alt, each

# each language's frames (words/<lang>/things.py), the thing in the first group
_FRAMES = tuple(re.compile(f, re.IGNORECASE) for frames in each("things", "FRAMES") for f in frames)
# the thing ends at its first preposition ("a taxi to the airport" is a taxi, "an hour with a
# coach" an hour); words of age, size, worth or place say which one, not what it is ("a new
# kitchen", «ближайшая почта»)
_PREPOSITION = re.compile(rf"\s(?:{alt('things', 'PREPOSITIONS')})\s.*$", re.IGNORECASE)
_WHICH_ONE = re.compile(rf"(?:{alt('things', 'WHICH_ONE')})", re.IGNORECASE)
# a place of business named by its kind alone ("the shop", "the front desk", «офис») is the
# documents' own more often than another's: "What time does the shop close?" asked of a
# pharmacy asks the pharmacy's hours
_OWN_PLACE = re.compile(alt("things", "OWN_PLACE"), re.IGNORECASE)


def asked_things(text: str) -> list[tuple[str, ...]]:
    """The words of each thing the question asks the hours, price, age or sale of (`_FRAMES`),
    its stop words and words of which one left out: ("post", "office") for "What time does the
    post office close?"."""
    out: list[tuple[str, ...]] = []
    for frame in _FRAMES:
        for m in frame.finditer(text):
            thing = _PREPOSITION.sub("", " " + m.group(1)).split()
            words = tuple(w for w in thing if w.lower() not in STOP_WORDS
                          and not _WHICH_ONE.fullmatch(w) and len(w) > 1)
            if words and words not in out and not all(map(_OWN_PLACE.fullmatch, words)):
                out.append(words)
    return out


__all__ = ["asked_things"]

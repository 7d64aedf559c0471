"""What a question asks, to rank the units the offline answer quotes: the question without the
asker's situation (docs/design.md "The situation is context, not what is asked"). The evidence
was chosen for the situation already, so its product, version, facets and dates no longer tell
one applicable unit from another; left in, they put first the units that restate the situation
("This warranty covers the … C-3 … bought on or after 1 January 2026") above the one that
answers ("The battery is covered for 36 months …")."""

from __future__ import annotations

import re

from situated.chains.read.dates import find_dates, strip_dates
from situated.chains.read.intent import asks_nothing

# the facts line's parts whose value the question may name as written ("product C-3",
# "version 16.20.2", "region EU"); dates are read from the question itself
_DATED = re.compile(r"\d{4}-\d{2}-\d{2}$")


def what_is_asked(question: str, facts: str) -> str:
    """`question` without its dates (and the words that govern them) and without the values
    the known facts name (`Situation.known_facts`: "product C-3; purchase date 2026-03-15");
    the question as asked where nothing but how it asks would be left ("Tell me about the
    C-3.": `asks_nothing`)."""
    asked = strip_dates(question, find_dates(question))
    for value in _named_values(facts):
        asked = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", " ", asked, flags=re.IGNORECASE)
    asked = re.sub(r"\s+([?.!,;:])", r"\1", re.sub(r"\s{2,}", " ", asked)).strip()
    return question if asks_nothing(asked) else asked


def _named_values(facts: str) -> list[str]:
    """The values of the facts line that are not dates, longest first."""
    values = [part.split(" ", 1)[1].strip() for part in facts.split("; ") if " " in part]
    return sorted((v for v in values if v and not _DATED.search(v)), key=len, reverse=True)


__all__ = ["what_is_asked"]

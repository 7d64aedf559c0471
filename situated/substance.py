"""What a change between two versions of a text must touch to count: its words and numbers
without the dates a version prints (`substance`), and a section's identity across versions
(`section_key`). Read by the change diff (`chains.versions.changes`) and by the router's "the
same in every version" check (`chains.routing.same_text`)."""

from __future__ import annotations

import re

DATES = re.compile(  # the date forms a version prints ("Last updated: March 3, 2025")
    r"\b\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\b|"
    r"\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|"
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Za-zА-Яа-яЁё]{3,}\.?,?\s+\d{4}\b|"
    r"\b[A-Za-z]{3,}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b|"
    r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{4}\b",
    re.IGNORECASE)
# a word or number, with what joins one inside it ("aup_exceptions@meta.com", "e-mail", "3.5")
_WORDS = re.compile(r"[^\W_]+(?:[-_.@/][^\W_]+)*", re.UNICODE)


def substance(text: str) -> tuple[str, ...]:
    """The words and numbers of `text` without its dates: what a change must touch to count.
    A line that is a date and a label ("Last updated: 3 March 2025", "Effective date: …") has
    none."""
    undated, dates = DATES.subn(" ", text.replace("\\", ""))  # Markdown escapes are format
    words = tuple(_WORDS.findall(undated.lower()))
    return () if dates and len(words) <= 3 else words


def section_key(path: tuple[str, ...]) -> tuple[str, ...]:
    """A section's identity across versions: its headings' substance ("Last updated: 3 March
    2025" as a heading names no section)."""
    return tuple(" ".join(k) for p in path if (k := substance(p)))


__all__ = ["DATES", "section_key", "substance"]

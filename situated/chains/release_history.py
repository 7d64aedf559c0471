"""Facts of a release line from metadata, without a model (docs/design.md "Releases"): which versions
exist and how many, the latest and the oldest, and whether a version exists (a clear no naming
the nearest). A line is the releases the readable documents declare, for the question's
product when it names one."""

from __future__ import annotations

import re

from packaging.version import Version

from situated.chains.citations import safe_text
from situated.chains.contract import Answer, Status, situation_out
from situated.chains.release import ReleaseReading, find_mentions, unknown_text
from situated.chains.wording import Lang
from situated.situation import Situation

_EXISTS = re.compile(r"\bexists?\b|\bis\s+there\b|\bare\s+there\b(?!.*\bhow\s+many\b)|"
                     r"(?:есть|существует)\s+ли|(?:есть|существует)\b", re.IGNORECASE)
_LATEST = re.compile(r"\b(?:latest|newest|current|most\s+recent|last)\b|последн|новейш|"
                     r"сам\w+\s+(?:нов|поздн|свеж)", re.IGNORECASE)
_OLDEST = re.compile(r"\b(?:oldest|earliest|first)\b|перв|сам\w+\s+(?:стар|ранн)",
                     re.IGNORECASE)
# a question about the whole line, not one release: "Which versions …", "How many …"
_WHOLE = re.compile(r"\b(?:which|list|all|how\s+many|number|count)\b|какие|сколько|"
                    r"перечисл|список|все\b", re.IGNORECASE)


def _range(declared: list[Version], lang: Lang) -> str:
    first, last = declared[0], declared[-1]
    return f"{first} – {last}"


# how a line of several products is named (`ReleaseSteps.line_name`)
PLURAL_LINE = "the documents"


def line_text(question: str, reading: ReleaseReading, declared: list[Version], line: str,
              lang: Lang) -> tuple[str, list[Version]]:
    """The answer's text and the releases it shows."""
    n, ru = len(declared), lang is Lang.RU
    # a release exists when a document declares it; one a range only covers (2.0.7 under
    # ">=2.0,<3.0") is not among the versions
    missing = reading.unknown or (reading.version if reading.version is not None and Version(
        reading.version) not in declared else None) or _unknown_number(question, reading,
                                                                       declared)
    if missing is not None:
        return ("Нет. " if ru else "No. ") + unknown_text(missing, line, declared, lang), []
    if reading.version is not None and (_EXISTS.search(question)
                                        or not _WHOLE.search(question)):
        v = reading.version
        text = (f"Да: версия {v} — одна из {n} версий {line} ({_range(declared, lang)})."
                if ru else f"Yes: version {v} is one of the {n} versions of {line} "
                f"({_range(declared, lang)}).")
        return text, [Version(v)]
    if _LATEST.search(question):
        text = (f"Последняя версия {line}: {declared[-1]} (всего версий: {n}, первая — "
                f"{declared[0]})." if ru else f"The latest version of {line} is "
                f"{declared[-1]} ({n} versions; the oldest is {declared[0]}).")
        return text, [declared[-1]]
    if _OLDEST.search(question):
        text = (f"Самая ранняя версия {line}: {declared[0]} (всего версий: {n}, последняя — "
                f"{declared[-1]})." if ru else f"The oldest version of {line} is "
                f"{declared[0]} ({n} versions; the latest is {declared[-1]}).")
        return text, [declared[0]]
    names = ", ".join(str(v) for v in declared)
    named = "The documents have" if line == PLURAL_LINE else f"{line} has"  # "httpx has …"
    text = (f"Версии {line} ({n}, от ранней к последней): {names}." if ru else
            f"{named} {n} versions, oldest first: {names}.")
    return text, list(declared)


def _unknown_number(question: str, reading: ReleaseReading, declared: list[Version],
                    ) -> str | None:
    """A number the question about the line names without a cue ("Is 1.5.0 a version you
    have?") that is not among the releases: a version asked about (`find_mentions` reads it;
    never a section's "4.2")."""
    if reading.version is not None:
        return None
    return next((m.asked.text for m in find_mentions(question) if m.bare and not m.asked.series
                 and m.asked.version not in declared), None)


def line_answer(question: str, reading: ReleaseReading, declared: list[Version], line: str,
                situation: Situation, lang: Lang) -> Answer:
    text, shown = line_text(question, reading, declared, line, lang)
    return Answer(status=Status.ANSWERED, answer=safe_text(text), missing=[],
                  situation=situation_out(situation), citations=[], evidence=[], hits=[],
                  budget=None, releases=[str(v) for v in shown])


__all__ = ["line_answer", "line_text"]

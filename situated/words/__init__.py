"""The words questions are read by, one module per language and concern: `words/en/since.py`,
`words/ru/since.py`, … Each concern module names its classes (regular-expression alternatives,
written whole in that language); the reading modules (`chains.read`, and the few retrievers
that read a question's words) join every language's alternatives by name (`alt`) and keep only
the structure and the logic. A language is a folder here: adding `words/de/since.py` teaches
every reader of since-cues German, and nothing else changes (tests/chains/read/
test_vocabulary.py shows it). The reply's own words are `chains/say/words_<lang>.py`.

Languages are joined English first, then Russian, then the others by name. A class a language
does not write is simply absent from it; a class no language writes is an error naming the
file to write it in."""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

_FIRST = ("en", "ru")
# a release number, written alike in every language ("0.25", "v18", "1.x")
RELEASE_NUMBER = r"v?\d+(?:\.\d+)*(?:\.[xX*])?"


@cache
def languages() -> tuple[str, ...]:
    """The languages with a folder here: English, Russian, then the others by name."""
    found = {m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if m.ispkg}
    return tuple(lang for lang in _FIRST if lang in found) + tuple(sorted(found - set(_FIRST)))


@cache
def _module(lang: str, concern: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{__name__}.{lang}.{concern}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{lang}.{concern}":
            raise
        return None


def each(concern: str, name: str) -> tuple[Any, ...]:
    """Every language's value of class `name` in `concern`, in `languages()` order: the
    alternatives of a pattern, or a table, a tuple of patterns, a reading function."""
    found = []
    for lang in languages():
        module = _module(lang, concern)
        value = getattr(module, name, None) if module is not None else None
        if value is not None:
            found.append(value)
    if not found:
        raise LookupError(f"no language writes the word class {name!r} of {concern!r}; add "
                          f"{name} = r\"…\" to situated/words/en/{concern}.py")
    return tuple(found)


def alt(concern: str, name: str) -> str:
    """Class `name` of `concern` in every language, one alternation: "(?:en)|(?:ru)|…"."""
    return "|".join(f"(?:{value})" for value in each(concern, name))


class Either:
    """A class whose languages are compiled apart, so that each may name the same groups
    (`(?P<v>…)` in every language): `search` is the leftmost match of any language, the first
    language's on a tie, as one alternation would give."""

    def __init__(self, concern: str, name: str, flags: int = 0) -> None:
        self.patterns = tuple(re.compile(value, flags) for value in each(concern, name))

    def search(self, text: str) -> re.Match[str] | None:
        found = [m for m in (p.search(text) for p in self.patterns) if m is not None]
        return min(found, key=lambda m: m.start()) if found else None


def merged(concern: str, name: str) -> dict[str, int]:
    """A table of every language's words, one mapping ("first" → 1, …)."""
    table: dict[str, int] = {}
    for value in each(concern, name):
        table |= dict(value)
    return table


def letters(name: str) -> str:
    """Every language's letters of one case, for a character class: `letters("UPPER")` →
    "A-ZА-ЯЁ" (words/<lang>/script.py)."""
    return "".join(str(value) for value in each("script", name))

"""Every fixed text the app says, by (name, language): `wording.fixed` fills one in. Code passes
names and values. Each language is one file (`words_en`, `words_ru`: its texts and the words put
into them); a third language is a third file and an entry in `LANGUAGES`
(`tests/chains/say/test_wording.py` checks every file has every name, with the same values)."""

from __future__ import annotations

from types import ModuleType

from situated.chains.read.lang import Lang
from situated.chains.say import words_en, words_ru

LANGUAGES: dict[Lang, ModuleType] = {Lang.EN: words_en, Lang.RU: words_ru}

TEXTS = {(name, lang): text for lang, words in LANGUAGES.items()
         for name, text in words.TEXTS.items()}


def names(kind: str, lang: Lang) -> dict[str, str]:
    """The words of one kind (`NAMES` of the language's file) put into its texts."""
    return LANGUAGES[lang].NAMES[kind]


__all__ = ["LANGUAGES", "TEXTS", "names"]

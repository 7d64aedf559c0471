"""The catalogue of fixed texts (`chains.catalogue`): every name is said in every language the
app speaks, with the same values to fill in, so a new language is one entry per name and code
never falls back to writing prose of its own."""

from __future__ import annotations

import string

import pytest

from situated.chains.catalogue import TEXTS
from situated.chains.lang import Lang

pytestmark = pytest.mark.unit


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_every_name_is_said_in_every_language_with_the_same_values():
    names = {name for name, _ in TEXTS}
    for name in names:
        said = {lang: TEXTS.get((name, lang)) for lang in Lang}
        assert all(said.values()), (name, [lang.value for lang, t in said.items() if not t])
        assert len({frozenset(_fields(t)) for t in said.values()}) == 1, (name, said)


def test_no_text_outside_the_catalogue_says_how_a_change_first_appeared():
    """The first-appearance answer's sentences moved into the catalogue: its module holds no
    Cyrillic (the Russian is said through `wording.fixed`)."""
    from pathlib import Path

    import situated.chains.appearance_steps as module

    source = Path(module.__file__).read_text(encoding="utf-8")
    assert not any("а" <= c <= "я" or "А" <= c <= "Я" for c in source)


def test_a_line_of_several_products_is_named_in_the_askers_language():
    """The plural name is the catalogue's in each language, and so is the sentence it goes in."""
    from packaging.version import Version

    from situated.chains.release import ReleaseReading
    from situated.chains.release_history import line_text, plural_line

    declared = [Version("1.0"), Version("2.0")]
    ru, _ = line_text("Какие есть версии?", ReleaseReading(), declared, plural_line(Lang.RU),
                      Lang.RU)
    en, _ = line_text("Which versions are there?", ReleaseReading(), declared,
                      plural_line(Lang.EN), Lang.EN)
    assert ru == "Версии документов (2, от ранней к последней): 1.0, 2.0."
    assert en == "The documents have 2 versions, oldest first: 1.0, 2.0."

"""The catalogue of fixed texts (`chains.say.catalogue`): every name is said in every language the
app speaks, with the same values to fill in, so a new language is one entry per name and code
never falls back to writing prose of its own."""

from __future__ import annotations

import string

import pytest

from situated.chains.read.lang import Lang
from situated.chains.say.catalogue import TEXTS

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

    import situated.chains.versions.appearance_steps as module

    source = Path(module.__file__).read_text(encoding="utf-8")
    assert not any("а" <= c <= "я" or "А" <= c <= "Я" for c in source)


def test_a_line_of_several_products_is_named_in_the_askers_language():
    """The plural name is the catalogue's in each language, and so is the sentence it goes in."""
    from packaging.version import Version

    from situated.chains.read.release import ReleaseReading
    from situated.chains.read.said import read_said
    from situated.chains.versions.release_history import line_text, plural_line

    declared = [Version("1.0"), Version("2.0")]
    ru, _ = line_text(read_said("Какие есть версии?"), ReleaseReading(), declared, plural_line(Lang.RU),
                      Lang.RU)
    en, _ = line_text(read_said("Which versions are there?"), ReleaseReading(), declared,
                      plural_line(Lang.EN), Lang.EN)
    assert ru == "Версии документов (2, от ранней к последней): 1.0, 2.0."
    assert en == "The documents have 2 versions, oldest first: 1.0, 2.0."


def test_a_language_is_one_file_and_every_file_has_the_same_words():
    """The catalogue is the union of the language files, nothing of its own; each file has the
    same text names and the same kinds of word maps."""
    from situated.chains.say.catalogue import LANGUAGES

    assert set(LANGUAGES) == set(Lang)
    joined = {(n, lang): t for lang, words in LANGUAGES.items() for n, t in words.TEXTS.items()}
    assert joined == TEXTS
    kinds = {lang: set(words.NAMES) for lang, words in LANGUAGES.items()}
    assert len({frozenset(k) for k in kinds.values()}) == 1, kinds


# modules whose Cyrillic strings are not replies: month names read and said, instructions to a
# model (with examples), the ё → е fold of the stemmer, a calibration question asked of Russian
# documents and an evaluation case (never shown), and two field descriptions with an example
_NOT_REPLIES = {"words/ru/calendar.py", "prompts/extraction.py", "prompts/answer.py",
                "index/text.py",
                "calibration/questions.py", "eval/release_probe.py", "chains/read/extract.py",
                "chains/read/question.py"}


def test_russian_prose_is_said_only_in_the_russian_file():
    """Outside `words_ru.py`, Cyrillic appears only in question-parsing patterns (raw strings),
    docstrings and comments, and in the modules listed above with their reason."""
    import ast
    import io
    import re
    import tokenize
    from pathlib import Path

    import situated

    root = Path(situated.__file__).parent
    cyrillic, found = re.compile(r"[А-Яа-яЁё]"), []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in _NOT_REPLIES or rel == "chains/say/words_ru.py":
            continue
        source = path.read_text("utf-8")
        docs = {line for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
                for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)}
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            prefix = tok.string[:3].lower()
            if (tok.type == tokenize.STRING and cyrillic.search(tok.string)
                    and tok.start[0] not in docs and "r" not in prefix.split('"')[0]
                    .split("'")[0]):
                found.append(f"{rel}:{tok.start[0]}: {tok.string[:60]}")
    assert not found, found


@pytest.mark.unit
def test_a_pointer_to_other_releases_agrees_in_number():
    """"Nothing in version 2.0 answers this; versions 1.0 do" (issue 84): one release is
    "version 1.0 does", several "versions … do", in each language."""
    from packaging.version import Version

    from situated.chains.say.release_words import elsewhere_text

    one = elsewhere_text("2.0", False, [Version("1.0")], "en")
    assert "version 1.0 does" in one and "versions" not in one
    two = elsewhere_text("2.0", True, [Version("1.0"), Version("1.1")], "en")
    assert "versions 1.0, 1.1 do." in two, two
    ru = elsewhere_text("2.0", False, [Version("1.0")], "ru")
    assert "в версии 1.0." in ru and "версиях" not in ru

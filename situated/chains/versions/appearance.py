"""First appearance (docs/design.md "Releases"): "In which version was X added / removed /
deprecated?", "since which version …", «в какой версии появился …» — answered from the versions
themselves.

The subject X is what the question says besides how it asks (`subject_of`). A version
*carries* X when one of its readable blocks holds every term of X. The families searched are
those of the relevant blocks of a search over every version (so a page that was split or
renamed is followed); their versions are walked in order on the axis (release, else date):

* added: the first version that carries X, after one that does not (or the first version);
* removed: the first version that does not carry X, after one that does;
* deprecated: the first version whose block carrying X also says "deprecat…".

Both that version and the one before it are cited. The documents' own notes — a section of an
unversioned document (a changelog) headed by a release and carrying X — are shown beside the
computed answer, and said to disagree when their release is not the computed one.

A note that *states* the change of X (`states`: "Add `X` parameter to `Y`", "`X` is now
deprecated", «Удалён `X`»; X the object of the verb, not what it is added to) is the project
saying when X changed; first mention in the pages is an inference (pages lag and lead the
code). When such a note disagrees with the pages, it leads the answer and the pages' own
finding is given beside it (docs/design.md "Releases").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache

from packaging.version import InvalidVersion, Version

from situated.chains.read.release import holds, identifiers
from situated.chains.read.since_cues import DEBUT_WORDS
from situated.documents import Block, DocumentMeta, squashed
from situated.index.text import STOP_WORDS
from situated.index.versions import Versions
from situated.loaders.neutralise import inline
from situated.modes import Mode

_FRAME = re.compile(
    rf"\b(?:{DEBUT_WORDS})\b|"
    r"\b(?:in|since|from|with|which|what|when|was|were|did|does|do|is|are|has|have|had|the|a|an|"
    r"version|versions|release|releases|build|builds|first|minimum|lowest|least|added|add|"
    r"introduced|include|includes|included|rolled\s+out|"
    r"introduce|removed|remove|"
    r"dropped|deprecated|deprecate|appear|appeared|supported|support|become|became|available|"
    r"get|got|new|of|for|it|they|been|arrived?|land(?:ed)?|ship(?:ped)?|came|come|gain(?:ed)?|"
    r"there|(?<=been\s)around|accessible|at\s+least(?:\s+to)?|as\s+a\s+minimum(?:\s+to)?|"
    r"(?:(?<=need\s)|(?<=needs\s)|(?<=require\s)|(?<=requires\s))to|"
    r"on|can|could|use|using|start|starting|started|starts|show|showed|shown|up|"
    r"supporting|supports|brought|brings|bring|begin|began|begins|offering|offers|offer|"
    r"providing|provides|provide|having|i|we|you|need|needs|needed|require|requires|required|"
    r"made|makes|possible|enabled|unlocked|part\s+of|(?<=version\s)where|(?<=release\s)where|"
    r"works?(?=\s*[?.!]?\s*$)|"
    # there from the start, or added later ("Was X in quickq from day one, or added later?")
    r"day\s+one|(?<=the\s)(?:start|beginning|outset)|"
    r"or(?=\s+(?:was\s+it\s+|were\s+they\s+)?(?:added|introduced|came|arrived|shipped)\b)|"
    r"later(?=\s*[?.!]?\s*$)|"
    # … or arrived only in a later one, which ("Is it true that X only arrived in a later
    # version? Which one?"), and "What's" ("What's the version where X debuted?")
    r"only|(?<=\sa\s)later|(?<=which\s)one|(?<=what)['’]s|"
    r"arguments?|parameters?|options?|methods?|functions?|"
    r"classes|class|features?|settings?|flags?|keywords?|attributes?|propert(?:y|ies))\b|"
    r"(?<!\w)(?:в|с|со|на|какой|какая|каком|"
    r"когда|был|была|было|были|версии|версия|релиз\w*|выпуск\w*|"
    r"сборк\w*|сборок|появил\w*|"
    r"добавл\w*|удал\w*|убра\w*|устарел\w*|объявлен\w*|стал\w*|впервые|поддержк\w*|"
    r"начал\w*|поддержива\w*|поддерж\w*|получил\w*|добавил\w*|принес\w*|принёс|принесл\w*|"
    r"ввел\w*|ввёл|представил\w*|сделал\w*|частью|котор\w*|есть|перв\w*|доступн\w*|"
    # «с первого дня или его добавили позже?»
    r"дня|самого|(?<=\sили\s)его|или(?=\s+(?:его|её|их)\s+добав)|позже|позднее)(?!\w)",
    re.IGNORECASE)


class Kind(Mode):
    ADDED = "added"
    REMOVED = "removed"
    DEPRECATED = "deprecated"


class Basis(Mode):
    """What an appearance answer's release rests on."""

    PAGES = "pages"  # the first version on the axis whose pages show the change
    NOTES = "notes"  # a note of the documents that states it (a changelog entry, a history note)


# the words of each kind of change, in questions and in notes: the one list of them
_VERB = {
    Kind.ADDED: r"add(?:ed|s)?|introduc\w*|new|supports?|supported|expose[sd]?|"
                r"добавл\w*|добавил\w*|появил\w*|введ[её]н\w*",
    Kind.REMOVED: r"remov\w*|drop(?:s|ped)?|delet\w*|gone|удал[её]н\w*|удалил\w*|убран\w*|убрал\w*",
    Kind.DEPRECATED: r"deprecat\w*|(?:объявлен\w*\s+)?устаревш\w*|устарел\w*",
}


@lru_cache(maxsize=8)
def _kind_words(kind: Kind) -> re.Pattern:
    return re.compile(rf"(?<!\w)(?:{_VERB[kind]})(?!\w)", re.IGNORECASE)


def says_kind(text: str, kind: Kind) -> bool:
    """`text` uses a word of this kind of change ("deprecated", «удалён», "Added")."""
    return _kind_words(kind).search(text) is not None


def kind_of(question: str) -> Kind:
    if says_kind(question, Kind.DEPRECATED):
        return Kind.DEPRECATED
    if says_kind(question, Kind.REMOVED):
        return Kind.REMOVED
    return Kind.ADDED


@dataclass(frozen=True)
class Subject:
    """What the question asks about: the identifiers it names, looked for as written (case
    included: `proxies` is not `proxy`), else its words, lower case, each in the forms people
    write it (`_pattern`)."""

    identifiers: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    asked: str = ""  # the part of the question the subject was read from

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
        kept = tuple(w for w in self.words if _pattern(w).search(text))
        if not kept or kept == self.words or len(self.words) - len(kept) > 1:
            return self  # one word is how it asks ("possible"); more are what it asks
        return Subject(words=kept, narrowed=True)

    def _named_in(self, texts: list[str]) -> Subject:
        """Of several identifiers, those that pick candidates out: one most candidate blocks
        name ("Node.js" beside `partialDeepStrictEqual`) is the context, not the subject."""
        if len(self.identifiers) < 2:
            return self
        counts = {i: sum(_names(t, i) for t in texts) for i in self.identifiers}
        kept = tuple(i for i, n in counts.items() if 0 < n < max(2, len(texts) / 2))
        if not kept or len(kept) == len(self.identifiers):
            return self
        return Subject(identifiers=kept, narrowed=True)

    def said(self, query: str) -> str:
        """What was looked for as an answer says it: the identifiers as the question writes
        them, else its words without how it asks; neutralised, one line."""
        if self.identifiers:
            return inline(", ".join(self.identifiers))
        if self.narrowed:
            return inline(" ".join(self.words))
        query = self.asked or query
        said = re.sub(r"\s+", " ", _FRAME.sub(" ", query.replace("`", ""))).strip(" ?.!,;:")
        words = said.split()
        while words and words[-1].casefold() in STOP_WORDS:  # "… comparison to" of "added to"
            words.pop()
        return inline(" ".join(words)) or inline(query)


def _names(text: str, name: str) -> bool:
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
    added = _ADDED_TO.search(query)
    if added and (before := query[:added.start()]) and _content(before):
        query = before
    names = {squashed(c) for n in context for c in (n, *n.split())}
    named = tuple(i for i in identifiers(query) if squashed(i) not in names)
    for name in sorted(context, key=len, reverse=True):  # the words: without them
        query = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w.])", " ", query, flags=re.IGNORECASE)
    if named:
        return Subject(identifiers=named, asked=query)
    words = re.findall(r"[\w][\w./-]*[\w]|\w", _FRAME.sub(" ", query.replace("`", " ")))
    return Subject(words=tuple(dict.fromkeys(
        w.lower() for w in words if w.lower() not in STOP_WORDS and (len(w) > 1 or w.isdigit()))),
        asked=query)


def _content(text: str) -> bool:
    """`text` holds a word besides how a first-appearance question asks."""
    return any(w.lower() not in STOP_WORDS for w in re.findall(r"\w+", _FRAME.sub(" ", text)))


_EN_ENDING = re.compile(r"(?:ies|es|s|ed|ing|e)$")
_RU_ENDING = re.compile(r"[аеёиийоуыьэюя]{1,2}$")


@lru_cache(maxsize=4096)
def _pattern(word: str) -> re.Pattern:
    """A plain word of the question in the forms people write it ("schedule tasks" finds
    "scheduled task"): its stem and a short ending. A word with digits, dots or underscores
    (a name, a number) stands as written."""
    stem = word
    if re.fullmatch(r"[a-z]{4,}", word):
        stem = _EN_ENDING.sub("", word)
        if len(stem) >= 3:
            return re.compile(rf"(?<![\w-]){re.escape(stem)}(?:e|es|s|ed|d|ing|ies)?(?![\w-])",
                              re.IGNORECASE)
    elif re.fullmatch(r"[а-яё]{5,}", word):
        stem = _RU_ENDING.sub("", word)
        return re.compile(rf"(?<![\w-]){re.escape(stem)}[а-яё]{{0,3}}(?![\w-])",
                          re.IGNORECASE)
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.IGNORECASE)


def carries(block: Block, subject: Subject) -> bool:
    """Every term of the subject stands in the block (its heading path included)."""
    return carries_line(f"{' '.join(block.path)} {block.title} {block.text}", subject)


def carries_line(text: str, subject: Subject) -> bool:
    """Every term of the subject stands in `text`."""
    if subject.identifiers:
        return all(_names(text, t) for t in subject.identifiers)
    return bool(subject.words) and all(_pattern(t).search(text) for t in subject.words)


@dataclass(frozen=True)
class Step:
    """One version on the axis and its block that carries X (None: it does not)."""

    meta: DocumentMeta
    block: Block | None
    first: Block | None  # its first readable block (cited when it does not carry X)


@dataclass(frozen=True)
class Found:
    kind: Kind
    at: Step  # the version the answer names
    before: Step | None  # the version before it (None: X is in the first version)


def walk(steps: list[Step], kind: Kind) -> Found | None:
    """The version where X was added, removed or deprecated, and the one before it."""
    prev: Step | None = None
    for step in steps:
        here = step.block is not None
        if kind is Kind.ADDED and here and (prev is None or prev.block is None):
            return Found(kind, step, prev)
        if kind is Kind.REMOVED and not here and prev is not None and prev.block is not None:
            return Found(kind, step, prev)
        if (kind is Kind.DEPRECATED and step.block is not None
                and says_kind(step.block.text, Kind.DEPRECATED)):
            return Found(kind, step, prev)
        prev = step
    return None


def axis_steps(versions: Versions, metas: list[DocumentMeta], subject: Subject,
               readable) -> list[Step]:
    """The documents grouped by their release (else their start), in order; per position the
    first one that carries X (a split page's versions share a release). Only the families
    that carry X somewhere are walked: a page that never documents X (the assert page, for
    an error code) says nothing of when X came."""
    read = {m.source_id: versions.blocks_of(m.source_id, readable) for m in metas}
    hit = {sid: next((b for b in blocks if carries(b, subject)), None)
           for sid, blocks in read.items()}
    holding = {versions.family_of(m) for m in metas if hit[m.source_id] is not None}
    if holding:
        metas = [m for m in metas if versions.family_of(m) in holding]
    groups: dict[tuple[int, int], list[DocumentMeta]] = {}
    for m in sorted(metas, key=versions.order):
        groups.setdefault(versions.order(m), []).append(m)
    out = []
    for members in groups.values():
        chosen: Step | None = None
        for m in members:
            blocks, found = read[m.source_id], hit[m.source_id]
            if found is not None or chosen is None:
                chosen = Step(m, found, blocks[0] if blocks else None)
            if found is not None:
                break
        if chosen is not None:
            out.append(chosen)
    return out


_HISTORY = re.compile(r"History: ([^\n]*)")
_HISTORY_ITEM = re.compile(r"\b(added|deprecated|removed) in v?(\d+(?:\.\d+){0,3}"
                           r"(?:[-.]?(?:a|b|rc|alpha|beta|post|dev)\.?\d*)?)")


def page_notes(steps: list[Step], kind: Kind) -> list[tuple[str, Block]]:
    """The pages' own history notes ("History: added in v14.2.0; …", written by the Markdown
    loader from `<!-- YAML … -->`) of the latest version that carries X: (release, block) of
    this kind of change."""
    carrying = [s.block for s in steps if s.block is not None]
    if not carrying:
        return []
    block = carrying[-1]
    out = []
    for line in _HISTORY.findall(block.text):
        for what, release in _HISTORY_ITEM.findall(line):
            if what == kind.value:
                try:
                    out.append((str(Version(release)), block))
                except InvalidVersion:
                    continue
    return out


def noted(blocks: list[Block], subject: Subject,
          release_of: Callable[[Block], str | None]) -> list[tuple[str, Block]]:
    """Notes of the documents themselves: blocks of release notes, or of an unversioned
    document (a changelog) whose heading is a release, which carry X — (release, block),
    oldest release first; `release_of` says which release a block speaks of."""
    out = []
    for b in blocks:
        release = release_of(b)
        if release is None or not carries(b, subject):
            continue
        try:
            out.append((Version(release), b))
        except InvalidVersion:
            continue
    return [(str(v), b) for v, b in sorted(out, key=lambda x: x[0])]


# what may stand between the verb and its object ("Add support for `X`", "Drop the `X` flag")
_FRAME_WORDS = re.compile(r"^(?:(?:the|a|an|new|missing|optional|support|for|of|"
                          r"поддержк\w*|новы\w*)\s+)+", re.IGNORECASE)
# where the verb's object ends: what it is added to, with, for …
_GOVERNS = re.compile(r"\s(?:to|on|in|into|for|of|from|within|at|by|when|so|which|that|"
                      r"allowing|using|instead|via|because|в|к|для|из|на|при|вместо)\s|[,;:]|"
                      r"(?<![\w.])\(", re.IGNORECASE)  # "(Pull #1268)", not a call's "("
_PRONOUN = re.compile(r"it|they|this|these|он|она|оно|они|это", re.IGNORECASE)
_CALL = re.compile(r"[\w.]+\((?!\s*\))")
_AUX = (r"(?:is|are|was|were|has\s+been|have\s+been|now|been|был\w*|теперь)\s+"
        r"(?:(?:now|fully|also|officially|теперь|полностью)\s+){0,2}")


_SENTENCE_BREAK = re.compile(r"\n|(?<=[.!?])\s+")


def sentences_of(text: str) -> list[str]:
    """A note's lines and sentences, as its statements are read."""
    return _SENTENCE_BREAK.split(text)


@lru_cache(maxsize=8)
def _statement(kind: Kind) -> tuple[re.Pattern, re.Pattern]:
    """(verb first, subject first) forms of a statement of this kind of change."""
    verb = _VERB[kind]
    return (re.compile(rf"^\W*(?:{verb})(?!\w)\s+(.*)$", re.IGNORECASE),
            re.compile(rf"^(.{{0,80}}?)\s+{_AUX}(?:{verb})(?!\w)", re.IGNORECASE))


def states(block: Block, subject: Subject, kind: Kind) -> bool:
    """A line of the note states this kind of change of the subject itself: the verb leads and
    the subject is its object ("Add `chunk_size` parameter to `iter_raw()`" states `chunk_size`,
    not `iter_raw`), or the subject leads and the verb follows it ("`X` is now deprecated")."""
    active, passive = _statement(kind)
    before = ""
    for line in sentences_of(block.text):
        line = line.strip(" -*•\t")
        if (m := active.match(line)) is not None:
            obj = _FRAME_WORDS.sub("", m.group(1))
            if _about(_head(obj), subject):
                return True
        if (m := passive.match(line)) is not None:
            said = m.group(1)
            if _PRONOUN.fullmatch(said.strip()):  # "… deprecated. It is now fully removed."
                said = _head(before)
            if "previous" not in m.group(1).lower() and _about(said, subject):
                return True
        before = line
    return False


def _head(text: str) -> str:
    """`text` up to the first word that governs something else ("to", "in favour", ","),
    outside the parentheses of a call (`Timeout(5.0, connect_timeout=60.0)` is one name)."""
    for m in _GOVERNS.finditer(text):
        if text.count("(", 0, m.start()) <= text.count(")", 0, m.start()):
            return text[:m.start()]
    return text


def _about(text: str, subject: Subject) -> bool:
    """`text` names the subject itself, not a call of it with arguments
    (`httpx.Timeout(5.0, connect_timeout=60.0)` is about an argument)."""
    if not carries_line(text, subject):
        return False
    return not any(_CALL.match(text[m.start():]) for x in subject.identifiers
                   for m in re.finditer(rf"(?<![\w.]){re.escape(x)}", text))


def heads(block: Block, subject: Subject) -> bool:
    """The block's own heading names the subject (its history note is the subject's)."""
    return carries_line(f"{' '.join(block.path)} {block.title}", subject)


__all__ = [
    "Basis",
    "Found",
    "Kind",
    "Step",
    "Subject",
    "axis_steps",
    "carries",
    "carries_line",
    "heads",
    "kind_of",
    "noted",
    "page_notes",
    "sentences_of",
    "states",
    "subject_of",
    "walk",
]

"""A question naming an identifier is answered from that identifier's entry (docs/design.md
"Entries"). API references are made of entries headed by what they document — a call
signature (`assert.partialDeepStrictEqual(actual, expected[, message])`), `Class: X`, `X.y`, an
error code (`EMFILE`) — each holding the lines people ask about. In the evidence of a question
that names one ("the stability of assert.partialDeepStrictEqual", "the Error class"), that
entry's units lead, the line carrying the asked property first (`Stability: …`, the signature,
`Default: …`, the import line, `History: …`), and other entries' lines are never quoted in
their place ("Stability: 3 - Legacy" of another method). Read from the document's structure
and the question's words, never from a list of sites."""

from __future__ import annotations

import re
from dataclasses import dataclass

from situated.chains.read.entry_words import (
    ASKED,
    KIND_NAMED,
    MODULE_NAMED,
    NOT_NAMES,
    Property,
    asked_property,
)
from situated.chains.read.release import holds, identifiers
from situated.documents import extract_codes
from situated.index.text import STOP_WORDS
from situated.loaders.sentences import TERM_ITEM, evidence_units

_SIGNATURE = re.compile(r"^(?:new\s+)?[A-Za-z_$][\w$.]*\s*\(.*\)\s*$")
_KIND_HEAD = re.compile(r"^(?:Class|Event|Module|Interface|Enum|Namespace):\s*(\S.*)$")
_CAPS = re.compile(r"\b[A-Z][A-Z0-9_]{2,}\b")
# the line of an entry that carries each property
_CARRIES = {
    Property.STABILITY: re.compile(r"^\s*(?:[-*]\s*)?Stability\s*:", re.IGNORECASE),
    Property.DEFAULT: re.compile(r"^\s*(?:[-*]\s*)?Default\s*:|\bdefaults?\s+(?:is|to)\s+"
                                 r"(?:[`'\"\[\d]|True\b|False\b|None\b)|"
                                 r"\bdefault\b[^.;]{0,80}?\b\d|\(defaults?\s+[^)]+\)",
                                 re.IGNORECASE),
    Property.TYPE: re.compile(r"^\s*(?:[-*]\s*)?(?:Type|Returns)\s*:|^\s*\{[\w|<>\[\]. ]+\}"),
    Property.IMPORT: re.compile(r"\brequire\(|^\s*(?:import|from)\s+\S", re.IGNORECASE),
    Property.HISTORY: re.compile(r"^\s*History\s*:|\badded\s+in\s+v?\d", re.IGNORECASE),
    Property.DEPRECATION: re.compile(r"\bdeprecat\w*", re.IGNORECASE),
    Property.EXAMPLE: re.compile(r"[;{}=]|\w\(.*\)"),
}
MAX_ENTRY_HEADING = 160  # characters: a longer title is prose, not an entry's name


def named_things(question: str) -> list[str]:
    """The identifiers the question names, and the names it says are a class, method, module
    … ("the Error class", "the node:assert module": `assert`)."""
    found = [*identifiers(question), *extract_codes(question), *_CAPS.findall(question)]
    before, after = KIND_NAMED  # "the assert module"; "class Error" (a name, not a verb)
    found += [m.group(1) for m in before.finditer(question)
              if m.group(1).casefold() not in NOT_NAMES]
    found += [m.group(1) for m in after.finditer(question)
              if m.group(1).casefold() not in NOT_NAMES and not m.group(1).islower()]
    names = []
    for name in found:
        name = name.strip("`.").split(":")[-1]  # "node:assert" names the module `assert`
        if len(name) >= 2 and name not in names:
            names.append(name)
    return names


def _path(heading: str) -> list[str]:
    """A block's title as the headings above it ("Class: Error › error.code")."""
    return [p.strip().strip("`") for p in heading.split("›")]


def _own(heading: str) -> str:
    """The block's own heading, the last of its title's path."""
    return _path(heading)[-1]


def modules_named(question: str) -> list[str]:
    """The names the question says are modules ("the node:assert module": `assert`)."""
    return [next(g for g in m.groups() if g).split(":")[-1]
            for m in MODULE_NAMED.finditer(question)]


def is_entry_heading(heading: str) -> bool:
    """A title that names an identifier: a call signature, `Class: X`, `X.y`, an error
    code (the block's own heading, the last of its path)."""
    heading = _own(heading)
    if not heading or len(heading) > MAX_ENTRY_HEADING:
        return False
    return bool(_SIGNATURE.match(heading) or _KIND_HEAD.match(heading)
                or identifiers(heading) or _CAPS.fullmatch(heading) or extract_codes(heading))


def _subject(heading: str) -> str:
    """What an entry's title documents: `assert.partialDeepStrictEqual` of its signature,
    `assert.CallTracker` of `Class: assert.CallTracker`, `Error` of `new Error(message)`."""
    heading = heading.strip().strip("`")
    kind = _KIND_HEAD.match(heading)
    heading = kind.group(1) if kind else heading
    heading = re.sub(r"^new\s+", "", heading)
    return re.split(r"[\s(]", heading, maxsplit=1)[0].strip("`")


def _heads(heading: str, name: str) -> bool:
    """The block is in `name`'s entry: a heading of its path documents it
    (`assert.partialDeepStrictEqual(…)` heads `partialDeepStrictEqual` and
    `assert.partialDeepStrictEqual`, never the module `assert`; "Class: Error › error.code"
    is in Error's entry), is headed by the code (`E-417 Battery fault`), or is the module's own
    title ("Assert")."""
    for part in _path(heading):
        if not is_entry_heading(part) and part.casefold() != name.casefold():
            continue  # "CORS preflight requests" is prose about CORS, not its entry
        subject = _subject(part)
        if subject == name or subject.endswith("." + name) or part.casefold() == \
                name.casefold() or (extract_codes(name) and holds(part, name)):
            return True
    return False


@dataclass(frozen=True)
class EntryFocus:
    """Which evidence blocks are the named thing's entries, which are other entries, and the
    property asked."""

    entries: frozenset[int] = frozenset()  # ranks of the named thing's entries
    others: frozenset[int] = frozenset()  # ranks of other things' entries
    asked: Property | None = None

    def carries(self, unit: str) -> bool:
        """The unit is the line that carries the asked property."""
        pattern = _CARRIES.get(self.asked) if self.asked else None
        return bool(pattern and pattern.search(unit))

    def titled(self, rank: int, heading: str) -> bool:
        """The entry's title is itself the answer: the signature a signature question asks."""
        return (rank in self.entries and self.asked is Property.SIGNATURE
                and _SIGNATURE.match(_own(heading)) is not None)


def property_lines(question: str, units: list[list[str]]) -> set[tuple[int, str]]:
    """Without an entry named: the units (`units`: each evidence block's) that state the
    property the question asks (a default, a type) of the thing it asks about — they carry the
    property and share a word of the question besides the property's own ("after 5 seconds"
    for "the default timeout")."""
    asked = asked_property(question)
    if asked not in (Property.DEFAULT, Property.TYPE):
        return set()
    pattern = _CARRIES[asked]
    words = {w.casefold()[:5] for w in re.findall(r"[^\W\d_]{4,}", question)
             if w.casefold() not in STOP_WORDS and not re.fullmatch(ASKED[asked], w, re.IGNORECASE)}
    return {(r, u) for r, block in enumerate(units) for u in block
            if pattern.search(u) and any(w in u.casefold() for w in words)}


def entry_focus(question: str, evidence: list[tuple[str, str]],
                names: list[str] | None = None) -> EntryFocus:
    """The entries of `evidence` — (label, body) pairs, the title first — the question's
    named things (`names`, read here when not given) have; nothing when it names none or no
    block is its entry."""
    names = named_things(question) if names is None else names
    if not names:
        return EntryFocus()
    headings = [body.split("\n", 1)[0] for _, body in evidence]
    entries = frozenset(r for r, h in enumerate(headings) if any(_heads(h, n) for n in names))
    modules = modules_named(question)
    if not entries and modules:  # a module's entry is its page's opening, with no name
        entries = frozenset(r for r, (h, (_, body)) in enumerate(zip(headings, evidence,
                                                                     strict=True))
                            if not is_entry_heading(h) and any(holds(body, n) for n in modules))
    if not entries:
        return EntryFocus()
    others = frozenset(r for r, h in enumerate(headings)
                       if r not in entries and is_entry_heading(h))
    return EntryFocus(entries, others, asked_property(question))


def units_of(rank: int, body: str, entry: EntryFocus) -> list[str]:
    """The units a block offers: its title first where the title is the answer (a
    signature), then its sentences."""
    heading = body.split("\n", 1)[0]
    units = evidence_units(body)
    return [_own(heading), *units] if entry.titled(rank, heading) else units


_DEFINED = re.compile(r"^[-*+]\s+`?([\w.$]+)")


def defines(unit: str, names: list[str]) -> bool:
    """The unit is a list item defining one of `names` ("- max_age - Sets … Defaults to
    600."): the named thing's own definition, wherever its entry is."""
    m = _DEFINED.match(unit)
    return m is not None and TERM_ITEM.match(unit) is not None and any(
        m.group(1) == n or m.group(1).endswith("." + n) for n in names)


@dataclass(frozen=True)
class EntryLeads:
    """What the entries and definitions a question names decide of its evidence: the units
    that lead (3: the asked property's line or a definition in the section asked; 2: a stated
    default or another definition; 1: the entry's other units) and those never quoted."""

    entry: EntryFocus
    lead: dict[tuple[int, str], int]
    dropped: frozenset[tuple[int, str]]


def entry_leads(question: str, evidence: list[tuple[str, str]],
                units: list[list[str]]) -> EntryLeads:
    """`EntryLeads` of `evidence`, each block's units (`units`) read once by the caller."""
    names = named_things(question)
    entry = entry_focus(question, evidence, names)
    lead: dict[tuple[int, str], int] = {}
    if not entry.entries:
        lead |= dict.fromkeys(property_lines(question, units), 2)
    words = {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", question)
             if w.casefold() not in STOP_WORDS}
    for rank, block in enumerate(units):  # the named thing's definition item leads; first
        heading = evidence[rank][1].split("\n", 1)[0]  # in the section the question names
        for u in (u for u in block if names and defines(u, names)):
            own = {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", u.split(" - ", 1)[0])}
            lead[(rank, u)] = 3 if any(w in heading.casefold() for w in words - own) else 2
        if rank in entry.entries:
            for u in units_of(rank, evidence[rank][1], entry):
                first = entry.carries(u) or entry.titled(rank, heading) and u == _own(heading)
                lead[(rank, u)] = max(lead.get((rank, u), 0), 3 if first else 1)
    dropped = frozenset((r, u) for r in entry.others for u in units[r])
    return EntryLeads(entry, lead, dropped)


_CODE_SPANS = re.compile(r"`[^`\n]+`(?:\s*,\s*`[^`\n]+`)*")


def entry_of(heading: str) -> str | None:
    """The identifier a block's own heading is nothing but ("`NO_PROXY`", "`A`, `B`",
    "Client.post(url)", "Class: Error", "MAX_SIZE"), as the heading writes it; None for a
    heading of words ("Why does xAI use cookies?", "Introduction (part 2 of 2)", "DEFINITIONS")."""
    own = heading.split("›")[-1].strip()
    signature = _SIGNATURE.match(own) and "`" not in own  # a link's address is no argument
    constant = _CAPS.fullmatch(own) and re.search(r"[_\d]", own)  # not a heading in capitals
    if (_CODE_SPANS.fullmatch(own) or _KIND_HEAD.match(own) or constant
            or (signature and identifiers(re.sub(r"^new\s+", "", own).split("(", 1)[0]))):
        return own
    return None


def names_entry(text: str, entry: str) -> bool:
    """`text` names what the entry documents (its subject, as written)."""
    subject = _subject(entry).strip("`,")
    return bool(subject) and subject in text


def own_heading(heading: str) -> str:
    """The block's own heading (`_own`): the title a signature question quotes."""
    return _own(heading)


__all__ = [
    "EntryFocus",
    "defines",
    "entry_focus",
    "entry_of",
    "is_entry_heading",
    "named_things",
    "names_entry",
    "own_heading",
    "property_lines",
    "units_of",
]

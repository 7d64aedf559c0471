"""A thing a first-appearance question describes in other words than any version writes
("Since which version can I compress without losing any quality?"), read as the name the note
that states it gives ("Add `--lossless` to compress without any loss"): `named_by_meaning`; and
the answer then says what it was read as (`read_as`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from situated.chains.contract import Answer, Status
from situated.chains.read.change_kind import Kind, says_kind
from situated.chains.read.release import identifiers
from situated.chains.read.subject import Subject
from situated.chains.say import wording as w
from situated.chains.say.wording import Lang
from situated.chains.versions.appearance import is_note
from situated.index.sentences import block_units, filled
from situated.index.text import mostly_latin

if TYPE_CHECKING:
    from situated.chains.context import StepContext
    from situated.retrievers.hybrid import SearchResult

_FLAG = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]+")
# a name to look for is one token: never a link the note's Markdown made a code span, a path or
# a command ("`https://…/proxies/#socks`", "`pip install httpx[socks]`")
_ONE_NAME = re.compile(r"(?!\w+://)-{0,2}[A-Za-z_][\w.:-]*")


def named_by_meaning(ctx: StepContext, found: SearchResult, subject: Subject,
                     kind: Kind) -> Subject | None:
    """The name a note gives what `subject` describes: of the note lines among the relevant
    blocks the question's search `found` that state this kind of change (`says_kind`: "Add
    `--lossless` to compress without any loss."), the one closest in meaning to the question
    (`_cosines`: over the floor of the model that reads both), and the first name it writes
    (a flag or an identifier). None where no line is that close, or the closest names
    nothing."""
    notes = [b.block_id for b in found.blocks if is_note(ctx.versions, b.source_id)]
    lines = [u for u in block_units(b.text for b in ctx.versions.read_blocks(notes).values())
             if says_kind(u, kind)]
    read = _cosines(ctx, found, subject.query, lines) if lines else None
    if read is None:
        return None
    name = closest_name(lines, *read)
    return None if name is None else Subject(identifiers=(name,), asked=subject.asked,
                                             query=subject.query)


def closest_name(lines: list[str], cosines: np.ndarray, floor: float) -> str | None:
    """The first name the line closest to the question writes, where it is over `floor`. A
    closest line that names nothing gives nothing: the next line's name is not what was
    described (httpx's "Support for zstd content decoding … is added" names nothing, and a
    Russian question about zstd was read as the `httpx.Timeout` of the line after it)."""
    best = int(np.argmax(cosines))
    names = names_in_line(lines[best])
    return names[0] if names and cosines[best] >= floor else None


def _cosines(ctx: StepContext, found: SearchResult, question: str,
             lines: list[str]) -> tuple[np.ndarray, float] | None:
    """Each line's cosine with the question and the floor it must reach: MiniLM's and the
    sentence floor where MiniLM reads the question and the lines (mostly Latin script), else
    multilingual-e5's and its floor for the pair of scripts (MiniLM scores an unrelated
    Russian question 0.65); None where neither model reads them."""
    index, th = ctx.engine.index, ctx.engine.thresholds_of(found.filter, found.admitted)
    if all(map(mostly_latin, [question, *lines])):
        if th.min_sentence is None:
            return None
        vectors = filled(index.sentences.lookup(lines), lines, index.embeddings.encode_few)
        return vectors @ index.embeddings.encode_query(question), th.min_sentence
    if index.multilingual is None:
        return None
    same = all(mostly_latin(x) == mostly_latin(question) for x in lines)
    return (index.multilingual.sentence_vectors(lines) @ index.multilingual.encode_query(
        question), th.multilingual_floor(same))


def names_in_line(line: str) -> list[str]:
    """The names a note line writes, in its order: flags (`--lossless`, which block text keeps
    without its backticks) and identifiers (`release.identifiers`), each one token."""
    found = [(m.start(), m.group()) for m in _FLAG.finditer(line)]
    found += [(line.find(i), i) for i in identifiers(line)]
    return [name for _, name in sorted(found) if _ONE_NAME.fullmatch(name)]


def read_as(built: Answer, name: str, lang: Lang) -> Answer:
    """An answer about `name` that the question described in other words opens by saying what
    it was read as; a stop is left as it is."""
    if built.status is not Status.ANSWERED:
        return built
    lead = w.fixed("described_as", lang, x=name)
    return built.model_copy(update={"answer": f"{lead} {built.answer}"})


__all__ = ["closest_name", "named_by_meaning", "names_in_line", "read_as"]

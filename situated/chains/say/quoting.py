"""How a quoted unit is shaped in the offline answer (docs/design.md "The offline answer opens
with what answers"): a unit that announces a list or code ("… four categories of errors:",
"You can stream:") brings what it announces, and an item of such a list brings its lead and
the list; a question the document asks brings its answer; a fenced code block is quoted whole,
on lines of its own, its label on the line after it."""

from __future__ import annotations

import re

from situated.loaders.neutralise import is_instruction
from situated.loaders.sentences import is_code

MAX_LIST_ITEMS = 12  # list items a unit that announces a list brings with it
_LIST_ITEM = re.compile(r"^(?:[-*+•]|\d{1,3}[.)])\s")


def _is_question(unit: str) -> bool:
    return unit.rstrip().endswith("?")


def unanswered(units: list[str], pos: int) -> bool:
    """A question the document asks with no answer after it (a contents line of questions, a
    question closing a block): it shares the asker's words and answers nothing."""
    return _is_question(units[pos]) and (pos + 1 >= len(units) or _is_question(units[pos + 1]))


def with_list(text: str, pos: int, units: list[str]) -> tuple[str, list[int]]:
    """The unit `text` at `pos` of `units`, and what it needs after it: the list items, or the
    code block, that follow a unit that announces them ("… four categories of errors:"), also
    when the unit is one of those items (its lead and list instead); the answer that follows a
    question the document asks ("What is collected? We collect …"); a lead, an item or a
    question quoted alone says little. Returns the text and the positions quoted."""
    taken = [pos]
    lead = _lead_of(units, pos)
    if lead is not None:  # an item of a list: the list comes with its lead
        return with_list(units[lead], lead, units)
    if _is_question(text) and pos + 1 < len(units) and not is_instruction(units[pos + 1]):
        return joined([text, units[pos + 1]]), [pos, pos + 1]
    if announces_code(units, pos):
        return joined([text, units[pos + 1]]), [pos, pos + 1]
    if not text.rstrip().endswith(":"):
        return text, taken
    items = []
    for at in range(pos + 1, min(len(units), pos + 1 + MAX_LIST_ITEMS)):
        if not _LIST_ITEM.match(units[at]) or is_instruction(units[at]):
            break
        items.append(units[at])
        taken.append(at)
    return " ".join([text, *items]), taken


def announces_code(units: list[str], pos: int) -> bool:
    """The unit at `pos` leads into the code block right after it: it ends with a colon or an
    ellipsis ("You can do so by first making sure to install the optional HTTP/2
    dependencies..." before `pip install httpx[http2]`)."""
    return (pos + 1 < len(units) and is_code(units[pos + 1])
            and units[pos].rstrip().endswith((":", "...", "…")))


def brings_code(units: list[str], pos: int) -> bool:
    """The unit at `pos` is a code block or leads into one."""
    return is_code(units[pos]) or announces_code(units, pos)


def _lead_of(units: list[str], pos: int) -> int | None:
    """Where the lead of the list item at `pos` stands (the unit before the list, ending with
    a colon), or None: not an item, or a list with no lead, or one too long to bring whole."""
    if not _LIST_ITEM.match(units[pos]):
        return None
    at = pos - 1
    while at >= 0 and _LIST_ITEM.match(units[at]):
        at -= 1
    if at < 0 or not units[at].rstrip().endswith(":") or pos - at > MAX_LIST_ITEMS:
        return None
    return at


def joined(parts: list[str]) -> str:
    """Units one after another: a space between them, a line break before a code block (a
    fence opens a line of its own)."""
    return "".join(("\n" if is_code(p) else " ") + p if i else p for i, p in enumerate(parts))


def _ends_in_code(text: str) -> bool:
    last = text.rsplit("\n", 1)
    return len(last) == 2 and is_code(last[1])


def _holds_code(text: str) -> bool:
    return any(is_code(line) for line in text.splitlines())


class Quotation:
    """What an answer quotes, in order, up to `most` units: the same words once (a page at two
    releases), one code block at most (beside the first, a second is another page's example:
    "How do I send JSON with httpx?" quoted three, two of a mock transport); `took` says which
    positions (block rank, unit) are quoted, list items brought by their lead included."""

    def __init__(self, most: int):
        self.most = most
        self.parts: list[tuple[str, str]] = []  # (text, label)
        self._at: list[tuple[int, int]] = []  # each part's (block rank, first unit)
        self._taken: set[tuple[int, int]] = set()

    @property
    def full(self) -> bool:
        return len(self.parts) >= self.most

    def took(self, rank: int, pos: int) -> bool:
        return (rank, pos) in self._taken

    def add(self, rank: int, taken: list[int], text: str, label: str, step: bool = False) -> None:
        """Quote `text`, unless it was quoted or it is a second code block; `step`: one of a
        procedure's code steps from one section, which may follow another and goes before a
        quoted part of its section that comes after it there."""
        self._taken.update((rank, p) for p in taken)
        if any(text == said for said, _ in self.parts) or (not step and
                _holds_code(text) and any(_holds_code(said) for said, _ in self.parts)):
            return
        at = (rank, min(taken))
        i = next((i for i, (r, p) in enumerate(self._at) if step and r == rank and p > at[1]),
                 len(self.parts))
        self.parts.insert(i, (text, label))
        self._at.insert(i, at)

    @property
    def ranks(self) -> set[int]:
        """The blocks (by rank) a quoted unit comes from."""
        return {rank for rank, _ in self._taken}

    def lead(self, i: int) -> None:
        """The `i`th quoted part first, the others after it in their order."""
        self.parts.insert(0, self.parts.pop(i))
        self._at.insert(0, self._at.pop(i))

    def text(self) -> str:
        """The answer: each unit with its label after it, a sentence closed by a full stop
        where it had none; after a code block, the label on a line of its own (a fence is
        closed by a line of its own)."""
        return joined([f"{text}\n[{label}]" if _ends_in_code(text) else
                       f"{text if text.endswith(('.', '!', '?')) else text + '.'} [{label}]"
                       for text, label in self.parts])


__all__ = ["MAX_LIST_ITEMS", "Quotation", "announces_code", "brings_code", "joined", "unanswered",
           "with_list"]

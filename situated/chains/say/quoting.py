"""How a quoted unit is shaped in the offline answer (docs/design.md "The offline answer opens
with what answers"): a unit that announces a list or code ("… four categories of errors:",
"You can stream:") brings what it announces; a question the document asks brings its answer; a
fenced code block is quoted whole, on lines of its own, its label on the line after it."""

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
    code block, that follow a unit that announces them ("… four categories of errors:"); the
    answer that follows a question the document asks ("What is collected? We collect …"); a
    lead or a question quoted alone says nothing. Returns the text and the positions quoted."""
    taken = [pos]
    if _is_question(text) and pos + 1 < len(units) and not is_instruction(units[pos + 1]):
        return joined([text, units[pos + 1]]), [pos, pos + 1]
    if not text.rstrip().endswith(":"):
        return text, taken
    if pos + 1 < len(units) and is_code(units[pos + 1]):
        return joined([text, units[pos + 1]]), [pos, pos + 1]
    items = []
    for at in range(pos + 1, min(len(units), pos + 1 + MAX_LIST_ITEMS)):
        if not _LIST_ITEM.match(units[at]) or is_instruction(units[at]):
            break
        items.append(units[at])
        taken.append(at)
    return " ".join([text, *items]), taken


def joined(parts: list[str]) -> str:
    """Units one after another: a space between them, a line break before a code block (a
    fence opens a line of its own)."""
    return "".join(("\n" if is_code(p) else " ") + p if i else p for i, p in enumerate(parts))


def _ends_in_code(text: str) -> bool:
    last = text.rsplit("\n", 1)
    return len(last) == 2 and is_code(last[1])


def quotation(quotes: list[tuple[str, str]]) -> str:
    """The quoted (text, label) pairs as the answer: each unit with its label after it, a
    sentence closed by a full stop where it had none; after a code block, the label on a line of
    its own (a fence is closed by a line of its own)."""
    return joined([f"{text}\n[{label}]" if _ends_in_code(text) else
                   f"{text if text.endswith(('.', '!', '?')) else text + '.'} [{label}]"
                   for text, label in quotes])


__all__ = ["MAX_LIST_ITEMS", "joined", "quotation", "unanswered", "with_list"]

"""`situated chat`: one session that keeps the index and the model open, so each question
costs its answer, not a start-up; a clarification is answered on the next line (the reply is
read with the question it completes and the situation carried, as `ask --follows` does)."""

from __future__ import annotations

from collections.abc import Callable

from situated.chains.contract import Answer, Status
from situated.chains.state import check_question
from situated.errors import QuestionError, SituatedError
from situated.situation import Scope, Situation

QUIT = {"", "exit", "quit", ":q"}


def chat_loop(chain, scope: Scope, read: Callable[[str], str], show: Callable[[Answer], None],
              fail: Callable[[str], None], max_chars: int) -> int:
    """Questions from `read` until an empty line, `exit` or the end of input; returns how many
    were answered by the chain. After a clarification the next line is its reply."""
    follows: str | None = None
    carried: Situation | None = None
    asked = 0
    while True:
        try:
            line = read("clarify › " if follows else "? ")
        except EOFError:
            return asked
        question = line.strip()
        if question.lower() in QUIT:
            return asked
        try:
            check_question(question, max_chars)
            answer = chain.invoke({"question": question, "situation": carried, "scope": scope,
                                   "follows": follows})
        except (QuestionError, SituatedError) as exc:
            fail(str(exc))
            continue
        asked += 1
        show(answer)
        if answer.status is Status.CLARIFY:  # the next line completes this question
            follows = follows or question
            carried = Situation.model_validate(answer.situation.model_dump())
        else:
            follows, carried = None, None


__all__ = ["chat_loop"]

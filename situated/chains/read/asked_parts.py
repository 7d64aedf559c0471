"""The parts of a question that asks two things ("Which environment variables does httpx use
for proxies and how do I exclude hosts?", «Что делает X и где он стоит?»): the clauses joined by
"and" (or a comma, or a second question mark) where the second opens with a word of asking. A
list of things asked of one subject ("the default allow_methods and max_age") is one part: the
clause after "and" must open with an interrogative or an auxiliary of its own. The offline
answer quotes each part's best unit (`chains.say.models`)."""

from __future__ import annotations

import re

# the words that open a clause of asking, by language
_ASKING = {
    "en": r"how|what|which|where|when|why|who|whom|whose|does|do|did|is|are|was|were|can|"
          r"could|should|will|would|may|must|has|have",
    "ru": r"как|каков\w*|что|чем|чего|как(?:ой|ая|ое|ие|ую|ого|ом|им|их)|где|куда|откуда|когда|"
          r"почему|зачем|сколько|кто|можно|нужно|есть\s+ли|ли",
}
_WORDS = "|".join(f"(?:{w})" for w in _ASKING.values())
_JOIN = re.compile(rf"(?:,?\s+(?:and|а\s+также|и|а)|[,;?]|\?\s*(?:and|и)?)\s+(?=(?:{_WORDS})\b)",
                   re.IGNORECASE)
MIN_WORDS = 2  # a part of one word ("… and why?") asks nothing of its own


_ASKS = re.compile(rf"(?<!\w)(?:{_WORDS})(?!\w)", re.IGNORECASE)


def asked_parts(question: str) -> list[str]:
    """The question's parts, in order; the question alone when it asks one thing. A piece that
    asks nothing ("In starlette, …") is read with the part after it."""
    parts: list[str] = []
    carried = ""
    for piece in _JOIN.split(question.strip()):
        piece = f"{carried}, {piece}" if carried else piece
        carried = "" if _ASKS.search(piece) else piece.strip(" ,;?")
        if not carried:
            parts.append(piece.strip(" ,;?"))
    parts = [p for p in parts if len(p.split()) >= MIN_WORDS]
    return parts if len(parts) > 1 else [question]


__all__ = ["asked_parts"]

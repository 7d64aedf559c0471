"""A question about versions read by its meaning (issue 53; docs/design.md "Versions read by
meaning"): where the rules' words give no cue, a softmax regression over the question's
multilingual-e5 query vector (the index's names taken out) reads which of seven kinds it asks —
the listing, the count, the oldest, the latest, whether a release exists, first appearance, what
a release changed — or none. Fitted by `benchmarks/fit_version_meaning.py` on the paraphrase sets
written here and on natural content questions; the weights ship in the package and are checked by
their sha256 at load.

It is asked only where the product would act on a yes: the question holds a version word or
number and no quoted phrase, the rules read no cue, and the caller reads a line. Its reading is
a proposal like the chat model's, validated the same way (`extract.validate_intent`), and stands
only at `FLOOR` or above (set on the rounds left out, docs/design.md).
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from situated.chains.read.intent import Intent, LineFact, line_word, quotes_a_phrase
from situated.errors import ConfigError
from situated.loaders.sentences import split_sentences
from situated.words import alt

WEIGHTS = Path(__file__).with_name("version_meaning.npz")
# the sha256 of the weights `fit_version_meaning.py` wrote (it prints it); a mismatch is refused
WEIGHTS_SHA256 = "10068c6fbaacc30a42895878cf4a9566477fe65cf45af378603d3d41c1c9f2c2"
FLOOR = 0.8  # the probability a reading needs (fit_version_meaning.py: docs/design.md)
KINDS: dict[str, tuple[Intent, LineFact | None]] = {
    "listing": (Intent.VERSIONS, LineFact.LIST), "count": (Intent.VERSIONS, LineFact.COUNT),
    "oldest": (Intent.VERSIONS, LineFact.OLDEST), "latest": (Intent.VERSIONS, LineFact.LATEST),
    "exists": (Intent.VERSIONS, LineFact.EXISTS), "first": (Intent.SINCE, None),
    "changes": (Intent.CHANGES, None)}


# what a text says about something is asked of the text ("What does the Requests Compatibility
# Guide say about `httpx.Client.request` in version 0.13.3?", «Что говорится о прокси в 1.1.0?»)
_TEXT_SAYS = re.compile(alt("meaning", "TEXT_SAYS"), re.IGNORECASE)

# a lead-in of up to four words before a comma, colon, semicolon or dash says why or where one
# asks ("For the audit, which releases …?", "Ticket: need the oldest release", «Хотел уточнить,
# по каким релизам …»), not what: when it names no release and asks nothing (no interrogative:
# "Which one, 1.1.0 or 2.0?" asks in its lead, "If you share my data, …" is a clause of five
# words), the clause after it is read beside the whole question and the surer reading stands
_LEAD_IN = re.compile(r"^(?P<lead>(?:[^\s,:;—?!.]+\s+){0,3}[^\s,:;—?!.]+)\s*[,:;—]\s+"
                      r"(?P<rest>.+)$", re.DOTALL)
# an aside in brackets
_ASIDE = re.compile(r"\s*\([^()]*\)")
_ASKS = re.compile(rf"(?<!\w)(?:{alt('meaning', 'ASKS')})(?!\w)", re.IGNORECASE)

# a question asking how to do something ("How do I turn on HTTP/2?", «Как включить HTTP/2?»):
# its answer is a procedure, which a document often gives as code
_HOW_TO = re.compile(alt("meaning", "HOW_TO"), re.IGNORECASE)

def asks_how(text: str) -> bool:
    """The question asks how to do something (`_HOW_TO`)."""
    return bool(_HOW_TO.search(text))


@dataclass(frozen=True)
class Meant:
    """What the question asks by its meaning, and how sure the reading is."""

    kind: str
    intent: Intent
    line_fact: LineFact | None
    probability: float


def asks_by_meaning(text: str) -> bool:
    """Whether the reading is asked at all: the question holds a version word or number
    (`intent.line_word`), no quoted phrase (words looked for, never how it asks) and does not
    ask what a text says (`_TEXT_SAYS`)."""
    return line_word(text) and not quotes_a_phrase(text) and not _TEXT_SAYS.search(text)


def asked_clause(text: str) -> str | None:
    """The question without its lead-ins (`_LEAD_IN`), or None when it has none."""
    rest, found = text.strip(), False
    while (m := _LEAD_IN.match(rest)) and not line_word(m["lead"]) \
            and not _ASKS.search(m["lead"]) and line_word(m["rest"]):
        rest, found = m["rest"], True
    return rest if found else None


def asked_part(text: str) -> str | None:
    """The question without what surrounds what it asks, or None when nothing does: an aside in
    brackets and a sentence that neither names a release nor asks (a greeting, a sign-off, a
    reason said after: "… ? It's for our migration plan.", «Спасибо, Анна») are left out, then
    the lead-ins (`asked_clause`). A sentence that asks is never left out: "I run quickq 1.1.0.
    How do I start a worker?" stays whole."""
    bare = _ASIDE.sub(lambda m: m[0] if line_word(m[0]) else "", text).strip()
    kept = [t for t in split_sentences(bare) if line_word(t) or _ASKS.search(t) or "?" in t]
    rest = " ".join(kept) if kept else bare
    rest = asked_clause(rest) or rest
    return rest if rest != text.strip() else None


def views(text: str) -> list[str]:
    """What is read of a question: the whole, and what it asks (`asked_part`) if that differs."""
    part = asked_part(text)
    return [text, part] if part else [text]


def surest(readings: np.ndarray) -> np.ndarray:
    """Of a question's readings (one row a view), the one surest of its kind."""
    return readings[int(readings.max(axis=1).argmax())]


class MeaningReader:
    """The regression, loaded once (`load`), applied to one question at a time (`read`)."""

    def __init__(self, weights: np.ndarray, bias: np.ndarray, labels: list[str]):
        unknown = [k for k in labels if k not in KINDS and k != "content"]
        if unknown or weights.shape != (len(labels), 384) or bias.shape != (len(labels),):
            raise ConfigError(f"{WEIGHTS}: weights of shape {weights.shape} for labels {labels} "
                              "do not make a reading of the seven kinds over e5's 384 "
                              "dimensions; refit with benchmarks/fit_version_meaning.py")
        self.weights, self.bias, self.labels = weights, bias, labels

    @classmethod
    def load(cls, path: Path = WEIGHTS, sha256: str = WEIGHTS_SHA256) -> MeaningReader:
        """The shipped weights, refused unless their sha256 is `sha256`."""
        try:
            raw = path.read_bytes()
        except OSError as e:
            raise ConfigError(f"{path}: the weights of the reading by meaning cannot be read "
                              f"({e.strerror}); reinstall situated, or set "
                              "SITUATED_READ_BY_MEANING=false to ask without it") from e
        digest = hashlib.sha256(raw).hexdigest()
        if digest != sha256:
            raise ConfigError(f"{path}: sha256 {digest} is not the {sha256} the package "
                              "pins; reinstall situated or refit and pin the new digest "
                              "(benchmarks/fit_version_meaning.py prints it)")
        with np.load(path, allow_pickle=False) as z:
            return cls(z["weights"], z["bias"], [str(k) for k in z["labels"]])

    def probabilities(self, vector: np.ndarray) -> np.ndarray:
        logits = self.weights @ vector + self.bias
        e = np.exp(logits - logits.max())
        return e / e.sum()

    def read(self, unnamed_text: str, floor: float = FLOOR) -> Meant | None:
        """The kind the question asks by its meaning (`unnamed_text`: the question without the
        index's names), or None: content, unsure, or not asked (`asks_by_meaning`)."""
        if not asks_by_meaning(unnamed_text):
            return None
        from situated.index.multilingual import multilingual_model

        vectors = multilingual_model().encode_queries(views(unnamed_text))
        p = surest(np.stack([self.probabilities(v) for v in vectors]))
        best = int(p.argmax())
        kind = self.labels[best]
        if kind == "content" or p[best] < floor:
            return None
        intent, fact = KINDS[kind]
        return Meant(kind, intent, fact, float(p[best]))


_READER: MeaningReader | None = None
_LOCK = threading.Lock()


def meaning_reader() -> MeaningReader:
    """The process's one reader (the weights read and checked on first use)."""
    global _READER
    with _LOCK:
        if _READER is None:
            _READER = MeaningReader.load()
        return _READER


__all__ = ["FLOOR", "KINDS", "MeaningReader", "Meant", "asked_clause", "asks_by_meaning",
           "meaning_reader", "surest", "views"]

"""What the ask chain carries: its input, the one question check, and the frozen records its
steps hand on, each naming what the next step may read.

    AskInput ─prepare→ Question ─extract→ Proposed ─validate→ Reading
    Reading ─retrieve→ Retrieved ─route→ Routed ─budget→ Packed ─model→ Replied ─cite→ Answer
    Reading ─find_versions→ Subject ─diff_versions | list_versions→ Answer
    Question ─periods→ [Question, Question] ─(one question each)→ Compared ─merge→ Answer

The question's own records (`AskInput` … `Reading`) are made in `chains.read.question`, below
every later step, and listed here with the rest; a block packed for the prompt (`Supplied`) and
a release line (`Line`, `Lines`) are here so the parts that make and read them import downward.
The pinned index generation is not in any record: each chain is built for one generation
(`chains.ask`), so traces show each step's inputs without the index.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_core.messages import BaseMessage

from situated.chains.contract import Answer, Evidence
from situated.chains.decision import Decision, Probes
from situated.chains.read.question import (
    AskFields,
    AskInput,
    Proposed,
    Question,
    Reading,
    check_question,
)
from situated.documents import Block, DocumentMeta
from situated.modes import Mode
from situated.retrievers.fusion import RankedBlock
from situated.retrievers.hybrid import SearchResult


@dataclass(frozen=True)
class Supplied:
    evidence: Evidence  # what the model receives and the contract shows
    block: Block  # the stored block it was made from (original text, link)
    further: bool = False  # taken beyond the routed blocks (`Settings.fill_blocks`)


@dataclass(frozen=True)
class Line:
    """The versions of one family for one product that the caller may read, oldest first."""

    family: str  # `Versions.family_of` key
    name: str
    products: tuple[str, ...]
    members: tuple[DocumentMeta, ...]


class LinesStop(Mode):
    """Why a question about versions has no lines to read (the version router says so,
    `routing.version_rules`)."""

    ASK_DOCUMENT = "ask_document"  # several versioned documents, none named: `Lines.names`
    ASK_PRODUCT = "ask_product"  # the family's lines belong to several products: `names`
    NOTHING = "nothing"  # no versioned document is relevant


@dataclass(frozen=True)
class Lines:
    """The lines a question about versions is about, or why there are none (`stop`, with the
    documents or products to choose among in `names`)."""

    lines: tuple[Line, ...] = ()
    stop: LinesStop | None = None
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Retrieved:
    """retrieve: the relevant blocks, each carrying its document, family and filter fields."""

    reading: Reading
    found: SearchResult
    # the search's other blocks, relevant or not, in rank order: further evidence of the
    # documents the answer reads, as the allowance holds (`Settings.fill_blocks`); never
    # routed on
    deeper: tuple[RankedBlock, ...] = field(default=(), kw_only=True)
    # the searches the router's rules declared (`routing.router.Router.probe`), run here
    probes: Probes = field(default=Probes(), kw_only=True)


@dataclass(frozen=True)
class Routed(Retrieved):
    """route: answer, clarify or no evidence (what `Retrieved` holds, and the decision)."""

    decision: Decision


@dataclass(frozen=True)
class Packed(Routed):
    """budget: the labelled blocks within the allowance (each block read once, here)."""

    supplied: tuple[Supplied, ...]


@dataclass(frozen=True)
class Replied:
    """the chat model's reply to the prompt of `packed`."""

    packed: Packed
    reply: BaseMessage


@dataclass(frozen=True)
class Subject:
    """find_versions: the family and lines a question about versions is about (read by
    `reading`, the question's reading with a release only notes hold, when they do), and the
    version router's decision: answer from the lines, from the release notes or from the
    release line, or stop (`routing.version_rules`)."""

    reading: Reading
    lines: Lines
    decision: Decision
    probes: Probes = field(default=Probes())


@dataclass(frozen=True)
class Compared:
    """compare_periods: one answer per period of the question."""

    question: Question
    answers: tuple[Answer, ...]


__all__ = ["AskFields", "AskInput", "Compared", "Line", "Lines", "LinesStop", "Packed", "Proposed",
           "Question", "Reading", "Replied", "Retrieved", "Routed", "Subject", "Supplied",
           "check_question"]

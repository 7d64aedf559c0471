"""situated: RAG that answers from the evidence that applies to the asker.

The names a notebook needs, importable from the package root::

    from situated import App, Settings, Situation, Scope, build_ask_chain, SituatedRetriever

They are loaded on first use (PEP 562), so importing one part of the package (a loader, the
settings) does not import the whole chain and its models.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> the module that defines it
_EXPORTS = {
    "App": "situated.app",
    "Settings": "situated.settings",
    "ModelKind": "situated.settings",
    "BudgetPolicy": "situated.settings",
    "Situation": "situated.situation",
    "Scope": "situated.situation",
    "build_ask_chain": "situated.chains.ask",
    "AskInput": "situated.chains.state",
    "Answer": "situated.chains.contract",
    "Status": "situated.chains.contract",
    "CitationParser": "situated.chains.say.citations",
    "ExtractiveChatModel": "situated.chains.say.models",
    "make_chat_model": "situated.chains.say.models",
    "extraction_runnable": "situated.chains.read.proposal",
    "ANSWER_PROMPT": "situated.prompts.answer",
    "SituatedRetriever": "situated.retrievers.retriever",
    "HybridSearch": "situated.retrievers.hybrid",
    "search_runnable": "situated.retrievers.retriever",
    "Filter": "situated.retrievers.filter",
    "Leg": "situated.retrievers.legs",
    "LegRetriever": "situated.retrievers.parts",
    "parent_swap": "situated.retrievers.parts",
    "ingest": "situated.index.ingest",
    "Index": "situated.index.reader",
    "load_corpus": "situated.loaders.corpus",
    "SituatedError": "situated.errors",
}

__all__ = [
    "ANSWER_PROMPT",
    "Answer",
    "App",
    "AskInput",
    "BudgetPolicy",
    "CitationParser",
    "ExtractiveChatModel",
    "Filter",
    "HybridSearch",
    "Index",
    "Leg",
    "LegRetriever",
    "ModelKind",
    "Scope",
    "Settings",
    "SituatedError",
    "SituatedRetriever",
    "Situation",
    "Status",
    "__version__",
    "build_ask_chain",
    "extraction_runnable",
    "ingest",
    "load_corpus",
    "make_chat_model",
    "parent_swap",
    "search_runnable",
]

if TYPE_CHECKING:
    from situated.app import App
    from situated.chains.ask import build_ask_chain
    from situated.chains.contract import Answer, Status
    from situated.chains.read.proposal import extraction_runnable
    from situated.chains.say.citations import CitationParser
    from situated.chains.say.models import ExtractiveChatModel, make_chat_model
    from situated.chains.state import AskInput
    from situated.errors import SituatedError
    from situated.index.ingest import ingest
    from situated.index.reader import Index
    from situated.loaders.corpus import load_corpus
    from situated.prompts.answer import ANSWER_PROMPT
    from situated.retrievers.filter import Filter
    from situated.retrievers.hybrid import HybridSearch
    from situated.retrievers.legs import Leg
    from situated.retrievers.parts import LegRetriever, parent_swap
    from situated.retrievers.retriever import SituatedRetriever, search_runnable
    from situated.settings import BudgetPolicy, ModelKind, Settings
    from situated.situation import Scope, Situation


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'situated' has no attribute {name!r}; the public names are: "
                         f"{', '.join(sorted(_EXPORTS))}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])

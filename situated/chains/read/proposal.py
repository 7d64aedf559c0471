"""What an extractor proposes for a question's situation, before validation (`chains.read.extract`).

The rules (`rule_extract`) always read the question. A chat model with tool calling may propose
too: by function calling, else by JSON mode (a server without tool support), else nothing —
each failure is an errored run in the trace and a note in the proposal. The model's proposal is
checked against the rules, never taken instead of them:

* a field the rules found wins over a different value the model proposes (noted);
* a field the rules left empty takes the model's value, which validation then grounds in the
  question (`validate_extraction`: a date needs its day, month and year written there);
* fields the schema does not have are dropped with a note, not a failed proposal;
* a "partial date" that holds a year is not partial: dropped with a note.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda, RunnablePassthrough
from pydantic import ValidationError

from situated.chains.endpoint import is_unreachable
from situated.chains.read.extract import (
    Clock,
    ExtractedSituation,
    Validated,
    rule_extract,
    validate_extraction,
)
from situated.chains.read.products import ProductMatcher
from situated.prompts.extraction import EXTRACTION_PROMPT

log = logging.getLogger("situated.extract")

METHODS = ("function_calling", "json_mode")  # tried in this order, then the rules alone
_FIELDS = tuple(ExtractedSituation.model_fields)
_RULED = ("product", "purchase_date", "request_date", "as_of", "known_on")
_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")


@dataclass(frozen=True)
class Proposal:
    """A proposal and how it was made: `source` is a method of `METHODS` or "rules"."""

    fields: ExtractedSituation
    notes: tuple[str, ...] = ()
    source: str = "rules"


def _json_text(text: str, notes: list[str]) -> Any:
    """A reply's text as JSON: as written, else with the doubled braces some servers' chat
    templates teach a model (`{{"name": …}}`, Qwen2.5 in llama.cpp); None when neither parses."""
    text = text.strip()
    try:
        return json.loads(text)
    except ValueError:
        pass
    if text.startswith("{{"):  # one object inside the doubled braces, only braces after it
        try:
            value, end = json.JSONDecoder().raw_decode(text[1:])
        except ValueError:
            value, end = None, 0
        if value is not None and not text[1 + end:].strip().strip("}"):
            return value
    notes.append("the model's proposal is not JSON; ignored")
    return None


def lenient(raw: Any, notes: list[str]) -> ExtractedSituation | None:
    """A model's arguments (a dict, or its JSON text) as a proposal: unknown fields dropped
    with a note; None when nothing usable is there. A tool call written out as text
    (`{"name": "ExtractedSituation", "arguments": {…}}`) gives its arguments."""
    if isinstance(raw, str):
        raw = _json_text(raw, notes)
    if isinstance(raw, dict) and raw.get("name") == "ExtractedSituation" and isinstance(
            raw.get("arguments"), dict):
        notes.append("the model wrote its tool call as text; its arguments are read")
        raw = raw["arguments"]
    if not isinstance(raw, dict):
        return None
    unknown = sorted(k for k in raw if k not in _FIELDS)
    if unknown:
        notes.append(f"the model proposed fields the schema does not have: "
                     f"{', '.join(map(repr, unknown))}; dropped")
    try:
        return ExtractedSituation.model_validate({k: v for k, v in raw.items() if k in _FIELDS})
    except ValidationError as exc:
        notes.append(f"the model's proposal does not fit the schema ({exc.errors()[0]['msg']}); "
                     "ignored")
        return None


def merge(rules: ExtractedSituation, model: ExtractedSituation,
          notes: list[str]) -> ExtractedSituation:
    """The model's proposal checked against the rules (see the module docstring)."""
    out = model.model_dump()
    for name in _RULED:
        ruled, proposed = getattr(rules, name), getattr(model, name)
        if ruled and proposed and str(proposed).strip() != str(ruled):
            notes.append(f"the model proposed {name} {proposed!r}; the question reads "
                         f"{ruled!r}, which is kept")
        if ruled:
            out[name] = ruled
    partial = []
    for text in model.partial_dates:
        if _YEAR.search(str(text)):
            notes.append(f"partial date {text!r} holds a year; dropped (a full date is a "
                         "date of its role)")
        else:
            partial.append(text)
    out["partial_dates"] = rules.partial_dates or partial
    out["asks_about_now"] = rules.asks_about_now or model.asks_about_now
    return ExtractedSituation.model_validate(out)


def _attempts(model: BaseChatModel) -> dict[str, Runnable]:
    """One structured-output runnable per method, each returning the raw message."""
    return {m: EXTRACTION_PROMPT | model.with_structured_output(
        ExtractedSituation, method=m, include_raw=True) for m in METHODS}


def _raw_arguments(out: dict[str, Any]) -> Any:
    """The arguments a structured-output reply carries (parsed, else raw), or None."""
    if out.get("parsed") is not None:
        return out["parsed"].model_dump()
    raw = out.get("raw")
    calls = getattr(raw, "tool_calls", None) or []
    if calls:
        return calls[0].get("args")
    content = getattr(raw, "content", None)
    return content if isinstance(content, str) and content.strip() else None


def proposal_runnable(model: BaseChatModel | None = None) -> Runnable[dict[str, Any], Proposal]:
    """`{question, matcher, mentions?}` → `Proposal`: the rules', checked against a model's
    when one is given (see the module docstring)."""
    def by_rules(x: dict[str, Any]) -> Proposal:
        return Proposal(rule_extract(x["question"], x["matcher"], x.get("mentions")))

    rules = RunnableLambda(by_rules, name="extract_by_rules")
    if model is None:
        return rules
    attempts = _attempts(model)

    def propose(x: dict[str, Any], config: RunnableConfig) -> Proposal:
        ruled = rules.invoke(x, config).fields
        asked = {"question": x["question"], "products": ", ".join(x["matcher"].products)
                 or "none"}
        notes: list[str] = []
        for method, attempt in attempts.items():
            try:
                out = attempt.invoke(asked, config)
            except Exception as exc:  # noqa: BLE001 - any failure of the model is a note
                notes.append(f"extraction by {method} failed ({type(exc).__name__}); "
                             "the rules decide")
                log.warning("situation extraction by %s failed: %s", method, exc)
                if is_unreachable(exc):
                    break  # the endpoint is down: no other method can reach it
                continue
            fields = lenient(_raw_arguments(out), notes)
            if fields is not None:
                return Proposal(merge(ruled, fields, notes), tuple(notes), method)
            notes.append(f"extraction by {method} gave no proposal")
        return Proposal(ruled, tuple(notes))

    return RunnableLambda(propose, name="extract_by_model")


def extraction_runnable(
    products: frozenset[str], clock: Clock, model: BaseChatModel | None = None,
) -> Runnable[dict[str, Any], Validated]:
    """`{question, situation?}` → `Validated`: `proposal_runnable` then `validate_extraction`
    over a fixed set of products (the ask chain runs the same two steps as its own)."""
    matcher = ProductMatcher(products, as_written_loosely=True)

    def _validate(x: dict[str, Any]) -> Validated:
        proposal = x["proposed"]
        return validate_extraction(proposal.fields, x["question"], matcher, clock,
                                   x.get("situation"), notes=proposal.notes)

    return (RunnablePassthrough.assign(matcher=lambda _: matcher)
            | RunnablePassthrough.assign(proposed=proposal_runnable(model))
            | RunnableLambda(_validate, name="validate_situation"))


__all__ = ["METHODS", "Proposal", "extraction_runnable", "lenient", "merge",
           "proposal_runnable"]

"""Per-case and aggregate metrics of one system's answers.

* evidence recall: expected ids (source or block) found among the supplied blocks;
* noise: share of supplied evidence tokens from blocks that were not expected;
* stale version: an inapplicable version (`stale`) was supplied or ranked (in the hits);
* permission leak: a `forbidden` source in evidence, hits or citations, or `forbidden_text`
  anywhere in the answer body;
* clarification precision / recall over cases expecting `clarify`, with the right `missing`;
* no-evidence accuracy over cases expecting `no_evidence`;
* citation validity: every cited label was one the model was given (status not withheld for
  unknown labels);
* citation support (lexical): each expected fact that the answer states occurs in the text of a
  block the answer cites — a string check, so paraphrases count as unsupported;
* answer fact accuracy: expected facts present in the answer or explanation (case-insensitive);
* first unit holds a fact: an answered case's first quoted unit (the text before its first
  citation link) states one of the expected facts: the answer opens with what answers;
* change accuracy: every expected pair of versions is among the answer's `changes`, both sides
  cited, and the expected words are among the sentences the pair removed or added;
* listing accuracy: the answer's `versions` are exactly the expected ones, in order.
"""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import asdict, dataclass, field

from situated.chains.contract import Answer, Status
from situated.eval.cases import Case


def _matches(ident: str, block_id: str, source_id: str) -> bool:
    return ident in (block_id, source_id)


@dataclass
class CaseResult:
    case_id: str
    status: str
    latency_ms: float
    evidence_recall: float | None = None
    noise: float | None = None
    stale: bool = False
    leaks: int = 0
    status_ok: bool | None = None
    clarify_ok: bool | None = None
    citations_valid: bool | None = None
    support: float | None = None
    fact_accuracy: float | None = None
    first_unit_fact: bool | None = None  # the first quoted unit states an expected fact
    change_ok: bool | None = None
    listing_ok: bool | None = None
    appearance_ok: bool | None = None
    appearance_noted: bool | None = None  # the answer states the notes' release too
    no_evidence_ok: bool | None = None
    supplied: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    question: str = ""
    expected: str = ""  # the expected status (and evidence), as the report shows it
    answer: str = ""  # the start of the answer that came back

    @property
    def failed(self) -> bool:
        """Any check of the case failed (status, evidence, stale, leaks, facts, change)."""
        return bool(self.status_ok is False or self.stale or self.leaks
                    or (self.evidence_recall is not None and self.evidence_recall < 1)
                    or (self.fact_accuracy is not None and self.fact_accuracy < 1)
                    or self.change_ok is False or self.listing_ok is False
                    or self.clarify_ok is False or self.appearance_ok is False)


# a citation as the answer writes it: "[WARR-R2, section 2](/documents/WARR-R2#section-2)"
_CITATION_LINK = re.compile(r"\[[^\]\n]*\]\(/documents/")


def score_case(case: Case, answer: Answer, latency_ms: float) -> CaseResult:
    e = case.expect
    r = CaseResult(case.id, answer.status.value, latency_ms,
                   supplied=[ev.block_id for ev in answer.evidence], tags=list(case.tags),
                   question=case.question, answer=" ".join(answer.answer.split())[:300],
                   expected="; ".join(filter(None, [
                       e.status.value if e.status else "",
                       f"evidence {', '.join(e.evidence)}" if e.evidence else ""])))
    if e.evidence:
        found = [i for i in e.evidence
                 if any(_matches(i, ev.block_id, ev.source_id) for ev in answer.evidence)]
        r.evidence_recall = len(found) / len(e.evidence)
        total = sum(ev.tokens for ev in answer.evidence)
        if total:
            off = sum(ev.tokens for ev in answer.evidence
                      if not any(_matches(i, ev.block_id, ev.source_id) for i in e.evidence))
            r.noise = off / total
    r.stale = (any(ev.source_id in e.stale for ev in answer.evidence)
               or any(h.source_id in e.stale for h in answer.hits))
    body = json.dumps(answer.model_dump(mode="json"), ensure_ascii=False)
    sources = ({ev.source_id for ev in answer.evidence} | {h.source_id for h in answer.hits}
               | {c.source_id for c in answer.citations})
    r.leaks = len(sources & set(e.forbidden)) + sum(t in body for t in e.forbidden_text)
    if e.status is not None:
        r.status_ok = answer.status is e.status
    if e.status is Status.NO_EVIDENCE:
        r.no_evidence_ok = answer.status is Status.NO_EVIDENCE
    if e.status is Status.CLARIFY:
        r.clarify_ok = answer.status is Status.CLARIFY and answer.missing == e.missing
    if answer.status is Status.ANSWERED or "not given to the model" in answer.answer:
        r.citations_valid = answer.status is Status.ANSWERED
    if e.facts:  # an explanation must state its facts too ("the first applies from …")
        text = answer.answer.lower()
        stated = [f for f in e.facts if f.lower() in text]
        r.fact_accuracy = len(stated) / len(e.facts)
        if answer.status is Status.ANSWERED:
            first = _CITATION_LINK.split(answer.answer, maxsplit=1)[0].lower()
            r.first_unit_fact = any(f.lower() in first for f in e.facts)
        cited = {c.label for c in answer.citations}
        cited_text = " ".join(ev.text.lower() for ev in answer.evidence if ev.label in cited)
        # the slice ("As of …") is the app's own text: only facts from the evidence need support
        from_evidence = [f for f in stated if f.lower() in " ".join(
            ev.text.lower() for ev in answer.evidence)]
        if answer.status is Status.ANSWERED and from_evidence:
            r.support = sum(f.lower() in cited_text for f in from_evidence) / len(from_evidence)
    if e.changes:
        r.change_ok = _change_ok(case, answer)
    if e.versions:
        r.listing_ok = [v.source_id for v in answer.versions] == e.versions
    if e.releases is not None:
        r.listing_ok = answer.releases == e.releases
    if e.appearance is not None:
        r.appearance_ok = _appearance_ok(e.appearance, answer)
        r.appearance_noted = r.appearance_ok or (answer.appearance is not None and any(
            n.release == e.appearance for n in answer.appearance.notes))
    return r


def _appearance_ok(gold: str, answer: Answer) -> bool:
    """The answer's version is the first at or after `gold` and the one before it is earlier
    (documents published at some releases only: 0.18.0 is found in the 0.18.2 pages)."""
    from packaging.version import Version

    a = answer.appearance
    if a is None or a.release is None:
        return False
    g = Version(gold)
    return Version(a.release) >= g and (a.previous_release is None
                                        or Version(a.previous_release) < g)


def _words(text: str) -> str:
    """The words of a sentence; HTML entities read as the characters they stand for (the
    changed sentences are shown neutralised: `<str>` as `&lt;str&gt;`)."""
    return " ".join(re.findall(r"[^\W\d_]+", html.unescape(text).lower()))


def _change_ok(case: Case, answer: Answer) -> bool:
    got = {f"{c.from_version or ''}>{c.to_version}": c for c in answer.changes}
    cited = {c.source_id for c in answer.citations}
    if not all(p in got for p in case.expect.changes):
        return False
    if not all(sid in cited for p in case.expect.changes for sid in p.split(">") if sid):
        return False
    said = " | ".join(_words(x) for p in case.expect.changes for s in got[p].sections
                      for x in [*s.removed, *s.added])
    return all(_words(t) in said for t in case.expect.changed_text)


def _mean(values) -> float | None:
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def aggregate(results: list[CaseResult], cases: list[Case]) -> dict[str, float | int | None]:
    by_id = {c.id: c for c in cases}
    expected_clarify = [r for r in results if by_id[r.case_id].expect.status is Status.CLARIFY]
    predicted_clarify = [r for r in results if r.status == "clarify"]
    right = [r for r in predicted_clarify if r.clarify_ok]
    expected_none = [r for r in results if by_id[r.case_id].expect.status is Status.NO_EVIDENCE]
    latencies = sorted(r.latency_ms for r in results)
    return {
        "cases": len(results),
        "evidence_recall": _mean(r.evidence_recall for r in results),
        "noise": _mean(r.noise for r in results),
        "stale_version_rate": sum(r.stale for r in results) / len(results),
        "permission_leaks": sum(r.leaks for r in results),
        "status_accuracy": _mean(None if r.status_ok is None else float(r.status_ok)
                                 for r in results),
        "clarification_precision": len(right) / len(predicted_clarify) if predicted_clarify
        else None,
        "clarification_recall": (sum(bool(r.clarify_ok) for r in expected_clarify)
                                 / len(expected_clarify)) if expected_clarify else None,
        "no_evidence_accuracy": (sum(r.status == "no_evidence" for r in expected_none)
                                 / len(expected_none)) if expected_none else None,
        "citation_validity": _mean(None if r.citations_valid is None else float(r.citations_valid)
                                   for r in results),
        "citation_support": _mean(r.support for r in results),
        "fact_accuracy": _mean(r.fact_accuracy for r in results),
        "first_unit_fact": _mean(None if r.first_unit_fact is None else float(r.first_unit_fact)
                                 for r in results),
        "change_accuracy": _mean(None if r.change_ok is None else float(r.change_ok)
                                 for r in results),
        "listing_accuracy": _mean(None if r.listing_ok is None else float(r.listing_ok)
                                  for r in results),
        "appearance_accuracy": _mean(None if r.appearance_ok is None else float(r.appearance_ok)
                                     for r in results),
        "appearance_stated": _mean(None if r.appearance_noted is None
                                   else float(r.appearance_noted) for r in results),
        "latency_p50_ms": percentile(latencies, 50),
        "latency_p95_ms": percentile(latencies, 95),
    }


def percentile(ordered: list[float], p: float) -> float:
    """The nearest-rank percentile of `ordered` (sorted): the smallest value at or above p% of
    the cases, always one case's own figure. Of 4 cases the p95 is the slowest (an index floor
    gave the second slowest, so p95 = p50 with one slow case)."""
    if not ordered:
        raise ValueError("a percentile of no cases: evaluate at least one case")
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def as_dict(r: CaseResult) -> dict:
    return {**asdict(r), "failed": r.failed}

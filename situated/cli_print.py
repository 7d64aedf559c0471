"""What the CLI prints: an ingest's report, relevance thresholds, an answer (status, text with
links, sources, budget; the changes of a change answer as a diff)."""

from __future__ import annotations

import json
import re

from rich.markup import escape
from rich.table import Table

from situated.loaders.neutralise import BIDI_CONTROLS

# terminal controls a document or a model could put in text: ESC sequences (colours, OSC 8
# hyperlinks, cursor moves), other C0/C1 controls and bidirectional overrides
_CONTROLS = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{BIDI_CONTROLS}]")


def term(text: str) -> str:
    """Text as the terminal may show it: no control characters, no Rich markup (a
    `[link=…]` in a document would otherwise become a terminal hyperlink)."""
    return escape(_CONTROLS.sub("", text))


def print_ingest(out, err, index, report, verbose: bool = False) -> None:
    """What `situated ingest` published, in at most three lines (warnings apart, on stderr):
    the counts, the relevance rule in one line, split sections. `verbose`: a table of every
    count and the relevance rule with its thresholds and figures."""
    if not report.published:
        out.print(f"{index}: nothing changed ({len(report.unchanged)} documents unchanged); "
                  "no new generation published", highlight=False)
        return
    if report.repaired:
        err.print(term(f"the published generation was damaged ({report.repaired}); rebuilt "
                       "from the documents"), highlight=False)
    manifest = report.manifest
    for w in manifest.warnings:
        err.print(f"[yellow]warning:[/] {term(w)}", highlight=False)
    if verbose:
        _ingest_table(out, index, report)
        print_thresholds(out, manifest.relevance, manifest.embedding_model)
        return
    out.print(term(f"{index}: {manifest.documents} documents published ({len(report.added)} "
                   f"added, {len(report.changed)} changed, {len(report.unchanged)} unchanged, "
                   f"{len(report.removed)} removed); {manifest.blocks} blocks, "
                   f"{manifest.pieces} pieces, {report.embedded} embedded"
                   + (f", {len(manifest.warnings)} warnings" if manifest.warnings else "")),
              highlight=False, soft_wrap=True)  # one line each, whatever the width
    if manifest.split_sections:
        out.print(f"{manifest.split_sections} sections were larger than the block limit "
                  f"({manifest.block_limit} tokens) and were split at their own structure",
                  highlight=False, soft_wrap=True)
    out.print(relevance_line(manifest.relevance, manifest.embedding_model), highlight=False,
              soft_wrap=True)


def relevance_line(th, embedding_model: str | None = None) -> str:
    """The relevance rule in one line: calibrated (with its held-out figures) or the package
    default (the index too small to calibrate); `--verbose` shows the thresholds."""
    from situated.index.store import Thresholds, ThresholdSource

    th = th or Thresholds.default(embedding_model)
    if th.source is ThresholdSource.CALIBRATED:
        held = f" (held-out: {_rates(th.held_out)})" if th.held_out else ""
        return f"relevance: calibrated on this index's own questions{held}"
    return ("relevance: the package default (too few documents to calibrate on their own "
            "questions; --verbose shows why)")


def _ingest_table(out, index, report) -> None:
    manifest = report.manifest
    table = Table(title=f"Indexed into {index}")  # one row per count: fits any width
    table.add_column("", no_wrap=True)
    table.add_column("count", justify="right", no_wrap=True)
    for name, value in (
            ("documents", manifest.documents), ("blocks", manifest.blocks),
            ("pieces", manifest.pieces), ("warnings", len(manifest.warnings)),
            ("added", len(report.added)), ("changed", len(report.changed)),
            ("unchanged", len(report.unchanged)), ("removed", len(report.removed)),
            ("embedded", report.embedded),
            ("embedded (multilingual)", report.embedded_multilingual),
            ("split sections", manifest.split_sections)):
        table.add_row(name, str(value))
    out.print(table)


def print_thresholds(out, th, embedding_model: str | None = None) -> None:
    from situated.index.store import FLOOR_PIECES, SENTENCE_FLOOR_PER_DECADE, Thresholds

    th = th or Thresholds.default(embedding_model)
    within = (f", within one product {th.min_cosine_in_product}"
              if th.min_cosine_in_product is not None else "")
    sentence = "" if th.min_sentence is None else f", min_sentence {th.min_sentence}" + (
        f" (within one product {th.min_sentence_in_product})"
        if th.min_sentence_in_product is not None else "")
    if th.sentence_floor is not None:
        sentence += (f", sentence floor {th.sentence_floor} over {FLOOR_PIECES} pieces "
                     f"+{SENTENCE_FLOOR_PER_DECADE} per tenfold more")
    out.print(f"relevance: {th.source.value}, min_cosine {th.min_cosine}{within}{sentence}, "
              f"min_cover {th.min_cover} ({th.note})", highlight=False)
    for name, stats in (("dev", th.dev), ("held-out", th.held_out)):
        if stats:
            out.print(f"  {name}: {_rates(stats)}", highlight=False)


MIN_RATE_QUESTIONS = 20  # fewer on-topic questions than this: counts, not rates


def _rates(stats: dict) -> str:
    """A calibration half's figures: rates with their counts, or, over a handful of on-topic
    questions, the counts alone (a "recall 1.000" over 1 question says nothing)."""
    positives, negatives = int(stats["positives"]), int(stats["negatives"])
    answered = round(stats["recall"] * positives)
    refused = round(stats["negatives_refused"] * negatives)
    if positives < MIN_RATE_QUESTIONS:
        return (f"{answered} of {positives} on-topic questions answered, {refused} of "
                f"{negatives} off-topic refused (too few on-topic questions for a rate)")
    return (f"precision {stats['precision']:.3f}, recall {stats['recall']:.3f}, off-topic "
            f"refused {stats['negatives_refused']:.3f} ({positives} on-topic, {negatives} "
            "off-topic questions)")


def print_answer(out, answer) -> None:
    colour = {"answered": "green", "clarify": "yellow", "no_evidence": "blue",
              "withheld": "red"}[answer.status.value]
    out.print(f"[bold {colour}]{answer.status.value}[/]", highlight=False)
    out.print(term(answer.answer), highlight=False)
    if answer.missing:
        out.print(term(f"missing: {', '.join(answer.missing)}"), highlight=False)
    known = {k: v for k, v in answer.situation.model_dump(mode="json").items() if v}
    if known:
        out.print(term(f"situation: {json.dumps(known, ensure_ascii=False)}"), highlight=False)
    if answer.citations:
        table = Table(title="Sources")
        for col in ("label", "source", "section", "link"):
            table.add_column(col)
        # in label order (S1, S2, …), as the evidence was given, not as the answer cites them
        for c in sorted(answer.citations, key=lambda c: (len(c.label), c.label)):
            table.add_row(*(term(x) for x in (c.label, c.source_id, c.section or "", c.link)))
        out.print(table)
    print_changes(out, answer)
    if answer.budget:
        b = answer.budget
        out.print(f"budget: {b.used} of {b.allowance} evidence tokens used "
                  f"(window {b.window} − input {b.reserved_input} − output "
                  f"{b.reserved_output}); {len(answer.evidence)} block(s)", highlight=False)


def print_changes(out, answer) -> None:
    """A change answer as a diff: per pair of versions, each differing section with the
    sentences that left (-) and came (+), labelled with the evidence they come from."""

    for c in answer.changes:
        old = c.from_version or "(none)"
        since = (f"from {term(c.effective)}" if c.effective else  # a release has no date
                 f"in version {term(c.to_release or '')}")
        out.print(f"[bold]{term(old)} → {term(c.to_version)}[/] {since}"
                  + ("" if c.substance else ": no change in substance"), highlight=False)
        for s in c.sections:
            labels = " ".join(f"[{x}]" for x in [*s.old_labels, *s.new_labels])
            out.print(f"  @@ {term(s.section or '(opening)')} ({s.kind}) {term(labels)}",
                      highlight=False)
            for text in s.removed:
                out.print(f"  [red]- {term(text)}[/]", highlight=False)
            for text in s.added:
                out.print(f"  [green]+ {term(text)}[/]", highlight=False)

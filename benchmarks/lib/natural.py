"""The natural-question sets (PolicyQA, XQuAD) as the benchmarks build and ask them: their
questions, halves, documents and indexes, and one answer's record."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.index.ingest import ingest
from situated.settings import Settings
from situated.situation import Scope, Situation

HERE = Path(__file__).resolve().parents[1]  # benchmarks/


@dataclass(frozen=True)
class Question:
    text: str
    gold_paragraph: str
    gold_spans: tuple[str, ...]
    group: str  # website or article: the split key
    product: str | None = None
    # every paragraph of the group annotated with the same question text, and their spans:
    # PolicyQA reuses a question on several paragraphs (55% of its questions; "Will they
    # disclose my data?" on 14 of one site's), each an answer to it
    any_paragraphs: tuple[str, ...] = ()
    any_spans: tuple[str, ...] = ()


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").upper()[:40] or "DOC"


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.lower()).split())


def write_docs(articles: list[dict], out: Path, prefix: str, with_product: bool) -> None:
    """One Markdown document per article, one `## N` section per paragraph."""
    out.mkdir(parents=True, exist_ok=True)
    for article in articles:
        title = article["title"].strip()
        meta = [f"source_id: {prefix}-{_slug(title)}", f"title: {json.dumps(title)}"]
        if with_product:
            meta.append(f"product: {json.dumps(title)}")
        body = [f"# {title}", ""]
        for n, p in enumerate(article["paragraphs"], 1):
            body += [f"## {n}", "", p["context"].strip().lstrip("\ufeff"), ""]
        text = "---\n" + "\n".join(meta) + "\n---\n" + "\n".join(body)
        (out / f"{_slug(title).lower()}.md").write_text(text, encoding="utf-8")


def questions(articles: list[dict], with_product: bool) -> list[Question]:
    out, same = [], {}
    for article in articles:
        title = article["title"].strip()
        for p in article["paragraphs"]:
            context = p["context"].strip().lstrip("\ufeff")
            for qa in p["qas"]:
                spans = tuple(a["text"] for a in qa["answers"])
                key = (title, _norm(qa["question"]))
                paras, all_spans = same.setdefault(key, ([], []))
                paras.append(context)
                all_spans += spans
                out.append(Question(qa["question"].strip(), context, spans, title,
                                    title if with_product else None))
    return [dataclasses.replace(q, any_paragraphs=tuple(same[(q.group, _norm(q.text))][0]),
                                any_spans=tuple(same[(q.group, _norm(q.text))][1]))
            for q in out]


def halves(groups: list[str]) -> dict[str, str]:
    """Group → dev / test by a hash of its name, alternating to keep the halves even."""
    out, size = {}, {"dev": 0, "test": 0}
    for g in sorted(set(groups), key=lambda g: hashlib.sha256(g.encode()).hexdigest()):
        half = "dev" if size["dev"] <= size["test"] else "test"
        out[g] = half
        size[half] += groups.count(g)
    return out


def _built(docs: Path, index: Path, **settings) -> App:
    """`docs` ingested and calibrated as `situated ingest` does it, under these settings."""
    from situated.calibration.fit import index_calibrator

    app = App(Settings(index_dir=index, **settings))
    ingest([docs], index, app.embeddings, app.settings,
           calibrator=index_calibrator(app.settings, app.embeddings, None), recalibrate=True)
    return app


def routed_only(app: App) -> App:
    """The same index and calibration with the evidence made of the routed blocks alone
    (`fill_blocks` 0): the rule before the evidence filled the allowance."""
    other = App(app.settings.model_copy(update={"fill_blocks": 0}))
    other.__dict__["embeddings"] = app.embeddings
    return other


def build(docs: Path, index: Path, without_leg: bool = False) -> dict[str, App]:
    """The index as `situated ingest` builds and calibrates it now, and the same index with the
    evidence of the routed blocks alone (`routed_only`). `without_leg`: also the index
    built without the multilingual leg (`SITUATED_MULTILINGUAL_LEG=false`), the rule before
    it."""
    app = _built(docs, index)
    apps = {"calibrated": app, "routed blocks only (before)": routed_only(app)}
    if without_leg:
        apps["no multilingual leg"] = _built(docs, index.with_name(index.name + "-no-leg"),
                                             multilingual_leg=False)
    return apps


def spans_in(spans: tuple[str, ...], text: str) -> bool:
    """One of the gold `spans` stands in `text` (case, punctuation and spacing aside)."""
    return any(_norm(s) in _norm(text) for s in spans)


def _in(paragraph: str, texts: list[str]) -> bool:
    head = _norm(paragraph)[:120]
    return any(head in _norm(t) for t in texts)


def ask_all(app: App, qs: list[Question]) -> list[dict]:
    chain = build_ask_chain(app)
    rows = []
    for q in qs:
        started = time.perf_counter()
        situation = Situation(product=q.product) if q.product else None
        answer = chain.invoke({"question": q.text, "situation": situation})
        ms = (time.perf_counter() - started) * 1000
        flt = app.snapshot().filter(situation or Situation(), Scope())
        ranked = app.engine.rank(q.text, flt, top=5).blocks  # before the relevance rule
        top5 = [b.text for b in app.index.read_blocks([b.block_id for b in ranked]).values()]
        evidence = [e.text for e in answer.evidence]
        rows.append({
            "question": q.text, "group": q.group, "status": answer.status.value, "ms": ms,
            "gold_in_evidence": _in(q.gold_paragraph, evidence),
            "gold_in_top5": _in(q.gold_paragraph, top5),
            "span_in_answer": spans_in(q.gold_spans, answer.answer),
            "any_gold_in_evidence": any(_in(p, evidence) for p in q.any_paragraphs or
                                        (q.gold_paragraph,)),
            "any_gold_in_top5": any(_in(p, top5) for p in q.any_paragraphs or
                                    (q.gold_paragraph,)),
            "any_span_in_answer": spans_in(q.any_spans or q.gold_spans, answer.answer),
            # the first quoted unit (before the first citation link) holds a gold span
            "span_in_first_unit": spans_in(q.any_spans or q.gold_spans,
                                           answer.answer.split("](/documents/", 1)[0]),
            "answer": answer.answer[:300],
        })
    return rows


def off_topic(app: App, products: list[str | None]) -> dict:
    """The shipped and the fresh off-topic questions (English and Russian), each asked once per
    product in `products` (None: across the index): how many come back `no_evidence`, and how
    many are clarified (must be none)."""
    from situated.calibration.questions import shipped_negatives

    fresh = yaml.safe_load((HERE / "questions" / "offtopic_fresh.yaml").read_text("utf-8"))
    texts = shipped_negatives() + [q for qs in fresh.values() for q in qs]
    chain = build_ask_chain(app)
    asked = []
    for product in products:
        situation = Situation(product=product) if product else None
        asked += [(t, product, chain.invoke({"question": t, "situation": situation}).status.value)
                  for t in texts]
    statuses = [s for _, _, s in asked]
    n = len(statuses) or 1
    return {"questions": len(statuses), "refused": statuses.count("no_evidence") / n,
            "clarified": statuses.count("clarify"), "answered": statuses.count("answered"),
            "not_refused": [{"question": t, "product": p, "status": s}
                            for t, p, s in asked if s != "no_evidence"]}


def summary(rows: list[dict]) -> dict:
    n = len(rows) or 1
    share = lambda key: sum(1 for r in rows if r[key]) / n
    status = lambda s: sum(1 for r in rows if r["status"] == s) / n
    return {"questions": len(rows), "no_evidence": status("no_evidence"),
            "clarify": status("clarify"), "withheld": status("withheld"),
            "answered": status("answered"), "gold_in_evidence": share("gold_in_evidence"),
            "gold_in_top5": share("gold_in_top5"), "span_in_answer": share("span_in_answer"),
            "any_gold_in_evidence": share("any_gold_in_evidence"),
            "any_gold_in_top5": share("any_gold_in_top5"),
            "any_span_in_answer": share("any_span_in_answer"),
            "span_in_first_unit": share("span_in_first_unit"),
            "p50_ms": statistics.median([r["ms"] for r in rows]) if rows else 0.0}

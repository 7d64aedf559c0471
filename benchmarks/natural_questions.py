"""Questions as people ask them: PolicyQA (crowd-written questions over 20 real privacy
policies) and XQuAD (the same questions and paragraphs in Russian and English), through the
product, dev and test halves side by side.

    python benchmarks/natural_questions.py [--policyqa FILE] [--xquad DIR] [--work DIR]
                                           [--limit N] [--out benchmarks/results]

PolicyQA: one document per website (`product:` the website, one section per paragraph); every
question is asked with its website as the situation's product (the asker's app would pass it).
Split by website (`probe.splits`, a hash of the name). Per half: the share refused
(`no_evidence`), clarified, the gold paragraph among the evidence, the gold answer span inside
the answer text — and the same with "any gold": PolicyQA asks one question text of several
paragraphs of a site (55% of its questions), each annotated as answering it, so any of them
(and any of their spans) answers it; the exact figures count only the one annotation asked.

XQuAD: one document per article, one index per language; split by article. Russian questions
over the Russian index, English over the English one, and across (English over Russian,
Russian over English): answered, gold paragraph in the evidence, gold paragraph among the
first five blocks of the search (before the relevance rule), and the gold span in the answer —
across languages the span of the twin in the documents' language, which is what the answer
quotes.

Each set runs twice in the same run: as the product answers now (the evidence fills the
allowance from the documents the router chose, `Settings.fill_blocks`), and with the evidence
of the routed blocks alone (`fill_blocks` 0, the rule before).
A second table sends the shipped and the fresh off-topic questions through the chain on the
same indexes (PolicyQA: across the index and within three websites): refused, clarified.

Prints tables and writes JSON (`natural_questions.json`).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import re
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import yaml
from _provenance import default_data, write_result
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.index.ingest import ingest
from situated.settings import Settings
from situated.situation import Scope, Situation

HERE = Path(__file__).resolve().parent


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


class Report:
    """The two tables and the JSON of one run."""

    def __init__(self, limit: int):
        self.limit, self.results = limit, {}
        self.table = Table(title="natural questions (situated)")
        for col in ("set", "rule", "half", "questions", "no_evidence", "clarify", "withheld",
                    "gold in evidence", "gold in top 5", "span in answer",
                    "any gold in evidence", "any gold in top 5", "any span in answer",
                    "p50 ms"):
            self.table.add_column(col, justify="right")
        self.offt = Table(title="off-topic questions (shipped and fresh, EN and RU) through the "
                                "chain")
        for col in ("set", "rule", "questions", "refused", "clarified", "answered"):
            self.offt.add_column(col, justify="right")

    def limited(self, qs: list[Question], split: dict[str, str]) -> list[Question]:
        if not self.limit:
            return qs
        return [q for half in ("dev", "test")
                for q in [q for q in qs if split[q.group] == half][: self.limit]]

    def asked(self, name: str, rule: str, rows: list[dict], split: dict[str, str]) -> None:
        for half in ("dev", "test"):
            part = [r for r in rows if split[r["group"]] == half]
            s = summary(part)
            self.results[f"{name}/{rule}/{half}"] = {"summary": s, "refused": [
                r for r in part if r["status"] != "answered"][:40]}
            self.table.add_row(name, rule, half, str(s["questions"]), f"{s['no_evidence']:.3f}",
                               f"{s['clarify']:.3f}", f"{s['withheld']:.3f}",
                               f"{s['gold_in_evidence']:.3f}", f"{s['gold_in_top5']:.3f}",
                               f"{s['span_in_answer']:.3f}", f"{s['any_gold_in_evidence']:.3f}",
                               f"{s['any_gold_in_top5']:.3f}", f"{s['any_span_in_answer']:.3f}",
                               f"{s['p50_ms']:.0f}")

    def off_topic(self, name: str, rule: str, app: App, products: list[str | None]) -> None:
        off = off_topic(app, products)
        self.results[f"{name}/{rule}/off-topic"] = off
        self.offt.add_row(name, rule, str(off["questions"]), f"{off['refused']:.3f}",
                          str(off["clarified"]), str(off["answered"]))


def run_policyqa(path: Path, work: Path, report: Report) -> None:
    articles = json.loads(path.read_text(encoding="utf-8"))["data"]
    write_docs(articles, work / "policyqa-docs", "PQA", with_product=True)
    apps = build(work / "policyqa-docs", work / "policyqa-index")
    qs = questions(articles, with_product=True)
    split = halves([q.group for q in qs])
    sites = sorted({q.group for q in qs}, key=lambda g: hashlib.sha256(g.encode()).hexdigest())
    for rule, app in apps.items():
        report.asked("policyqa", rule, ask_all(app, report.limited(qs, split)), split)
        report.off_topic("policyqa", rule, app, [None, *sites[:3]])


def run_xquad(folder: Path, work: Path, report: Report) -> None:
    sets = {}
    for lang in ("ru", "en"):
        articles = json.loads((folder / f"xquad.{lang}.dev.json").read_text("utf-8"))["data"]
        write_docs(articles, work / f"xquad-{lang}-docs", f"XQ{lang.upper()}", False)
        sets[lang] = (articles, build(work / f"xquad-{lang}-docs", work / f"xquad-{lang}-index",
                                      without_leg=True))
    en_groups = {a["title"]: a["title"] for a in sets["en"][0]}
    for ru_a, en_a in zip(sets["ru"][0], sets["en"][0], strict=True):
        en_groups[ru_a["title"]] = en_a["title"]  # articles are aligned: split by the English
    split = halves([en_groups[a["title"]] for a in sets["en"][0]])
    for q_lang, d_lang in (("ru", "ru"), ("en", "en"), ("en", "ru"), ("ru", "en")):
        q_articles, (d_articles, apps) = sets[q_lang][0], sets[d_lang]
        gold = {qa["id"]: p["context"].strip().lstrip("\ufeff")
                for a in d_articles for p in a["paragraphs"] for qa in p["qas"]}
        # across languages the answer quotes the documents' language: the twin's spans
        spans = {qa["id"]: tuple(x["text"] for x in qa["answers"])
                 for a in d_articles for p in a["paragraphs"] for qa in p["qas"]}
        ids = [qa["id"] for a in q_articles for p in a["paragraphs"] for qa in p["qas"]]
        twins = [Question(q.text, gold[i], spans[i], en_groups[q.group])
                 for q, i in zip(questions(q_articles, with_product=False), ids, strict=True)]
        for rule, app in apps.items():
            report.asked(f"xquad {q_lang}->{d_lang}", rule,
                         ask_all(app, report.limited(twins, split)), split)
    for lang, (_, apps) in sets.items():
        for rule, app in apps.items():
            report.off_topic(f"xquad-{lang}", rule, app, [None])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--policyqa", type=Path, default=default_data("data/policyqa-dev/dev.json"))
    ap.add_argument("--xquad", type=Path, default=default_data("data/xquad-dev"))
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "natural-questions")
    ap.add_argument("--limit", type=int, default=0, help="at most N questions per half and set")
    ap.add_argument("--only", choices=["policyqa", "xquad"], default=None)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.policyqa is None and args.xquad is None:
        ap.error("no data: pass --policyqa FILE and/or --xquad DIR")
    report = Report(args.limit)
    if args.only in (None, "policyqa") and args.policyqa:
        run_policyqa(args.policyqa, args.work, report)
    if args.only in (None, "xquad") and args.xquad:
        run_xquad(args.xquad, args.work, report)
    Console(width=200).print(report.table)
    Console(width=200).print(report.offt)
    write_result(args.out / "natural_questions.json", report.results)


if __name__ == "__main__":
    main()

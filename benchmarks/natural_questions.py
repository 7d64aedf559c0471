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
import hashlib
import json
from pathlib import Path

from lib.natural import (
    HERE,
    Question,
    ask_all,
    build,
    halves,
    off_topic,
    questions,
    summary,
    write_docs,
)
from lib.provenance import default_data, write_result
from rich.console import Console
from rich.table import Table

from situated.app import App


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

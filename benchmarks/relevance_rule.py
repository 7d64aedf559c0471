"""Whether a block answers, as a rule that holds on indexes it was not fitted on: every signal
of every question gathered once on several indexes, then floors swept on the dev indexes and
reported on the held-out ones.

    python benchmarks/relevance_rule.py gather [--policyqa FILE] [--reranker DIR] [--work DIR]
    python benchmarks/relevance_rule.py sweep            # the tables, from the gathered rows
    python benchmarks/relevance_rule.py chain [--within-product] [--corpora NAME ...]  # whole chain

Indexes (each built without calibration: the signals do not depend on thresholds):

* four small corpora (`questions/small/`, 3 documents each, in domains the product was never
  shaped on; written before any threshold was looked at): `rental` and `dental` are dev,
  `library` and `tasq` held out. Paraphrased answerable questions and off-topic ones (far and
  near-domain), across the index.
* PolicyQA (20 real privacy policies, one document and product per site), sites split into
  halves by `natural_questions.halves`: crowd questions within their site (the asker's app
  names it), and off-topic ones (the shipped, the fresh and the near-domain lists) asked within
  sites of the same half and across the index. Off-topic texts split by a hash of the text too.

Per question: the product's `Observation` (`calibration.fit`), so the rule swept is the
product's own `Signals.relevant`, and — with `--reranker` (a folder holding the ONNX
cross-encoder ms-marco-MiniLM-L-12-v2, `model.onnx` + `tokenizer.json`) — the cross-encoder's
best score over the first five fused blocks.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import yaml
from lib.natural import halves, questions, write_docs
from lib.provenance import default_data, write_result
from lib.small_corpora import SMALL, brand_of, chain_app, small_corpora
from rich.console import Console
from rich.table import Table

from situated.app import App
from situated.calibration.fit import Observation, _asked_in, observe
from situated.calibration.questions import Half, Question, half_of, shipped_negatives
from situated.index.ingest import ingest
from situated.index.store import Thresholds
from situated.settings import Settings
from situated.situation import Scope, Situation

HERE = Path(__file__).resolve().parent
# when each small corpus was written and first asked: questions/small/README.md
CE_DEPTH = 5  # fused blocks the cross-encoder scores


class CrossEncoder:
    """ms-marco-MiniLM-L-12-v2 (INT8 ONNX) read from a folder: (question, text) → logit."""

    def __init__(self, folder: Path, threads: int = 2, max_tokens: int = 256):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(folder / "model.onnx"), opts,
                                            providers=["CPUExecutionProvider"])
        self.tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tok.enable_truncation(max_tokens)
        self.tok.enable_padding()

    def scores(self, question: str, texts: list[str]) -> list[float]:
        if not texts:
            return []
        enc = self.tok.encode_batch([(question, t) for t in texts])
        feed = {"input_ids": np.array([e.ids for e in enc], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in enc], dtype=np.int64)}
        return self.session.run(None, feed)[0][:, 0].astype(float).tolist()


def _app(docs: Path, index: Path) -> App:
    app = App(Settings(index_dir=index))
    if not (index / "current").exists():
        ingest([docs], index, app.embeddings, app.settings)
    return app


def _ce_best(app: App, ce: CrossEncoder | None, obs: Observation,
             products: list[str]) -> float | None:
    if ce is None or obs.unheld:
        return None
    product = _asked_in(obs.question, products) if obs.in_product else None
    flt = app.snapshot().filter(Situation(product=product) if product else Situation(), Scope())
    found = app.engine.assess(obs.question.text, flt, app.settings.leg_k)
    ids = [b.block_id for b in found.ranked[:CE_DEPTH]]
    blocks = app.index.read_blocks(ids)
    return max(ce.scores(obs.question.text, [blocks[i].text for i in ids if i in blocks]),
               default=None)


def _row(name: str, obs: Observation, ce: float | None, scope: str) -> dict:
    return {"set": name, "scope": scope, "half": obs.question.half.value,
            "positive": obs.question.positive, "kind": obs.question.kind,
            "text": obs.question.text, "product": obs.question.product,
            "latin": obs.latin, "decided": obs.decided, "unheld": obs.unheld,
            "in_product": obs.in_product, "ce": ce, "admitted": obs.admitted,
            "signals": [asdict(s) for s in obs.signals]}


def _observe(app: App, qs: list[Question], products: list[str], in_product_only: bool):
    obs = observe(app.engine, qs, Scope(), products)
    return [o for o in obs if o.in_product or not in_product_only]


def gather_small(work: Path, ce: CrossEncoder | None) -> list[dict]:
    rows = []
    for name, half in small_corpora().items():
        folder = HERE / "questions" / "small" / name
        app = _app(folder, work / f"small-{name}")
        data = yaml.safe_load((folder / "questions.yaml").read_text("utf-8"))
        h = Half.DEV if half == "dev" else Half.TEST
        qs = [Question(a["q"], True, h, "paraphrase") for a in data["answerable"]]
        qs += [Question(t, False, h, "off-topic") for t in data["off_topic"]]
        for o in _observe(app, qs, [], False):
            rows.append(_row(f"small/{name}", o, _ce_best(app, ce, o, []), "index"))
    return rows


def _negatives() -> list[tuple[str, str]]:
    out = [(t, "shipped") for t in shipped_negatives()]
    for name in ("offtopic_fresh.yaml", "offtopic_near_policy.yaml"):
        data = yaml.safe_load((HERE / "questions" / name).read_text("utf-8"))
        kind = "near" if "near" in name else "fresh"
        out += [(t, kind) for qs in data.values() for t in qs]
    return out


def gather_policyqa(path: Path, work: Path, ce: CrossEncoder | None, limit: int) -> list[dict]:
    articles = json.loads(path.read_text(encoding="utf-8"))["data"]
    write_docs(articles, work / "policyqa-docs", "PQA", with_product=True)
    app = _app(work / "policyqa-docs", work / "policyqa-index")
    natural = questions(articles, with_product=True)
    split = halves([q.group for q in natural])
    rng = random.Random(7)
    rows = []
    for half in ("dev", "test"):
        mine = [q for q in natural if split[q.group] == half]
        rng.shuffle(mine)
        sites = sorted({q.group for q in mine})
        pos = [Question(q.text, True, Half(half), "natural", q.product) for q in mine[:limit]]
        neg = [(t, k) for t, k in _negatives() if half_of(t).value == half]
        within = [Question(t, False, Half(half), k, sites[i % len(sites)])
                  for i, (t, k) in enumerate(neg)]
        for o in _observe(app, pos + within, sites, True):
            rows.append(_row("policyqa", o, _ce_best(app, ce, o, sites), "site"))
        across = [Question(t, False, Half(half), k) for t, k in neg]
        across += [Question(q.text, True, Half(half), "natural") for q in mine[:limit // 3]]
        for o in _observe(app, across, [], False):
            rows.append(_row("policyqa", o, _ce_best(app, ce, o, []), "index"))
    return rows


def gather(args) -> None:
    ce = CrossEncoder(args.reranker) if args.reranker else None
    started = time.perf_counter()
    rows = gather_small(args.work, ce)
    if args.policyqa:
        rows += gather_policyqa(args.policyqa, args.work, ce, args.limit)
    args.rows.parent.mkdir(parents=True, exist_ok=True)
    args.rows.write_text("\n".join(json.dumps(r) for r in rows) + "\n", "utf-8")
    print(f"{len(rows)} observations in {time.perf_counter() - started:.0f} s → {args.rows}")


def _signals(row: dict):
    from situated.retrievers.relevance import Signals

    return tuple(Signals(**s) for s in row["signals"])


def answered(row: dict, rule: dict) -> bool:
    """Whether `rule` answers the row's question: the product's decision
    (`Observation.relevant`) under the rule's floors, and/or the cross-encoder's."""
    if row["decided"] is not None:
        return row["decided"]
    base = Thresholds.default()
    th = base.model_copy(update={k: v for k, v in rule.items() if k in Thresholds.model_fields})
    obs = Observation(Question(row["text"], row["positive"], Half(row["half"]), row["kind"]),
                      row["latin"], None, row["unheld"], row["in_product"], _signals(row),
                      row.get("admitted", 0) if rule.get("sized", True) else 0)
    product = obs.relevant(th)
    if "ce" not in rule or not row["latin"] or row["ce"] is None:
        return product
    ce = row["ce"] >= rule["ce"]
    if rule.get("join") == "veto":  # the cross-encoder refuses only below a sentence band
        sure = max((s.sentence for s in obs.signals if s.sentence is not None), default=0.0)
        return product and (ce or sure >= rule.get("band", 1.0))
    return {"or": product or ce, "and": product and ce, "alone": ce}[rule.get("join", "alone")]


def groups(rows: list[dict], half: str) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in rows:
        if r["half"] != half:
            continue
        name = "small" if r["set"].startswith("small/") else f"{r['set']}/{r['scope']}"
        out.setdefault(name, []).append(r)
    return out


def rates(rows: list[dict], rule: dict) -> tuple[float, float, int, int]:
    pos = [r for r in rows if r["positive"]]
    neg = [r for r in rows if not r["positive"]]
    refused = sum(not answered(r, rule) for r in pos) / (len(pos) or 1)
    wrong = sum(answered(r, rule) for r in neg) / (len(neg) or 1)
    return refused, wrong, len(pos), len(neg)


def sweep(args) -> None:
    rows = [json.loads(line) for line in args.rows.read_text("utf-8").splitlines() if line]
    console = Console(width=200)
    results: dict = {}
    for half in args.halves:
        table = Table(title=f"{half}: refused answerable / answered off-topic")
        by = groups(rows, half)
        table.add_column("rule")
        for name, rs in by.items():
            table.add_column(f"{name} ({sum(r['positive'] for r in rs)}+/"
                             f"{sum(not r['positive'] for r in rs)}-)", justify="right")
        for label, rule in candidate_rules(args).items():
            got = {name: rates(rs, rule) for name, rs in by.items()}
            results[f"{half}/{label}"] = {name: {"refused_answerable": round(a, 3),
                                                 "answered_off_topic": round(b, 3),
                                                 "answerable": p, "off_topic": n}
                                          for name, (a, b, p, n) in got.items()}
            table.add_row(label, *(f"{a:.3f} / {b:.3f}" for a, b, *_ in got.values()))
        console.print(table)
    write_result(args.out / "relevance_rule.json", results)


def candidate_rules(args) -> dict[str, dict]:
    out = {"package rule (sized sentence floor)": {},
           "before: piece 0.435, no sentence floor": {"sentence_floor": None}}
    for c in args.cosine:
        for s in args.sentence:
            out[f"piece {c} | flat sentence {s}"] = {"min_cosine": c, "min_sentence": s,
                                                     "sentence_floor": None}
    for e in args.ce:
        out[f"cross-encoder {e}"] = {"ce": e, "join": "alone"}
        for band in args.band:  # the package rule, its answers vetoed by a low score
            out[f"package rule, ce {e} vetoes below sentence {band}"] = {
                "ce": e, "join": "veto", "band": band}
        for c in args.cosine[:1]:
            for s in args.sentence[:1]:
                out[f"piece {c} | flat sentence {s} | ce {e}"] = {
                    "min_cosine": c, "min_sentence": s, "sentence_floor": None, "ce": e,
                    "join": "or"}
    return out


def chain(args) -> None:
    """The small corpora through the whole chain, as `situated ingest` builds them (calibration
    included: too small, so the package floors decide): per corpus, answerable questions
    answered with the expected document cited, refused or clarified; off-topic ones answered."""
    from situated.chains.ask import build_ask_chain

    table = Table(title="small corpora through the chain")
    for col in ("corpus", "half", "answerable", "answered", "cites expected", "refused",
                "clarified", "off-topic", "off-topic answered", "off-topic clarified"):
        table.add_column(col, justify="right")
    results = {}
    for name, half in small_corpora(args.corpora).items():
        folder = HERE / "questions" / "small" / name
        brand = brand_of(folder) if args.name_product else None
        ask = build_ask_chain(chain_app(name, args.work, args.within_product, brand))
        data = yaml.safe_load((folder / args.questions).read_text("utf-8"))
        within = {"situation": {"product": name}} if args.within_product else {}
        def said(q: str, brand: str | None = brand) -> str:
            return f"At {brand}, {q[0].lower()}{q[1:]}" if brand else q
        pos = [(a, ask.invoke({"question": said(a["q"]), **within}))
               for a in data["answerable"]]
        neg = [(t, ask.invoke({"question": said(t), **within})) for t in data["off_topic"]]
        st = lambda xs, s: sum(x.status.value == s for _, x in xs)
        cites = sum(any(c.source_id == a["source"] for c in x.citations) for a, x in pos)
        row = {"half": half, "answerable": len(pos), "answered": st(pos, "answered"),
               "cites_expected": cites, "refused": st(pos, "no_evidence"),
               "clarified": st(pos, "clarify"), "off_topic": len(neg),
               "off_topic_answered": st(neg, "answered"), "off_topic_clarified": st(neg, "clarify"),
               "misses": [{"q": a["q"], "status": x.status.value, "answer": x.answer[:200]}
                          for a, x in pos if x.status.value != "answered"],
               "wrongly_answered": [{"q": t, "answer": x.answer[:200]} for t, x in neg
                                    if x.status.value != "no_evidence"]}
        results[name] = row
        table.add_row(name, half, *(str(row[k]) for k in (
            "answerable", "answered", "cites_expected", "refused", "clarified", "off_topic",
            "off_topic_answered", "off_topic_clarified")))
    Console(width=200).print(table)
    Console(width=200).print(_by_half(results))
    for name, row in results.items():
        for m in row["misses"] + row["wrongly_answered"]:
            print(name, json.dumps(m, ensure_ascii=False))
    suffix = ("_product" if args.within_product else "") + (
        "_named" if args.name_product else "") + (
        "" if args.questions == "questions.yaml" else "_" + Path(args.questions).stem)
    write_result(args.out / f"relevance_rule_chain{suffix}.json", results)


def _by_half(results: dict) -> Table:
    """The corpora's rows summed by half (dev, test, fresh, ...): how the rule reads on the
    pairs it was set on, the pairs that were seen, and each pair asked once."""
    table = Table(title="by half: refused answerable / off-topic answered (clarified)")
    for col in ("half", "refused", "off-topic answered", "clarified"):
        table.add_column(col, justify="right")
    for half in dict.fromkeys(row["half"] for row in results.values()):
        keys = ("refused", "answerable", "off_topic_answered", "off_topic", "clarified",
                "off_topic_clarified")
        t = {k: sum(r[k] for r in results.values() if r["half"] == half) for k in keys}
        table.add_row(half, f"{t['refused']}/{t['answerable']}",
                      f"{t['off_topic_answered']}/{t['off_topic']}",
                      str(t["clarified"] + t["off_topic_clarified"]))
    return table


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gather")
    g.add_argument("--policyqa", type=Path, default=default_data("data/policyqa-dev/dev.json"))
    g.add_argument("--reranker", type=Path, default=None)
    g.add_argument("--limit", type=int, default=300, help="natural questions per half")
    g.add_argument("--work", type=Path, default=HERE / "cache" / "relevance-rule")
    s = sub.add_parser("sweep")
    s.add_argument("--halves", nargs="+", default=["dev"])
    s.add_argument("--cosine", type=float, nargs="+", default=[0.435])
    s.add_argument("--sentence", type=float, nargs="+", default=[1.0])
    s.add_argument("--ce", type=float, nargs="*", default=[])
    s.add_argument("--band", type=float, nargs="*", default=[],
                   help="with --ce: the package rule, vetoed by the cross-encoder below this "
                   "best sentence cosine (1.0: always)")
    s.add_argument("--out", type=Path, default=HERE / "results")
    c = sub.add_parser("chain")
    c.add_argument("--work", type=Path, default=HERE / "cache" / "relevance-rule")
    c.add_argument("--out", type=Path, default=HERE / "results")
    c.add_argument("--corpora", nargs="+", default=None, choices=sorted(SMALL),
                   help="only these corpora (default: every pair already asked)")
    c.add_argument("--questions", default="questions.yaml", help="the corpus's questions file "
                   "(questions_ru.yaml: Russian questions over the English documents)")
    c.add_argument("--name-product", action="store_true", help="each corpus's documents "
                   "declare its brand (the titles' shared words) as their product, and every "
                   "question names it (\"At Oakfield Library, …\")")
    c.add_argument("--within-product", action="store_true", help="each corpus's documents "
                   "declare one product and every question is asked within it")
    for p in (g, s, c):
        p.add_argument("--rows", type=Path,
                       default=HERE / "cache" / "relevance-rule" / "rows.jsonl")
    args = ap.parse_args()
    {"gather": gather, "sweep": sweep, "chain": chain}[args.cmd](args)


if __name__ == "__main__":
    main()

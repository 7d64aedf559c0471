"""What `situated ingest` costs a user, on 3, 20 and 200 documents, the baseline commit and this
one side by side in one run, and where a cold ingest's time goes.

    python benchmarks/ingest_scale.py [--baseline REV] [--sizes 3 20 200] [--split-sizes 20 200]
                                      [--work DIR] [--out benchmarks/results]

Corpora: 3 = the README walkthrough's three files (read from README.md); 20 = PolicyQA's 20
privacy policies (one document each, a section per paragraph); 200 = 200 SciFact abstracts.
Each is ingested by `python -m situated.cli ingest` in a fresh process with a fresh embedding
cache (cold: every text embedded, every calibration question encoded), then once more after
one document changed (the same cache: what a user's edit costs). The baseline's package is
`git archive REV situated` run on the same interpreter. The model files are read once before
the first run, so both sides find them in the page cache.

The split (this commit, in one process, no cache): MiniLM over the pieces, MiniLM over the
blocks' quotable units, e5 over the pieces, e5 over the units, and calibration, each timed
over the whole corpus, with each leg's share of the MiniLM-pieces time. Prints two tables and
writes `ingest_scale.json`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from io import BytesIO
from pathlib import Path

from lib.provenance import REPO, default_data, write_result
from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent


def readme_corpus(out: Path) -> None:
    """The walkthrough's `cat > mydocs/… <<'EOF'` files, as the README writes them."""
    text = (REPO / "README.md").read_text("utf-8")
    out.mkdir(parents=True, exist_ok=True)
    for name, body in re.findall(r"cat > mydocs/(\S+) <<'EOF'\n(.*?)\nEOF\n", text, re.DOTALL):
        (out / name).write_text(body + "\n", encoding="utf-8")


def policyqa_corpus(out: Path, data: Path) -> None:
    sys.path.insert(0, str(HERE))
    from lib.natural import write_docs

    write_docs(json.loads(data.read_text("utf-8"))["data"], out, "PQA", with_product=True)


def scifact_corpus(out: Path, data: Path, n: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with data.open(encoding="utf-8") as fh:
        for _, line in zip(range(n), fh):
            doc = json.loads(line)
            title = json.dumps(doc["title"].strip()[:280])
            (out / f"sf{doc['_id']}.md").write_text(
                f"---\nsource_id: SCIFACT-{doc['_id']}\ntitle: {title}\n---\n# Abstract\n\n"
                f"## 1 Abstract\n\n{doc['text'].strip()}\n", encoding="utf-8")


def baseline_source(rev: str, work: Path) -> Path:
    """The baseline's `situated` package, extracted once."""
    dest = work / f"baseline-{rev}"
    if not (dest / "situated").is_dir():
        blob = subprocess.run(["git", "archive", rev, "situated"], cwd=REPO, check=True,
                              capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(blob)) as tar:
            tar.extractall(dest, filter="data")
    where = subprocess.run([sys.executable, "-c", "import situated; print(situated.__file__)"],
                           env={**os.environ, "PYTHONPATH": str(dest)}, capture_output=True,
                           text=True, check=True, cwd=dest).stdout.strip()
    if not where.startswith(str(dest)):
        raise SystemExit(f"the baseline's package is not the one imported ({where})")
    return dest


def ingest_s(source: Path, docs: Path, index: Path, cache: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(source), "XDG_CACHE_HOME": str(cache),
           "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "situated.cli", "ingest", str(docs),
                           "--index", str(index)], env=env, capture_output=True, text=True,
                          check=False, cwd=index.parent)  # not the repository: `-m` reads cwd first
    if done.returncode:
        raise SystemExit(f"ingest failed ({source}):\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
    return time.perf_counter() - t


def one_changed(docs: Path) -> None:
    first = min(docs.glob("*.md"))
    first.write_text(first.read_text("utf-8").rstrip() + "\n\nThis paragraph was added "
                     "later by an editor.\n", encoding="utf-8")


def timed_pair(name: str, make, sources: dict[str, Path], work: Path) -> dict:
    row: dict = {"corpus": name}
    for side, source in sources.items():
        docs = work / name / side / "docs"
        shutil.rmtree(work / name / side, ignore_errors=True)
        make(docs)
        cache, index = work / name / side / "cache", work / name / side / "index"
        row[f"{side}_cold_s"] = round(ingest_s(source, docs, index, cache), 2)
        one_changed(docs)
        row[f"{side}_one_changed_s"] = round(ingest_s(source, docs, index, cache), 2)
    row["documents"] = len(list((work / name / "current" / "docs").glob("*.md")))
    row["cold_ratio"] = round(row["current_cold_s"] / row["baseline_cold_s"], 3)
    row["one_changed_ratio"] = round(row["current_one_changed_s"] / row["baseline_one_changed_s"],
                                     3)
    return row


def split(docs: Path, work: Path) -> dict:
    """Each leg of a cold ingest over the whole corpus, timed on its own (this commit)."""
    from situated.calibration.fit import index_calibrator
    from situated.index.embeddings import MiniLMEmbeddings
    from situated.index.multilingual import multilingual_model
    from situated.index.sentences import block_units
    from situated.index.writer import build_index
    from situated.loaders.corpus import load_corpus
    from situated.loaders.sizing import BlockLimit
    from situated.settings import Settings

    settings = Settings(index_dir=work / "split-index", cache_dir=work / "split-cache")
    minilm = MiniLMEmbeddings(batch_size=settings.embed_batch_size)
    corpus = load_corpus([docs], timezone=settings.timezone, limit=BlockLimit(
        settings.block_limit, minilm.count_tokens, piece_tokens=minilm.max_tokens))
    pieces = list(dict.fromkeys(p.search_text for d in corpus.documents for p in d.pieces))
    units = block_units(b.text for d in corpus.documents for b in d.blocks)
    e5 = multilingual_model()
    row = {"pieces": len(pieces), "units": len(units)}
    for leg, model, texts in (("minilm_pieces", minilm, pieces), ("minilm_units", minilm, units),
                              ("e5_pieces", e5, pieces), ("e5_units", e5, units)):
        t = time.perf_counter()
        model.encode(texts)
        row[f"{leg}_s"] = round(time.perf_counter() - t, 2)
    timings: dict[str, float] = {}
    calibrate = index_calibrator(settings, minilm)

    def timed_calibration(generation, documents):
        t = time.perf_counter()
        try:
            return calibrate(generation, documents)
        finally:
            timings["calibration_s"] = round(time.perf_counter() - t, 2)

    for name, leg in (("whole_ingest_without_leg_s", False), ("whole_ingest_s", True)):
        shutil.rmtree(settings.index_dir, ignore_errors=True)
        shutil.rmtree(settings.cache_dir, ignore_errors=True)
        t = time.perf_counter()
        build_index(corpus, settings.index_dir, minilm,
                    settings.model_copy(update={"multilingual_leg": leg}),
                    calibrator=timed_calibration)
        row[name] = round(time.perf_counter() - t, 2)
    row.update(timings)  # the calibration of the whole ingest with the leg
    base = row["minilm_pieces_s"]
    for leg in ("minilm_units", "e5_pieces", "e5_units", "calibration", "whole_ingest",
                "whole_ingest_without_leg"):
        row[f"{leg}_share"] = round(row[f"{leg}_s"] / base, 3)
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", default="d0b0780")
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 20, 200])
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "ingest-scale")
    ap.add_argument("--policyqa", type=Path, default=default_data("data/policyqa-dev/dev.json"))
    ap.add_argument("--scifact", type=Path, default=default_data("data/scifact/corpus.jsonl"))
    ap.add_argument("--split-sizes", type=int, nargs="*", default=[20, 200],
                    help="corpora whose cold ingest is split by leg (none: no split)")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    makers = {3: ("readme-3", readme_corpus),
              20: ("policyqa-20", lambda out: policyqa_corpus(out, args.policyqa)),
              200: ("scifact-200", lambda out: scifact_corpus(out, args.scifact, 200))}
    sources = {"baseline": baseline_source(args.baseline, args.work), "current": REPO}
    warm = args.work / "warm"  # the model files into the page cache for both sides
    shutil.rmtree(warm, ignore_errors=True)
    readme_corpus(warm / "docs")
    ingest_s(REPO, warm / "docs", warm / "index", warm / "cache")
    rows = [timed_pair(*makers[n], sources, args.work) for n in args.sizes]
    t = Table(title=f"situated ingest, cold cache and after one edit: {args.baseline} vs this "
                    "commit (s)")
    for col in ("corpus", "docs", "before cold", "after cold", "ratio", "before edit",
                "after edit", "ratio"):
        t.add_column(col, justify="right")
    for r in rows:
        t.add_row(r["corpus"], str(r["documents"]), f"{r['baseline_cold_s']:.1f}",
                  f"{r['current_cold_s']:.1f}", f"{r['cold_ratio']:.2f}",
                  f"{r['baseline_one_changed_s']:.1f}", f"{r['current_one_changed_s']:.1f}",
                  f"{r['one_changed_ratio']:.2f}")
    Console().print(t)
    out = {"baseline": args.baseline, "rows": rows, "split": {}}
    if args.split_sizes:
        for n in args.split_sizes:
            if n in args.sizes:
                name = makers[n][0]
                out["split"][name] = split(args.work / name / "current" / "docs", args.work)
        s = Table(title="where a cold ingest's time goes (this commit; share of MiniLM pieces)")
        legs = ("minilm_units", "e5_pieces", "e5_units", "calibration",
                "whole_ingest_without_leg", "whole_ingest")
        for col in ("corpus", "pieces", "units", "MiniLM pieces s", "MiniLM units", "e5 pieces",
                    "e5 units", "calibration", "ingest without e5", "whole ingest"):
            s.add_column(col, justify="right")
        for name, r in out["split"].items():
            s.add_row(name, f"{r['pieces']:,}", f"{r['units']:,}", f"{r['minilm_pieces_s']:.1f}",
                      *(f"{r[f'{leg}_s']:.1f} ({r[f'{leg}_share']:.2f}x)" for leg in legs))
        Console().print(s)
    path = args.out / "ingest_scale.json"
    if path.exists():  # corpora not measured in this run keep their rows, with their stamp
        before = json.loads(path.read_text("utf-8"))
        mine = {r["corpus"] for r in rows}
        out["rows"] += [{**r, "measured_at": r.get("measured_at", before["measured_at"])}
                        for r in before["results"]["rows"] if r["corpus"] not in mine]
        out["split"] = {**{k: {**v, "measured_at": v.get("measured_at", before["measured_at"])}
                           for k, v in before["results"]["split"].items()}, **out["split"]}
    write_result(path, out)


if __name__ == "__main__":
    main()

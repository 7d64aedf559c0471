"""Questions about versions in people's words (issue 53, item 1): the paraphrase probe.

    python benchmarks/version_paraphrase.py [--httpx-index DIR] [--httpx-cases DIR]
        [--half dev|test|both|eighth|...|all] [--model-url URL --model-name NAME]

`benchmarks/questions/versions/paraphrases.yaml` holds 12 phrasings per kind (listing, count,
oldest, latest, a release that exists, one that does not, first appearance, what changed); the
odd ones are dev, the even ones test. Every later set (`--half NAME`, or `all`) and when it was
written and asked: `benchmarks/questions/versions/README.md`.

Each table is made for the rules alone and, with `--model-url` (an OpenAI-compatible server,
e.g. llama.cpp's `llama-server` with Qwen2.5-Coder from `qwen_gguf.py`), for the rules with
that model's proposal, validated as the product validates it; the offline model answers in
both. Prints the tables and writes benchmarks/results/version_paraphrase.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path

import yaml
from lib.provenance import default_data, write_result
from rich.console import Console
from rich.table import Table
from typos import correcting, slipped

from situated.app import App
from situated.chains.ask import build_ask_chain
from situated.index.ingest import ingest
from situated.settings import Settings
from situated.situation import Scope

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE / "questions" / "versions"


@dataclass(frozen=True)
class Corpus:
    name: str
    index: Path
    product: str
    line: list[str]  # every release, oldest first
    version: str  # one that exists, with a change before it
    missing: str  # one that does not
    subject: str  # something a release added
    first: tuple[str, ...]  # the releases a first-appearance answer may name


def recognised(kind: str, a) -> bool:
    """The answer has the kind's shape, whatever its content."""
    if kind in ("listing", "count", "oldest", "latest", "exists"):
        return bool(a.releases or a.versions)
    if kind == "missing":
        return not a.releases and ("not among the versions" in a.answer
                                   or "нет среди версий" in a.answer)
    if kind == "first":
        return a.appearance is not None
    return bool(a.changes) or bool(a.releases)  # a diff, or a release's notes


def right(kind: str, a, c: Corpus) -> bool:
    shown = a.releases or [v.version for v in a.versions]
    if kind in ("listing", "count"):
        return shown == c.line
    if kind == "oldest":
        return a.releases == [c.line[0]]
    if kind == "latest":
        return a.releases == [c.line[-1]]
    if kind == "exists":
        return a.releases == [c.version] and a.answer.startswith(("Yes", "Да"))
    if kind == "missing":
        return recognised(kind, a) and c.missing in a.answer
    if kind == "first":
        return a.appearance is not None and a.appearance.release in c.first
    return (bool(a.changes) and a.changes[-1].to_release == c.version) or (
        not a.changes and a.releases == [c.version])


def notes_table(c: Corpus, chain) -> dict:
    """Release notes as notes: "What changed in version R?" for every release of the line,
    answered from R's notes alone where the index has notes for R (the changelog split per
    release), else from the pages' diff — never R's neighbours' notes."""
    got, failed = [], []
    for release in c.line[1:]:
        a = chain.invoke({"question": f"What changed in version {release}?", "scope": Scope()})
        cited = {x.source_id for x in a.citations}
        notes = {s for s in cited if "@" in s}
        ok = a.status.value == "answered" and (
            notes == {s for s in cited} and all(s.endswith(f"@{release}") for s in notes)
            and bool(notes) or bool(a.changes) and a.changes[-1].to_release == release)
        got.append(ok)
        if not ok:
            failed.append({"release": release, "status": a.status.value,
                           "answer": a.answer[:300]})
    return {"n": len(got), "right": sum(got) / len(got) if got else None, "failed": failed}


def corpora(args) -> list[Corpus]:
    out = []
    quickq = args.work / "quickq-index"
    settings = Settings(index_dir=quickq)
    ingest([QUESTIONS / "quickq"], quickq, App(settings).embeddings, settings)
    out.append(Corpus("quickq", quickq, "quickq", ["1.0.0", "1.1.0", "2.0.0"], "1.1.0", "1.5.0",
                      "scheduled tasks", ("1.1.0",)))
    if args.httpx_index.exists():
        manifest = default_data("data/httpx-versions") / "manifest.jsonl"
        line = [json.loads(x)["version"] for x in manifest.read_text().splitlines() if x]
        out.append(Corpus("httpx", args.httpx_index, "httpx", line, "0.23.3", "0.19.5",
                          "zstd content decoding", ("0.27.1", "0.27.2")))
    return out


def proposer(args):
    """The chat model that proposes the situation (`--model-url`, an OpenAI-compatible server
    such as llama.cpp's `llama-server`), or None: the rules alone."""
    if not args.model_url:
        return None
    from situated.chains.say.models import make_chat_model
    from situated.settings import ModelKind

    os.environ.setdefault("LOCAL_MODEL_KEY", "sk-local")
    return make_chat_model(Settings(model=ModelKind.OPENAI, openai_base_url=args.model_url,
                                    openai_model=args.model_name,
                                    openai_api_key_env="LOCAL_MODEL_KEY"))


def version_shaped(a) -> bool:
    """The answer is one about versions: a listing, a line fact, changes, first appearance."""
    return bool(a.releases or a.versions or a.changes or a.appearance)


def content_table(c: Corpus, chain, extra: list[str]) -> dict:
    """Questions about what the documents say (`questions/versions/content.yaml`, and the
    probe's own questions about one release when given): how many come back shaped as an
    answer about versions, which none of them asks for."""
    written = yaml.safe_load((QUESTIONS / "content.yaml").read_text("utf-8"))
    asked = [t.format(P=c.product, V=c.version) for t in written] + extra
    wrong = []
    for q in asked:
        a = chain.invoke({"question": q, "scope": Scope()})
        if version_shaped(a):
            wrong.append({"question": q, "answer": a.answer[:200]})
    return {"n": len(asked), "version_shaped": len(wrong) / len(asked) if asked else None,
            "wrong": wrong}


def probe_questions(folder: Path | None) -> list[str]:
    """The httpx probe's questions about one release (`at`, `lacking`), both halves."""
    if folder is None:
        return []
    out = []
    for f in sorted(folder.glob("probe-*.yaml")):
        out += [x["question"] for x in yaml.safe_load(f.read_text("utf-8"))
                if set(x.get("tags", [])) & {"at", "lacking"}]
    return out


# dev and test: the odd and even phrasings of paraphrases.yaml; every later set by its name
# (paraphrases_<name>.yaml, each written before it was asked: questions/versions/README.md)
SETS = {"dev": "paraphrases.yaml", "test": "paraphrases.yaml",
        **{p.stem.removeprefix("paraphrases_"): p.name
           for p in sorted(QUESTIONS.glob("paraphrases_*.yaml"))}}
WHOLE = tuple(h for h in SETS if h not in ("dev", "test"))  # held-out sets: every phrasing


def ask_half(c: Corpus, chain, kinds: dict, half: str, slips: random.Random | None = None,
             ) -> dict:
    """One half's phrasings of every kind through `chain`: recognised and right per kind;
    with `slips`, each phrasing has one slip in its longest word but the product's
    (`typos.slipped`)."""
    row, failed = {}, []
    for kind, phrasings in kinds.items():
        mine = phrasings if half in WHOLE else [
            p for i, p in enumerate(phrasings) if (i % 2 == 0) == (half == "dev")]
        got = []
        for p in mine:
            q = p.format(P=c.product, V=c.version, N=c.missing, X=c.subject)
            if slips is not None:
                q = slipped(q, slips, frozenset({c.product.lower()}))
            started = time.perf_counter()
            a = chain.invoke({"question": q, "scope": Scope()})
            ms = 1000 * (time.perf_counter() - started)
            ok = (recognised(kind, a), right(kind, a, c))
            got.append(ok)
            if not ok[1]:
                failed.append({"kind": kind, "question": q, "status": a.status.value,
                               "answer": a.answer[:300], "ms": round(ms)})
        row[kind] = {"n": len(got), "recognised": sum(r for r, _ in got) / len(got),
                     "right": sum(r for _, r in got) / len(got)}
    return {"kinds": row, "failed": failed}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--httpx-index", type=Path, default=HERE / "cache" / "version-probe" / "index")
    ap.add_argument("--httpx-cases", type=Path, default=None, help="the probe's cases folder "
                    "(probe-*.yaml): its questions about one release join the content table")
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "version-paraphrase")
    ap.add_argument("--half", choices=(*SETS, "both", "all"), default="all",
                    help="dev/test: the first set's halves; the others are held-out sets")
    ap.add_argument("--model-url", default=None, help="an OpenAI-compatible endpoint whose "
                    "model proposes the situation beside the rules (the offline model answers)")
    ap.add_argument("--model-name", default="local")
    ap.add_argument("--only", choices=("quickq", "httpx"), default=None, help="one corpus")
    ap.add_argument("--skip", nargs="*", choices=SETS, default=[], help="sets left out of "
                    "`--half all` (a fresh pair kept to be asked once at the final code)")
    ap.add_argument("--every", type=int, default=1, help="every Nth of the probe's questions")
    ap.add_argument("--slips", type=int, default=None, help="a seed: each phrasing is asked "
                    "with one slip in its longest word of six letters or more")
    ap.add_argument("--as-typed", action="store_true", help="the question's slips are not put "
                    "right (`spelling.Corrector` off): the baseline of `--slips`")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args(argv)
    with correcting(not args.as_typed):
        run(args)


def run(args) -> None:
    every = tuple(h for h in SETS if h not in args.skip)
    halves = {"both": ("dev", "test"), "all": every}.get(args.half, (args.half,))
    kinds = {h: yaml.safe_load((QUESTIONS / SETS[h]).read_text("utf-8")) for h in halves}
    extractors = {"rules": None, **({f"rules + {args.model_name}": proposer(args)}
                                    if args.model_url else {})}
    results: dict = {}
    table = Table(title="versions in people's words: recognised / right (n)")
    for col in ("corpus", "extraction", "half", *kinds[halves[0]]):
        table.add_column(col, justify="right")
    others = Table(title="release notes (\"What changed in version R?\" for every release after "
                   "the first: R's notes alone, or the pages' diff) and questions about content "
                   "answered as if about versions")
    for col in ("corpus", "extraction", "notes right", "releases", "content version-shaped",
                "content asked"):
        others.add_column(col, justify="right")
    for c in corpora(args):
        if args.only and c.name != args.only:
            continue
        app = App(Settings(index_dir=c.index))
        extra = probe_questions(args.httpx_cases)[::args.every] if c.name == "httpx" else []
        for label, model in extractors.items():
            chain = build_ask_chain(app, proposer=model)
            for half in halves:
                slips = None if args.slips is None else random.Random(args.slips)
                got = results[f"{c.name}-{label}-{half}"] = ask_half(c, chain, kinds[half], half,
                                                                     slips)
                table.add_row(c.name, label, half, *(
                    f"{v['recognised']:.2f} / {v['right']:.2f} ({v['n']})"
                    for v in got["kinds"].values()))
            notes = results[f"{c.name}-{label}-notes"] = notes_table(c, chain)
            content = results[f"{c.name}-{label}-content"] = content_table(c, chain, extra)
            others.add_row(c.name, label, f"{notes['right']:.3f}", str(notes["n"]),
                           f"{content['version_shaped']:.3f}", str(content["n"]))
    Console(width=240).print(table)
    Console(width=240).print(others)
    name = "version_paraphrase" if args.slips is None else (
        f"version_paraphrase_slips{'_as_typed' if args.as_typed else ''}")
    write_result(args.out / f"{name}.json", results)


if __name__ == "__main__":
    main()

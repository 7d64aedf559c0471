"""Questions about versions in people's words (issue 53, item 1): the paraphrase probe.

    python benchmarks/version_paraphrase.py [--httpx-index DIR] [--half dev|test|both]

`benchmarks/questions/versions/paraphrases.yaml` holds 12 phrasings per kind (listing, count,
oldest, latest, a release that exists, one that does not, first appearance, what changed),
written before any rule was tuned on them; the odd ones are dev, the even ones test.
`paraphrases_heldout.yaml` (4 per kind) was written after the test half had been looked at
once, before the rules were changed for what it showed (`--half heldout`);
`paraphrases_third.yaml` (3 per kind) after the rules were changed for the second set, before
it was run (`--half third`); `paraphrases_fourth.yaml` (3 per kind), a later round, written
before it was run (`--half fourth`), which showed references to the system's holdings ("in
your documents", "you've got") unread, so the rule was widened; `paraphrases_fifth.yaml` (3 per
kind) written after that and before it was run (`--half fifth`), which showed order words
("lowest", "highest"), "updated" and asking verbs ("look up") unread, so the rule was widened
again; `paraphrases_sixth.yaml` (3 per kind) written after that, before it was run, and asked
once (`--half sixth`); `paraphrases_seventh.yaml` (3 per kind) written after the sixth ran and
before the rule was widened for it (verbs of arrival, where the docs "start"), asked once after
that (`--half seventh`). They are
asked of two corpora: `questions/versions/quickq/` (a guide at three releases beside a
changelog, built here without calibration) and the httpx documentation at 16 releases (the
index `version_probe.py` builds in benchmarks/cache/version-probe; left out when absent).
Per kind: recognised (the answer has the kind's shape: a listing, a line fact, first
appearance, changes or release notes) and right (the right releases, the right answer).
A second table asks "What changed in version R?" for every release after the first: R's
release notes alone (the changelog split per release), or the pages' diff, never a neighbour's
notes. Prints both tables and writes benchmarks/results/version_paraphrase.json.
"""

from __future__ import annotations

import argparse
import json
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


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--httpx-index", type=Path, default=HERE / "cache" / "version-probe" / "index")
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "version-paraphrase")
    ap.add_argument("--half", choices=("dev", "test", "both", "heldout", "third", "fourth",
                                       "fifth", "sixth", "seventh", "all"),
                    default="all", help="heldout, third, fourth: the held-out sets")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args(argv)
    sets = {"dev": "paraphrases.yaml", "test": "paraphrases.yaml",
            "heldout": "paraphrases_heldout.yaml", "third": "paraphrases_third.yaml",
            "fourth": "paraphrases_fourth.yaml", "fifth": "paraphrases_fifth.yaml",
            "sixth": "paraphrases_sixth.yaml", "seventh": "paraphrases_seventh.yaml"}
    halves = {"both": ("dev", "test"),
              "all": ("dev", "test", "heldout", "third", "fourth", "fifth", "sixth", "seventh")}.get(
        args.half, (args.half,))
    kinds = {h: yaml.safe_load((QUESTIONS / sets[h]).read_text("utf-8")) for h in halves}
    results: dict = {}
    table = Table(title="versions in people's words: recognised / right (n)")
    table.add_column("corpus")
    table.add_column("half")
    for kind in kinds[halves[0]]:
        table.add_column(kind, justify="right")
    notes_rows: list[tuple[str, dict]] = []
    for c in corpora(args):
        chain = build_ask_chain(App(Settings(index_dir=c.index)))
        for half in halves:
            row, failed = {}, []
            for kind, phrasings in kinds[half].items():
                mine = phrasings if half in ("heldout", "third", "fourth", "fifth", "sixth", "seventh") else [
                    p for i, p in enumerate(phrasings) if (i % 2 == 0) == (half == "dev")]
                got = []
                for p in mine:
                    q = p.format(P=c.product, V=c.version, N=c.missing, X=c.subject)
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
            results[f"{c.name}-{half}"] = {"kinds": row, "failed": failed}
            table.add_row(c.name, half, *(f"{v['recognised']:.2f} / {v['right']:.2f} ({v['n']})"
                                          for v in row.values()))
        results[f"{c.name}-notes"] = notes = notes_table(c, chain)
        notes_rows.append((c.name, notes))
    Console(width=240).print(table)
    second = Table(title="release notes: \"What changed in version R?\" for every release "
                         "after the first (R's notes alone, or the pages' diff)")
    for col in ("corpus", "right", "releases"):
        second.add_column(col, justify="right")
    for name, notes in notes_rows:
        second.add_row(name, f"{notes['right']:.3f}", str(notes["n"]))
    Console(width=240).print(second)
    write_result(args.out / "version_paraphrase.json", results)


if __name__ == "__main__":
    main()

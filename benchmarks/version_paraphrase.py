"""Questions about versions in people's words (issue 53, item 1): the paraphrase probe.

    python benchmarks/version_paraphrase.py [--httpx-index DIR] [--httpx-cases DIR]
        [--half dev|test|both|eighth|...|all] [--model-url URL --model-name NAME]

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
that (`--half seventh`); `paraphrases_eighth.yaml` (4 per kind) written before the model's
proposal was grounded in the release line (`--half eighth`); `paraphrases_ninth.yaml` (4 per
kind) written before the rules were widened for the eighth's misses, asked once after that
(`--half ninth`); `paraphrases_tenth.yaml` (4 per kind) written at the start of a session
before anything changed, asked once (`--half tenth`); `paraphrases_eleventh.yaml` (4 per
kind) written after the tenth's classes were added, asked once (`--half eleventh`);
`paraphrases_twelfth.yaml` (4 per kind) written after the eleventh's, asked once (`--half
twelfth`); `paraphrases_thirteenth.yaml` after the twelfth's (`--half thirteenth`); and
`paraphrases_russian.yaml`, the first Russian set (`--half russian`); after their classes,
`paraphrases_fourteenth.yaml` and `paraphrases_russian_second.yaml`; at the next session's
start, before anything changed, `paraphrases_fifteenth.yaml` and `paraphrases_russian_third.yaml`;
after their classes, `paraphrases_sixteenth.yaml` and `paraphrases_russian_fourth.yaml`; after the
words of asking became closed classes, `paraphrases_seventeenth.yaml` and
`paraphrases_russian_fifth.yaml`; after theirs, `paraphrases_eighteenth.yaml` and
`paraphrases_russian_sixth.yaml`; after the change nouns and the verbs of coming out became
classes, `paraphrases_nineteenth.yaml` and `paraphrases_russian_seventh.yaml`; after theirs,
`paraphrases_twentieth.yaml` and `paraphrases_russian_eighth.yaml`; at the session's end,
`paraphrases_twentyfirst.yaml` and `paraphrases_russian_ninth.yaml`; at stop 69's end, after
e5's reading joined the relevance rule, `paraphrases_twentysecond.yaml` and
`paraphrases_russian_tenth.yaml`; at stop 70's start, before anything ran or changed,
`paraphrases_twentythird.yaml` and `paraphrases_russian_eleventh.yaml`; after their classes,
`paraphrases_twentyfourth.yaml` and `paraphrases_russian_twelfth.yaml`; after theirs,
`paraphrases_twentyfifth.yaml` and `paraphrases_russian_thirteenth.yaml`; after theirs,
`paraphrases_twentysixth.yaml` and `paraphrases_russian_fourteenth.yaml`; after theirs,
`paraphrases_twentyseventh.yaml` and `paraphrases_russian_fifteenth.yaml`; after theirs,
`paraphrases_twentyeighth.yaml` and `paraphrases_russian_sixteenth.yaml`; after theirs,
`paraphrases_twentyninth.yaml` and `paraphrases_russian_seventeenth.yaml`; at stop 71's start,
`paraphrases_thirtieth.yaml` and `paraphrases_russian_eighteenth.yaml`; after theirs,
`paraphrases_thirtyfirst.yaml` and `paraphrases_russian_nineteenth.yaml`; after theirs,
`paraphrases_thirtysecond.yaml` and `paraphrases_russian_twentieth.yaml`; at the next session's
start, before anything ran or changed, `paraphrases_thirtythird.yaml` and
`paraphrases_russian_twentyfirst.yaml`; at the next session's start, likewise,
`paraphrases_thirtyfourth.yaml` and `paraphrases_russian_twentysecond.yaml`; at the next
session's start, likewise, `paraphrases_thirtyfifth.yaml` and
`paraphrases_russian_twentythird.yaml`; after theirs, `paraphrases_thirtysixth.yaml` and
`paraphrases_russian_twentyfourth.yaml`; after theirs, `paraphrases_thirtyseventh.yaml` and
`paraphrases_russian_twentyfifth.yaml`; after theirs and the pronoun and verb paradigms,
`paraphrases_thirtyeighth.yaml` and `paraphrases_russian_twentysixth.yaml`; after theirs,
`paraphrases_thirtyninth.yaml` and `paraphrases_russian_twentyseventh.yaml`; after theirs,
`paraphrases_fortieth.yaml` and `paraphrases_russian_twentyeighth.yaml`; after theirs,
`paraphrases_fortyfirst.yaml` and `paraphrases_russian_twentyninth.yaml`; after theirs,
`paraphrases_fortysecond.yaml` and `paraphrases_russian_thirtieth.yaml`; at the next session's
start, before anything ran or changed, `paraphrases_fortythird.yaml` and
`paraphrases_russian_thirtyfirst.yaml`; after theirs, `paraphrases_fortyfourth.yaml` and
`paraphrases_russian_thirtysecond.yaml`; after theirs, `paraphrases_fortyfifth.yaml` and
`paraphrases_russian_thirtythird.yaml`; after theirs, `paraphrases_fortysixth.yaml` and
`paraphrases_russian_thirtyfourth.yaml`; after theirs, `paraphrases_fortyseventh.yaml` and
`paraphrases_russian_thirtyfifth.yaml`; after theirs, `paraphrases_fortyeighth.yaml` and
`paraphrases_russian_thirtysixth.yaml`; after theirs, `paraphrases_fortyninth.yaml` and
`paraphrases_russian_thirtyseventh.yaml`; after theirs, `paraphrases_fiftieth.yaml` and
`paraphrases_russian_thirtyeighth.yaml`; at the next session's start,
`paraphrases_fiftyfirst.yaml` and `paraphrases_russian_thirtyninth.yaml`; after the reading by
meaning was built, `paraphrases_fiftysecond.yaml` and `paraphrases_russian_fortieth.yaml`; after
theirs, `paraphrases_fiftythird.yaml` and `paraphrases_russian_fortyfirst.yaml`; after theirs,
`paraphrases_fiftyfourth.yaml` and `paraphrases_russian_fortysecond.yaml`; after theirs,
`paraphrases_fiftyfifth.yaml` and `paraphrases_russian_fortythird.yaml`; after the shipped
weights, `paraphrases_fiftysixth.yaml` and `paraphrases_russian_fortyfourth.yaml`; at the next
session's start, `paraphrases_fiftyseventh.yaml` and `paraphrases_russian_fortyfifth.yaml`; after
the lead-in reading, `paraphrases_fiftyeighth.yaml` and `paraphrases_russian_fortysixth.yaml`; after
the refinement of a fact the words leave open, `paraphrases_fiftyninth.yaml` and
`paraphrases_russian_fortyseventh.yaml`; at stop 78, after the newest-first listing, the Russian
short forms and the release that did it, `paraphrases_sixtieth.yaml` and
`paraphrases_russian_fortyeighth.yaml`; after theirs were asked, `paraphrases_sixtyfirst.yaml` and
`paraphrases_russian_fortyninth.yaml`; at stop 79, after words said in passing,
`paraphrases_sixtysecond.yaml` and `paraphrases_russian_fiftieth.yaml`. They are asked of two
corpora:
`questions/versions/quickq/` (a guide at three releases beside a changelog, built here without
calibration) and the httpx documentation at 16 releases (the
index `version_probe.py` builds in benchmarks/cache/version-probe; left out when absent).
With `--slips SEED` each phrasing is asked with one slip in its longest word of six letters or
more but the product's (`typos.slipped`), and `--as-typed` switches the question's spelling
correction off for the baseline (`version_paraphrase_slips{,_as_typed}.json`).
Per kind: recognised (the answer has the kind's shape: a listing, a line fact, first
appearance, changes or release notes) and right (the right releases, the right answer).
A second table asks "What changed in version R?" for every release after the first: R's
release notes alone (the changelog split per release), or the pages' diff, never a neighbour's
notes. A third counts questions about what the documents say (`questions/versions/
content.yaml`, and with `--httpx-cases` the probe's questions about one release) that come
back shaped as an answer about versions: what a wider reading must not do.

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
from _provenance import default_data, write_result
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


SETS = {"dev": "paraphrases.yaml", "test": "paraphrases.yaml",
        "heldout": "paraphrases_heldout.yaml", "third": "paraphrases_third.yaml",
        "fourth": "paraphrases_fourth.yaml", "fifth": "paraphrases_fifth.yaml",
        "sixth": "paraphrases_sixth.yaml", "seventh": "paraphrases_seventh.yaml",
        "eighth": "paraphrases_eighth.yaml", "ninth": "paraphrases_ninth.yaml",
        "tenth": "paraphrases_tenth.yaml", "eleventh": "paraphrases_eleventh.yaml",
        "twelfth": "paraphrases_twelfth.yaml", "thirteenth": "paraphrases_thirteenth.yaml",
        "russian": "paraphrases_russian.yaml", "fourteenth": "paraphrases_fourteenth.yaml",
        "russian_second": "paraphrases_russian_second.yaml",
        "fifteenth": "paraphrases_fifteenth.yaml",
        "russian_third": "paraphrases_russian_third.yaml",
        "sixteenth": "paraphrases_sixteenth.yaml",
        "russian_fourth": "paraphrases_russian_fourth.yaml",
        "seventeenth": "paraphrases_seventeenth.yaml",
        "russian_fifth": "paraphrases_russian_fifth.yaml",
        "eighteenth": "paraphrases_eighteenth.yaml",
        "russian_sixth": "paraphrases_russian_sixth.yaml",
        "nineteenth": "paraphrases_nineteenth.yaml",
        "russian_seventh": "paraphrases_russian_seventh.yaml",
        "twentieth": "paraphrases_twentieth.yaml",
        "russian_eighth": "paraphrases_russian_eighth.yaml",
        "twentyfirst": "paraphrases_twentyfirst.yaml",
        "russian_ninth": "paraphrases_russian_ninth.yaml",
        "twentysecond": "paraphrases_twentysecond.yaml",
        "russian_tenth": "paraphrases_russian_tenth.yaml",
        "twentythird": "paraphrases_twentythird.yaml",
        "russian_eleventh": "paraphrases_russian_eleventh.yaml",
        "twentyfourth": "paraphrases_twentyfourth.yaml",
        "russian_twelfth": "paraphrases_russian_twelfth.yaml",
        "twentyfifth": "paraphrases_twentyfifth.yaml",
        "russian_thirteenth": "paraphrases_russian_thirteenth.yaml",
        "twentysixth": "paraphrases_twentysixth.yaml",
        "russian_fourteenth": "paraphrases_russian_fourteenth.yaml",
        "twentyseventh": "paraphrases_twentyseventh.yaml",
        "russian_fifteenth": "paraphrases_russian_fifteenth.yaml",
        "twentyeighth": "paraphrases_twentyeighth.yaml",
        "russian_sixteenth": "paraphrases_russian_sixteenth.yaml",
        "twentyninth": "paraphrases_twentyninth.yaml",
        "russian_seventeenth": "paraphrases_russian_seventeenth.yaml",
        "thirtieth": "paraphrases_thirtieth.yaml",
        "russian_eighteenth": "paraphrases_russian_eighteenth.yaml",
        "thirtyfirst": "paraphrases_thirtyfirst.yaml",
        "russian_nineteenth": "paraphrases_russian_nineteenth.yaml",
        "thirtysecond": "paraphrases_thirtysecond.yaml",
        "russian_twentieth": "paraphrases_russian_twentieth.yaml",
        "thirtythird": "paraphrases_thirtythird.yaml",
        "russian_twentyfirst": "paraphrases_russian_twentyfirst.yaml",
        "thirtyfourth": "paraphrases_thirtyfourth.yaml",
        "russian_twentysecond": "paraphrases_russian_twentysecond.yaml",
        "thirtyfifth": "paraphrases_thirtyfifth.yaml",
        "russian_twentythird": "paraphrases_russian_twentythird.yaml",
        "thirtysixth": "paraphrases_thirtysixth.yaml",
        "russian_twentyfourth": "paraphrases_russian_twentyfourth.yaml",
        "thirtyseventh": "paraphrases_thirtyseventh.yaml",
        "russian_twentyfifth": "paraphrases_russian_twentyfifth.yaml",
        "thirtyeighth": "paraphrases_thirtyeighth.yaml",
        "russian_twentysixth": "paraphrases_russian_twentysixth.yaml",
        "thirtyninth": "paraphrases_thirtyninth.yaml",
        "russian_twentyseventh": "paraphrases_russian_twentyseventh.yaml",
        "fortieth": "paraphrases_fortieth.yaml",
        "russian_twentyeighth": "paraphrases_russian_twentyeighth.yaml",
        "fortyfirst": "paraphrases_fortyfirst.yaml",
        "russian_twentyninth": "paraphrases_russian_twentyninth.yaml",
        "fortysecond": "paraphrases_fortysecond.yaml",
        "russian_thirtieth": "paraphrases_russian_thirtieth.yaml",
        "fortythird": "paraphrases_fortythird.yaml",
        "russian_thirtyfirst": "paraphrases_russian_thirtyfirst.yaml",
        "fortyfourth": "paraphrases_fortyfourth.yaml",
        "russian_thirtysecond": "paraphrases_russian_thirtysecond.yaml",
        "fortyfifth": "paraphrases_fortyfifth.yaml",
        "russian_thirtythird": "paraphrases_russian_thirtythird.yaml",
        "fortysixth": "paraphrases_fortysixth.yaml",
        "russian_thirtyfourth": "paraphrases_russian_thirtyfourth.yaml",
        "fortyseventh": "paraphrases_fortyseventh.yaml",
        "russian_thirtyfifth": "paraphrases_russian_thirtyfifth.yaml",
        "fortyeighth": "paraphrases_fortyeighth.yaml",
        "russian_thirtysixth": "paraphrases_russian_thirtysixth.yaml",
        "fortyninth": "paraphrases_fortyninth.yaml",
        "russian_thirtyseventh": "paraphrases_russian_thirtyseventh.yaml",
        "fiftieth": "paraphrases_fiftieth.yaml",
        "russian_thirtyeighth": "paraphrases_russian_thirtyeighth.yaml",
        "fiftyfirst": "paraphrases_fiftyfirst.yaml",
        "russian_thirtyninth": "paraphrases_russian_thirtyninth.yaml",
        "fiftysecond": "paraphrases_fiftysecond.yaml",
        "russian_fortieth": "paraphrases_russian_fortieth.yaml",
        "fiftythird": "paraphrases_fiftythird.yaml",
        "russian_fortyfirst": "paraphrases_russian_fortyfirst.yaml",
        "fiftyfourth": "paraphrases_fiftyfourth.yaml",
        "russian_fortysecond": "paraphrases_russian_fortysecond.yaml",
        "fiftyfifth": "paraphrases_fiftyfifth.yaml",
        "russian_fortythird": "paraphrases_russian_fortythird.yaml",
        "fiftysixth": "paraphrases_fiftysixth.yaml",
        "russian_fortyfourth": "paraphrases_russian_fortyfourth.yaml",
        "fiftyseventh": "paraphrases_fiftyseventh.yaml",
        "russian_fortyfifth": "paraphrases_russian_fortyfifth.yaml",
        "fiftyeighth": "paraphrases_fiftyeighth.yaml",
        "russian_fortysixth": "paraphrases_russian_fortysixth.yaml",
        "fiftyninth": "paraphrases_fiftyninth.yaml",
        "russian_fortyseventh": "paraphrases_russian_fortyseventh.yaml",
        "sixtieth": "paraphrases_sixtieth.yaml",
        "russian_fortyeighth": "paraphrases_russian_fortyeighth.yaml",
        "sixtyfirst": "paraphrases_sixtyfirst.yaml",
        "russian_fortyninth": "paraphrases_russian_fortyninth.yaml",
        "sixtysecond": "paraphrases_sixtysecond.yaml",
        "russian_fiftieth": "paraphrases_russian_fiftieth.yaml"}
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
                    "`--half all` (a fresh pair kept to be asked once at a stop's final code)")
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

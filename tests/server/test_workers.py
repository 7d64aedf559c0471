"""`situated serve --workers 2`: two processes behind one port, each following the published
generation, so a permission change reaches every worker at once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import uvicorn
import yaml
from conftest import end_process, free_port, md, write
from typer.testing import CliRunner

from situated.auth import hash_key
from situated.cli import app
from situated.index.ingest import ingest
from situated.index.store import current_generation
from situated.process import THREAD_VARIABLES, WORKER_INDEX, WORKER_KEYS, WORKER_SECRET, share_cores
from situated.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.slow]
BODY = "## 1 Valve\n\nThe Orbit inject valve opens at 4 bar.\n"


def _health_many(base: str, n: int = 40) -> list[dict]:
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda _: httpx.get(f"{base}/health", timeout=30).json(), range(n)))


def test_workers_get_the_configured_time_to_start(tmp_path, sample_root, monkeypatch):
    """uvicorn's supervisor kills a worker that does not answer its health check in 5 s: on a
    busy machine one still loading its models was killed and restarted forever, and one
    worker served alone. `serve` hands uvicorn `worker_start_s` instead."""
    keys = tmp_path / "keys.yaml"
    keys.write_text(yaml.safe_dump({"principals": [
        {"name": "nobody", "key_sha256": hash_key("k0")}]}), encoding="utf-8")
    for name in (WORKER_KEYS, WORKER_INDEX, WORKER_SECRET):  # restored after the test
        monkeypatch.setenv(name, "unset")
    monkeypatch.setenv("SITUATED_WORKER_START_S", "45")
    calls: list[dict] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: calls.append(k))
    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--keys", str(keys),
                                      "--index", str(sample_root)])
    assert result.exit_code == 0, result.output
    assert calls[0]["workers"] == 2 and calls[0]["timeout_worker_healthcheck"] == 45
    monkeypatch.setenv("SITUATED_WORKER_START_S", "1")
    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--keys", str(keys),
                                      "--index", str(sample_root)])
    assert result.exit_code == 1 and "SITUATED_WORKER_START_S" in result.output


def test_each_worker_gets_its_share_of_the_cores_unless_the_user_chose(tmp_path, sample_root,
                                                                        monkeypatch):
    """Two workers whose numeric libraries each took every core served a third of what one
    worker does (issue 84): `serve --workers N` sets each thread variable the user left unset
    to cores // N before uvicorn starts the workers; a value the user set is kept, and one
    worker leaves the libraries their defaults."""
    keys = tmp_path / "keys.yaml"
    keys.write_text(yaml.safe_dump({"principals": [
        {"name": "nobody", "key_sha256": hash_key("k0")}]}), encoding="utf-8")
    for name in (WORKER_KEYS, WORKER_INDEX, WORKER_SECRET, *THREAD_VARIABLES):
        monkeypatch.setenv(name, "unset")  # restored after the test
        monkeypatch.delenv(name)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    seen: list[dict] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: seen.append(dict(os.environ)))
    for workers in ("1", "2"):
        result = CliRunner().invoke(app, ["serve", "--workers", workers, "--keys", str(keys),
                                          "--index", str(sample_root)])
        assert result.exit_code == 0, result.output
    one, two = seen
    assert "OMP_NUM_THREADS" not in one and one["MKL_NUM_THREADS"] == "3"
    assert two["OMP_NUM_THREADS"] == two["OPENBLAS_NUM_THREADS"] == "2"
    assert two["RAYON_NUM_THREADS"] == "2" and two["MKL_NUM_THREADS"] == "3"
    for name in THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert share_cores(8, cores=2) == dict.fromkeys(THREAD_VARIABLES, "1")  # at least one


def test_two_workers_serve_and_follow_a_permission_change(tmp_path, embeddings):
    docs, root = tmp_path / "docs", tmp_path / "index"
    write(docs / "pub.md", md("PUB-VALVE", body=BODY, title="Orbit valve notes"))
    settings = Settings(index_dir=root, cache_dir=tmp_path / "cache")
    ingest([docs], root, embeddings, settings)
    keys = tmp_path / "keys.yaml"
    keys.write_text(yaml.safe_dump({"principals": [
        {"name": "nobody", "key_sha256": hash_key("k0")}]}), encoding="utf-8")
    port = free_port()
    env = {**os.environ, "SITUATED_CACHE_DIR": str(tmp_path / "cache")}
    # the server's output goes to a file: a pipe nobody reads fills and blocks the worker
    # that writes to it, which then answers nothing
    log = (tmp_path / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "situated.cli", "serve", "--workers", "2", "--port", str(port),
         "--keys", str(keys), "--index", str(root)], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 240
        pids: set[int] = set()
        while len(pids) < 2 and time.time() < deadline:
            try:
                pids |= {h["pid"] for h in _health_many(base)}
            except httpx.HTTPError:
                time.sleep(0.5)
        assert len(pids) == 2, ("both workers answer /health", pids,
                                (tmp_path / "server.log").read_text("utf-8", "replace")[-3000:])
        auth = {"Authorization": "Bearer k0"}
        assert httpx.get(f"{base}/documents/PUB-VALVE?format=json", headers=auth,
                         timeout=30).status_code == 200
        write(docs / "pub.md", md("PUB-VALVE", body=BODY, access="[security]"))
        ingest([docs], root, embeddings, settings)
        new = current_generation(root).name
        seen = _health_many(base)
        assert {h["generation"] for h in seen} == {new}
        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(lambda _: httpx.get(
                f"{base}/documents/PUB-VALVE?format=json", headers=auth, timeout=30
            ).status_code, range(40)))
        assert set(codes) == {404}
    finally:
        end_process(proc)
        log.close()

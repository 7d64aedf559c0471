"""Replicas: two API processes over one `chroma run` server and one index directory (the
published generation: row store, columns, bm25s; each process maps its own read-only copy).
Both answer the same, and a permission change published by one ingest reaches both."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
import yaml
from conftest import end_process, free_port, md, write

from situated.auth import hash_key
from situated.index.ingest import ingest
from situated.index.store import chroma_client, current_generation
from situated.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.slow]
BODY = ("## 1 Valve\n\nThe Orbit inject valve opens at 4 bar. Check the seal before "
        "opening.\n")
QUESTION = "At what pressure does the Orbit inject valve open?"


def _replica(stack: ExitStack, root: Path, keys: Path, cache: Path) -> str:
    port = free_port()
    env = {**os.environ, "SITUATED_CACHE_DIR": str(cache)}  # the manifest names the server
    proc = subprocess.Popen(
        [sys.executable, "-m", "situated.cli", "serve", "--port", str(port), "--keys",
         str(keys), "--index", str(root)], env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)

    stack.callback(end_process, proc)
    return f"http://127.0.0.1:{port}"


def _wait(base: str) -> dict:
    deadline = time.time() + 240
    while time.time() < deadline:
        try:
            return httpx.get(f"{base}/health", timeout=5).json()
        except httpx.HTTPError:
            time.sleep(0.5)
    pytest.fail(f"the replica at {base} did not start")


def _ask(base: str) -> dict:
    r = httpx.post(f"{base}/ask/invoke", json={"input": {"question": QUESTION}},
                   headers={"Authorization": "Bearer k0"}, timeout=120)
    assert r.status_code == 200, r.text
    return r.json()["output"]


def test_two_replicas_over_one_chroma_server_answer_alike_and_follow(
        chroma_url, tmp_path, embeddings):
    docs, root, cache = tmp_path / "docs", tmp_path / "index", tmp_path / "cache"
    write(docs / "pub.md", md("PUB-VALVE", body=BODY, title="Orbit valve notes"))
    write(docs / "other.md", md("PUB-PUMP", body="## 1 Pump\n\nThe pump runs at 3 bar.\n",
                                title="Orbit pump notes"))
    settings = Settings(index_dir=root, cache_dir=cache, chroma_url=chroma_url)
    ingest([docs], root, embeddings, settings)
    gen = current_generation(root)
    assert not (gen / "chroma").exists()  # vectors live on the server only
    keys = tmp_path / "keys.yaml"
    keys.write_text(yaml.safe_dump({"principals": [
        {"name": "nobody", "key_sha256": hash_key("k0")}]}), encoding="utf-8")
    with ExitStack() as stack:
        bases = [_replica(stack, root, keys, cache) for _ in range(2)]
        health = [_wait(b) for b in bases]
        assert len({h["pid"] for h in health}) == 2
        assert {h["generation"] for h in health} == {gen.name}

        first, second = (_ask(b) for b in bases)
        assert first["status"] == "answered"
        assert "PUB-VALVE" in {e["source_id"] for e in first["evidence"]}
        drop = ("trace", "timings", "elapsed_ms")
        assert ({k: v for k, v in first.items() if k not in drop}
                == {k: v for k, v in second.items() if k not in drop})

        # one ingest restricts the valve notes: both replicas stop serving them at once
        write(docs / "pub.md", md("PUB-VALVE", body=BODY, title="Orbit valve notes",
                                  access="[security]"))
        ingest([docs], root, embeddings, settings)
        new = current_generation(root).name
        assert new != gen.name
        for base in bases:
            assert httpx.get(f"{base}/health", timeout=30).json()["generation"] == new
            assert httpx.get(f"{base}/documents/PUB-VALVE?format=json",
                             headers={"Authorization": "Bearer k0"}, timeout=30).status_code == 404
            assert "PUB-VALVE" not in {e["source_id"] for e in _ask(base)["evidence"]}
        # the new generation's vectors are one more collection on the same server
        names = {c.name for c in chroma_client(Path("."), chroma_url).list_collections()}
        assert any(n.endswith(new) for n in names)

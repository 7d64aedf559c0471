"""Truncating a served generation's files in place (what `rsync --inplace` into a published
generation does) must not kill the server: a published generation's files are read-only, so a
writer running as the index's owner (anyone but root) cannot open them for writing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest
import yaml
from conftest import end_process, free_port, md, write

from situated.auth import hash_key
from situated.index.ingest import ingest
from situated.index.store import current_generation
from situated.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.slow]
SETPRIV = shutil.which("setpriv")


def _as_owner(owner: str, *cmd: str) -> subprocess.CompletedProcess:
    """Run `cmd` as the index's owner (not root: root ignores file modes)."""
    return subprocess.run([SETPRIV, f"--reuid={owner}", "--regid=65534", "--clear-groups",
                           *cmd], capture_output=True, text=True, check=False)


@pytest.mark.skipif(os.geteuid() != 0 or SETPRIV is None,
                    reason="needs root and setpriv to act as another owner")
def test_an_in_place_truncation_by_the_owner_is_refused_while_serving(embeddings):
    root_dir = Path(tempfile.mkdtemp(prefix="situated-immutable-"))
    root_dir.chmod(0o755)
    try:
        docs, index = root_dir / "docs", root_dir / "index"
        write(docs / "v.md", md("VALVE", "## 1 Valve\n\nThe valve opens at 4 bar.\n"))
        settings = Settings(index_dir=index, cache_dir=root_dir / "cache")
        ingest([docs], index, embeddings, settings)
        gen = current_generation(index)
        os.chown(root_dir, 65534, 65534)  # the index belongs to a service account
        for path in [index, *index.rglob("*")]:
            os.lchown(path, 65534, 65534)
        keys = root_dir / "keys.yaml"
        keys.write_text(yaml.safe_dump({"principals": [
            {"name": "ops", "key_sha256": hash_key("k0")}]}), encoding="utf-8")
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "situated.cli", "serve", "--port", str(port), "--keys",
             str(keys), "--index", str(index)],
            env={**os.environ, "SITUATED_CACHE_DIR": str(root_dir / "cache")},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base, auth = f"http://127.0.0.1:{port}", {"Authorization": "Bearer k0"}
        try:
            for _ in range(240):
                try:
                    if httpx.get(f"{base}/health", timeout=5).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.5)
            ask = {"input": {"question": "At what pressure does the valve open?"}}
            first = httpx.post(f"{base}/ask/invoke", json=ask, headers=auth, timeout=60)
            assert first.status_code == 200
            mapped = [gen / "columns" / "piece_doc.npy", next((gen / "bm25").glob("*.npy"))]
            for path in mapped:
                done = _as_owner("nobody", "truncate", "-s", "0", str(path))
                assert done.returncode != 0 and "Permission denied" in done.stderr
                assert path.stat().st_size > 0
            again = httpx.post(f"{base}/ask/invoke", json=ask, headers=auth, timeout=60)
            assert again.status_code == 200 and proc.poll() is None  # still serving
            assert again.json()["output"]["answer"] == first.json()["output"]["answer"]
        finally:
            end_process(proc)
    finally:
        shutil.rmtree(root_dir, ignore_errors=True)

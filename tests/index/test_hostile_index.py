"""Hostile or damaged index files: an edited row store, zeroed HNSW files or a swapped generation
are refused or read consistently, and the sample index belongs to its install."""

from __future__ import annotations

import os
import re
from pathlib import Path

import httpx
import pytest
import yaml
from conftest import indexed_app, md, running_server, seed_cache, write

from situated import build_ask_chain
from situated.auth import KeyStore, Principal, hash_key
from situated.errors import IndexError_
from situated.index.ingest import ingest
from situated.index.reader import Index
from situated.server import create_app
from situated.settings import Settings


@pytest.fixture
def small_index(tmp_path, embeddings):
    write(tmp_path / "docs" / "a.md", md("A", "## 1 Timeout\n\nThe timeout is 30 seconds.\n"))
    app = indexed_app(tmp_path, embeddings)
    return app, os.path.realpath(tmp_path / "index" / "current")


def _edit(path, old: bytes, new: bytes) -> None:
    os.chmod(path, 0o644)
    data = open(path, "rb").read()
    assert old in data
    with open(path, "wb") as f:
        f.write(data.replace(old, new))


TODAY = __import__("datetime").date(2026, 11, 29)


KEY = "key-staff-0123456789abcdef"


@pytest.mark.integration
def test_a_published_row_store_that_is_not_a_database_is_an_error_naming_the_fix(tmp_path,
                                                                                embeddings):
    docs = tmp_path / "docs"
    write(docs / "a.md", md("A", "## 1 Rule\n\nSome rule text here.\n"))
    settings = Settings(index_dir=tmp_path / "index", cache_dir=tmp_path / "cache")
    ingest([docs], settings.index_dir, embeddings, settings)
    from situated.errors import IndexError_
    from situated.index.store import current_generation

    store = current_generation(settings.index_dir) / "store.sqlite"
    store.chmod(0o644)
    store.write_bytes(b"garbage" * 1000)
    with pytest.raises(IndexError_, match="cannot be read.*nothing was changed"):
        ingest([docs], settings.index_dir, embeddings, settings)


@pytest.mark.integration
def test_an_edited_row_store_is_refused_when_opened_naming_the_file(small_index, embeddings):
    app, gen = small_index
    _edit(f"{gen}/store.sqlite", b"30 seconds", b"99 seconds")
    with pytest.raises(IndexError_, match="store.sqlite changed after the generation"):
        Index(app.settings.index_dir, embeddings)
    from situated.index.integrity import damage

    assert "store.sqlite" in damage(app.settings.index_dir, __import__("pathlib").Path(gen),
                                    embeddings)


@pytest.mark.integration
def test_zeroed_hnsw_files_are_refused_and_reading_changes_no_file(small_index, embeddings):
    from pathlib import Path

    from situated.index.integrity import tampered

    app, gen = small_index
    chain = build_ask_chain(app, clock=lambda: TODAY)
    assert chain.invoke({"question": "What is the timeout?"}).status.value == "answered"
    assert tampered(Path(gen)) is None  # an ask wrote nothing into the published generation
    for hnsw in Path(gen, "chroma").rglob("*.bin"):  # the HNSW segment's files, zeroed
        hnsw.chmod(0o644)
        hnsw.write_bytes(b"\0" * hnsw.stat().st_size)
    with pytest.raises(IndexError_, match=r"chroma/[\w-]+/\w+\.bin changed after"):
        Index(app.settings.index_dir, embeddings)


@pytest.mark.integration
def test_a_document_read_holds_its_generation_across_a_swap(tmp_path, embeddings, monkeypatch):
    """`/documents/{id}` pins the generation published when it starts: a new generation
    published mid-read neither closes what it reads nor mixes the two."""
    from situated import server as server_module
    from situated.index.ingest import ingest

    write(tmp_path / "docs" / "a.md", md("A", "## 1 Timeout\n\nThe timeout is 30 seconds.\n"))
    app = indexed_app(tmp_path, embeddings)
    path = tmp_path / "keys.yaml"
    path.write_text(yaml.safe_dump({"principals": [Principal(
        name="desk", key_sha256=hash_key(KEY)).model_dump()]}))
    read = server_module._readable_blocks

    def swapped_midway(index, source_id, scope):
        write(tmp_path / "docs" / "a.md", md("A", "## 1 Timeout\n\nThe timeout is 45 "
                                                  "seconds.\n"))
        ingest([tmp_path / "docs"], app.settings.index_dir, embeddings, app.settings)
        app.snapshot()  # another request opens the new generation and retires this one
        return read(index, source_id, scope)

    monkeypatch.setattr(server_module, "_readable_blocks", swapped_midway)
    with running_server(create_app(app, KeyStore.load(path))) as base:
        r = httpx.get(base + "/documents/A?format=json", headers={"X-API-Key": KEY},
                      timeout=120)
        assert r.status_code == 200, r.text
        assert "30 seconds" in r.json()["blocks"][0]["text"]
        monkeypatch.setattr(server_module, "_readable_blocks", read)
        r = httpx.get(base + "/documents/A?format=json", headers={"X-API-Key": KEY})
        assert "45 seconds" in r.json()["blocks"][0]["text"]


@pytest.mark.unit
def test_the_sample_index_belongs_to_the_install(tmp_path):
    from pathlib import Path

    from situated.settings import Settings, install_key

    one = Settings(cache_dir=tmp_path).sample_index_dir()
    assert one.name == f"sample-index-{install_key()}"
    assert install_key(Path("/other/checkout/situated")) != install_key()


@pytest.mark.slow
@pytest.mark.integration
def test_two_first_asks_at_once_both_answer(tmp_path, warm_vectors):
    """Two processes asking the sample for the first time at once: the second waits for the
    first's build (saying so) instead of failing with "another ingest is writing"."""
    import subprocess
    import sys


    env = {**os.environ, "SITUATED_CACHE_DIR": str(seed_cache(tmp_path / "cache", warm_vectors)),
           "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    cmd = [sys.executable, "-m", "situated.cli", "ask", "What does error E-417 mean?"]
    procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert all(out.splitlines()[0] == "answered" for out, _ in outs), outs


@pytest.mark.slow
def test_two_installs_asking_the_sample_at_once_both_answer(tmp_path, warm_vectors):
    """Two installs of the package (this checkout and a copy of it elsewhere) on one machine,
    one user cache, each asking the sample for the first time at the same moment: each builds
    and reads its own sample index (`sample-index-KEY`, keyed by the install), neither waits
    on or fails because of the other."""
    import shutil
    import subprocess
    import sys

    import situated

    seed_cache(tmp_path / "cache" / "situated", warm_vectors)  # the user's cache, used before
    other = tmp_path / "other-install"
    shutil.copytree(Path(situated.__file__).parent, other / "situated",
                    ignore=shutil.ignore_patterns("__pycache__"))
    base = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1",
            "ANONYMIZED_TELEMETRY": "False"}
    base.pop("SITUATED_CACHE_DIR", None)
    cmd = [sys.executable, "-m", "situated.cli", "ask", "What does error E-417 mean?"]
    procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, cwd=tmp_path)
             for env in (base, {**base, "PYTHONPATH": str(other)})]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert all(out.splitlines()[0] == "answered" for out, _ in outs), outs
    assert not any("another process is building" in err for _, err in outs)
    built = sorted(d.name for d in (tmp_path / "cache" / "situated").glob("sample-index-*"))
    assert len(built) == 2, built
    # a first ask says what it is doing (it printed nothing for a minute); a later one is quiet
    assert all(re.search(r"indexing the sample corpus \(\d+ documents\) on first use", err)
               for _, err in outs), outs
    again = subprocess.run(cmd, env=base, capture_output=True, text=True, cwd=tmp_path,
                           timeout=600, check=True)
    assert again.stdout.splitlines()[0] == "answered" and "indexing" not in again.stderr

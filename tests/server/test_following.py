"""A running server follows the index: new generations, permission changes and removals apply
to the next request; requests in flight finish on their generation; a pruning ingest never
deletes a generation a reader still holds (leases), and swapped-out generations are closed."""

from __future__ import annotations

import os
import shutil
import threading

import httpx
import pytest
from conftest import app_over, md, running_server, write

from situated.app import App
from situated.auth import KeyStore, Principal, hash_key
from situated.index.ingest import ingest
from situated.index.leases import Lease, live_leases
from situated.index.store import current_generation
from situated.server import create_app
from situated.settings import Settings

pytestmark = pytest.mark.integration

PUBLIC = "## 1 Inject policy\n\nThe Orbit inject valve opens at 4 bar.\n"
OTHER = "## 1 Saddle\n\nThe Orbit saddle is set with a 5 mm hex key.\n"


@pytest.fixture
def corpus(tmp_path):
    docs = tmp_path / "docs"
    write(docs / "pub.md", md("PUB-INJECT", body=PUBLIC, title="Orbit inject notes"))
    write(docs / "other.md", md("PUB-OTHER", body=OTHER, title="Orbit saddle notes"))
    return docs


def _indexed_app(corpus, tmp_path, embeddings) -> tuple[App, Settings]:
    """An index of `corpus` and an App over it (sharing the session's model)."""
    settings = Settings(index_dir=tmp_path / "index", cache_dir=tmp_path / "cache")
    ingest([corpus], settings.index_dir, embeddings, settings)
    app = app_over(settings, embeddings)
    return app, settings


@pytest.fixture
def served(corpus, tmp_path, embeddings):
    app, settings = _indexed_app(corpus, tmp_path, embeddings)
    root = settings.index_dir
    keys = KeyStore([Principal(name="nobody", key_sha256=hash_key("k0")),
                     Principal(name="sec", key_sha256=hash_key("k1"), roles=("security",))])
    with running_server(create_app(app, keys)) as base:
        yield base, app, root, settings
    app.close()


def _get(base, path, key="k0"):
    return httpx.get(f"{base}{path}", headers={"Authorization": f"Bearer {key}"}, timeout=60)


def _ask(base, question, key="k0"):
    r = httpx.post(f"{base}/ask/invoke", json={"input": {"question": question}},
                   headers={"Authorization": f"Bearer {key}"}, timeout=120)
    assert r.status_code == 200, r.text
    return r.json()["output"]


def test_a_permission_change_applies_to_the_next_request(served, corpus, embeddings):
    base, _, root, settings = served
    first = _get(base, "/health").json()["generation"]
    assert _get(base, "/documents/PUB-INJECT?format=json").status_code == 200
    assert "PUB-INJECT" in {e["source_id"] for e in
                            _ask(base, "At what pressure does the Orbit inject valve open?")
                            ["evidence"]}
    write(corpus / "pub.md", md("PUB-INJECT", body=PUBLIC, title="Orbit inject notes",
                                access="[security]"))
    ingest([corpus], root, embeddings, settings)
    health = _get(base, "/health").json()
    assert health["generation"] != first and health["generation"] == current_generation(
        root).name and health["pid"] == os.getpid()
    assert _get(base, "/documents/PUB-INJECT?format=json").status_code == 404
    answer = _ask(base, "At what pressure does the Orbit inject valve open?")
    assert "PUB-INJECT" not in {e["source_id"] for e in answer["evidence"]}
    assert "4 bar" not in answer["answer"]
    assert _get(base, "/documents/PUB-INJECT?format=json", key="k1").status_code == 200


def test_removals_and_new_documents_apply_without_a_restart(served, corpus, embeddings):
    base, _, root, settings = served
    (corpus / "other.md").unlink()
    write(corpus / "new.md", md("PUB-NEW", body="## 1 Bell\n\nThe Orbit bell is on the left.\n",
                                title="Orbit bell notes"))
    ingest([corpus], root, embeddings, settings, prune=True)
    assert _get(base, "/documents/PUB-OTHER?format=json").status_code == 404
    assert _get(base, "/documents/PUB-NEW?format=json").status_code == 200


def test_a_request_in_flight_finishes_on_its_generation(corpus, tmp_path, embeddings):
    app, settings = _indexed_app(corpus, tmp_path, embeddings)
    root = settings.index_dir
    with app.pinned() as snap:
        old = snap.generation
        write(corpus / "pub.md", md("PUB-INJECT", body=PUBLIC, access="[security]"))
        ingest([corpus], root, embeddings, settings)
        # pinned: the request keeps its generation open and reads it to the end (a chain is
        # built for the snapshot it runs on), while a new one is published
        assert snap.generation == old and snap.users == 1
        seen = {}
        t = threading.Thread(target=lambda: seen.update(gen=app.index.generation.name))
        t.start()
        t.join()
        assert seen["gen"] != old  # another request already runs on the new one
        assert snap.retired and snap.users == 1  # swapped out, but open until this one ends
        assert "PUB-INJECT" in {b.source_id for b in snap.index.blocks.values()}
    assert app.index.generation.name != old
    app.close()


@pytest.mark.slow
def test_a_pruning_ingest_never_deletes_a_generation_a_reader_holds(corpus, tmp_path,
                                                                    embeddings):
    app, settings = _indexed_app(corpus, tmp_path, embeddings)
    root = settings.index_dir
    with app.pinned() as snap:
        held = snap.index.generation
        for n in range(3):  # three newer generations: the held one would be pruned
            write(corpus / "new.md", md("PUB-NEW", body=f"## 1 Bell\n\nBell {n}.\n"))
            ingest([corpus], root, embeddings, settings)
        assert held.is_dir() and live_leases(root, held.name)
        assert {b.source_id for b in snap.index.blocks.values()} >= {"PUB-INJECT"}
        t = threading.Thread(target=app.snapshot)  # another request opens the newest one
        t.start()
        t.join()
        assert held.is_dir() and live_leases(root, held.name)  # still ours until we finish
    assert not live_leases(root, held.name)  # released when the last request on it ended
    write(corpus / "new.md", md("PUB-NEW", body="## 1 Bell\n\nBell again.\n"))
    ingest([corpus], root, embeddings, settings)
    assert not held.exists()
    assert not _deleted_files_open(tmp_path)  # swapped-out generations are closed
    app.close()


def test_a_lease_of_a_dead_process_does_not_pin_a_generation(tmp_path):
    lease = Lease.take(tmp_path, "000001-x")
    dead = lease.path.with_name("999999999-deadbeef")
    shutil.move(lease.path, dead)
    assert live_leases(tmp_path, "000001-x") == []
    assert not dead.exists()


def _deleted_files_open(under) -> list[str]:
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.endswith("(deleted)") and str(under) in target:
            out.append(target)
    return out


def test_a_read_only_index_directory_still_opens_without_a_lease(tmp_path, monkeypatch):
    root = tmp_path / "ro"
    root.mkdir()

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(type(root), "mkdir", refuse)
    assert Lease.take(root, "000001-x") is None

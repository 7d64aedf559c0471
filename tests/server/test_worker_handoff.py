"""What `situated serve --workers N` hands its workers through the environment
(`process.WorkerHandoff`), and the error when a worker is started without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from situated.process import WORKER_INDEX, WORKER_KEYS, WORKER_SECRET, WorkerHandoff


@pytest.mark.unit
def test_the_handoff_round_trips_and_a_worker_without_it_is_told_how_it_starts(monkeypatch):
    for name in (WORKER_KEYS, WORKER_INDEX, WORKER_SECRET):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ValueError, match=f"{WORKER_KEYS} is not set.*--workers N"):
        WorkerHandoff.received()
    sent = WorkerHandoff(Path("/k/keys.yaml"), Path("/i/index"), "s3cret")
    sent.export()
    assert WorkerHandoff.received() == sent
    monkeypatch.delenv(WORKER_INDEX)
    monkeypatch.delenv(WORKER_SECRET)
    assert WorkerHandoff.received() == WorkerHandoff(Path("/k/keys.yaml"), None, None)

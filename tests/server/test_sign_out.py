"""Sign-out shared by every worker (issue 83, S6): the signed-out list is read whole and
rewritten under a lock every worker takes, so a sign-out on one worker is refused by every
other, after any number of other sign-outs by any of them."""

from __future__ import annotations

import multiprocessing
import time

import pytest

from situated.web.sessions import SignedOut

LATER = int(time.time()) + 3600


@pytest.mark.unit
def test_a_sign_out_survives_every_later_sign_out_on_any_worker(tmp_path):
    """Seen in an audit: a worker that had read the list rewrote it from what was new since, so each
    sign-out kept only its own nonce and the other worker accepted the signed-out cookie."""
    path = tmp_path / "keys.yaml.signed-out"
    one, two = SignedOut(path), SignedOut(path)
    ended = []
    for i in range(30):
        worker = (one, two)[i % 3 == 0]
        worker.end(f"n{i}", LATER)
        ended.append(f"n{i}")
        worker.ended("a cookie checked between sign-outs")  # reads the list, as a request does
    fresh = SignedOut(path)  # a worker that starts now
    assert [n for n in ended if not fresh.ended(n)] == []
    assert all(one.ended(n) and two.ended(n) for n in ended)


@pytest.mark.unit
def test_expired_sign_outs_are_pruned_and_live_ones_kept(tmp_path):
    path = tmp_path / "keys.yaml.signed-out"
    now = [1000.0]
    worker = SignedOut(path, clock=lambda: now[0])
    worker.end("old", 1500)
    worker.end("live", 5000)
    now[0] = 2000.0
    worker.end("new", 6000)
    assert sorted(line.split()[0] for line in path.read_text().splitlines()) == ["live", "new"]


def _sign_out_many(path, prefix: str, n: int) -> None:
    worker = SignedOut(path)
    for i in range(n):
        worker.end(f"{prefix}{i}", LATER)
        worker.ended("x")


@pytest.mark.integration
def test_two_processes_signing_out_at_once_lose_no_sign_out(tmp_path):
    path = tmp_path / "keys.yaml.signed-out"
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_sign_out_many, args=(path, p, 60)) for p in ("a", "b")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    fresh = SignedOut(path)
    assert [f"{p}{i}" for p in "ab" for i in range(60) if not fresh.ended(f"{p}{i}")] == []

"""Publishing generations: one writer at a time, an atomic switch of `current`, pruning of
old generations and of the leftovers of a killed build."""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from situated.errors import IndexError_
from situated.index.leases import drop_leases_of, live_leases
from situated.index.store import chroma_client, collection_name


@contextmanager
def writer_lock(root: Path) -> Iterator[None]:
    """One writer per index directory; a second one fails at once with a clear message."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        fh = open(root / ".lock", "w")  # noqa: SIM115 (closed below, after the yield)
    except OSError as exc:
        raise IndexError_(f"index {root} cannot be written ({exc.strerror or exc}); make it "
                          "writable, or ingest into another --index directory") from None
    with fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise IndexError_(
                f"another ingest is writing {root}; wait for it to finish and run again"
            ) from None
        yield


def clean_leftovers(root: Path) -> None:
    """Remove half-built generations of a killed ingest (call with the writer lock held)."""
    for leftover in (Path(root) / "generations").glob(".building-*"):
        shutil.rmtree(leftover, ignore_errors=True)


def next_serial(gens: Path) -> int:
    """Generations are numbered so that name order is publish order."""
    serials = [int(g.name[:6]) for g in gens.iterdir() if re.match(r"^\d{6}-", g.name)]
    return max(serials, default=0) + 1


def publish(root: Path, gen: Path) -> None:
    link_tmp = root / f".current-{uuid.uuid4().hex[:8]}"
    os.symlink(Path("generations") / gen.name, link_tmp)
    os.replace(link_tmp, root / "current")  # atomic on POSIX


def drop_server_collection(url: str | None, generation: str) -> None:
    if not url:
        return
    try:
        chroma_client(Path("."), url).delete_collection(collection_name(generation, url))
    except Exception:  # noqa: BLE001 - already gone or server down: nothing left to clean
        pass


def prune(root: Path, keep: set[str], url: str | None = None) -> list[str]:
    """Remove generations other than the published one, the one before it and any a running
    reader still holds a lease on (`index.leases`); return the names kept for a lease."""
    gens = sorted((root / "generations").iterdir(), key=lambda p: p.name)
    finished = [g for g in gens if not g.name.startswith(".")]
    keep = keep | {finished[-2].name} if len(finished) >= 2 else keep
    leased = []
    for g in gens:
        if g.name in keep or g.name.startswith(".building-"):
            continue
        if live_leases(root, g.name):
            leased.append(g.name)  # a reader is on it: the next ingest removes it
            continue
        shutil.rmtree(g, ignore_errors=True)
        drop_server_collection(url, g.name)
        drop_leases_of(root, g.name)
    return leased


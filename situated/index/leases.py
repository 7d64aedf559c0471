"""Reader leases: a process that has a generation open says so on disk, so a pruning ingest
(another process) never deletes the files under it.

A lease is an empty file `ROOT/leases/GENERATION/PID-TOKEN`. The writer (`publisher.prune`)
keeps every generation with a live lease; a lease whose process no longer exists is stale and
removed (a killed server cannot pin a generation forever). Releasing is the reader's job: when
the last request on a generation it has swapped away from finishes (`app.Generations`).
"""

from __future__ import annotations

import logging
import os
import uuid
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("situated.index")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


@dataclass
class Lease:
    path: Path

    @classmethod
    def take(cls, root: Path, generation: str) -> Lease | None:
        """A lease on `generation`, or None when the index directory is read-only (a reader
        that cannot write cannot be pruned under either: no writer can write there)."""
        folder = Path(root) / "leases" / generation
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
            path.touch()
        except OSError as exc:
            log.warning("no reader lease on %s (%s); a pruning ingest elsewhere could remove "
                        "it while it is open", generation, exc.strerror or type(exc).__name__)
            return None
        return cls(path)

    def release(self) -> None:
        self.path.unlink(missing_ok=True)
        try:
            self.path.parent.rmdir()  # the last lease of this generation
        except OSError:
            pass  # other leases remain (or a concurrent take): keep the folder


def live_leases(root: Path, generation: str) -> list[Path]:
    """The live leases on `generation`; stale ones (their process is gone) are removed."""
    folder = Path(root) / "leases" / generation
    if not folder.is_dir():
        return []
    live = []
    for lease in folder.iterdir():
        pid = lease.name.split("-", 1)[0]
        if pid.isdigit() and _alive(int(pid)):
            live.append(lease)
        else:
            lease.unlink(missing_ok=True)
    return live


def drop_leases_of(root: Path, generation: str) -> None:
    """Forget the (stale) lease folder of a generation that was removed."""
    folder = Path(root) / "leases" / generation
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()

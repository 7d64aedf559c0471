"""The process environment: this module is the one that writes it. Offline model libraries,
each `serve --workers N` worker's share of the cores, and what the parent hands its workers."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

_OFFLINE = {
    "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1", "TOKENIZERS_PARALLELISM": "false",
}


def offline_environment() -> None:
    """Nothing downloads and nothing phones home: the hub libraries offline, Chroma's telemetry
    off (a value the user set is kept). Called before a model or a Chroma client is made, never
    at import."""
    for key, value in _OFFLINE.items():
        os.environ.setdefault(key, value)


# the compute libraries' thread pools (OpenMP under torch and numpy's BLAS, MKL, numexpr,
# Apple's Accelerate, Rust's rayon under tokenizers); each reads its variable when it loads
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "RAYON_NUM_THREADS")


def share_cores(workers: int, cores: int | None = None) -> dict[str, str]:
    """Give each of `workers` processes its share of the cores: every thread variable the user
    has not set is set to cores // workers (at least 1), before the workers start and load
    their libraries. Without it each worker's numeric libraries take every core, and two
    workers on two cores serve a third of what one does (`benchmarks/load.py`). Returns what
    it set; one worker keeps the libraries' defaults."""
    if workers <= 1:
        return {}
    share = str(max(1, (cores or os.cpu_count() or 1) // workers))
    chosen = {key: share for key in THREAD_VARIABLES if key not in os.environ}
    os.environ.update(chosen)
    return chosen


WORKER_KEYS, WORKER_INDEX = "SERVE_SITUATED_KEYS", "SERVE_SITUATED_INDEX"
WORKER_SECRET = "SERVE_SITUATED_SESSION_SECRET"


@dataclass(frozen=True)
class WorkerHandoff:
    """What `situated serve --workers N` hands each worker process (uvicorn imports the app by
    name, so through the environment): the keys file, the index, one browser-session secret."""

    keys: Path
    index: Path | None
    session_secret: str | None

    def export(self) -> None:
        os.environ[WORKER_KEYS] = str(self.keys)
        for name, value in ((WORKER_INDEX, self.index), (WORKER_SECRET, self.session_secret)):
            if value is not None:
                os.environ[name] = str(value)

    @classmethod
    def received(cls) -> WorkerHandoff:
        keys = os.environ.get(WORKER_KEYS)
        if not keys:
            raise ValueError(f"{WORKER_KEYS} is not set: a worker is started by `situated serve "
                             "--workers N`, which sets it")
        index = os.environ.get(WORKER_INDEX)
        return cls(Path(keys), Path(index) if index else None, os.environ.get(WORKER_SECRET))

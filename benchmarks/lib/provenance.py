"""Every benchmark result names what it was measured on: the commit (and whether the work tree
had uncommitted changes), the date, the machine's cores and Python. Results without it cannot be
told apart from stale ones."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                              check=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def stamp() -> dict[str, Any]:
    status = _git("status", "--porcelain", "--untracked-files=no")
    return {
        "commit": _git("rev-parse", "HEAD"),
        "uncommitted_changes": bool(status) if status is not None else None,
        "measured_on": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
    }


_STARTED = stamp()  # the code a run measures is the code at its start, not at its end


def write_result(path: Path, results: Any) -> None:
    """Write `{"measured_at": <the stamp taken when the run started>, "results": results}`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"measured_at": _STARTED, "results": results}
    path.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def default_data(relative: str) -> Path | None:
    """`../shared/<relative>` beside the repository when it exists (developers have it; a user's
    clone does not), else None so the caller asks for `--data`."""
    candidate = REPO.parent / "shared" / relative
    return candidate if candidate.exists() else None

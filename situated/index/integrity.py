"""A published generation's integrity: each one records the checksums of its files when it is
written (`checksums.json`), and a re-ingest of an unchanged corpus verifies the published one
— checksums, then that it opens and holds what its manifest says — and rebuilds a damaged one
instead of reporting "nothing changed".

Chroma's own files are not checksummed (Chroma writes to them as it opens them); the store is
checked by opening its collection and counting its records against the manifest.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

CHECKSUMS = "checksums.json"
_UNCHECKED = ("chroma",)  # written by Chroma itself on open


def _files(gen: Path) -> list[Path]:
    return sorted(p for p in gen.rglob("*") if p.is_file() and p.name != CHECKSUMS
                  and p.relative_to(gen).parts[0] not in _UNCHECKED)


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def record(gen: Path) -> None:
    """Write the checksums of the generation's files (before it is published) and make them
    read-only: a published generation is immutable — a replica syncs into a new generation
    directory and switches `current`, never writes into a published one (a file truncated in
    place under a reader that maps it kills that reader)."""
    files = _files(gen)
    sums = {str(p.relative_to(gen)): _digest(p) for p in files}
    (gen / CHECKSUMS).write_text(json.dumps(sums, indent=1, sort_keys=True), encoding="utf-8")
    for p in [*files, gen / CHECKSUMS]:
        p.chmod(0o444)


def damage(root: Path, gen: Path, embeddings) -> str | None:
    """Why the generation cannot be trusted, or None: a file changed, missing or added since it
    was written, or an index that does not open or holds other counts than its manifest."""
    sums_file = gen / CHECKSUMS
    if sums_file.exists():
        try:
            sums = json.loads(sums_file.read_text(encoding="utf-8"))
        except ValueError:
            return f"{CHECKSUMS} is unreadable"
        now = {str(p.relative_to(gen)) for p in _files(gen)}
        for rel in sorted(set(sums) | now):
            if rel not in now:
                return f"{rel} is missing"
            if rel not in sums:
                return f"{rel} was added after the generation was written"
            if _digest(gen / rel) != sums[rel]:
                return f"{rel} changed after the generation was written"
    return _opens(root, gen, embeddings)


def _opens(root: Path, gen: Path, embeddings) -> str | None:
    from situated.index.reader import Index

    try:
        index = Index(root, embeddings, generation=gen)
    except Exception as exc:  # noqa: BLE001 - any failure to open is damage to report
        return f"it does not open ({type(exc).__name__}: {str(exc)[:200]})"
    try:
        m = index.manifest
        if len(index) != m.pieces or index.collection.count() != m.pieces:
            return (f"it holds {len(index)} pieces in its columns and "
                    f"{index.collection.count()} in Chroma, not the {m.pieces} of its manifest")
        return None
    except Exception as exc:  # noqa: BLE001
        return f"it cannot be read ({type(exc).__name__}: {str(exc)[:200]})"
    finally:
        index.close()


__all__ = ["CHECKSUMS", "damage", "record"]

"""A published generation's integrity: each one records the checksums of every file it holds
when it is written (`checksums.json`), Chroma's folder included. A reader verifies them when it
opens the generation and refuses a tampered one naming the file (`tampered`); a re-ingest of an
unchanged corpus verifies them too — then that it opens and holds what its manifest says — and
rebuilds a damaged one instead of reporting "nothing changed".

Chroma writes to its files when a client opens and closes them (`chroma.sqlite3`, the HNSW
`length.bin`), even for reads. So a reader never opens the published folder: it opens a
private copy (`private_chroma`), removed when it closes, and the published generation stays
byte for byte what was recorded (docs/design.md "Generations verified when read").
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from pathlib import Path

CHECKSUMS = "checksums.json"


def _files(gen: Path) -> list[Path]:
    return sorted(p for p in gen.rglob("*") if p.is_file() and p != gen / CHECKSUMS)


def file_sha256(path: Path) -> str:
    """The sha256 of a file, read in 1 MB chunks."""
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
    sums = {str(p.relative_to(gen)): file_sha256(p) for p in files}
    (gen / CHECKSUMS).write_text(json.dumps(sums, indent=1, sort_keys=True), encoding="utf-8")
    for p in [*files, gen / CHECKSUMS]:
        p.chmod(0o444)


def damage(root: Path, gen: Path, embeddings) -> str | None:
    """Why the generation cannot be trusted, or None: a file changed, missing or added since it
    was written, or an index that does not open or holds other counts than its manifest."""
    return tampered(gen) or _opens(root, gen, embeddings)


def tampered(gen: Path) -> str | None:
    """Which file of the generation differs from its checksums (changed, missing or added
    since it was written), or None. No checksums at all is tampering too (fail closed): every
    generation this version writes has them."""
    try:
        sums = json.loads((gen / CHECKSUMS).read_text(encoding="utf-8"))
    except OSError:
        return f"{CHECKSUMS} is missing"
    except ValueError:
        return f"{CHECKSUMS} is unreadable"
    if not isinstance(sums, dict):
        return f"{CHECKSUMS} is unreadable"
    now = {str(p.relative_to(gen)) for p in _files(gen)}
    for rel in sorted(set(sums) | now):
        if rel not in now:
            return f"{rel} is missing"
        if rel not in sums:
            return f"{rel} was added after the generation was written"
        if file_sha256(gen / rel) != sums[rel]:
            return f"{rel} changed after the generation was written"
    return None


def private_chroma(gen: Path) -> Path:
    """A copy of the generation's Chroma folder for one reader to open (Chroma writes to what
    it opens); the caller removes it (`drop_private_chroma`)."""
    copy = Path(tempfile.mkdtemp(prefix=f"situated-chroma-{gen.name}-"))
    shutil.copytree(gen / "chroma", copy, dirs_exist_ok=True, copy_function=shutil.copyfile)
    return copy


def drop_private_chroma(copy: Path) -> None:
    from situated.index.store import release_chroma

    release_chroma(copy)
    shutil.rmtree(copy, ignore_errors=True)


def _opens(root: Path, gen: Path, embeddings) -> str | None:
    from situated.index.reader import Index

    try:
        index = Index(root, embeddings, generation=gen, verify=False)  # checked just before
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


__all__ = ["CHECKSUMS", "damage", "drop_private_chroma", "private_chroma", "record",
           "tampered"]

"""One read of a file: its bytes are hashed and parsed as one (a file saved while it is read
never stores one content's hash beside another's text), and what was read is remembered by its
stat so that an ingest can tell, before it publishes, that nothing changed since."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path

from situated.loaders.meta import MetaProblems


@dataclass(frozen=True)
class Seen:
    """A file as it was when read: identity, size and modification time."""

    path: str
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, path: Path) -> Seen | None:
        """The file's stat now; None when it is gone."""
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return None
        return cls(str(path), st.st_ino, st.st_size, st.st_mtime_ns)

    def changed(self) -> bool:
        return Seen.of(Path(self.path)) != self


def decoded(data: bytes, path: Path) -> str:
    """`data` as `Path.read_text(encoding="utf-8")` reads it (newlines made `\\n`); an error
    naming the file when it is not UTF-8."""
    try:
        return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()
    except UnicodeDecodeError:
        raise MetaProblems([f"{path}: not UTF-8 text; save it as UTF-8"]) from None


def read_optional(path: Path) -> bytes | None:
    """The file's bytes, None when there is no such file."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


__all__ = ["Seen", "decoded", "read_optional"]

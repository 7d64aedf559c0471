"""API keys → principals (roles, assets). Keys are stored only as SHA-256 hashes.

Keys file (YAML):

    principals:
      - name: technician-p2
        key_sha256: 9f86d081884c7d65...   # `situated keys new` writes this
        roles: [technician]
        assets: [P-2]

API keys are long random tokens (`secrets.token_urlsafe(32)`), so a plain SHA-256 is enough to
store them (no dictionary to attack); lookups compare digests in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import stat
import threading
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from situated.errors import ConfigError
from situated.situation import Scope

log = logging.getLogger("situated.auth")


class Principal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    key_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    roles: tuple[str, ...] = ()
    assets: tuple[str, ...] = ()

    @property
    def scope(self) -> Scope:
        return Scope(roles=self.roles, assets=self.assets)


class KeysFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    principals: list[Principal] = Field(default_factory=list)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class KeyStore:
    """The principals of a keys file. Loaded from a file (`load`), it follows the file: a key
    added, changed or revoked there applies to the next request, without a restart (one
    `stat` per request). A file that became unreadable or invalid authenticates no one until
    it is fixed (fail closed: the edit that broke it may be the one that revoked a key), every
    request gets a 401, never a 500, and the server log names the file and why."""

    def __init__(self, principals: list[Principal], path: Path | None = None):
        names = [p.name for p in principals]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ConfigError(f"duplicate principal names in the keys file: {dupes}")
        by_key: dict[str, str] = {}
        for p in principals:  # one key, two principals: which one asks would be a guess
            if (other := by_key.setdefault(p.key_sha256, p.name)) != p.name:
                raise ConfigError(
                    f"principals {other!r} and {p.name!r} share one key_sha256"
                    f"{f' in {path}' if path else ''}; give each its own key (`situated keys "
                    "new NAME --replace`)")
        self.principals = list(principals)
        self.path = path
        self._stamp = _stamp(path) if path else None
        self._lock = threading.Lock()

    def _follow(self) -> None:
        if self.path is None:
            return
        stamp = _stamp(self.path)
        if stamp == self._stamp:
            return
        with self._lock:
            if stamp == self._stamp:
                return
            try:
                fresh = KeyStore.load(self.path)
                self.principals = fresh.principals
            except ConfigError as exc:
                log.error("keys file %s changed and cannot be used; no key is accepted "
                          "until it is fixed: %s", self.path, exc)
                self.principals = []
            self._stamp = stamp

    @classmethod
    def load(cls, path: Path) -> KeyStore:
        try:
            mode = os.stat(path).st_mode
            if mode & (stat.S_IWGRP | stat.S_IWOTH):
                raise ConfigError(
                    f"keys file {path} may be written by other users (mode "
                    f"{stat.S_IMODE(mode):o}), so any of them could add a principal; run "
                    f"`chmod 600 {path}`")
            raw = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
            return cls(KeysFile.model_validate(raw).principals, Path(path))
        except FileNotFoundError:
            raise ConfigError(
                f"keys file {path} does not exist; create one with "
                f"`situated keys new NAME --keys {path}`") from None
        except IsADirectoryError:
            raise ConfigError(f"keys file {path} is a directory; give the path of the keys "
                              "file itself") from None
        except UnicodeDecodeError:
            raise ConfigError(f"keys file {path} is not UTF-8 text; restore it from a backup "
                              "or write it again with `situated keys new`") from None
        except OSError as exc:
            raise ConfigError(f"keys file {path} cannot be read ({exc.strerror or exc}); fix "
                              "its permissions") from None
        except (yaml.YAMLError, ValidationError) as exc:
            raise ConfigError(f"keys file {path} is invalid: {exc}") from None

    def authenticate(self, key: str | None) -> Principal | None:
        if not key:
            return None
        return self.authenticate_digest(hash_key(key))

    def authenticate_digest(self, digest: str) -> Principal | None:
        """The principal whose key hashes to `digest` (a browser session holds the digest,
        never the key), after following the keys file."""
        self._follow()
        found = None
        for p in self.principals:  # compare with every entry: no early exit to time
            if hmac.compare_digest(p.key_sha256.encode(), digest.encode("utf-8", "replace")):
                found = p
        return found


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def add_principal(path: Path, name: str, roles: list[str], assets: list[str],
                  replace: bool = False) -> str:
    """Append a principal with a fresh key to the keys file (`replace`: a principal of that
    name gets the new key and these roles, its old key stops working); return the key (shown
    once). Any problem is a `ConfigError` naming the file and the fix."""
    path = Path(path)
    store = KeyStore.load(path) if path.exists() or path.is_symlink() else KeyStore([])
    if any(p.name == name for p in store.principals) and not replace:
        raise ConfigError(f"a principal named {name!r} already exists in {path}; pass "
                          "--replace to give it a new key, or pick another name")
    key = secrets.token_urlsafe(32)
    principals = [p for p in store.principals if p.name != name]
    principals.append(Principal(name=name, key_sha256=hash_key(key), roles=tuple(roles),
                                assets=tuple(assets)))
    try:
        _write_keys(path, KeysFile(principals=principals).model_dump(mode="json"))
    except OSError as exc:
        raise ConfigError(f"cannot write the keys file {path} ({exc.strerror or exc}); fix "
                          "the folder's permissions or free disk space") from None
    return key


def _write_keys(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.unlink(missing_ok=True)
    # owner-only from the moment it exists (a key hash file is a credential store), and kept so
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    os.chmod(tmp, 0o600)  # whatever the umask
    tmp.replace(path)

"""Browser sessions: an API key exchanged once for an `HttpOnly; SameSite=Strict` cookie, and
the CSRF token a page must send with every POST that cookie authenticates.

A session is a signed value, not a row: `DIGEST.EXPIRES.NONCE.MAC`, where `DIGEST` is the
SHA-256 the keys file holds for the key, `EXPIRES` a Unix time and `MAC` an HMAC-SHA256 of the
rest under a secret of this server (random per start, or shared by `serve --workers N`). So
every worker reads every worker's cookies, and the key is looked up in the keys file on each
request: a key revoked or rotated there ends its sessions at the next request. Signing out ends
the session on the server too: its nonce goes into a list of signed-out sessions, kept until the
cookie would expire anyway, in a file beside the keys file (`KEYS.signed-out`, owner-only), so
every worker refuses the replayed cookie (`SignedOut`). The key itself is never stored in the
browser. Every comparison is of bytes: a cookie or token that is not ASCII is refused, never an
error. The CSRF token is an HMAC of the cookie under the same secret:
a page of another site can neither read it (no CORS, `SameSite=Strict`) nor derive it.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import hmac
import os
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from situated.auth import KeyStore, Principal, hash_key

COOKIE = "situated_session"
CSRF_HEADER = "X-CSRF-Token"


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def _mac(secret: bytes, purpose: str, value: str) -> str:
    digest = hmac.new(secret, f"{purpose}:{value}".encode("utf-8", "surrogatepass"),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def same(given: str, expected: str) -> bool:
    """A constant-time comparison of the bytes (`hmac.compare_digest` raises on a str that is
    not ASCII: a hostile cookie would be a 500, not a refusal)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                               expected.encode("utf-8", "surrogatepass"))


class SignedOut:
    """The sessions signed out before they expired: nonce → expiry. Kept in memory, and in a
    file (`path`, one `NONCE EXPIRES` line each, appended) that every worker of one keys file
    reads when it changed (one `stat` per check), so a cookie replayed to another worker is
    refused as well. Lines of expired sessions are dropped when the file is rewritten."""

    def __init__(self, path: Path | None, clock=time.time):
        self.path, self._clock = path, clock
        self._ended: dict[str, int] = {}
        self._stamp: tuple[int, int] | None = None
        self._lock = threading.Lock()

    def end(self, nonce: str, expires: int) -> None:
        """Record a sign-out: the whole list is read and rewritten under a lock every worker
        takes (never from this worker's partial view), pruned only of expired sessions."""
        with self._lock:
            self._ended[nonce] = expires
            if self.path is None:
                return
            lock = os.open(self.path.with_name(self.path.name + ".lock"),
                           os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX)
                live = {n: e for n, e in self._parse().items() if e > self._clock()}
                live[nonce] = expires
                tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w", encoding="ascii") as out:
                    out.writelines(f"{n} {e}\n" for n, e in sorted(live.items()))
                os.replace(tmp, self.path)  # a reader sees the old list or the new, never half
            finally:
                os.close(lock)  # closing releases the lock

    def ended(self, nonce: str) -> bool:
        if nonce in self._ended:
            return True
        if self.path is not None:
            with self._lock:
                self._ended.update(self._read())
        return nonce in self._ended

    def _read(self) -> dict[str, int]:
        """The file's entries when it changed since the last read (else none new)."""
        if self.path is None:
            return {}
        try:
            st = os.stat(self.path)
        except OSError:
            return {}
        stamp = (st.st_mtime_ns, st.st_ino)
        if stamp == self._stamp:
            return {}
        self._stamp = stamp
        return self._parse()

    def _parse(self) -> dict[str, int]:
        """Every entry of the file (none when it is absent)."""
        found: dict[str, int] = {}
        if self.path is None:
            return found
        try:
            text = self.path.read_text(encoding="ascii", errors="replace")
        except FileNotFoundError:
            return found
        for line in text.splitlines():
            nonce, _, expires = line.partition(" ")
            if nonce and expires.isdigit():
                found[nonce] = int(expires)
        return found


@dataclass(frozen=True)
class Issued:
    """A session just made: the cookie's value, its lifetime and the page's CSRF token."""

    cookie: str
    max_age: int
    csrf: str


class BrowserSessions:
    """Issues and reads session cookies for one key store."""

    def __init__(self, keys: KeyStore, secret: str, hours: float = 8.0,
                 clock=time.time):
        if len(secret) < 32:
            raise ValueError("a session secret needs at least 32 characters "
                             "(situated.web.sessions.new_secret() makes one)")
        self.keys, self._secret, self._clock = keys, secret.encode(), clock
        self.max_age = int(hours * 3600)
        path = keys.path.with_name(keys.path.name + ".signed-out") if keys.path else None
        self.signed_out = SignedOut(path, clock)

    def issue(self, key: str) -> tuple[Principal, Issued] | None:
        """A session for a valid API key; None for a missing or unknown one."""
        principal = self.keys.authenticate(key)
        if principal is None:
            return None
        body = f"{hash_key(key)}.{int(self._clock()) + self.max_age}.{secrets.token_urlsafe(9)}"
        cookie = f"{body}.{_mac(self._secret, 'session', body)}"
        return principal, Issued(cookie, self.max_age, self.csrf_for(cookie))

    def principal(self, cookie: str | None) -> Principal | None:
        """The principal of a well-signed, unexpired cookie whose key the keys file still
        holds; None otherwise (no reason is told: fail closed)."""
        if not cookie or len(cookie) > 256:
            return None
        body, _, mac = cookie.rpartition(".")
        if not body or not same(mac, _mac(self._secret, "session", body)):
            return None
        digest, expires, nonce = (body.split(".") + ["", "", ""])[:3]
        if not expires.isdigit() or int(expires) <= self._clock() \
                or self.signed_out.ended(nonce):
            return None
        return self.keys.authenticate_digest(digest)

    def end(self, cookie: str | None) -> None:
        """Sign the session out on the server: its cookie is refused from now on, by every
        worker (a cookie this server did not sign is ignored)."""
        if not cookie or len(cookie) > 256:
            return
        body, _, mac = cookie.rpartition(".")
        if not body or not same(mac, _mac(self._secret, "session", body)):
            return
        _digest, expires, nonce = (body.split(".") + ["", "", ""])[:3]
        if expires.isdigit() and nonce:
            self.signed_out.end(nonce, int(expires))

    def csrf_for(self, cookie: str) -> str:
        return _mac(self._secret, "csrf", cookie)

    def csrf_ok(self, cookie: str, token: str | None) -> bool:
        return token is not None and bool(token) and same(token, self.csrf_for(cookie))


__all__ = ["COOKIE", "CSRF_HEADER", "BrowserSessions", "Issued", "SignedOut",
           "new_secret", "same"]

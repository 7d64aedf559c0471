"""Browser sessions: an API key exchanged once for an `HttpOnly; SameSite=Strict` cookie, and
the CSRF token a page must send with every POST that cookie authenticates.

A session is a signed value, not a row: `DIGEST.EXPIRES.NONCE.MAC`, where `DIGEST` is the
SHA-256 the keys file holds for the key, `EXPIRES` a Unix time and `MAC` an HMAC-SHA256 of the
rest under a secret of this server (random per start, or shared by `serve --workers N`). So
every worker reads every worker's cookies, and the key is looked up in the keys file on each
request: a key revoked or rotated there ends its sessions at the next request. The key itself
is never stored in the browser. The CSRF token is an HMAC of the cookie under the same secret:
a page of another site can neither read it (no CORS, `SameSite=Strict`) nor derive it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from situated.auth import KeyStore, Principal, hash_key

COOKIE = "situated_session"
CSRF_HEADER = "X-CSRF-Token"
SECRET_ENV = "SERVE_SITUATED_SESSION_SECRET"


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def _mac(secret: bytes, purpose: str, value: str) -> str:
    digest = hmac.new(secret, f"{purpose}:{value}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


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
        if not body or not hmac.compare_digest(mac, _mac(self._secret, "session", body)):
            return None
        digest, expires, _nonce = (body.split(".") + ["", "", ""])[:3]
        if not expires.isdigit() or int(expires) <= self._clock():
            return None
        return self.keys.authenticate_digest(digest)

    def csrf_for(self, cookie: str) -> str:
        return _mac(self._secret, "csrf", cookie)

    def csrf_ok(self, cookie: str, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(token, self.csrf_for(cookie))


__all__ = ["COOKIE", "CSRF_HEADER", "SECRET_ENV", "BrowserSessions", "Issued", "new_secret"]

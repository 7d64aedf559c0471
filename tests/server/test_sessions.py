"""Browser sessions against a real uvicorn: an API key exchanged for an HttpOnly SameSite=Strict
cookie, CSRF on every POST that cookie signs, the key's scope and nothing else, and the page's
own assets with a strict Content-Security-Policy."""

from __future__ import annotations

import httpx
import pytest
import yaml
from conftest import running_server

from situated.auth import KeyStore, Principal, hash_key
from situated.server import create_app
from situated.web.sessions import COOKIE, BrowserSessions, new_secret

pytestmark = pytest.mark.integration
KEYS = {"p2": "key-technician-p2-0123456789", "p4": "key-technician-p4-0123456789"}
QUESTION = {"input": {"question": "What does error E-417 mean?"}}


def _principals():
    return [Principal(name="tech-p2", key_sha256=hash_key(KEYS["p2"]), roles=("technician",),
                      assets=("P-2",)),
            Principal(name="tech-p4", key_sha256=hash_key(KEYS["p4"]), roles=("technician",),
                      assets=("P-4",))]


@pytest.fixture(scope="module")
def keys_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("keys") / "keys.yaml"
    path.write_text(yaml.safe_dump({"principals": [p.model_dump() for p in _principals()]}))
    return path


@pytest.fixture(scope="module")
def server(sample_app, keys_path):
    with running_server(create_app(sample_app, KeyStore.load(keys_path))) as base:
        yield base


def signed_in(base: str, key: str) -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=base, timeout=60)
    r = client.post("/session", json={"key": key})
    assert r.status_code == 200, r.text
    return client, r.json()["csrf"]


def test_login_sets_an_httponly_strict_cookie_and_never_echoes_the_key(server):
    r = httpx.post(server + "/session", json={"key": KEYS["p2"]})
    assert r.status_code == 200 and r.json()["name"] == "tech-p2"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie
    assert "SameSite=strict" in cookie or "SameSite=Strict" in cookie
    assert "Path=/" in cookie and "Max-Age=28800" in cookie
    assert KEYS["p2"] not in cookie and KEYS["p2"] not in r.text
    assert r.headers["cache-control"] == "no-store"


def test_a_bad_key_gets_no_session(server):
    for body in ({"key": "nope"}, {"key": ""}, {}, {"key": "x", "role": "admin"}):
        r = httpx.post(server + "/session", json=body)
        assert r.status_code in (401, 422) and "set-cookie" not in r.headers, body
    assert "situated keys new" in httpx.post(server + "/session", json={"key": "nope"}).text


def test_the_cookie_reads_documents_and_posts_need_the_csrf_token(server):
    client, csrf = signed_in(server, KEYS["p2"])
    assert client.get("/documents/ERR-CAT").status_code == 200  # a citation link opens
    assert client.get("/session").json() == {"name": "tech-p2", "csrf": csrf}
    no_token = client.post("/ask/invoke", json=QUESTION)
    assert no_token.status_code == 403 and "X-CSRF-Token" in no_token.json()["detail"]
    wrong = client.post("/ask/invoke", json=QUESTION, headers={"X-CSRF-Token": csrf[:-2] + "xx"})
    assert wrong.status_code == 403
    batch = client.post("/ask/batch", json={"inputs": [QUESTION["input"]]})
    assert batch.status_code == 403
    ok = client.post("/ask/invoke", json=QUESTION, headers={"X-CSRF-Token": csrf})
    assert ok.status_code == 200 and ok.json()["output"]["status"] == "answered"


def test_the_session_carries_the_keys_scope_only(server):
    client, csrf = signed_in(server, KEYS["p2"])
    body = {"input": {"question": "How do I replace the barrier fluid on the P-4 pump?"},
            "config": {"configurable": {"scope": {"roles": ["technician"], "assets": ["P-4"]}}}}
    r = client.post("/ask/invoke", json=body, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text  # the client's scope is replaced by the key's
    assert r.json()["output"]["status"] == "no_evidence"
    assert all(word not in r.text for word in ("V-41", "V-42", "B-17", "BF-2", "MAN-P4"))
    assert client.get("/documents/MAN-P4").status_code == 404
    p4, _ = signed_in(server, KEYS["p4"])
    assert p4.get("/documents/MAN-P4").status_code == 200


def test_a_forged_tampered_or_foreign_cookie_is_refused(server, keys_path):
    good, _ = signed_in(server, KEYS["p2"])
    value = good.cookies[COOKIE]
    digest, expires, nonce, mac = value.split(".")
    p4_digest = hash_key(KEYS["p4"])
    forged = [f"{p4_digest}.{expires}.{nonce}.{mac}",  # another key's digest, old signature
              f"{digest}.{int(expires) + 10**6}.{nonce}.{mac}",  # a longer life
              f"{digest}.{expires}.{nonce}.", "garbage", "a" * 300,
              BrowserSessions(KeyStore.load(keys_path), new_secret()).issue(KEYS["p4"])[1].cookie]
    for cookie in forged:
        client = httpx.Client(base_url=server, cookies={COOKIE: cookie})
        assert client.get("/documents/ERR-CAT").status_code == 401, cookie
        assert client.get("/session").status_code == 401


def test_an_expired_session_and_a_revoked_key_end_the_session(tmp_path):
    path = tmp_path / "keys.yaml"
    path.write_text(yaml.safe_dump({"principals": [p.model_dump() for p in _principals()]}))
    now = [1_000_000.0]
    sessions = BrowserSessions(KeyStore.load(path), new_secret(), hours=1, clock=lambda: now[0])
    _, issued = sessions.issue(KEYS["p2"])
    assert sessions.principal(issued.cookie).name == "tech-p2"
    now[0] += 3601
    assert sessions.principal(issued.cookie) is None
    now[0] = 1_000_000.0
    _, issued = sessions.issue(KEYS["p2"])
    path.write_text(yaml.safe_dump({"principals": [_principals()[1].model_dump()]}))
    assert sessions.principal(issued.cookie) is None  # the key left the file
    with pytest.raises(ValueError, match="new_secret"):
        BrowserSessions(KeyStore.load(path), "short")


def test_logout_needs_the_token_and_clears_the_cookie(server):
    client, csrf = signed_in(server, KEYS["p2"])
    assert client.delete("/session").status_code == 403
    r = client.delete("/session", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and 'Max-Age=0' in r.headers["set-cookie"]
    assert COOKIE not in client.cookies
    assert client.get("/documents/ERR-CAT").status_code == 401


def test_the_page_and_its_assets_are_local_with_a_strict_policy(server):
    page = httpx.get(server + "/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "http" not in page.text.replace("http-equiv", "")  # no CDN, nothing remote
    assert "<script>" not in page.text  # the policy allows no inline script
    for name in ("app.js", "app.css"):
        asset = httpx.get(f"{server}/ui/{name}")
        assert asset.status_code == 200 and asset.headers["x-content-type-options"] == "nosniff"
    assert httpx.get(server + "/ui/../server.py").status_code == 404
    assert httpx.get(server + "/ui/index.html").status_code == 404
    assert httpx.get(server + "/ask/playground/").status_code in (401, 404)
    doc = httpx.get(server + "/documents/ERR-CAT", headers={"X-API-Key": KEYS["p2"]})
    assert "default-src 'none'" in doc.headers["content-security-policy"]


def test_openapi_declares_the_session_scheme(server):
    schema = httpx.get(server + "/openapi.json", headers={"X-API-Key": KEYS["p2"]}).json()
    schemes = schema["components"]["securitySchemes"]
    assert schemes["session"] == {"type": "apiKey", "in": "cookie", "name": COOKIE,
                                  "description": schemes["session"]["description"]}
    assert {"session": []} in schema["security"]
    assert schema["paths"]["/session"]["post"]["security"] == []


def test_a_login_must_be_json_so_no_other_site_can_post_one(server):
    body = '{"key": "%s"}' % KEYS["p2"]
    for kind in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"Content-Type": kind} if kind else {}
        r = httpx.post(server + "/session", content=body, headers=headers)
        assert r.status_code in (415, 422) and "set-cookie" not in r.headers, kind
    ok = httpx.post(server + "/session", content=body,
                    headers={"Content-Type": "application/json"})
    assert ok.status_code == 200 and "set-cookie" in ok.headers

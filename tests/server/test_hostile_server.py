"""Hostile requests to the server and its sessions: cookies, CSRF tokens, logins and key files
that are not what they claim are refused with a clear status, never an error or an echo."""

from __future__ import annotations

import json
import os

import httpx
import pytest
import yaml
from conftest import running_server

from situated.auth import KeyStore, Principal, hash_key
from situated.errors import ConfigError
from situated.server import create_app
from situated.web.sessions import COOKIE, CSRF_HEADER

KEY = "key-staff-0123456789abcdef"


@pytest.fixture(scope="module")
def session_server(sample_app, tmp_path_factory):
    path = tmp_path_factory.mktemp("keys") / "keys.yaml"
    path.write_text(yaml.safe_dump({"principals": [Principal(
        name="desk", key_sha256=hash_key(KEY), roles=("staff",)).model_dump()]}))
    path.chmod(0o600)
    with running_server(create_app(sample_app, KeyStore.load(path))) as base:
        yield base, path


@pytest.mark.unit
def test_the_keys_file_is_created_and_kept_owner_only(tmp_path):
    import stat

    from situated.auth import add_principal

    keys = tmp_path / "keys.yaml"
    add_principal(keys, "a", [], [])
    assert stat.S_IMODE(os.stat(keys).st_mode) == 0o600
    os.chmod(keys, 0o644)
    add_principal(keys, "b", ["hr"], [])
    assert stat.S_IMODE(os.stat(keys).st_mode) == 0o600


@pytest.mark.integration
@pytest.mark.parametrize("route", [("GET", "/session"), ("GET", "/documents/WARR-R2"),
                                   ("POST", "/ask/invoke"), ("DELETE", "/session")])
@pytest.mark.parametrize("cookie", ["abc.123.x.\u00e9", "\u00e9", "a.b.c.\u00ff\u00fe"])
def test_a_cookie_that_is_not_ascii_is_refused_never_an_error(session_server, route, cookie):
    base, _ = session_server
    method, path = route
    headers = {"Cookie": f"{COOKIE}={cookie}".encode("latin-1")}  # the bytes a client sends
    with httpx.Client(base_url=base, timeout=60) as client:
        r = client.request(method, path, headers=headers, json={"input": {"question": "x"}}
                            if method == "POST" else None)
    assert r.status_code in (200, 401, 403), r.text  # DELETE without a session: signed out
    assert r.status_code != 500


@pytest.mark.integration
def test_a_csrf_token_that_is_not_ascii_is_refused(session_server):
    base, _ = session_server
    with httpx.Client(base_url=base, timeout=60) as client:
        assert client.post("/session", json={"key": KEY}).status_code == 200
        for method in ("POST", "DELETE"):
            r = client.request(method, "/ask/invoke" if method == "POST" else "/session",
                               headers={CSRF_HEADER: "\u00e9t\u00e9".encode("latin-1")},
                               json={"input": {"question": "What does error E-417 mean?"}}
                               if method == "POST" else None)
            assert r.status_code == 403, r.text


@pytest.mark.integration
def test_a_cookie_replayed_after_sign_out_is_refused_by_every_worker(session_server,
                                                                       sample_app):
    base, keys_path = session_server
    client = httpx.Client(base_url=base, timeout=60)
    r = client.post("/session", json={"key": KEY})
    csrf, cookie = r.json()["csrf"], client.cookies[COOKIE]
    assert client.delete("/session", headers={CSRF_HEADER: csrf}).json() == {"signed_out": True}
    replay = httpx.Client(base_url=base, timeout=60, cookies={COOKIE: cookie})
    assert replay.get("/session").status_code == 401
    assert replay.post("/ask/invoke", headers={CSRF_HEADER: csrf}, json={
        "input": {"question": "What does error E-417 mean?"}}).status_code == 401
    # another worker of the same keys file (its own process state, the same secret) too
    from situated.web.sessions import BrowserSessions

    other = BrowserSessions(KeyStore.load(keys_path), "x" * 40)
    assert other.signed_out.ended(cookie.split(".")[2])
    assert (keys_path.parent / "keys.yaml.signed-out").stat().st_mode & 0o077 == 0


@pytest.mark.integration
def test_a_login_that_is_not_json_is_415_and_no_error_echoes_the_body(session_server):
    base, _ = session_server
    body = json.dumps({"key": KEY})
    r = httpx.post(base + "/session", content=body, headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and KEY not in r.text
    r = httpx.post(base + "/session", json={"key": KEY, "role": "admin"})
    assert r.status_code == 422 and KEY not in r.text and "admin" not in r.text


@pytest.mark.unit
@pytest.mark.parametrize("mode", [0o666, 0o620, 0o602])
def test_a_keys_file_others_may_write_is_refused_with_the_chmod(tmp_path, mode):
    path = tmp_path / "keys.yaml"
    path.write_text(yaml.safe_dump({"principals": []}))
    path.chmod(mode)
    with pytest.raises(ConfigError, match=f"chmod 600 {path}"):
        KeyStore.load(path)


@pytest.mark.integration
@pytest.mark.parametrize("configs", [None, "one per input"])
def test_a_batchs_inputs_take_turns_and_another_question_runs_beside_them(
        sample_app, session_server, configs):
    """One caller's batch takes one worker thread (`batch_concurrency`), however its configs
    are sent, and a question of another request is answered while the batch runs."""
    import threading

    from fakes import ScriptedChatModel

    class Overlaps(ScriptedChatModel):
        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            text = str(messages[-1].content)
            who = "single" if "E-417" in text else "batch"
            with lock:
                active.append(who)
                seen.append(tuple(active))
            time.sleep(0.3)  # a slow model: long enough for requests to overlap
            with lock:
                active.remove(who)
            return super()._generate(messages, stop, run_manager, **kwargs)

    import time

    lock, active, seen = threading.Lock(), [], []
    _, keys_path = session_server
    batch = [{"question": q} for q in ("What is the battery warranty of the C-3 bought on "
                                       "15 March 2026?", "How do I assemble the C-3?",
                                       "What does the S-2 manual say about charging?",
                                       "What is the return period of Старт in May 2026?")]
    body = {"inputs": batch} | ({"config": [{} for _ in batch]} if configs else {})
    model = Overlaps(replies=["From the evidence [S1]."])
    with running_server(create_app(sample_app, KeyStore.load(keys_path), model=model)) as base:
        headers = {"X-API-Key": KEY}
        worker = threading.Thread(target=lambda: httpx.post(
            base + "/ask/batch", json=body, headers=headers, timeout=300))
        worker.start()
        while not any("batch" in s for s in seen) and worker.is_alive():
            time.sleep(0.02)
        single = httpx.post(base + "/ask/invoke", headers=headers, timeout=300, json={
            "input": {"question": "What does error E-417 mean?"}})
        worker.join()
    assert single.status_code == 200
    assert max(s.count("batch") for s in seen) == 1  # the batch never ran two at once
    assert any("single" in s and "batch" in s for s in seen)  # nor held the other back


@pytest.mark.integration
def test_the_server_starts_without_langserves_banner(sample_app, capsys):
    """`serve` printed LangServe's banner ending "See all available routes at None/" (its docs
    pages are off); the server says where it listens itself."""
    api = create_app(sample_app, KeyStore([]))
    with running_server(api) as base:
        assert httpx.get(base + "/health").status_code == 200
    out = capsys.readouterr().out
    assert "LANGSERVE" not in out and "None/" not in out

"""Attack round 5 (issue 52): a restricted release changes nothing a public caller sees, every
answer path is bounded, sessions end and compare bytes, a published generation is verified when
read, duplicate keys are refused, and cosmetic limits degrade instead of refusing."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import httpx
import pytest
import yaml
from conftest import indexed_app, md, running_server, seed_cache, write

from situated import build_ask_chain
from situated.auth import KeyStore, Principal, hash_key
from situated.errors import ConfigError, DocumentError, IndexError_
from situated.index.reader import Index
from situated.loaders.corpus import load_corpus
from situated.server import create_app
from situated.situation import Scope
from situated.web.sessions import COOKIE, CSRF_HEADER

TODAY = __import__("datetime").date(2026, 11, 29)
STAFF = Scope(roles=["staff"])


def _widget(root, restricted: bool) -> None:
    """A public family at 1.0, 2.0, 3.0; with `restricted`, its unreleased 4.0 for staff and
    another family with higher numbers (9.0, 9.1), no product, staff only."""
    docs = root / "docs"
    for v, secs in (("1.0", 30), ("2.0", 45), ("3.0", 60)):
        write(docs / f"w{v}.md", md(f"WIDGET-{v}", f"## 1 Timeouts\n\nThe default timeout is "
                                    f"{secs} seconds.\n", family="widget-api",
                                    title="Widget API", version=v))
    if restricted:
        write(docs / "w4.md", md("WIDGET-4.0", "## 1 Timeouts\n\nThe default timeout is 90 "
                                 "seconds.\n", family="widget-api", title="Widget API",
                                 version="4.0", access="[staff]"))
        for v in ("9.0", "9.1"):
            write(docs / f"n{v}.md", md(f"NIGHT-{v}", "## 1 Routing\n\nThe gateway routes "
                                        "traffic between internal zones.\n",
                                        family="nightingale-gateway", title="Nightingale",
                                        version=v, access="[staff]"))


@pytest.fixture(scope="module")
def widgets(tmp_path_factory, embeddings):
    """The widget family ingested twice, without and with restricted releases, both recorded
    at one moment: an answer shows when each version was recorded, and two ingests a second
    apart would differ there whatever the releases."""
    import datetime as dt

    recorded = dt.datetime.now(dt.UTC)
    apps = {}
    for restricted in (False, True):
        root = tmp_path_factory.mktemp(f"widget-{restricted}")
        _widget(root, restricted)
        apps[restricted] = indexed_app(root, embeddings, now=lambda: recorded)
    return apps


WIDGET_QUESTIONS = ["What is the default timeout?", "Which versions exist?",
                    "What is the latest version?", "What changed in version 3.0?",
                    "What is the default timeout in version 2.0?", "Does version 4.0 exist?",
                    "In which version was the default timeout added?"]


@pytest.mark.integration
@pytest.mark.parametrize("question", WIDGET_QUESTIONS)
def test_a_restricted_release_changes_nothing_a_public_caller_sees(widgets, question):
    def reply(app) -> str:
        chain = build_ask_chain(app, clock=lambda: TODAY)
        a = chain.invoke({"question": question, "scope": Scope()})
        return json.dumps(a.model_dump(mode="json"), ensure_ascii=False)

    assert reply(widgets[True]) == reply(widgets[False])


@pytest.mark.integration
def test_the_public_latest_is_answered_and_staff_read_their_own_latest_of_the_family(widgets):
    chain = build_ask_chain(widgets[True], clock=lambda: TODAY)
    public = chain.invoke({"question": "What is the default timeout?", "scope": Scope()})
    assert public.status.value == "answered" and "60 seconds" in public.answer
    assert {e.source_id for e in public.evidence} == {"WIDGET-3.0"}
    assert "4.0" not in public.answer and "9.1" not in public.answer
    staff = chain.invoke({"question": "What is the default timeout?", "scope": STAFF})
    # the other family's 9.1 is not this family's latest: staff read 4.0
    assert staff.status.value == "answered" and "90 seconds" in staff.answer
    assert "9.1" not in staff.answer


# -- bounded answers -------------------------------------------------------------------------

def _big_terms(order: list[int], fee: str) -> str:
    return "".join(f"## {k} Clause {k}\n\nClause {k} sets the fee for item {k} at {k % 97} "
                   f"{fee} for plan {k % 13}. Extra sentence number {k} stands here.\n\n"
                   for k in order)


def _reordered_versions(n: int, root=None):
    import random

    order = list(range(1, n + 1))
    shuffled = order[:]
    random.Random(5).shuffle(shuffled)
    return _big_terms(order, "euros"), _big_terms(shuffled, "dollars")


@pytest.mark.unit
def test_the_diff_of_two_reordered_2000_section_versions_does_bounded_work(monkeypatch):
    """The attack of round 5 (F2): two versions of 2,000 sections in another order, every
    sentence edited (43.5 s before). The sections are grouped once and every word alignment of
    one diff shares one budget, so the work is bounded whatever the shape (its time:
    benchmarks/diff_worst.py --reordered)."""
    import difflib

    from situated.chains.versions import changes
    from situated.loaders.corpus import load_corpus as load

    old, new = _reordered_versions(2000)
    work = []

    class Counting(difflib.SequenceMatcher):
        def __init__(self, isjunk, a, b, autojunk=False):
            work.append(len(a) * len(b))
            super().__init__(isjunk, a, b, autojunk=autojunk)

    monkeypatch.setattr(changes.difflib, "SequenceMatcher", Counting)
    root = __import__("tempfile").mkdtemp()
    write(__import__("pathlib").Path(root) / "a.md", md("A", old))
    write(__import__("pathlib").Path(root) / "b.md", md("B", new))
    docs = {d.meta.source_id: list(d.blocks) for d in load([__import__("pathlib").Path(root)],
                                                            validate=False).documents}
    sections = changes.diff_blocks(docs["A"], docs["B"])
    assert len(sections) == 2000 and all(s.added and s.removed for s in sections)
    # one alignment of the units is over the cap (compared by content), the rest is budgeted
    assert sum(work) <= 2 * changes.MAX_DIFF_WORK


@pytest.mark.slow
@pytest.mark.integration
def test_a_change_question_over_reordered_sections_answers_within_its_cap(tmp_path,
                                                                        embeddings):
    old, new = _reordered_versions(80)  # about 60 changed sections fit the allowance
    common = {"family": "big-terms", "valid_for": "as_of", "title": "Big terms"}
    write(tmp_path / "docs" / "v1.md", md("BIG-1", old, **common, valid_from="2025-01-01",
                                          valid_to="2026-01-01"))
    write(tmp_path / "docs" / "v2.md", md("BIG-2", new, **common, valid_from="2026-01-01"))
    # English only, so without the multilingual leg, as the README advises (two thirds of
    # this ingest's time); the change answer reads the versions, not the vectors
    app = indexed_app(tmp_path, embeddings, multilingual_leg=False)
    chain = build_ask_chain(app, clock=lambda: TODAY)
    a = chain.invoke({"question": "What changed in the big terms in 2026?", "scope": Scope()})
    assert a.status.value == "answered" and "dollars" in a.answer
    assert len(a.answer) < 20_000  # the answer shows the first changes and counts the rest
    assert re.search(r"\b\d+ more changed section\(s\) did not fit", a.answer), a.answer[-300:]


# -- sessions --------------------------------------------------------------------------------

KEY = "key-staff-0123456789abcdef"


@pytest.fixture(scope="module")
def session_server(sample_app, tmp_path_factory):
    path = tmp_path_factory.mktemp("keys") / "keys.yaml"
    path.write_text(yaml.safe_dump({"principals": [Principal(
        name="desk", key_sha256=hash_key(KEY), roles=("staff",)).model_dump()]}))
    path.chmod(0o600)
    with running_server(create_app(sample_app, KeyStore.load(path))) as base:
        yield base, path


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


# -- generations verified when read ------------------------------------------------------------

@pytest.fixture
def small_index(tmp_path, embeddings):
    write(tmp_path / "docs" / "a.md", md("A", "## 1 Timeout\n\nThe timeout is 30 seconds.\n"))
    app = indexed_app(tmp_path, embeddings)
    return app, os.path.realpath(tmp_path / "index" / "current")


def _edit(path, old: bytes, new: bytes) -> None:
    os.chmod(path, 0o644)
    data = open(path, "rb").read()
    assert old in data
    with open(path, "wb") as f:
        f.write(data.replace(old, new))


@pytest.mark.integration
def test_an_edited_row_store_is_refused_when_opened_naming_the_file(small_index, embeddings):
    app, gen = small_index
    _edit(f"{gen}/store.sqlite", b"30 seconds", b"99 seconds")
    with pytest.raises(IndexError_, match="store.sqlite changed after the generation"):
        Index(app.settings.index_dir, embeddings)
    from situated.index.integrity import damage

    assert "store.sqlite" in damage(app.settings.index_dir, __import__("pathlib").Path(gen),
                                    embeddings)


@pytest.mark.integration
def test_zeroed_hnsw_files_are_refused_and_reading_changes_no_file(small_index, embeddings):
    from pathlib import Path

    from situated.index.integrity import tampered

    app, gen = small_index
    chain = build_ask_chain(app, clock=lambda: TODAY)
    assert chain.invoke({"question": "What is the timeout?"}).status.value == "answered"
    assert tampered(Path(gen)) is None  # an ask wrote nothing into the published generation
    for hnsw in Path(gen, "chroma").rglob("*.bin"):  # the HNSW segment's files, zeroed
        hnsw.chmod(0o644)
        hnsw.write_bytes(b"\0" * hnsw.stat().st_size)
    with pytest.raises(IndexError_, match=r"chroma/[\w-]+/\w+\.bin changed after"):
        Index(app.settings.index_dir, embeddings)


# -- metadata ------------------------------------------------------------------------------------

def _problems(root) -> list[str]:
    with pytest.raises(DocumentError) as info:
        load_corpus([root])
    return info.value.problems


@pytest.mark.unit
@pytest.mark.parametrize("key", ["access", "valid_from", "valid_for", "source_id"])
def test_a_key_given_twice_in_front_matter_is_refused_naming_it_and_both_lines(tmp_path, key):
    values = {"access": "[staff]", "valid_from": "2026-01-01", "valid_for": "as_of",
              "source_id": "B"}
    text = (f"---\nsource_id: A\n{key}: {values[key]}\ntitle: T\n{key}: {values[key]}\n---\n"
            "## 1 Rule\n\nText.\n")
    if key == "source_id":
        text = "---\nsource_id: A\ntitle: T\nsource_id: B\n---\n## 1 Rule\n\nText.\n"
    write(tmp_path / "a.md", text)
    problems = _problems(tmp_path)
    first = 2
    second = 4 if key == "source_id" else 5
    assert any(f"key '{key}' is given twice (lines {first if key == 'source_id' else 3} and "
               f"{second})" in p and "a.md" in p for p in problems), problems


@pytest.mark.unit
def test_a_key_given_twice_in_json_metadata_is_refused_naming_it(tmp_path):
    (tmp_path / "a.json").write_text('{"metadata": {"source_id": "A", "access": ["staff"], '
                                     '"access": []}, "sections": [{"title": "T", "elements": '
                                     '[{"type": "paragraph", "text": "x"}]}]}')
    assert any("key 'access' is given twice" in p for p in _problems(tmp_path))


@pytest.mark.integration
def test_a_paragraph_marked_as_a_heading_ingests_with_a_warning_and_stays_searchable(
        tmp_path, embeddings):
    """Real pages (Open Terms Archive) mark paragraphs up as headings: one of 1,658 characters
    is read as body text, with a warning naming the file; nothing is refused."""
    long = ("### " + "If you choose to dispute the charge you must write to the billing "
            "office within sixty days and include the zephyrine reference code. " * 13)[:1658]
    write(tmp_path / "docs" / "terms.md", md("TERMS", "## 1 Billing\n\nCharges are monthly.\n\n"
                                             + long + "\n\n## 2 Support\n\nWrite to us.\n"))
    app = indexed_app(tmp_path, embeddings)
    warnings = app.snapshot().index.manifest.warnings
    assert any("terms.md" in w and "1,658 characters" in w and "body text" in w
               for w in warnings), warnings
    chain = build_ask_chain(app, clock=lambda: TODAY)
    a = chain.invoke({"question": "Which reference code do I include when I dispute a charge?"})
    assert a.status.value == "answered" and "zephyrine" in a.answer


@pytest.mark.unit
def test_a_json_section_title_over_the_limit_is_cut_and_kept_as_text(tmp_path):
    title = "A title that runs on " * 40
    (tmp_path / "a.json").write_text(json.dumps({"metadata": {"source_id": "A"}, "sections": [
        {"title": title, "elements": [{"type": "paragraph", "text": "Body."}]}]}))
    corpus = load_corpus([tmp_path])
    block = corpus.documents[0].blocks[0]
    assert len(block.title) <= 500 and title.strip() in block.text
    assert any("a.json" in w and "cut in the heading" in w for w in corpus.warnings)


@pytest.mark.unit
def test_a_document_of_more_headings_than_the_cap_keeps_the_rest_as_text(tmp_path,
                                                                         monkeypatch):
    from situated.loaders import corpus as corpus_module

    monkeypatch.setattr(corpus_module, "MAX_HEADINGS", 3)
    body = "".join(f"## {n} Part {n}\n\nText of part {n}.\n\n" for n in range(1, 6))
    write(tmp_path / "a.md", md("A", body))
    loaded = load_corpus([tmp_path])
    text = "\n".join(b.text for b in loaded.documents[0].blocks)
    assert "Part 5" in text and "Text of part 5" in text
    assert any("5 headings, over the 3" in w for w in loaded.warnings)


# -- what a carried situation or a question may set --------------------------------------------

@pytest.fixture(scope="module")
def regional(tmp_path_factory, embeddings):
    from test_facets import _region_app

    root = tmp_path_factory.mktemp("regional")
    for region, days in (("EU", 30), ("US", 14)):
        write(root / "docs" / f"{region}.md", md(
            f"RET-{region}", f"## 1 Returns\n\nYou may return an R-1 within {days} days of "
            "delivery.\n", family="returns", product="R-1", region=region))
    return _region_app(root, embeddings)


@pytest.mark.integration
def test_a_declared_facet_named_in_the_question_picks_its_version(regional):
    chain = build_ask_chain(regional, clock=lambda: TODAY)
    a = chain.invoke({"question": "How many days do I have to return an R-1 in the EU?"})
    assert a.status.value == "answered" and a.situation.facets == {"region": "EU"}
    assert {e.source_id for e in a.evidence} == {"RET-EU"} and "30 days" in a.answer


@pytest.mark.integration
def test_an_undeclared_facet_in_a_carried_situation_is_dropped_not_echoed(regional):
    from situated.situation import Situation

    chain = build_ask_chain(regional, clock=lambda: TODAY)
    carried = Situation(facets={"access": "staff", "region": "US"})
    a = chain.invoke({"question": "How many days do I have to return an R-1?",
                      "situation": carried})
    assert a.situation.facets == {"region": "US"}
    assert "access" not in json.dumps(a.model_dump(mode="json"))


@pytest.mark.integration
def test_a_carried_version_is_checked_like_one_the_question_names(widgets):
    from situated.situation import Situation

    chain = build_ask_chain(widgets[False], clock=lambda: TODAY)
    carried = chain.invoke({"question": "What is the default timeout?",
                            "situation": Situation(version="5.0")})
    named = chain.invoke({"question": "What is the default timeout in version 5.0?"})
    assert carried.status.value == named.status.value == "no_evidence"
    assert "5.0 is not among the versions" in carried.answer
    assert carried.answer == named.answer


@pytest.mark.integration
def test_a_document_read_holds_its_generation_across_a_swap(tmp_path, embeddings, monkeypatch):
    """`/documents/{id}` pins the generation published when it starts: a new generation
    published mid-read neither closes what it reads nor mixes the two."""
    from situated import server as server_module
    from situated.index.ingest import ingest

    write(tmp_path / "docs" / "a.md", md("A", "## 1 Timeout\n\nThe timeout is 30 seconds.\n"))
    app = indexed_app(tmp_path, embeddings)
    path = tmp_path / "keys.yaml"
    path.write_text(yaml.safe_dump({"principals": [Principal(
        name="desk", key_sha256=hash_key(KEY)).model_dump()]}))
    read = server_module._readable_blocks

    def swapped_midway(index, source_id, scope):
        write(tmp_path / "docs" / "a.md", md("A", "## 1 Timeout\n\nThe timeout is 45 "
                                                  "seconds.\n"))
        ingest([tmp_path / "docs"], app.settings.index_dir, embeddings, app.settings)
        app.snapshot()  # another request opens the new generation and retires this one
        return read(index, source_id, scope)

    monkeypatch.setattr(server_module, "_readable_blocks", swapped_midway)
    with running_server(create_app(app, KeyStore.load(path))) as base:
        r = httpx.get(base + "/documents/A?format=json", headers={"X-API-Key": KEY},
                      timeout=120)
        assert r.status_code == 200, r.text
        assert "30 seconds" in r.json()["blocks"][0]["text"]
        monkeypatch.setattr(server_module, "_readable_blocks", read)
        r = httpx.get(base + "/documents/A?format=json", headers={"X-API-Key": KEY})
        assert "45 seconds" in r.json()["blocks"][0]["text"]


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


@pytest.mark.unit
@pytest.mark.parametrize(("line", "meant"), [("valid_form: 2026-01-01", "valid_from"),
                                             ("valid_form: as_of", "valid_for"),
                                             ("acess: [hr]", "access")])
def test_a_misspelt_key_is_read_by_its_value_too(tmp_path, line, meant):
    write(tmp_path / "a.md", f"---\nsource_id: A\n{line}\n---\n## 1 Rule\n\nText.\n")
    assert any(f"looks like a misspelt '{meant}'" in p for p in _problems(tmp_path))


@pytest.mark.unit
def test_a_series_given_as_version_points_to_applies_to_versions(tmp_path):
    write(tmp_path / "a.md", md("A", family="api", version="v2.x"))
    assert any('applies_to_versions: "2.x"' in p for p in _problems(tmp_path))


@pytest.mark.unit
def test_a_file_named_pdf_that_is_not_one_is_refused_without_pypdfs_noise(tmp_path, caplog):
    (tmp_path / "a.pdf").write_text("just some text, not a PDF at all\n")
    (tmp_path / "a.pdf.meta.yaml").write_text("source_id: A\n")
    problems = _problems(tmp_path)
    assert any("a.pdf: not a PDF (no %PDF- header)" in p for p in problems), problems
    assert not [r for r in caplog.records if r.name.startswith("pypdf")]


@pytest.mark.unit
def test_the_sample_index_belongs_to_the_install(tmp_path):
    from pathlib import Path

    from situated.settings import Settings, install_key

    one = Settings(cache_dir=tmp_path).sample_index_dir()
    assert one.name == f"sample-index-{install_key()}"
    assert install_key(Path("/other/checkout/situated")) != install_key()


@pytest.mark.slow
@pytest.mark.integration
def test_two_first_asks_at_once_both_answer(tmp_path, warm_vectors):
    """Two processes asking the sample for the first time at once: the second waits for the
    first's build (saying so) instead of failing with "another ingest is writing"."""
    import subprocess
    import sys


    env = {**os.environ, "SITUATED_CACHE_DIR": str(seed_cache(tmp_path / "cache", warm_vectors)),
           "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    cmd = [sys.executable, "-m", "situated.cli", "ask", "What does error E-417 mean?"]
    procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert all(out.splitlines()[0] == "answered" for out, _ in outs), outs


@pytest.mark.slow
def test_two_installs_asking_the_sample_at_once_both_answer(tmp_path, warm_vectors):
    """Two installs of the package (this checkout and a copy of it elsewhere) on one machine,
    one user cache, each asking the sample for the first time at the same moment: each builds
    and reads its own sample index (`sample-index-KEY`, keyed by the install), neither waits
    on or fails because of the other."""
    import shutil
    import subprocess
    import sys

    import situated

    seed_cache(tmp_path / "cache" / "situated", warm_vectors)  # the user's cache, used before
    other = tmp_path / "other-install"
    shutil.copytree(Path(situated.__file__).parent, other / "situated",
                    ignore=shutil.ignore_patterns("__pycache__"))
    base = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1",
            "ANONYMIZED_TELEMETRY": "False"}
    base.pop("SITUATED_CACHE_DIR", None)
    cmd = [sys.executable, "-m", "situated.cli", "ask", "What does error E-417 mean?"]
    procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, cwd=tmp_path)
             for env in (base, {**base, "PYTHONPATH": str(other)})]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert all(out.splitlines()[0] == "answered" for out, _ in outs), outs
    assert not any("another process is building" in err for _, err in outs)
    built = sorted(d.name for d in (tmp_path / "cache" / "situated").glob("sample-index-*"))
    assert len(built) == 2, built
    # a first ask says what it is doing (it printed nothing for a minute); a later one is quiet
    assert all(re.search(r"indexing the sample corpus \(\d+ documents\) on first use", err)
               for _, err in outs), outs
    again = subprocess.run(cmd, env=base, capture_output=True, text=True, cwd=tmp_path,
                           timeout=600, check=True)
    assert again.stdout.splitlines()[0] == "answered" and "indexing" not in again.stderr


@pytest.mark.unit
@pytest.mark.parametrize("text", ["[" * 20_000, "[a](" * 10_000, "Intro " + "a" * 150_000,
                                  "[a](" + "b" * 100_000, "a@" * 20_000])
def test_backtracking_shapes_are_neutralised_and_make_no_link(text):
    """Shapes that made the neutraliser's patterns backtrack once per position (their time:
    benchmarks/neutralise_worst.py) still come out with no link a renderer would make."""
    from markdown_it import MarkdownIt

    from situated.loaders.neutralise import neutralise

    out = neutralise(text)
    assert "<a href" not in MarkdownIt("gfm-like").render(out[:5000])
    assert len(out) >= len(text) // 2  # the text is kept, not dropped


@pytest.mark.unit
@pytest.mark.parametrize(("key", "value", "shown"), [
    ("title", '"x"' .replace("x", "x" * 20_000), "x" * 299 + "…"),
    ("revision", '"2\\n![t](//evil.example/pixel.png)"', "2 ![t](//evil.example/pixel.png)"),
    ("title", '"Terms \\u202Etxt.exe"', "Terms txt.exe"),
])
def test_a_field_only_shown_to_people_degrades_to_one_line_with_a_warning(tmp_path, key,
                                                                           value, shown):
    """A title or revision over the cap, or holding line breaks or bidi overrides, is shown as
    one line of at most 300 characters (no answer line can be forged with it), a warning
    naming the file; the document is loaded."""
    write(tmp_path / "a.md", md("A", **{key: value}))
    corpus = load_corpus([tmp_path])
    assert getattr(corpus.documents[0].meta, key) == shown
    assert any("a.md" in w and f"{key} (" in w for w in corpus.warnings)

"""Two kinds of versioned family (issue 53, item 2): a guide at three releases beside a
changelog. The changelog is split per release at load; each section applies to its own
release, never to another release's question; release notes are never superseded, so a
question naming no release is answered from the release whose notes hold it, named."""

from __future__ import annotations

import pytest
from conftest import QUICKQ_CHANGELOG, QUICKQ_GUIDE, indexed_app, md, quickq_corpus, write

from situated.documents import DocKind
from situated.situation import Scope


@pytest.fixture(scope="module")
def ask(quickq):
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(quickq)
    return lambda q: chain.invoke({"question": q, "scope": Scope()})


@pytest.mark.unit
def test_a_changelog_becomes_one_notes_document_per_release(tmp_path):
    from situated.loaders.corpus import load_corpus

    quickq_corpus(tmp_path)
    docs = {d.meta.source_id: d.meta for d in load_corpus([tmp_path / "docs"]).documents}
    notes = {sid: m for sid, m in docs.items() if m.kind is DocKind.NOTES}
    assert sorted(notes) == ["QQ-LOG@1.0.0", "QQ-LOG@1.1.0", "QQ-LOG@2.0.0"]
    assert {(m.family, m.version) for m in notes.values()} == {
        ("QQ-LOG", "1.0.0"), ("QQ-LOG", "1.1.0"), ("QQ-LOG", "2.0.0")}
    assert all(docs[f"QQ-GUIDE-{v}"].kind is DocKind.DOCUMENT for v in QUICKQ_GUIDE)


@pytest.mark.unit
@pytest.mark.parametrize(("title", "body", "kind", "ids"), [
    # undeclared, untitled: sections headed by releases make a changelog
    ("Project history", "## v2.0 (2024-03-01)\n\nNew API.\n\n## [1.0] - 2023-01-02\n\nFirst.\n",
     DocKind.NOTES, ["N@1.0", "N@2.0"]),
    # numbered sections are not releases
    ("Terms", "## 4.2 Returns\n\nThirty days.\n\n## 4.3 Refunds\n\nFourteen days.\n",
     DocKind.DOCUMENT, ["N"]),
    # what stands before the first release stays in the document without a release
    ("Release notes", "Read this first.\n\n## Unreleased\n\nNothing yet.\n\n## 1.0\n\nFirst.\n",
     DocKind.NOTES, ["N", "N@1.0"]),
])
def test_which_documents_are_notes(tmp_path, title, body, kind, ids):
    from situated.loaders.corpus import load_corpus

    write(tmp_path / "docs" / "n.md", md("N", body=body, title=title))
    docs = load_corpus([tmp_path / "docs"]).documents
    assert sorted(d.meta.source_id for d in docs) == ids
    assert {d.meta.kind for d in docs} == {kind}


@pytest.mark.unit
def test_kind_reference_keeps_a_release_shaped_document_whole(tmp_path):
    from situated.loaders.corpus import load_corpus

    write(tmp_path / "docs" / "n.md", md("N", body="## 1.0\n\nA.\n\n## 2.0\n\nB.\n",
                                         title="Changelog", kind="reference"))
    (doc,) = load_corpus([tmp_path / "docs"]).documents
    assert (doc.meta.source_id, doc.meta.kind) == ("N", DocKind.REFERENCE)


@pytest.mark.integration
def test_a_question_about_one_release_never_quotes_another_release_s_notes(ask):
    a = ask("How many jobs does one worker process in parallel in 1.0.0?")
    assert a.status.value == "answered" and a.situation.version == "1.0.0"
    assert "4 tasks" in a.answer and "8 tasks" not in a.answer
    assert {c.source_id for c in a.citations} <= {"QQ-GUIDE-1.0.0", "QQ-LOG@1.0.0"}
    cited = {e.source_id for e in a.evidence}
    assert not cited & {"QQ-LOG@2.0.0", "QQ-LOG@1.1.0", "QQ-GUIDE-2.0.0"}


@pytest.mark.integration
def test_a_question_naming_no_release_is_answered_from_the_notes_that_hold_it(ask):
    a = ask("Which issue number was the fix for the crash when Redis restarts?")
    assert a.status.value == "answered"
    assert a.answer.startswith("From the release notes of version 1.1.0: ")
    assert "#212" in a.answer and "QQ-LOG@1.1.0" in {c.source_id for c in a.citations}


@pytest.mark.integration
def test_the_latest_reference_still_answers_a_question_about_the_state(ask):
    a = ask("How many tasks does a worker run in parallel?")
    assert a.answer.startswith("For version 2.0.0 (the latest")
    assert "8 tasks" in a.answer and "4 tasks in parallel." not in a.answer


@pytest.mark.integration
@pytest.mark.parametrize("question", ["What changed in quickq 2.0.0?",
                                      "What changed in version 2.0.0?"])
def test_what_changed_in_a_release_is_the_guide_s_diff_without_asking_which(ask, question):
    a = ask(question)
    assert a.status.value == "answered", a.answer
    assert a.answer.startswith("Changes of quickq-guide (quickq) in version 2.0.0")
    assert "4 → 8" in a.answer


@pytest.mark.integration
@pytest.mark.parametrize(("question", "release"), [
    ("Since which version can I schedule tasks?", "1.1.0"),
    ("In which version was `queue.schedule` added?", "1.1.0"),
    ("When was exponential backoff introduced?", "2.0.0"),
    ("In which quickq version did exponential backoff make its debut?", "2.0.0"),
    ("What's the minimum quickq version that has exponential backoff?", "2.0.0"),
])
def test_first_appearance_reads_the_guide_and_the_notes_agree(ask, question, release):
    a = ask(question)
    assert a.status.value == "answered" and a.appearance is not None, a.answer
    assert a.appearance.release == release
    assert not a.appearance.source_id.startswith("QQ-LOG"), "notes are not pages"


@pytest.mark.integration
def test_the_line_lists_the_guide_s_releases_not_the_changelog_s(ask):
    a = ask("Which versions exist?")
    assert a.releases == ["1.0.0", "1.1.0", "2.0.0"]
    for question in ("List the versions of quickq", "How many quickq versions are you aware of?"):
        listing = ask(question)
        shown = listing.releases or [v.version for v in listing.versions]
        assert shown == ["1.0.0", "1.1.0", "2.0.0"], listing.answer
        assert "QQ-LOG" not in listing.answer
    oldest = ask("What is the oldest quickq version you know of?")
    assert oldest.answer.startswith("The oldest version of quickq is 1.0.0"), oldest.answer



@pytest.mark.integration
def test_a_version_question_typed_with_slips_is_read_as_meant(ask):
    """The question is read with its slips put right (`QuestionReader.corrected`), so the words
    of a version question count however they were typed."""
    listing = ask("Which verisons of quickq do you have?")
    assert (listing.releases or [v.version for v in listing.versions]) == [
        "1.0.0", "1.1.0", "2.0.0"], listing.answer
    oldest = ask("What is the olddest quickq version you know of?")
    assert oldest.answer.startswith("The oldest version of quickq is 1.0.0"), oldest.answer
    changes = ask("What chnaged in quickq 2.0.0?")
    assert changes.answer.startswith("Changes of quickq-guide (quickq) in version 2.0.0"), (
        changes.answer)
    since = ask("Since which verison can I shedule tasks?")
    assert since.appearance is not None and since.appearance.release == "1.1.0", since.answer

_SPARK = {
    "3.5.3": "## Bug fixes\n\n- [SPARK-49999] Fix a race in the block manager cleanup.\n"
             "- [SPARK-31967] Fix the slow loading of the jobs page in the web UI.\n",
    "3.5.4": "## Bug fixes\n\n- [SPARK-50987] Fix a crash in the shuffle reader on empty "
             "blocks.\n",
    "3.5.5": "## Improvements\n\n- [SPARK-51234] Faster parquet footer reads.\n",
}


@pytest.fixture(scope="module")
def spark(tmp_path_factory, embeddings):
    """Release notes as documents of their own, one per release, titled so (not declared)."""
    from situated.chains.ask import build_ask_chain

    root = tmp_path_factory.mktemp("spark")
    for v, body in _SPARK.items():
        write(root / "docs" / f"notes-{v}.md", md(
            f"SPARK-NOTES-{v}", body=body, family="spark-notes", version=v, product="Spark",
            title=f"Spark {v} release notes"))
    chain = build_ask_chain(indexed_app(root, embeddings))
    return lambda q: chain.invoke({"question": q, "scope": Scope()})


@pytest.mark.integration
def test_release_notes_documents_answer_from_the_release_that_holds_the_fact(spark):
    a = spark("What is the issue number of the fix for the slow jobs page in the web UI?")
    assert a.status.value == "answered", a.answer
    assert a.answer.startswith("From the release notes of version 3.5.3: ")
    assert "SPARK-31967" in a.answer and "Nothing in the latest" not in a.answer


@pytest.mark.integration
def test_what_changed_in_a_release_of_notes_quotes_its_notes(spark):
    a = spark("What changed in Spark 3.5.4?")
    assert a.status.value == "answered", a.answer
    assert a.answer.startswith("The release notes of spark-notes 3.5.4 say:")
    assert "SPARK-50987" in a.answer and "SPARK-31967" not in a.answer
    assert {c.source_id for c in a.citations} == {"SPARK-NOTES-3.5.4"}


@pytest.mark.integration
def test_a_code_the_notes_hold_only_under_another_is_never_substituted(spark):
    a = spark("What was fixed in SPARK-31967?")
    assert a.status.value == "answered", a.answer
    assert "From the release notes of version 3.5.3: - [SPARK-31967] Fix the slow" in a.answer
    assert "SPARK-50987" not in a.answer and "SPARK-49999" not in a.answer
    missing = spark("What was fixed in SPARK-40404?")
    assert "SPARK-50987" not in missing.answer and "SPARK-49999" not in missing.answer


@pytest.mark.integration
def test_what_changed_naming_a_release_and_no_document_reads_the_changelog(tmp_path, embeddings):
    """Several versioned documents: "What changed in 1.1.0?" does not ask which one when the
    changelog has notes for 1.1.0."""
    from situated.chains.ask import build_ask_chain

    quickq_corpus(tmp_path)
    for v, body in QUICKQ_GUIDE.items():
        write(tmp_path / "docs" / f"api-{v}.md", md(
            f"QQ-API-{v}", body=body.replace("## ", "## API "), family="quickq-api",
            version=v, product="quickq", title="quickq API"))
    chain = build_ask_chain(indexed_app(tmp_path, embeddings))
    a = chain.invoke({"question": "What changed in version 1.1.0?", "scope": Scope()})
    assert a.status.value == "answered", a.answer
    assert a.answer.startswith("The release notes of QQ-LOG 1.1.0 say:")
    assert "#212" in a.answer and "8 tasks" not in a.answer


@pytest.mark.integration
def test_a_notes_citation_opens_its_release_s_section_on_the_server(quickq):
    """A split id (`QQ-LOG@1.1.0`) is a path the server resolves, and the section it cites is
    the one shown."""
    import httpx
    from conftest import running_server

    from situated.auth import KeyStore, Principal, hash_key
    from situated.server import create_app

    store = KeyStore([Principal(name="reader", key_sha256=hash_key("key-reader-0123456789"))])
    headers = {"Authorization": "Bearer key-reader-0123456789"}
    with running_server(create_app(quickq, store)) as base:
        r = httpx.post(base + "/ask/invoke", headers=headers, timeout=60, json={"input": {
            "question": "Which issue number was the fix for the crash when Redis restarts?"}})
        out = r.json()["output"]
        link = next(c["link"] for c in out["citations"] if c["source_id"] == "QQ-LOG@1.1.0")
        assert link.startswith("/documents/QQ-LOG@1.1.0#")
        page = httpx.get(base + link.split("#")[0], headers=headers, timeout=60)
        assert page.status_code == 200 and "#212" in page.text
        assert "8 tasks in parallel" not in page.text  # another release's notes
        assert f"id='{link.split('#')[1]}'" in page.text




@pytest.mark.unit
@pytest.mark.parametrize(("heading", "release"), [
    ("1.1.0", "1.1.0"), ("[1.1.0] - 2024-01-02", "1.1.0"), ("v2.0.0 (2024-01-02)", "2.0.0"),
    ("Version 2.1", "2.1"), ("Версия 2.1", "2.1"), ("0.28.1 (6th December, 2024)", "0.28.1"),
    ("3.5.3 — March 2024", "3.5.3"), ("1.0.0-beta.1", "1.0.0b1"),
    ("4.2 Mudguards", None), ("1.1 – Returns", None), ("2.1 Timeouts and retries", None),
    ("Changelog", None), (None, None),
])
def test_a_release_heading_is_a_release_and_its_date_only(heading, release):
    from situated.loaders.notes import heading_release

    assert heading_release(heading) == release


@pytest.mark.unit
def test_load_file_on_a_changelog_says_to_read_its_documents(tmp_path):
    """`load_file` promises one document; a changelog makes one per release, so it says
    so and names the function that reads them all."""
    from situated.loaders.corpus import load_documents, load_file

    path = write(tmp_path / "CHANGELOG.md", md("LOG", body=QUICKQ_CHANGELOG, title="Changelog"))
    with pytest.raises(ValueError, match=r"makes 3 documents .*load_documents"):
        load_file(path)
    assert [d.meta.source_id for d in load_documents(path)] == ["LOG@2.0.0", "LOG@1.1.0",
                                                                 "LOG@1.0.0"]


@pytest.mark.integration
def test_what_the_changelog_says_about_something_reads_its_notes(ask):
    """"What does the changelog say about X" asks for content from the notes, not a diff."""
    a = ask("What does the changelog say about the Redis crash?")
    assert not a.changes and a.status.value == "answered", a.answer
    assert "#212" in a.answer and "QQ-LOG@1.1.0" in {c.source_id for c in a.citations}


@pytest.fixture(scope="module")
def patched(tmp_path_factory, embeddings):
    """The quickq guide and changelog, where the changelog also has a patch release no page
    was written at (1.0.1), and staff-only notes for an internal build (1.0.2)."""
    root = tmp_path_factory.mktemp("patched")
    quickq_corpus(root)
    log = QUICKQ_CHANGELOG.replace("## 1.0.0", "## 1.0.1\n\n- Fix the worker's exit code on "
                                   "SIGTERM (#118).\n\n## 1.0.0")
    write(root / "docs" / "CHANGELOG.md", md("QQ-LOG", body=log, product="quickq",
                                             title="quickq changelog"))
    write(root / "docs" / "internal.md", md(
        "QQ-INTERNAL", body="# Internal changelog\n\n## 1.0.2\n\n- Hotfix for Acme's cluster.\n",
        product="quickq", title="quickq internal changelog", access="[staff]"))
    app = indexed_app(root, embeddings)
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(app)
    return lambda q, scope=None: chain.invoke({"question": q, "scope": scope or Scope()})


@pytest.mark.integration
@pytest.mark.parametrize("question", ["What changed in quickq 1.0.1?", "What's new in 1.0.1?",
                                      "Что изменилось в версии 1.0.1?"])
def test_what_changed_in_a_release_only_the_changelog_has_reads_its_notes(patched, question):
    """The line is the guide's releases (1.0.0, 1.1.0, 2.0.0); a changelog names more. "What
    changed in 1.0.1?" was answered "1.0.1 is not among the versions"; its notes answer."""
    a = patched(question)
    assert a.status.value == "answered", a.answer
    assert "#118" in a.answer and {c.source_id for c in a.citations} == {"QQ-LOG@1.0.1"}
    assert a.releases == ["1.0.1"]


@pytest.mark.integration
def test_a_release_only_notes_hold_is_not_in_the_line_and_the_answer_says_where_it_is(patched):
    exists = patched("Does quickq 1.0.1 exist?")
    assert exists.answer.startswith("No. Version 1.0.1 is not among the versions of quickq")
    assert "The release notes of 1.0.1 are on file" in exists.answer
    content = patched("How many tasks does a worker run in quickq 1.0.1?")
    assert content.status.value == "no_evidence"
    assert "The release notes of 1.0.1 are on file" in content.answer
    assert "on file" not in patched("Does quickq 1.0.7 exist?").answer


@pytest.mark.integration
def test_notes_a_caller_may_not_read_are_neither_answered_nor_hinted(patched):
    public = [patched(q) for q in ("What changed in quickq 1.0.2?", "Does quickq 1.0.2 exist?")]
    for a in public:
        assert "on file" not in a.answer and "Acme" not in a.answer, a.answer
        assert "QQ-INTERNAL" not in a.model_dump_json()
    assert public[0].status.value == "no_evidence"
    staff = patched("What changed in quickq 1.0.2?", Scope(roles=["staff"]))
    assert staff.status.value == "answered" and "Acme" in staff.answer, staff.answer


@pytest.mark.integration
@pytest.mark.parametrize(("question", "releases"), [
    ("How far back do your quickq docs go?", ["1.0.0"]),
    ("Where does your quickq coverage begin?", ["1.0.0"]),
    ("What's the most ancient quickq version you've indexed?", ["1.0.0"]),
    ("How recent are your quickq docs?", ["2.0.0"]),
    ("Up to which quickq version do you go?", ["2.0.0"]),
    ("What's the freshest quickq version you've indexed?", ["2.0.0"]),
    ("Which quickq version do your docs go up to?", ["2.0.0"]),
    ("Got anything on quickq 1.1.0?", ["1.1.0"]),
    ("Which quickq release is the furthest back you go?", ["1.0.0"]),
    ("What quickq version comes last in your list?", ["2.0.0"]),
    ("Does your list include quickq 1.1.0?", ["1.1.0"]),
    ("Какая самая новая версия quickq у вас есть?", ["2.0.0"]),
    ("Какой версией quickq заканчивается документация?", ["2.0.0"]),
    ("С какой версии quickq начинается документация?", ["1.0.0"]),
    ("До какой версии quickq у тебя есть данные?", ["2.0.0"]),
    ("С какой версии quickq у тебя есть данные?", ["1.0.0"]),
    ("Какая версия quickq сейчас актуальная?", ["2.0.0"]),
    ("What's the latest quickq version now?", ["2.0.0"]),
    ("Какая версия quickq старше всех?", ["1.0.0"]),
    ("Какая версия quickq новее всех?", ["2.0.0"]),
    ("Which quickq version is the end point of your docs?", ["2.0.0"]),
    ("Какая версия quickq вышла первой?", ["1.0.0"]),
    ("Какая версия quickq вышла последней?", ["2.0.0"]),
    ("Какая версия quickq была первой?", ["1.0.0"]),
    ("Which quickq version do your docs end with?", ["2.0.0"]),
    ("Какой начальный релиз quickq у тебя есть?", ["1.0.0"]),
    ("Which quickq version was released most recently?", ["2.0.0"]),
    ("Which quickq release is the most dated one you have?", ["1.0.0"]),
    ("Какой версией quickq открывается список?", ["1.0.0"]),
    ("Какой версией quickq закрывается список?", ["2.0.0"]),
    ("Какая версия quickq появилась раньше остальных?", ["1.0.0"]),
    ("Which quickq release came out before all the others?", ["1.0.0"]),
    ("Which quickq release came out after all the others?", ["2.0.0"]),
    ("What was the first ever quickq release?", ["1.0.0"]),
])
def test_a_fact_of_the_line_in_other_words_is_answered_from_metadata(ask, question, releases):
    a = ask(question)
    assert a.releases == releases and not a.citations, a.answer


_TOOL_PAGE = "## Running\n\nRun `tool go` to start.\n"
_TOOL_LOG = ("# Changelog\n\n## 2.0.1\n\n- Fix a crash on empty input.\n\n## 2.0.0\n\n- Add "
             "`tool watch`.\n- Add the `Watcher` class.\n\n## 1.1.0\n\n- Add `--quiet`.\n\n## 1.0.0\n\n- First release.\n")


@pytest.mark.integration
@pytest.mark.parametrize(("question", "heads", "said", "unsaid"), [
    # a series: every release of it, each opening with its release
    ("What changed in tool 2.0?", "TOOL-LOG 2.0.0 and 2.0.1 say:\n2.0.0:",
     ["tool watch", "2.0.1:", "empty input"], ["--quiet"]),
    # two releases: every release after the first up to the last
    ("What changed between tool 1.0.0 and 2.0.1?", "TOOL-LOG 1.1.0, 2.0.0 and 2.0.1 say:",
     ["--quiet", "tool watch", "empty input"], ["First release"]),
    ("What changed in tool 2.0.1?", "TOOL-LOG 2.0.1 say:\n- Fix", ["empty input"],
     ["tool watch"]),
    # an identifier inside how it asks is what it asks about: its lines, its release alone
    ("How did the Watcher docs change between tool 1.0.0 and 2.0.1?", "TOOL-LOG 2.0.0 say:\n",
     ["Watcher"], ["--quiet", "empty input", "2.0.1"]),
])
def test_what_changed_in_a_series_or_between_two_releases_reads_each_release_s_notes(
        tmp_path, embeddings, question, heads, said, unsaid):
    """"What changed in httpx 0.28?" quoted 0.28.1's notes only, where 0.28.0 holds the
    release's changes; "What changed between httpx 0.27.2 and 0.28.1?" quoted 0.27.2's."""
    from situated.chains.ask import build_ask_chain

    for family in ("guide", "api"):
        for v in ("1.0.0", "2.0.1"):
            write(tmp_path / "docs" / f"{family}-{v}.md", md(
                f"TOOL-{family.upper()}-{v}", body=_TOOL_PAGE, family=f"tool-{family}",
                version=v, product="tool", title=f"tool {family}"))
    write(tmp_path / "docs" / "changelog.md", md("TOOL-LOG", body=_TOOL_LOG, title="Changelog",
                                                 product="tool"))
    chain = build_ask_chain(indexed_app(tmp_path, embeddings))
    a = chain.invoke({"question": question, "scope": Scope()})
    assert a.status.value == "answered" and heads in a.answer, a.answer
    assert all(s in a.answer for s in said) and not any(s in a.answer for s in unsaid), a.answer

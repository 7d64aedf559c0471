"""Questions about when something left a product, written as people write them: "drop",
"stop supporting", "no longer supported", «перестал поддерживать», and the present tense
("Which release adds X?"). The subject is the thing, never the verb ("drop Python 3.7" was
looked for, and the pages were said not to show it)."""

from __future__ import annotations

import pytest

from situated.chains.read.change_kind import Kind, kind_of
from situated.chains.read.intent import find_intent
from situated.chains.read.subject import subject_of

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("question", "kind"), [
    ("When did httpx drop Python 3.7 support?", Kind.REMOVED),
    ("When did starlette stop supporting Python 3.7?", Kind.REMOVED),
    ("Since which version is Python 3.7 no longer supported by httpx?", Kind.REMOVED),
    ("Когда httpx перестал поддерживать Python 3.7?", Kind.REMOVED),
    ("Which starlette release adds the lifespan argument?", Kind.ADDED),
    ("When can I stop a task?", Kind.ADDED),  # "stop" alone is no removal
])
def test_a_removal_is_read_in_the_words_people_use(question, kind):
    assert kind_of(question) is kind


@pytest.mark.parametrize(("question", "words"), [
    ("When did HTTPX drop Python 3.7 support?", ("python", "3.7")),
    ("Which release adds scheduled tasks?", ("scheduled", "tasks")),
    ("Когда httpx перестал поддерживать Python 3.7?", ("python", "3.7")),
])
def test_the_verb_of_a_change_is_not_its_subject(question, words):
    assert subject_of(question, ["httpx"]).words == words


@pytest.mark.parametrize("question", [
    "Which starlette release adds the lifespan argument?",
    "Which quickq version introduces scheduled tasks?",
])
def test_a_release_that_adds_something_asks_where_it_first_appears(question):
    assert find_intent(question.replace("starlette ", "").replace("quickq ", "")) == "since"


@pytest.mark.parametrize(("question", "since", "words"), [
    ("When did starlette add websockets?", True, ("websockets",)),
    ("When did httpx introduce the Client class?", True, ("client",)),  # its kind apart
    ("When did httpx drop Python 3.7 support?", True, ("python", "3.7")),
    ("When did I add the card to my account?", False, None),  # the asker's own doing
    ("When did you add the late fee?", False, None),
])
def test_when_the_product_did_it_asks_where_it_first_appears(question, since, words):
    """"When did starlette add websockets?" was read as a content question and answered with
    the 0.21.0 note "Add WebSocketException …": the verb in its base form after "did" went
    unread, where "When was X added?" was read."""
    assert (find_intent(question) == "since") is since
    if words:
        assert subject_of(question, ["starlette", "httpx"]).words == words


@pytest.mark.parametrize(("question", "words"), [
    ("Which quickq release brought in scheduled tasks?", ("scheduled", "tasks")),
    ("Which httpx version brought in zstd content decoding?", ("zstd", "content", "decoding")),
    ("When was the client parameter added to TestClient?", ("client",)),  # X added to Y: X
])
def test_what_a_release_brought_in_is_the_subject_not_the_release(question, words):
    """"Which quickq release brought in scheduled tasks?" read "brought in" as "added to":
    the subject was "Which release", and no version held it."""
    assert subject_of(question, ["quickq", "httpx"]).words == words


@pytest.mark.parametrize(("question", "words"), [
    ("Мне сказали, что zstd content decoding пришло с каким-то релизом httpx. С каким?",
     ("zstd", "content", "decoding")),
    ("Начиная с какой версии httpx мне доступен zstd content decoding?",
     ("zstd", "content", "decoding")),
])
def test_a_thing_written_in_the_documents_language_stands_apart(question, words):
    """httpx's Russian paraphrases looked for «Мне сказали, что zstd content decoding пришло
    каким-то . каким»: the words where the script changes are a part of their own, and the
    part the candidates hold is the subject (`Subject.held_by`)."""
    from situated.documents import Block, BlockKind, FilterFields

    note = Block(block_id="LOG@0.27.1-s1", source_id="LOG@0.27.1", kind=BlockKind.SECTION,
                 title="0.27.1", path=("0.27.1",), link="/documents/LOG@0.27.1#s1",
                 text="- Support for zstd content decoding using the python zstandard package "
                      "is added.", fields=FilterFields(source_id="LOG@0.27.1"))
    assert subject_of(question, ["httpx"]).held_by([note]).words == words


def _page(n: int, text: str):
    from situated.documents import Block, BlockKind, FilterFields

    return Block(block_id=f"MW-s{n}", source_id="MW", kind=BlockKind.SECTION, title="GZip",
                 path=("GZipMiddleware",), link=f"/documents/MW#s{n}", text=text,
                 fields=FilterFields(source_id="MW"))


@pytest.mark.parametrize("question", [
    "When did Starlette add the GZipMiddleware compresslevel option?",
    "When was the compresslevel option of GZipMiddleware added?",
    "Когда в GZipMiddleware появился параметр compresslevel?",
])
def test_a_thing_named_by_its_kind_beside_an_identifier_is_the_subject(question):
    """"When did Starlette add the GZipMiddleware compresslevel option?" looked for
    GZipMiddleware, which every version's middleware page names, and answered where the pages
    begin; the thing asked is the option named by the word before its kind."""
    subject = subject_of(question, ["starlette"])
    assert "compresslevel" in subject.identifiers, subject
    pages = [_page(1, "GZipMiddleware compresses responses."),
             _page(2, "Use GZipMiddleware(app, minimum_size=500)."),
             _page(3, "GZipMiddleware takes compresslevel, from 1 to 9.")]
    assert subject.held_by(pages).identifiers == ("compresslevel",)


@pytest.mark.parametrize("question", ["When was the new option added to Client?",
                                      "When was the default argument added to Client?"])
def test_a_word_that_only_describes_a_kind_names_nothing(question):
    assert subject_of(question, ["httpx"]).identifiers == ()

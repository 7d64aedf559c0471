"""First appearance when the pages and the documents' own notes disagree (issue 34 item 5):
a note that *states* the change of X leads, the pages' finding is given beside it; a note that
only mentions X (X is what something was added *to*) does not. The probe's own reading of a
changelog (its gold) is checked here too."""

from __future__ import annotations

import pytest
from conftest import ROUTING_TODAY, indexed_app, md, pages_and_notes, write

from situated.chains.read.change_kind import Kind
from situated.chains.read.subject import Subject, subject_of
from situated.chains.versions.appearance import states
from situated.documents import Block, BlockKind, FilterFields
from situated.situation import Scope


def _block(text: str) -> Block:
    return Block(block_id="CL-s1", source_id="CL", kind=BlockKind.SECTION, title="Added",
                 path=("2.0", "Added"), text=text, link="/documents/CL#s1",
                 fields=FilterFields(source_id="CL"))


@pytest.mark.unit
@pytest.mark.parametrize(("line", "x", "kind", "said"), [
    ("- Add chunk_size parameter to iter_raw(), iter_bytes().", "chunk_size", Kind.ADDED, True),
    ("- Add chunk_size parameter to iter_raw(), iter_bytes().", "iter_bytes", Kind.ADDED, False),
    ("- Add repr to httpx.Cookies to display cookies.", "httpx.Cookies", Kind.ADDED, False),
    ("- Add httpx.HTTPTransport() and httpx.AsyncHTTPTransport() default transports.",
     "httpx.AsyncHTTPTransport", Kind.ADDED, True),
    ("- Support client.get(..., auth=None) to bypass authentication.", "client.get",
     Kind.ADDED, False),
    ("- Added support for monitoring progress with response.num_bytes_downloaded. (Pull #1)",
     "response.num_bytes_downloaded", Kind.ADDED, True),
    ("- The proxy_mode argument is now deprecated.", "proxy_mode", Kind.DEPRECATED, True),
    ("- The httpx.Limits(max_keepalive=...) argument is now deprecated.", "httpx.Limits",
     Kind.DEPRECATED, False),
    ("- The PoolLimits class had previously been deprecated in favour of Limits. It is now "
     "fully removed.", "PoolLimits", Kind.REMOVED, True),
    ("- The PoolLimits class had previously been deprecated in favour of Limits.",
     "PoolLimits", Kind.DEPRECATED, False),
    ("- The verbose httpx.Timeout(5.0, connect_timeout=60.0) style had previously been "
     "deprecated in favour of httpx.Timeout(5.0, connect=60.0). It is now fully removed.",
     "connect_timeout", Kind.REMOVED, True),
    ("- The verbose httpx.Timeout(5.0, connect_timeout=60.0) style had previously been "
     "deprecated in favour of httpx.Timeout(5.0, connect=60.0). It is now fully removed.",
     "httpx.Timeout", Kind.REMOVED, False),
    ("- Drop request.timer attribute, which was used internally.", "request.timer",
     Kind.REMOVED, True),
    ("- Drop request.timer attribute, which was used internally.", "request.timer",
     Kind.ADDED, False),
    ("- Добавлен параметр retry_limit для Client.", "retry_limit", Kind.ADDED, True),
    ("- Удалён метод Client.send_all.", "Client.send_all", Kind.REMOVED, True),
])
def test_a_note_states_a_change_only_of_what_the_verb_governs(line, x, kind, said):
    assert states(_block(line), Subject(identifiers=(x,)), kind) is said


_PAGES = {"1.0": "## Client\n\nClient(timeout) sends requests.\n",
          "2.0": "## Client\n\nClient(timeout) sends requests.\n",
          "3.0": "## Client\n\nClient(timeout, retry_limit) sends requests; `retry_limit` "
                 "caps the retries.\n"}
_CHANGELOG = ("# Changelog\n\n## 3.0\n\n### Fixed\n\n- Add retry_limit to the docs of Client.\n\n"
              "## 2.0\n\n### Added\n\n- Add `retry_limit` parameter to `Client`.\n\n"
              "## 1.5\n\n### Added\n\n- Add `timeout` argument to `Client`.\n")


@pytest.fixture
def lagging(tmp_path, embeddings):
    """Pages that first show `retry_limit` at 3.0, a changelog saying it was added in 2.0."""
    return pages_and_notes(tmp_path, embeddings, "CLI", _PAGES, _CHANGELOG)


@pytest.mark.integration
def test_a_note_that_states_the_release_leads_and_the_pages_finding_stands_beside(lagging,
                                                                                   model):
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(lagging, model=model, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "In which version was `retry_limit` added?",
                      "scope": Scope()})
    assert a.status.value == "answered" and not model.calls
    out = a.appearance
    assert (out.release, out.basis, out.pages_release, out.agrees) == ("2.0", "notes", "3.0",
                                                                       False)
    assert out.source_id == "CLI-LOG@2.0" and out.previous_release is None  # a changelog: per release
    assert a.answer.startswith("“retry_limit” was added in version 2.0, as the documents' own "
                               "notes say [")
    assert "By the pages themselves: “retry_limit” first appears in version 3.0 [" in a.answer
    assert {"CLI-LOG@2.0", "CLI-3.0", "CLI-2.0"} <= {c.source_id for c in a.citations}
    ru = chain.invoke({"question": "В какой версии появился `retry_limit`?", "scope": Scope()})
    assert ru.appearance.release == "2.0" and ru.answer.startswith(
        "«retry_limit» появилось в версии 2.0, как сказано в собственных заметках документов")


@pytest.mark.integration
def test_a_note_that_only_names_it_as_a_target_leaves_the_pages_answer(lagging, model):
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(lagging, model=model, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "In which version was `timeout` added?", "scope": Scope()})
    # "Add `timeout` argument to `Client`" states `timeout` at 1.5 although the 1.0 page
    # already shows it: the statement leads (pages lead and lag the code alike), 1.0 beside it
    assert (a.appearance.basis, a.appearance.release, a.appearance.pages_release) == (
        "notes", "1.5", "1.0")
    b = chain.invoke({"question": "In which version was `Client` added?", "scope": Scope()})
    # the changelog adds things *to* Client; it never states Client itself was added
    assert b.appearance.basis == "pages" and b.appearance.release == "1.0"


@pytest.mark.unit
def test_the_probe_reads_a_changelog_entry_as_adding_its_object_not_its_target(tmp_path):
    from situated.eval.release_probe import appearance_cases, changelog_endings, changelog_notes
    from situated.loaders.corpus import load_corpus

    log = ("# Changelog\n\n## 2.0\n\n### Added\n\n- Add `retry_limit` parameter to "
           "`Client.send_all()`.\n- Support `Client.get(..., auth=None)`.\n\n### Removed\n\n"
           "- The `PoolLimits` class had previously been deprecated. It is now fully removed.\n"
           "- The verbose `Timeout(5.0, connect_timeout=60.0)` style had previously been "
           "deprecated. It is now fully removed.\n- Drop `request_timer` attribute.\n\n"
           "## 1.5\n\n### Changed\n\n- The `pool_limits` argument is now deprecated.\n")
    write(tmp_path / "docs" / "changelog.md", md("CL", body=log, title="Changelog"))
    for v in ("1.0", "3.0"):
        write(tmp_path / "docs" / f"p-{v}.md", md(
            f"P-{v}", family="p", version=v, title="P", body="## Client\n\nUses PoolLimits, "
            "pool_limits, request_timer, Client.send_all() and retry_limit.\n"))
    docs = list(load_corpus([tmp_path / "docs"]).documents)
    assert [(str(v), x) for v, x in changelog_notes(docs)] == [("2.0", "retry_limit")]
    assert [(k, str(v), x) for k, v, x in changelog_endings(docs)] == [
        ("removed", "2.0", "PoolLimits"), ("removed", "2.0", "connect_timeout"),
        ("removed", "2.0", "request_timer"),
        ("deprecated", "1.5", "pool_limits")]
    cases = appearance_cases(docs, changelog_notes(docs), changelog_endings(docs))
    assert {(c.id, c.expect.appearance) for c in cases} == {
        ("rprobe.first.retry_limit", "2.0"), ("rprobe.removed.PoolLimits", "2.0"),
        ("rprobe.removed.request_timer", "2.0"), ("rprobe.deprecated.pool_limits", "1.5")}


@pytest.mark.unit
def test_a_subject_keeps_what_picks_candidates_out():
    """Words no candidate block holds are how the question asks; an identifier most
    candidates name is the context ("Node.js" beside `partialDeepStrictEqual`)."""
    def block(i, text):
        return Block(block_id=f"B{i}", source_id="A", kind=BlockKind.SECTION, title="Assert",
                     path=("Assert",), text=text, link="/documents/A", fields=FilterFields(
                         source_id="A"))

    blocks = [block(1, "Node.js assert.partialDeepStrictEqual(actual, expected) compares."),
              *(block(i, f"Node.js module {i} is stable.") for i in range(2, 6))]
    both = Subject(identifiers=("partialDeepStrictEqual", "Node.js"))
    assert both.held_by(blocks).identifiers == ("partialDeepStrictEqual",)
    words = Subject(words=("scheduled", "tasks", "possible"))
    held = words.held_by([block(1, "Scheduled tasks survive a worker restart.")])
    assert held.words == ("scheduled", "tasks") and held.said() == "scheduled tasks"
    assert words.held_by([block(1, "Nothing here.")]) is words  # none held: all stay
    # the asker's own words around the subject stand in parts of their own: "I'd appreciate
    # knowing | the first quickq | with scheduled tasks" looked for all of them (36 of the
    # first-appearance phrasings were answered "no version has …" so)
    wrapped = subject_of("I'd appreciate knowing the first quickq release with scheduled tasks.",
                         ["quickq"])
    tasks = [block(1, "Scheduled tasks survive a worker restart.")]
    assert wrapped.held_by(tasks).words == ("scheduled", "tasks")
    # … but two unheld words inside the subject's own part are what it asks
    cron = subject_of("Which quickq release added cluster failover for scheduled tasks?",
                      ["quickq"])
    assert cron.held_by(tasks) == cron
    # a product named at a sentence's end is where to look, never a part of its own
    told = subject_of("Мне сказали, что scheduled tasks пришло с каким-то релизом quickq. "
                      "С каким?", ["quickq"])
    assert not any("quickq" in part for part in told.parts)
    assert told.held_by([block(1, "quickq 1.0 runs tasks.")]).words != ("quickq",)


@pytest.mark.unit
def test_the_asker_needing_a_release_is_how_the_question_asks_not_its_subject():
    """"What httpx version do I need for zstd content decoding?" looked for "I need zstd
    content decoding" (the eleventh round of version phrasings)."""
    from situated.chains.read.subject import subject_of

    q = "What version do I need for zstd content decoding?"
    assert subject_of(q).words == ("zstd", "content", "decoding")


@pytest.mark.unit
@pytest.mark.parametrize(("question", "words"), [
    # how a first appearance is asked is left out of its subject ...
    ("What's the first quickq version where scheduled tasks works?",
     ("quickq", "scheduled", "tasks")),
    ("When did scheduled tasks become part of quickq?", ("scheduled", "tasks", "quickq")),
    ("Which version made retries possible?", ("retries",)),
    ("Какая первая версия, в которой есть retries?", ("retries",)),
    ("Какой релиз принёс retries?", ("retries",)),
    # ... and nothing the subject itself may say: a part, access
    ("When was the part parameter added?", ("part",)),
    ("Когда появился доступ по ключу?", ("доступ", "ключу")),
])
def test_a_first_appearance_subject_is_what_is_left_of_how_it_is_asked(question, words):
    from situated.chains.read.subject import subject_of

    assert subject_of(question).words == words


@pytest.mark.unit
@pytest.mark.parametrize(("question", "text", "held"), [
    # a flag's dashes are not a word joined to it: "No version … has “--lossless”" was said
    # of a guide that writes "Pass --lossless to keep every pixel" (issue 84)
    ("In which version was --lossless added?", "Pass --lossless to keep every pixel.", True),
    ("In which version was --lossless added?", "- Add `-lossless` to compress.", True),
    ("When was lossless added?", "Pass --lossless to keep every pixel.", True),
    # a hyphen joining two words still makes one word: "pre-scheduled" is not "scheduled"
    ("When were scheduled tasks added?", "Pre-scheduled tasks run first.", False),
    ("When were scheduled tasks added?", "Scheduled tasks run at night.", True),
    ("When was lossless added?", "A lossless-only mode.", False),
])
def test_a_subject_word_stands_after_a_flags_dashes(question, text, held):
    from situated.chains.read.subject import carries_line, subject_of

    assert carries_line(text, subject_of(question)) is held


_PIX_GUIDE = {"1.0": "## Compressing\n\nThe default quality is 85. Use `--quality` to set it.\n",
              "2.0": "## Compressing\n\nThe default quality is 80. Use `--quality` to set it. "
                     "Pass `--lossless` to keep every pixel.\n"}
_PIX_LOG = ("# Changelog\n\n## 2.0\n\n- The default quality is now 80 (was 85).\n\n"
            "## 1.1\n\n- Add `--lossless` to compress without any loss.\n\n## 1.0\n\n"
            "- First release.\n")


@pytest.fixture
def pixpack(tmp_path, embeddings):
    """A guide at 1.0 and 2.0, and notes that add `--lossless` in 1.1, which has no page."""
    return pages_and_notes(tmp_path, embeddings, "PIX", _PIX_GUIDE, _PIX_LOG, product="pixpack")


@pytest.mark.integration
def test_a_note_that_states_a_release_between_the_pages_leads(pixpack, model):
    """Issue 84: the pages first show `--lossless` in 2.0 and 1.0 lacks it; the notes say
    "Add `--lossless`" under 1.1, a release with no page. The note is inside the pages' window
    and more precise: it leads, and the pages' finding follows, all cited."""
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(pixpack, model=model, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "In which version was --lossless added?", "scope": Scope()})
    assert a.status.value == "answered" and not model.calls
    out = a.appearance
    assert (out.release, out.basis, out.pages_release, out.agrees) == ("1.1", "notes", "2.0",
                                                                       True)
    assert a.answer.startswith("“--lossless” was added in version 1.1, as the documents' own "
                               "notes say ["), a.answer
    assert "first appears in version 2.0 [" in a.answer and "disagrees" not in a.answer


@pytest.mark.integration
def test_a_note_after_the_first_version_that_has_it_is_no_disagreement(pixpack, model):
    """Issue 84: "“quality” first appears in version 1.0 … notes mention it under 2.0; that
    disagrees": a later note that names it says it is still there, which agrees with 1.0."""
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(pixpack, model=model, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "In which version was --quality added?", "scope": Scope()})
    assert a.appearance.release == "1.0" and a.appearance.basis == "pages", a.answer
    assert "disagrees" not in a.answer, a.answer


@pytest.mark.integration
def test_a_thing_described_in_other_words_is_found_by_the_note_that_names_it(pixpack, model):
    """Issue 84: "Since which version can I compress without losing any quality?" got "No
    version … has …": no page writes those words. The note "Add `--lossless` to compress
    without any loss" says it in other words and names it: the answer says so, then answers
    for `--lossless`. A description nothing says is still refused."""
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(pixpack, model=model, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "Since which version can I compress without losing any "
                                  "quality?", "scope": Scope()})
    assert a.status.value == "answered" and not model.calls, a.answer
    assert a.answer.startswith("Read as “--lossless”, the name the documents' own notes give "
                               "it. “--lossless” was added in version 1.1"), a.answer
    assert a.appearance.release == "1.1"
    b = chain.invoke({"question": "Since which version can I print a poster?", "scope": Scope()})
    assert b.status.value == "no_evidence", b.answer


@pytest.mark.integration
def test_a_refusal_quotes_the_words_as_the_asker_typed_them(pixpack, model):
    """"When was resize added?" got "No version … has “reside”": the search reads the word a
    slip away from one the word list lacks, but the reply quotes what was asked."""
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(pixpack, model=model, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "When was resize added?", "scope": Scope()})
    assert a.status.value == "no_evidence" and "“resize”" in a.answer, a.answer


@pytest.mark.integration
def test_a_described_thing_in_another_script_is_read_by_the_multilingual_model(quickq):
    """A Russian question is compared with the English note by multilingual-e5 over its floor
    across scripts, never by MiniLM, which scores an unrelated Russian question 0.65 and so
    would pass any note line over its sentence floor."""
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(quickq, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "Какое обновление quickq добавило scheduled jobs?",
                      "scope": Scope()})
    assert a.status.value == "answered" and a.answer.startswith("Понято как «queue.schedule»"), \
        a.answer
    assert a.appearance.release == "1.1.0", a.answer
    # the guide's own words, written in English inside the Russian question, are its subject
    # («Какое обновление | scheduled tasks»): found as written, no reading needed
    b = chain.invoke({"question": "Какое обновление quickq добавило scheduled tasks?",
                      "scope": Scope()})
    assert b.answer.startswith("«scheduled tasks» впервые появляется в версии 1.1.0"), b.answer


@pytest.mark.unit
@pytest.mark.parametrize(("line", "names"), [
    ("Add --lossless to compress without any loss.", ["--lossless"]),
    ("Add queue.schedule to run a task at a later time.", ["queue.schedule"]),
    # a flag of two letters or more; a one-letter one ("-q") names too little to look for
    ("Add -q and --retry_limit to Client.send_all.", ["--retry_limit", "Client.send_all"]),
    ("Add pixpack convert.", []),  # no backticks left, no flag, no identifier: nothing named
    ("Fix a crash when Redis restarts (#212).", []),
    ("Support well-known and non-ASCII hostnames.", []),  # a hyphenated word is no flag
    # httpx's changelog: a link made a code span is no name, the package after it is
    ("Support for the SOCKS5 proxy protocol `https://www.python-httpx.org/advanced/proxies/"
     "#socks` via the `socksio` package.", ["socksio"]),
    ("Add `pip install httpx[socks]` to the docs.", []),
])
def test_a_note_line_names_its_flags_and_identifiers_in_order(line, names):
    from situated.chains.versions.described import names_in_line

    assert names_in_line(line) == names


@pytest.mark.unit
@pytest.mark.parametrize(("cosines", "name"), [
    ((0.90, 0.80), None),  # the closest names nothing: the next line's name is not it
    ((0.70, 0.80), "httpx.Timeout"),
    ((0.70, 0.40), None),  # under the floor
])
def test_a_thing_described_is_read_only_as_the_name_the_closest_line_gives(cosines, name):
    """httpx's paraphrases: «Начиная с какой версии httpx мне доступен zstd content decoding?»
    was read as “httpx.Timeout”: the line that states zstd names nothing, so the closest line
    that named something won."""
    import numpy as np

    from situated.chains.versions.described import closest_name

    lines = ["Support for zstd content decoding using the python zstandard package is added.",
             "Add httpx.Timeout to configure every timeout at once."]
    assert closest_name(lines, np.asarray(cosines), 0.5) == name


_LATE_GUIDE = {v: "## Output\n\nPass `--verbose` to print every file as it is written.\n"
               for v in ("2.0", "3.0")}


@pytest.mark.integration
@pytest.mark.parametrize(("log", "older"), [
    (("# Changelog\n\n## 3.0\n\n- Faster startup.\n\n## 2.0\n\n- New output format.\n\n"
      "## 1.2\n\n- Fix `--verbose` output on Windows.\n\n## 1.0\n\n- First release.\n"),
     "; the release notes go back to version 1.0, so it may be older."),
    ("# Changelog\n\n## 3.0\n\n- Faster startup.\n\n## 2.5\n\n- New output format.\n", "."),
])
def test_a_thing_in_the_oldest_page_is_not_said_to_first_appear_there(tmp_path, embeddings,
                                                                      model, log, older):
    """httpx's pages begin at 0.13.3 and its notes at 0.6.0: "Since which version does httpx
    support HTTP/2?" got "“HTTP/2” first appears in version 0.13.3". Where the pages begin is
    not where a thing came: the answer says it is already there, how far back the notes go,
    and cites the oldest note that names it. Notes that begin with that release (a first
    release) still date it: `test_a_note_after_the_first_version_that_has_it…`."""
    from situated.chains.ask import build_ask_chain

    app = pages_and_notes(tmp_path, embeddings, "OUT", _LATE_GUIDE, log, product="outtool")
    chain = build_ask_chain(app, model=model, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "In which version was --verbose added?", "scope": Scope()})
    assert a.status.value == "answered" and not model.calls, a.answer
    assert a.answer.startswith("“--verbose” is already in version 2.0, the oldest version the "
                               f"pages show [OUT-2.0]({a.citations[0].link}){older}"), a.answer
    assert (a.appearance.release, a.appearance.basis, a.appearance.previous_release) == (
        "2.0", "pages", None)
    if "1.0" in older:  # the oldest note that names it, cited
        assert "mention it under 1.2 [OUT-LOG@1.2" in a.answer, a.answer
        ru = chain.invoke({"question": "В какой версии появился --verbose?", "scope": Scope()})
        assert ru.answer.startswith("«--verbose» есть уже в версии 2.0, самой ранней из версий "
                                    "страниц ["), ru.answer
        assert "заметки к выпускам начинаются с версии 1.0" in ru.answer, ru.answer


_NET_PAGES = {v: "## Client\n\nClient(timeout) sends requests.\n" for v in ("1.0", "2.0")}
_NET_LOG = ("# Changelog\n\n## 2.0\n\n- The deprecated `proxies` argument has now been removed."
            "\n\n## 1.5\n\n- The `proxies` argument is now deprecated.\n\n## 1.2\n\n- Support "
            "`get(..., proxies=...)` on top-level functions.\n\n## 1.1\n\n- Drop `proxies` "
            "parameter from the high-level API.\n")


@pytest.mark.integration
@pytest.mark.parametrize(("question", "lead"), [
    ("When did netlib deprecate the proxies argument?",
     "“proxies” was deprecated in version 1.5, as the documents' own notes say ["),
    # removed in 1.1, back in 1.2, removed for good in 2.0: the last removal answers
    ("When was the proxies argument removed from netlib?",
     "“proxies” was removed in version 2.0, as the documents' own notes say ["),
    ("Когда в netlib устарел аргумент proxies?",
     "«proxies» объявлено устаревшим в версии 1.5, как сказано в собственных заметках"),
])
def test_a_note_that_states_what_no_page_shows_leads_with_its_release(tmp_path, embeddings,
                                                                     model, question, lead):
    """"When did httpx deprecate the proxies argument?" got "The versions themselves do not
    show when “proxies” was deprecated", the 0.26.0 note that states it among the mentions;
    and a removal was dated by the first of two (0.7.6, where 0.28.0 removed it for good)."""
    from situated.chains.ask import build_ask_chain

    app = pages_and_notes(tmp_path, embeddings, "NET", _NET_PAGES, _NET_LOG, product="netlib")
    a = build_ask_chain(app, model=model, clock=lambda: ROUTING_TODAY).invoke(
        {"question": question, "scope": Scope()})
    assert a.status.value == "answered" and a.answer.startswith(lead), a.answer
    assert a.appearance.basis == "notes" and not model.calls


@pytest.mark.integration
@pytest.mark.parametrize(("pages", "gone"), [
    ({"1.0": "plain", "2.0": "watch", "3.0": "plain"}, "It is gone again from version 3.0 ["),
    ({"1.0": "plain", "2.0": "watch", "3.0": "plain", "4.0": "watch"}, None),  # back again
    ({"1.0": "plain", "2.0": "watch", "3.0": "watch"}, None),
])
def test_an_addition_the_pages_later_drop_says_where_it_is_gone(tmp_path, embeddings, model,
                                                               pages, gone):
    """httpx's `app` argument is in its oldest page and gone from 0.27.2 on: an answer to when
    it came said nothing of its being gone. Where the pages stop showing it for good, the
    answer says from which version, cited; where it comes back, nothing is said."""
    from situated.chains.ask import build_ask_chain

    text = {"plain": "## Output\n\nRun `tool go` to print every file.\n",
            "watch": "## Output\n\nRun `tool go` to print every file. Pass `--watch` to keep "
                     "watching the folder.\n"}
    app = pages_and_notes(tmp_path, embeddings, "W", {v: text[k] for v, k in pages.items()},
                          "# Changelog\n\n## 1.0\n\n- First release.\n", product="wtool")
    a = build_ask_chain(app, model=model, clock=lambda: ROUTING_TODAY).invoke(
        {"question": "In which version was --watch added?", "scope": Scope()})
    assert a.answer.startswith("“--watch” first appears in version 2.0 ["), a.answer
    assert (gone in a.answer) if gone else ("gone again" not in a.answer), a.answer


@pytest.mark.integration
def test_a_dated_family_says_where_its_versions_begin_and_where_a_thing_is_gone(tmp_path,
                                                                               embeddings):
    """The same two readings over versions dated, not released (a warranty by its start): a
    thing in the oldest version is already there, not added then; one the newest drops is
    gone again from that version."""
    from situated.chains.ask import build_ask_chain

    for sid, start, end, text in (
            ("W-2025", "2025-01-01", "2026-01-01", "The frame is covered for 5 years."),
            ("W-2026", "2026-01-01", "2027-01-01", "The frame is covered for 5 years. The "
                                                   "battery is covered for 2 years."),
            ("W-2027", "2027-01-01", None, "The frame is covered for 6 years.")):
        write(tmp_path / "docs" / f"{sid}.md", md(
            sid, f"## 1 Cover\n\n{text}\n", family="warranty", valid_from=start,
            title="Warranty", **({"valid_to": end} if end else {})))
    chain = build_ask_chain(indexed_app(tmp_path, embeddings), clock=lambda: ROUTING_TODAY)
    ask = lambda q: chain.invoke({"question": q, "scope": Scope()}).answer  # noqa: E731
    assert ask("Since when is the frame covered?").startswith(
        "“frame covered” is already in the version from 1 January 2025, the oldest version the "
        "pages show [")
    battery = ask("Since when is the battery covered?")
    assert battery.startswith("“battery covered” first appears in the version from 1 January "
                              "2026 ["), battery
    assert "It is gone again from the version from 1 January 2027 [" in battery, battery

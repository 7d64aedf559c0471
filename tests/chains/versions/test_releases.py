"""The release axis (issue 34): documents versioned by release, the situation's release, the
filter in every leg, the latest release by default, unknown releases, listings and existence,
changes between releases, first appearance, and "the version you asked about does not have it".
"""

from __future__ import annotations

import pytest
from conftest import ROUTING_TODAY, app_over, indexed_app, md, minimal_pdf, write
from hypothesis import given
from hypothesis import strategies as st
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from situated import releases
from situated.chains.read.products import ProductMatcher
from situated.chains.read.release import find_mentions, identifiers, read_release, strip_versions
from situated.errors import DocumentError
from situated.loaders.axes import superseded
from situated.loaders.corpus import load_corpus
from situated.situation import Scope, Situation

# -- the order and the ranges ------------------------------------------------------------------

_VERSIONS = st.builds(
    lambda rel, pre, post, dev: Version(
        ".".join(map(str, rel)) + (f"{pre[0]}{pre[1]}" if pre else "")
        + (f".post{post}" if post is not None and not pre else "")
        + (f".dev{dev}" if dev is not None and not pre and post is None else "")),
    st.lists(st.integers(0, 40), min_size=1, max_size=4),
    st.none() | st.tuples(st.sampled_from(["a", "b", "rc"]), st.integers(0, 9)),
    st.none() | st.integers(0, 9), st.none() | st.integers(0, 9))


@pytest.mark.unit
@given(st.lists(_VERSIONS, min_size=2, max_size=12, unique=True))
def test_keys_order_versions_as_pep440_does(vs):
    by_key = sorted(vs, key=releases.key)
    assert [releases.key(v) for v in by_key] == sorted(releases.key(v) for v in vs)
    distinct = {str(v): v for v in vs}  # 1.0 == 1.0.0: one release, one key
    ordered = sorted(distinct.values())
    keys = [releases.key(v) for v in ordered]
    assert keys == sorted(keys)
    assert all(a < b for a, b, x, y in zip(keys, keys[1:], ordered, ordered[1:], strict=False)
               if x != y)


@pytest.mark.unit
@pytest.mark.parametrize("spec", [">=2.1,<3.0", "==2.*", "~=2.1", "<2.0", ">1.0", "<=2.5",
                                  ">=0.13,<0.20"])
@given(v=_VERSIONS.filter(lambda v: not v.is_prerelease))
def test_a_range_admits_exactly_the_versions_its_specifier_contains(spec, v):
    lo, hi = releases.span(spec)
    assert (lo <= releases.key(v) < hi) == SpecifierSet(spec).contains(v)


@pytest.mark.unit
@pytest.mark.parametrize(("text", "version"), [
    ("v5.3.3", "5.3.3"), ("2.1", "2.1"), (None, None), ("", None), ("latest", None),
    ("1!2.0", None),  # an epoch is refused by `parse`: None here, never an error
])
def test_a_release_that_does_not_read_as_one_is_none(text, version):
    got = releases.parse_or_none(text)
    assert (str(got) if got is not None else None) == version



@pytest.mark.unit
def test_ranges_read_as_people_write_them_and_bad_ones_name_the_fix():
    assert releases.span("2.x") == releases.span("==2.*")
    assert releases.parse("v1.0.0-beta.1") == Version("1.0.0b1")
    with pytest.raises(releases.ReleaseError, match="not a version"):
        releases.parse("sixteen")
    with pytest.raises(releases.ReleaseError, match="covers no version"):
        releases.span(">=3.0,<2.0")
    with pytest.raises(releases.ReleaseError, match="cannot be a range"):
        releases.span("!=2.0")
    with pytest.raises(releases.ReleaseError, match="local parts"):
        releases.parse("1.0+local")


# -- mentions in a question --------------------------------------------------------------------

@pytest.mark.unit
@pytest.mark.parametrize(("question", "said"), [
    ("What is the stability of fs.stat in version 16.20.2?", "16.20.2"),
    ("Does v5.3.3 support retries?", "5.3.3"),
    ("What changed in 16.x?", "16.x"),
    ("How do I reset the pump on firmware 2.1?", "2.1"),
    ("Что нового в версии 2.1?", "2.1"),
    ("Is streaming supported in Node 18?", "18"),
    ("In release 1.0.0-beta.1, what is the default?", "1.0.0-beta.1"),
])
def test_the_forms_people_name_a_release_in(question, said):
    found = find_mentions(question, ProductMatcher({"Node"}))
    assert [m.asked.text for m in found if not m.bare] == [said]


@pytest.mark.unit
def test_a_bare_number_is_a_release_only_when_the_index_has_it():
    declared = [Version("0.23.3"), Version("0.24.1")]
    q = "What does the proxy section say in 0.23.3?"
    assert read_release(find_mentions(q), declared, []).version == "0.23.3"
    q = "What does section 4.2 say about proxies?"
    assert read_release(find_mentions(q), declared, []).version is None
    q = "Is 2.5 kg the limit?"  # a number the index has no release of: not a version at all
    reading = read_release(find_mentions(q), declared, [])
    assert reading.version is None and reading.unknown is None


@pytest.mark.unit
def test_a_series_is_its_latest_release_and_an_unknown_release_is_kept_as_a_fact():
    declared = [Version(v) for v in ("16.1.0", "16.20.2", "18.0.0", "18.2.1")]
    assert read_release(find_mentions("What about 16.x?"), declared, []).version == "16.20.2"
    matcher = ProductMatcher({"Node"})
    assert read_release(find_mentions("Is it in Node 18?", matcher), declared,
                        []).version == "18.2.1"
    reading = read_release(find_mentions("What does version 13.0.0 say?"), declared, [])
    assert reading.version is None and reading.unknown == "13.0.0"
    lo, hi = releases.span(">=13,<14")  # a document covering 13.x makes 13.0.0 a release
    assert read_release(find_mentions("What does version 13.0.0 say?"), declared,
                        [(lo, hi)]).version == "13.0.0"


@pytest.mark.unit
def test_the_search_text_loses_the_release_and_identifiers_are_found():
    assert strip_versions("How do I set a timeout in version 0.18.2?") == \
        "How do I set a timeout?"
    assert identifiers("What about `r.aiter_text` and trust_env, or AsyncHTTPTransport?") == \
        ["r.aiter_text", "trust_env", "AsyncHTTPTransport"]


# -- ingest ------------------------------------------------------------------------------------

def _release(sid: str, version: str | None, body: str, family: str = "pump-manual",
             **meta) -> str:
    extra = {"version": version} if version else {}
    return md(sid, body=body, family=family, title="Pump manual", **extra, **meta)


@pytest.mark.unit
def test_a_release_family_without_dates_is_accepted_and_a_repeated_release_is_refused(
        tmp_path):
    write(tmp_path / "a.md", _release("PM-1", "1.0", "## 1 Reset\n\nHold the button.\n"))
    write(tmp_path / "b.md", _release("PM-2", "2.0", "## 1 Reset\n\nPress twice.\n"))
    corpus = load_corpus([tmp_path])
    assert superseded([d.meta for d in corpus.documents]) == {"PM-1"}
    write(tmp_path / "c.md", _release("PM-3", "2.0.0", "## 1 Reset\n\nPress thrice.\n"))
    with pytest.raises(DocumentError, match="one document per release") as err:
        load_corpus([tmp_path])
    assert "b.md" in str(err.value) and "c.md" in str(err.value)


@pytest.mark.unit
@pytest.mark.parametrize(("meta", "problem"), [
    ({"version": "sixteen"}, "is not a version"),
    ({"applies_to_versions": '">=3,<2"'}, "covers no version"),
    ({"version": "1.5", "applies_to_versions": '">=2.0,<3.0"'}, "is not among the releases"),
    ({"versoin": "2.0"}, "misspelt 'version'"),
])
def test_bad_release_metadata_is_refused_naming_the_fix(tmp_path, meta, problem):
    write(tmp_path / "a.md", md("PM-1", family="pump-manual", **meta))
    with pytest.raises(DocumentError, match=problem):
        load_corpus([tmp_path])


# -- the filter, the chain ---------------------------------------------------------------------

DOCS = {
    "PM-1": ("1.0", None, "## 1 Reset\n\nHold the reset button for five seconds.\n"),
    "PM-2": ("2.0", None, "## 1 Reset\n\nPress the reset button twice.\n\n## 2 Turbo\n\n"
                          "Enable `turbo_mode` in the settings menu for faster pumping.\n"),
    "PM-3": ("2.1", None, "## 1 Reset\n\nPress the reset button twice, then wait.\n\n"
                          "## 2 Turbo\n\nEnable `turbo_mode` in the settings menu for faster "
                          "pumping.\n"),
    "FW-2": (None, ">=2.0,<3.0", "## 1 Firmware\n\nFirmware 2.x reads the seal sensor.\n"),
    "GEN": (None, None, "## 1 Safety\n\nAlways unplug the pump before opening it.\n"),
}


@pytest.fixture(scope="module")
def pump(tmp_path_factory, embeddings):
    root = tmp_path_factory.mktemp("releases")
    for sid, (version, covers, body) in DOCS.items():
        meta = {"applies_to_versions": f'"{covers}"'} if covers else {}
        family = "pump-manual" if sid.startswith("PM") else sid.lower()
        write(root / "docs" / f"{sid}.md", md(sid, body=body, family=family, product="Pump",
                                              title="Pump manual" if sid.startswith("PM")
                                              else sid, **({"version": version} if version
                                                           else {}), **meta))
    return indexed_app(root, embeddings)


@pytest.mark.integration
@pytest.mark.parametrize(("version", "latest", "expected"), [
    ("1.0", False, {"PM-1", "GEN"}),
    ("2.0", False, {"PM-2", "FW-2", "GEN"}),
    ("2.1", False, {"PM-3", "FW-2", "GEN"}),
    ("2.5", False, {"FW-2", "GEN"}),
    (None, True, {"PM-3", "FW-2", "GEN"}),  # the latest release (2.1), FW-2 covers it
    (None, False, set(DOCS)),  # listings and changes read every release
])
def test_every_compiled_form_admits_the_documents_of_the_asked_release(pump, version, latest,
                                                                       expected):
    index = pump.index
    flt = pump.snapshot().filter(Situation(version=version), Scope(), latest_release=latest)
    cols = index.columns
    by_mask = {str(s) for s in cols.source_ids[flt.group_mask(cols)]}
    by_admits = {sid for sid in DOCS if flt.admits(index.fields_of_source(sid))}
    got = index.collection.get(where=flt.chroma_where(), include=["metadatas"])
    by_chroma = {m["source_id"] for m in got["metadatas"]}
    assert by_mask == by_admits == by_chroma == expected


@pytest.fixture
def ask_pump(pump, model):
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(pump, model=model, clock=lambda: ROUTING_TODAY)
    return lambda q: chain.invoke({"question": q, "scope": Scope()})


@pytest.mark.integration
def test_the_asked_release_is_the_only_one_supplied_and_the_answer_says_it(ask_pump, model):
    a = ask_pump("How do I use the reset button in version 1.0?")
    assert a.status.value == "answered" and a.situation.version == "1.0"
    assert {e.source_id for e in a.evidence} <= {"PM-1", "GEN"}
    assert "PM-1" in {e.source_id for e in a.evidence}
    assert a.answer.startswith("For Pump, for version 1.0: ") or \
        a.answer.startswith("For version 1.0")
    a = ask_pump("How do I use the reset button?")  # no release: the latest, said so
    assert "PM-3" in {e.source_id for e in a.evidence}
    assert not {"PM-1", "PM-2"} & {e.source_id for e in a.evidence}
    assert "version 2.1 (the latest" in a.answer


@pytest.mark.integration
def test_an_unknown_release_is_reported_with_the_nearest_never_answered(ask_pump, model):
    a = ask_pump("How do I use the reset button in version 9.9?")
    assert a.status.value == "no_evidence" and not model.calls
    assert "9.9 is not among the versions of Pump" in a.answer and "2.1" in a.answer


@pytest.mark.integration
def test_a_release_that_lacks_the_named_feature_says_so_and_names_those_that_have_it(
        ask_pump, model):
    a = ask_pump("What does the manual say about `turbo_mode` in version 1.0?")
    assert a.status.value == "no_evidence" and not model.calls and not a.evidence
    assert "version 1.0" in a.answer and "2.0, 2.1" in a.answer


@pytest.mark.integration
@pytest.mark.parametrize(("question", "named", "start"), [
    ("Which versions exist?", ["1.0", "2.0", "2.1"], "Pump has 3 versions"),
    ("What is the latest version?", ["2.1"], "The latest version of Pump is 2.1"),
    ("What is the oldest version of Pump?", ["1.0"], "The oldest version of Pump is 1.0"),
    ("Does version 2.0 exist?", ["2.0"], "Yes: version 2.0"),
    ("Does version 3.0 exist?", [], "No. Version 3.0 is not among"),
    ("Какая последняя версия?", ["2.1"], "Последняя версия Pump: 2.1"),
])
def test_listing_and_existence_come_from_metadata_without_the_model(ask_pump, model, question,
                                                                    named, start):
    a = ask_pump(question)
    assert a.status.value == "answered" and a.releases == named and not model.calls
    assert a.answer.startswith(start)


@pytest.mark.integration
def test_what_changed_in_a_release_diffs_it_against_the_one_before_both_cited(ask_pump,
                                                                               model):
    a = ask_pump("What changed in the Pump manual in version 2.1?")
    assert a.status.value == "answered" and not model.calls
    assert [(c.from_version, c.to_version, c.to_release) for c in a.changes] == \
        [("PM-2", "PM-3", "2.1")]
    assert {"PM-2", "PM-3"} <= {c.source_id for c in a.citations}
    assert "Version 2.1 against 2.0" in a.answer and "—" not in a.answer


@pytest.mark.integration
def test_first_appearance_names_the_release_and_cites_it_and_the_one_before(ask_pump, model):
    a = ask_pump("In which version was `turbo_mode` added?")
    assert a.status.value == "answered" and not model.calls
    assert (a.appearance.release, a.appearance.previous_release) == ("2.0", "1.0")
    assert {"PM-1", "PM-2"} <= {c.source_id for c in a.citations}
    a = ask_pump("In which version was `warp_drive` added?")
    assert a.status.value == "no_evidence"


# -- the general defects (issue 34 item 7) -----------------------------------------------------

@pytest.mark.unit
def test_codes_of_any_length_with_digits_hyphens_or_underscores_are_codes():
    from situated.documents import extract_codes

    assert extract_codes("ERR_FS_FILE_TOO_LARGE, SPARK-31967, CVE-2024-3094 and E-417") == (
        "ERR_FS_FILE_TOO_LARGE", "SPARK-31967", "CVE-2024-3094", "E417")
    assert extract_codes("a well-known, long-standing rule") == ()  # no digit, no underscore
    # words joined and document ids are not codes: `unit-3-care`, `trust_env`, `WARR-R2`
    assert extract_codes("the unit-3-care page, trust_env and WARR-R2") == ()


@pytest.mark.unit
def test_a_question_without_its_long_codes_keeps_its_words_and_its_short_codes():
    from situated.documents import without_long_codes

    assert without_long_codes("What does SPARK-31967 fix?") == "What does fix?"
    assert without_long_codes("Is ERR_FS_FILE_TOO_LARGE in CVE-2024-3094?") == "Is in?"
    # a short code names a product or a row as often as the thing asked: it stays
    assert without_long_codes("What does error E-417 mean on the C-3?") == (
        "What does error E-417 mean on the C-3?")
    assert without_long_codes("SPARK-31967") == ""
    assert without_long_codes("SPARK-31967?") == ""  # punctuation alone reads nothing


@pytest.mark.integration
def test_the_exact_leg_tells_one_long_code_from_another(tmp_path, embeddings, model):
    from situated.chains.ask import build_ask_chain

    for sid, code, text in (("SPK-A", "SPARK-31967", "Shuffle files are kept after a "
                             "restart."), ("SPK-B", "SPARK-43242", "Shuffle blocks are "
                             "fetched in batches.")):
        write(tmp_path / "docs" / f"{sid}.md", md(sid, body=f"## 1 {code}\n\n{code}: {text}\n"))
    app = indexed_app(tmp_path, embeddings)
    chain = build_ask_chain(app, model=model, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "What does SPARK-31967 fix?", "scope": Scope()})
    assert a.status.value == "answered"
    assert [e.source_id for e in a.evidence][:1] == ["SPK-A"]
    assert "SPK-B" not in {e.source_id for e in a.evidence}
    a = chain.invoke({"question": "What does SPARK-99999 fix?", "scope": Scope()})
    assert a.status.value == "no_evidence" and "SPARK-99999" in a.answer


@pytest.mark.unit
def test_pdf_text_is_nfkc_normalised_so_ligatures_match_words(tmp_path):
    from situated.loaders.pdf import parse_pdf

    pdf = tmp_path / "notes.pdf"
    # 0xAE and 0xAF are the "fi" and "fl" ligature glyphs of the standard encoding
    pdf.write_bytes(minimal_pdf([["1 Release notes", "Bug \xaexes for the shu\xaff\xafe stage."]]))
    _, sections = parse_pdf(pdf)
    text = " ".join(e.text for s in sections for e in s.elements)
    assert "fixes" in text and "ﬁ" not in text and "ﬂ" not in text


@pytest.mark.integration
def test_release_probe_cases_come_from_the_releases_themselves_and_run_right(pump, model):
    from situated.chains.ask import build_ask_chain
    from situated.eval.metrics import score_case
    from situated.eval.release_probe import release_probe_cases

    docs = load_corpus([pump.settings.index_dir.parent / "docs"]).documents
    cases, _ = release_probe_cases(list(docs))
    kinds = {c.tags[1] for c in cases}
    assert {"at", "versions", "line", "exists", "lacking", "changes"} <= kinds
    assert all(c.tags[0] in ("dev", "test") for c in cases)
    at = next(c for c in cases if c.id == "rprobe.at.PM-1")
    assert at.expect.evidence == ["PM-1"] and set(at.expect.stale) == {"PM-2", "PM-3"}
    lacking = next(c for c in cases if c.tags[1] == "lacking")
    assert "turbo_mode" in lacking.question and lacking.expect.facts == ["2.0"]
    chain = build_ask_chain(pump, model=model, clock=lambda: ROUTING_TODAY)
    for case in cases:
        answer = chain.invoke({"question": case.question, "scope": Scope()})
        assert not score_case(case, answer, 0.0).failed, (case.id, answer.answer)


@pytest.mark.unit
def test_a_quoted_number_is_what_is_asked_about_not_the_release_the_asker_runs():
    declared = [Version(v) for v in ("0.13.3", "0.14.3")]
    q = "What does the index say about `0.14.*` in version 0.13.3?"
    assert read_release(find_mentions(q), declared, []).version == "0.13.3"
    q = "Is “0.14.3” mentioned in the 0.13.3 notes?"
    assert read_release(find_mentions(q), declared, []).version == "0.13.3"


@pytest.mark.integration
def test_an_answer_from_the_latest_release_says_how_far_back_its_text_stands(ask_pump):
    a = ask_pump("How do I enable turbo mode for faster pumping?")
    assert a.status.value == "answered" and "PM-3" in {e.source_id for e in a.evidence}
    assert a.answer.endswith("The same text stands in versions 2.0 to 2.1.")
    a = ask_pump("How do I use the reset button?")  # 2.1 reworded it: nothing to add
    assert "The same text stands" not in a.answer


@pytest.mark.integration
def test_a_pages_own_history_note_is_kept_and_leads_with_its_release(
        tmp_path, embeddings, model):
    from situated.chains.ask import build_ask_chain

    pages = {"1.0": "## fs.stat(path)\n\nReturns the file's status.\n",
             "2.0": "## fs.stat(path)\n\nReturns the file's status.\n\n## fs.lstat(path)\n\n"
                    "<!-- YAML\nadded: v1.5.0\nchanges:\n  - version: v2.0.0\n    description: "
                    "Follows no links.\n-->\n\nReturns the link's own status.\n"}
    for v, body in pages.items():
        write(tmp_path / "docs" / f"fs-{v}.md", md(f"FS-{v}", body=body, family="fs-api",
                                                   version=v, title="File system"))
    app = indexed_app(tmp_path, embeddings)
    block = next(b for b in app.index.blocks_of("FS-2.0") if "lstat" in b.title)
    assert "History: added in v1.5.0; changed in v2.0.0 (Follows no links.)." in block.text
    chain = build_ask_chain(app, model=model, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "In which version was `fs.lstat` added?", "scope": Scope()})
    # the note states 1.5.0, between the pages' 1.0 (without it) and 2.0: it leads
    out = a.appearance
    assert a.status.value == "answered" and (out.release, out.basis, out.pages_release) == (
        "1.5.0", "notes", "2.0")
    assert [n.release for n in out.notes] == ["1.5.0"] and out.agrees
    assert a.answer.startswith("“fs.lstat” was added in version 1.5.0"), a.answer


@pytest.mark.unit
def test_a_bad_release_in_a_situation_is_refused_naming_the_fix():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="is not a version"):
        Situation(version="sixteen")
    assert Situation(version="v1.0.0-beta.1").version == "1.0.0b1"


@pytest.mark.unit
def test_two_versions_the_release_key_cannot_tell_apart_are_refused(tmp_path):
    write(tmp_path / "a.md", _release("PM-1", "1.0a1", "## 1 Reset\n\nHold it.\n"))
    write(tmp_path / "b.md", _release("PM-2", "1.0a1.dev1", "## 1 Reset\n\nPress it.\n",
                                      family="other"))
    with pytest.raises(DocumentError, match="cannot be told apart"):
        load_corpus([tmp_path])


@pytest.mark.integration
def test_a_setting_asks_which_version_instead_of_reading_the_latest(pump, model):
    """`unnamed_release=clarify` (safety manuals: the wrong release is dangerous): a question
    that names no version is asked which version when the releases say different things, and
    answered when the text stands in every release; the reply of one version completes it."""
    from situated.chains.ask import build_ask_chain
    from situated.settings import UnnamedRelease

    app = app_over(pump.settings.model_copy(update={"unnamed_release": UnnamedRelease.CLARIFY}), pump.embeddings)
    chain = build_ask_chain(app, model=model, clock=lambda: ROUTING_TODAY)

    def ask(q, follows=None):
        return chain.invoke({"question": q, "scope": Scope(), "follows": follows})

    a = ask("How do I use the reset button?")  # 1.0, 2.0 and 2.1 say three things
    assert a.status.value == "clarify" and a.missing == ["version"] and not model.calls
    assert a.answer.endswith("Which version: 1.0, 2.0, 2.1?")
    a = ask("2.0", follows="How do I use the reset button?")
    assert a.status.value == "answered" and a.situation.version == "2.0"
    assert "PM-2" in {e.source_id for e in a.evidence}
    assert not {"PM-1", "PM-3"} & {e.source_id for e in a.evidence}
    from packaging.version import Version

    from situated.chains.say.release_words import ask_version_text
    from situated.chains.say.wording import Lang

    assert ask_version_text("pump-manual", [Version("1.0"), Version("2.0")], Lang.RU).endswith(
        "Какая версия: 1.0, 2.0?")


@pytest.mark.integration
def test_with_that_setting_a_text_every_release_has_needs_no_version(tmp_path, embeddings,
                                                                     model):
    from situated.chains.ask import build_ask_chain
    from situated.settings import UnnamedRelease

    body = "## 1 Safety\n\nAlways unplug the pump before opening its casing.\n"
    for sid, version in (("SM-1", "1.0"), ("SM-2", "2.0")):
        write(tmp_path / "docs" / f"{sid}.md", _release(sid, version, body,
                                                        family="safety-manual"))
    app = indexed_app(tmp_path, embeddings)
    app = app_over(app.settings.model_copy(update={"unnamed_release": UnnamedRelease.CLARIFY}),
                   embeddings)
    chain = build_ask_chain(app, model=model, clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "What must I do before opening the pump casing?",
                      "scope": Scope()})
    assert a.status.value == "answered", (a.status, a.answer)


@pytest.mark.unit
def test_a_listing_of_a_line_of_several_products_reads_as_english():
    from situated.chains.read.release import ReleaseReading
    from situated.chains.read.said import read_said
    from situated.chains.say.wording import Lang
    from situated.chains.versions.release_history import line_text, plural_line

    declared = [Version("1.0"), Version("2.0"), Version("3.0")]
    text, _ = line_text(read_said("Which versions exist?"), ReleaseReading(), declared, plural_line(Lang.EN),
                        Lang.EN)
    assert text == "The documents have 3 versions, oldest first: 1.0, 2.0, 3.0."
    text, _ = line_text(read_said("Which versions exist?"), ReleaseReading(), declared, "httpx", Lang.EN)
    assert text.startswith("httpx has 3 versions")


STARLETTE = [Version(v) for v in ("0.14.2", "0.21.0", "0.25.2", "0.25.4", "0.39.2", "0.41.3",
                                  "0.44.0", "0.47.3")]


@pytest.mark.unit
@pytest.mark.parametrize(("question", "lang", "text"), [
    # after one release it does not include; a listing never answered "not among the versions"
    ("Which starlette versions came out after 0.40.0?", "en",
     "starlette has 3 versions after 0.40.0 (of 8): 0.41.3, 0.44.0, 0.47.3."),
    # between two, the upper one a series (0.25.4 is "up to 0.25")
    ("list every starlette version between 0.20 and 0.25", "en",
     "starlette has 3 versions from 0.20 to 0.25 (of 8): 0.21.0, 0.25.2, 0.25.4."),
    ("Which versions are there since 0.44.0?", "en",
     "starlette has 2 versions from 0.44.0 on (of 8): 0.44.0, 0.47.3."),
    ("Which versions were released before 0.25?", "en",
     "starlette has 2 versions before 0.25 (of 8): 0.14.2, 0.21.0."),
    ("Which versions are newer than 0.47.3?", "en",
     "starlette has no version after 0.47.3 (8 versions: 0.14.2 to 0.47.3)."),
    ("Какие версии вышли после 0.40?", "ru",
     "Версии starlette после 0.40 (3 из 8): 0.41.3, 0.44.0, 0.47.3."),
])
def test_a_listing_of_part_of_a_line_lists_that_part(question, lang, text):
    """"Which starlette versions came out after 0.40.0?" was answered "No. Version 0.40.0 is
    not among the versions of starlette", and "… between 0.20 and 0.25" listed all 16."""
    from situated.chains.read.release import ReleaseReading
    from situated.chains.read.said import read_said
    from situated.chains.say.wording import Lang
    from situated.chains.versions.release_history import line_text

    got, shown = line_text(read_said(question), ReleaseReading(unknown="0.40.0"), STARLETTE,
                           "starlette", Lang(lang))
    assert got == text
    assert [str(v) for v in shown] == [x for x in text.split(": ")[-1].rstrip(".").split(", ")
                                       if x[:1].isdigit()] or not shown


@pytest.mark.integration
def test_a_page_the_latest_release_no_longer_has_is_not_called_the_latest(tmp_path, embeddings,
                                                                          model):
    """httpx's "Advanced" page was split at 0.27: "how can I make httpx wait longer …?" was
    answered "For version 0.26.0 (the latest; …)" while httpx's latest is 0.28.1. The lead says
    the page's last release and the latest of the pages that share its releases (a family
    numbered apart is another line: `test_hostile_scope`)."""
    from situated.chains.ask import build_ask_chain

    pages = {"ADV-1": ("1.0", "advanced", "## Timeouts\n\nThe default read timeout is five "
                                          "seconds; pass `timeout=` to wait longer.\n"),
             "ADV-2": ("2.0", "advanced", "## Timeouts\n\nThe default read timeout is five "
                                          "seconds; pass `timeout=` to wait longer.\n"),
             **{f"CLI-{n}": (f"{n}.0", "clients", "## Clients\n\nA client keeps its "
                                                  "connections open between requests.\n")
                for n in (1, 2, 3)}}  # a page of every release: its releases are the line's
    for sid, (version, family, body) in pages.items():
        write(tmp_path / "docs" / f"{sid}.md", md(sid, body=body, family=family,
                                                  product="Acme", version=version))
    chain = build_ask_chain(indexed_app(tmp_path, embeddings), model=model,
                            clock=lambda: ROUTING_TODAY)
    a = chain.invoke({"question": "What is the default read timeout?", "scope": Scope()})
    assert a.status.value == "answered" and {e.source_id for e in a.evidence} == {"ADV-2"}
    assert "For version 2.0 (the last with this page; the latest is 3.0; " in a.answer, a.answer
    b = chain.invoke({"question": "Does a client keep its connections open?", "scope": Scope()})
    assert "For version 3.0 (the latest; " in b.answer, b.answer


@pytest.mark.unit
@pytest.mark.parametrize("question", [
    "У тебя есть документация по версии 1.1.0 quickq?",  # «по»: "about", no bound
    "Какие версии совместимы с 1.1.0?",  # «с»: "with"
    "Is there documentation for 1.1.0?",
    "Which httpx versions came out after 2024?",  # a year, not a release
    "Which versions were released between 2020 and 2024?",
])
def test_a_release_named_without_a_bound_word_bounds_nothing(question):
    from situated.chains.read.line_words import line_words

    words = line_words(question)
    assert words.after is None and words.before is None

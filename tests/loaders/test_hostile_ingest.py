"""Hostile documents at ingest: every malformed field, key, date, JSON element or file is refused
naming the file and the fix, and a cosmetic limit degrades (keeps the text, warns) instead of
refusing."""

from __future__ import annotations

import json

import pytest
from conftest import indexed_app, md, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from situated import build_ask_chain
from situated.errors import DocumentError
from situated.loaders.corpus import load_corpus


def _problems(root) -> list[str]:
    with pytest.raises(DocumentError) as info:
        load_corpus([root])
    return info.value.problems


def _json_doc(tmp_path, sections, metadata=None):
    doc = {"metadata": metadata or {"source_id": "J-1"}, "sections": sections}
    (tmp_path / "j.json").write_text(json.dumps(doc), encoding="utf-8")


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=6))


_JSON = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(
        ["type", "text", "rows", "header", "scope", "caption", "image", "page", "title",
         "number", "elements", "x"]), inner, max_size=5)), max_leaves=12)


_ELEMENT = st.fixed_dictionaries({"type": st.sampled_from(
    ["paragraph", "slide", "table", "figure", "other"])}, optional={
    "text": _JSON, "rows": _JSON, "header": _JSON, "scope": _JSON, "caption": _JSON,
    "image": _JSON, "description": _JSON, "page": _JSON})


TODAY = __import__("datetime").date(2026, 11, 29)


@pytest.mark.unit
@pytest.mark.parametrize("link", [
    "/docs/k1)[Verify your account](http://evil.example/phish",
    "/docs/k2)[x](javascript:alert(document.cookie)//",
    "/docs/t1)![](http://evil.example/pixel.png?from=listing",
    "/docs/a b", "/docs/[x]",
])
def test_a_link_that_would_break_out_of_its_markdown_link_is_refused(tmp_path, link):
    write(tmp_path / "k.md", md("K1", link=json.dumps(link)))
    assert any("link" in p and "parentheses" in p for p in _problems(tmp_path))


@pytest.mark.unit
@pytest.mark.parametrize(("key", "value"), [
    ("family", '"plan\\n[evil]: //evil.example/steal"'),
    ("product", '["Orbit\\r\\nX"]'),
])  # identity fields refuse; a title or revision is shown as one line (below)
def test_a_one_line_field_with_a_line_break_or_control_character_is_refused(tmp_path, key,
                                                                             value):
    write(tmp_path / "a.md", md("A", **{key: value}))
    assert any(f"{key} " in p and "one line" in p for p in _problems(tmp_path))


@pytest.mark.unit
@pytest.mark.parametrize(("key", "value"), [
    ("valid_from", "0001-01-01T00:00:00+14:00"), ("valid_to", "9999-12-31T23:59:59-12:00"),
    ("applies_through", "9999-12-31"), ("valid_from", "1899-12-31"),
    ("recorded_at", "9999-12-31T00:00:00+00:00"),
])
def test_dates_outside_the_supported_range_are_refused_naming_the_file(tmp_path, key, value):
    write(tmp_path / "edge.md", md("EDGE", **{key: value}))
    assert any("edge.md" in p and f"{key} " in p and "outside the supported dates" in p
               for p in _problems(tmp_path))


@pytest.mark.unit
def test_a_word_too_long_for_wordpiece_counts_by_its_characters(embeddings):
    from situated.chains.budget import Budget
    from situated.chains.say.evidence import pack
    from situated.documents import Block, BlockKind, FilterFields

    word = "a" * 150_000
    assert embeddings.count_tokens(f"A {word} b") >= 150_000
    block = Block(block_id="B-1", source_id="B", kind=BlockKind.SECTION, text=f"Intro {word}",
                  link="/documents/B", fields=FilterFields(source_id="B"))
    assert pack([block], Budget(embeddings.count_tokens, 2984)) == []  # it does not fit


@pytest.mark.unit
@pytest.mark.parametrize(("element", "says"), [
    ({"type": "table", "header": ["a"], "rows": [None, 5]}, "rows must be lists"),
    ({"type": "table", "header": ["a"], "rows": [["x"]], "scope": {"a": 1}}, "scope must be text"),
    ({"type": "paragraph", "text": "\ud800 broken"}, "lone surrogate"),
    ({"type": "figure", "caption": ["x"]}, "caption must be text"),
    ("just a string", "an element must be an object"),
])
def test_a_bad_json_element_is_an_error_naming_the_file_and_the_element(tmp_path, element,
                                                                         says):
    _json_doc(tmp_path, [{"title": "A", "elements": [element]}])
    problems = _problems(tmp_path)
    assert any("j.json: sections[0].elements[0]" in p and says in p for p in problems), problems


@pytest.mark.unit
def test_json_metadata_is_held_to_the_metadata_cap(tmp_path):
    _json_doc(tmp_path, [{"title": "A", "elements": [{"type": "paragraph", "text": "x"}]}],
              {"source_id": "J-1", "notes": "x" * 2_000_000})
    assert any("metadata is 2,000,0" in p and "over the 64,000" in p for p in _problems(tmp_path))


@pytest.mark.unit
def test_json_sections_carry_their_heading_path(tmp_path):
    _json_doc(tmp_path, [{"number": "2", "title": "Fees",
                          "elements": [{"type": "paragraph", "text": "Ten euros."}]}])
    (doc,) = load_corpus([tmp_path]).documents
    assert doc.blocks[0].path == ("2 Fees",)


@pytest.mark.unit
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sections=st.lists(st.one_of(_JSON, st.fixed_dictionaries(
    {"title": _JSON, "elements": st.lists(st.one_of(_ELEMENT, _JSON), max_size=3)},
    optional={"number": _JSON, "page": _JSON})), max_size=3))
def test_any_json_document_loads_or_is_refused_naming_the_file(tmp_path, sections):
    """Fuzzed parsed-JSON documents: loaded, or refused with problems that name the file —
    never another exception."""
    _json_doc(tmp_path, sections)
    try:
        load_corpus([tmp_path])
    except DocumentError as exc:
        assert exc.problems and all("j.json" in p for p in exc.problems), exc.problems


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

"""Release documentation of several products read as their users ask (issue 81, items 1–3):
a product written loosely is bound when the question names or asks about releases, a name that
is no product is answered with the products there are (never from another product's line), a
notes-only product has a version line, and a listing shows every version."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import indexed_app, md, write
from release_corpus import NODE_VERSIONS, write_release_corpus

from situated import build_ask_chain
from situated.chains.read.products import ProductMatcher
from situated.errors import DocumentError
from situated.loaders.corpus import load_corpus
from situated.situation import Scope

PRODUCTS = ["Apache Spark", "Bootstrap", "Node.js"]


@pytest.fixture(scope="module")
def releases_app(tmp_path_factory, embeddings):
    root = tmp_path_factory.mktemp("release-products")
    write_release_corpus(root / "docs")
    return indexed_app(root, embeddings)


def _ask(app, question: str):
    return build_ask_chain(app, clock=lambda: dt.date(2026, 12, 6)).invoke(
        {"question": question, "scope": Scope()})


@pytest.mark.unit
@pytest.mark.parametrize(("question", "product"), [
    ("Is the system aware of bootstrap version 5.3.4?", "Bootstrap"),
    ("What changed regarding NumPy in Spark Release 3.4.4?", "Apache Spark"),
    ("Does NodeJs version 5.2.3 exist?", "Node.js"),
    ("is node.js 18.20.8 still documented?", "Node.js"),
    ("Does the Apache version 20.19.0 exist?", "Apache Spark"),
])
def test_a_product_written_loosely_is_bound_in_a_question_about_releases(question, product):
    assert ProductMatcher(PRODUCTS, as_written_loosely=True).find(question) == [product]


@pytest.mark.unit
@pytest.mark.parametrize("question", ["What is the buffer size?", "the spark plug is worn",
                                      "Does the node restart?"])
def test_without_a_release_asked_about_the_case_rule_stays(question):
    """"the buffer size" names no product "Buffer"; a word of a name needs a release cue."""
    assert ProductMatcher([*PRODUCTS, "Buffer"], as_written_loosely=True).find(question) == []


@pytest.mark.unit
def test_family_names_are_read_as_written():
    matcher = ProductMatcher(["Bootstrap releases", "Node.js Assert"])
    assert matcher.find("Does bootstrap version 5.3.4 exist?") == []


@pytest.mark.integration
def test_bootstrap_written_in_lower_case_is_bound_and_its_release_exists(releases_app):
    """Seen in an audit: "Version 5.3.4 is not among the versions of the documents (13: 11.15.0, …)"
    — the runtime's versions, with 5.3.4 a Bootstrap release on file."""
    a = _ask(releases_app, "Is the system aware of bootstrap version 5.3.4?")
    assert a.answer.startswith("Yes: version 5.3.4 is one of the 3 versions of Bootstrap")


@pytest.mark.integration
def test_spark_alone_is_bound_and_the_numpy_line_is_quoted(releases_app):
    a = _ask(releases_app,
             "What change was made regarding the NumPy dependency in Spark Release 3.4.4?")
    assert a.status.value == "answered" and a.situation.product == "Apache Spark"
    assert "SPARK-48710" in a.answer and "not among the versions" not in a.answer


@pytest.mark.integration
@pytest.mark.parametrize("question", ["Does Django version 5.0 exist?",
                                      "Does Django 5.3.4 exist?",
                                      "How many versions of Django are there?"])
def test_a_name_that_is_no_product_is_answered_with_the_products(releases_app, question):
    a = _ask(releases_app, question)
    assert a.status.value == "no_evidence"
    assert a.answer.startswith("No product named “Django” is among those you may read: "
                               "Apache Spark, Bootstrap and Node.js.")
    assert not any(v in a.answer for v in ("20.19.0", "5.3.4 is one"))


@pytest.mark.integration
def test_an_existence_reply_lists_all_13_versions(releases_app):
    """Seen in an audit: "(13: 11.15.0, 12.22.12, 13.14.0, …, 16.20.2, …)" left out two versions."""
    a = _ask(releases_app, "Does NodeJs version 13.0.0 exist?")
    assert a.answer.startswith("No. Version 13.0.0 is not among the versions of Node.js (13: "
                               + ", ".join(NODE_VERSIONS) + ")")
    assert "…" not in a.answer and "5.3" not in a.answer and "3.4." not in a.answer


@pytest.mark.integration
def test_a_notes_only_product_has_a_line_and_each_product_is_listed_apart(releases_app):
    a = _ask(releases_app, "Which versions exist?")
    assert a.answer == ("Apache Spark has 2 versions, oldest first: 3.4.3, 3.4.4. Bootstrap has 3 "
                        "versions, oldest first: 5.3.3, 5.3.4, 5.3.5. Node.js has 13 versions, "
                        "oldest first: " + ", ".join(NODE_VERSIONS) + ".")
    assert _ask(releases_app, "How many versions of bootstrap are there?").answer == (
        "Bootstrap has 3 versions, oldest first: 5.3.3, 5.3.4, 5.3.5.")


@pytest.mark.integration
def test_a_declared_alias_names_its_product(tmp_path, embeddings):
    docs = tmp_path / "docs"
    write(docs / "a.md", md("PG-16", "## 1 Limits\n\nThe default max_connections is 100.\n",
                            product="PostgreSQL", aliases="[Postgres, pg]", family="pg-config",
                            version="16.0"))
    write(docs / "b.md", md("PG-17", "## 1 Limits\n\nThe default max_connections is 120.\n",
                            product="PostgreSQL", family="pg-config", version="17.0"))
    write(docs / "c.md", md("MY-8", "## 1 Limits\n\nThe default max_connections is 151.\n",
                            product="MySQL", family="my-config", version="8.0"))
    app = indexed_app(tmp_path, embeddings)
    a = _ask(app, "What is the default max_connections in Postgres 16.0?")
    assert a.situation.product == "PostgreSQL" and "100" in a.answer


@pytest.mark.unit
def test_an_alias_of_two_products_or_of_a_document_of_two_products_is_refused(tmp_path):
    write(tmp_path / "a.md", md("A", product="PostgreSQL", aliases="[pg]"))
    write(tmp_path / "b.md", md("B", product="Pgpool", aliases="[pg]"))
    with pytest.raises(DocumentError, match="alias 'pg' names 'Pgpool'.*declares it for "
                                            "'PostgreSQL'"):
        load_corpus([tmp_path])
    write(tmp_path / "b.md", md("B", product="[Pgpool, PostgreSQL]", aliases="[pool]"))
    with pytest.raises(DocumentError, match="aliases \\['pool'\\] are other names of one product"):
        load_corpus([tmp_path])


CHROME = ("twbs / bootstrap", "Releases v", "Compare", "Assets")


@pytest.mark.integration
@pytest.mark.parametrize(("question", "line"), [
    ("What dependency updates were included in Bootstrap v5.3.4?", "#40931"),
    ("What was fixed in the selector engine in v5.3.3?", "#39642"),
])
def test_a_notes_question_quotes_the_line_asked_and_never_the_page_chrome(releases_app,
                                                                          question, line):
    """Seen in an audit: both quoted "twbs / bootstrap", "Releases v5.3.5", "Compare", "Assets"."""
    a = _ask(releases_app, question)
    assert line in a.answer and not any(c in a.answer for c in CHROME)
    assert a.answer.count("[BS-") == 1  # the line asked, not every line of the release


@pytest.mark.integration
def test_what_changed_lists_every_line_of_the_release_without_chrome(releases_app):
    a = _ask(releases_app, "What changed in Bootstrap 5.3.3?")
    assert all(k in a.answer for k in ("#39642", "#39700", "#39710"))
    assert not any(c in a.answer for c in CHROME)


@pytest.mark.integration
def test_chrome_stays_in_the_document_and_out_of_the_evidence(releases_app):
    index = releases_app.index
    text = "\n".join(b.text for b in index.blocks_of("BS-5.3.4"))
    assert all(c in text for c in CHROME)  # kept in the document
    versions = releases_app.snapshot().versions
    content = "\n".join(versions.content(b) for b in index.blocks_of("BS-5.3.4"))
    assert not any(c in content for c in CHROME) and "#40931" in content


@pytest.mark.unit
def test_template_lines_are_those_most_versions_repeat_with_their_numbers_masked():
    from situated.index.template import template_lines, without_template

    members = [[f"Intro\ntwbs / bootstrap\nReleases v5.3.{i}\nCompare", f"v5.3.{i}\n- item {i}"]
               for i in range(3)]
    template = template_lines(members)
    assert template == {"twbs / bootstrap", "releases #", "compare"}
    assert without_template("v5.3.1\nReleases v5.3.1\n- item 1", template) == "v5.3.1\n- item 1"
    assert template_lines(members[:2]) == frozenset()  # two versions say nothing of a template


@pytest.mark.integration
@pytest.mark.parametrize(("question", "line"), [
    ("What is the stability level of the assert.partialDeepStrictEqual method in 23.11.0?",
     "Stability: 1.2 - Release candidate"),
    ("What is the stability level of the assert.partialDeepStrictEqual method in 22.14.0?",
     "Stability: 1.0 - Early development"),
    ("What is the stability of assert.CallTracker in 19.9.0?", "Stability: 1 - Experimental"),
    ("What is the stability of assert.CallTracker in 20.19.0?", "Stability: 0 - Deprecated"),
    ("What is the stability rating of the node:assert module?", "Stability: 2 - Stable"),
    ("How is the assert module imported in 18.20.8?", "require('node:assert')"),
    ("What is the constructor signature of the Error class in 17.9.1?",
     "new Error(message[, options])"),
    ("What type is error.code?", "Type: {string}"),
    ("Какой уровень стабильности у assert.partialDeepStrictEqual в версии 23.11.0?",
     "Stability: 1.2 - Release candidate"),
])
def test_the_entry_the_question_names_answers_its_property_line_first(releases_app, question,
                                                                      line):
    """Seen in an audit: the Stability line of another entry ("Stability: 3 - Legacy: Use
    assert.notDeepStrictEqual() instead") was quoted for partialDeepStrictEqual."""
    a = _ask(releases_app, question)
    first = a.answer.split(" [NODE-", 1)[0]  # the first unit quoted, before its citation
    assert line in first, a.answer
    assert "Legacy" not in a.answer


@pytest.mark.unit
def test_entries_are_read_from_structure_on_another_shape():
    """A Python client's reference (the second shape): `Client.get(url, *, params=None)`
    entries with `Default:` lines, and an error catalogue with codes."""
    from situated.chains.say.entries import entry_focus, is_entry_heading, named_things
    from situated.chains.say.named_codes import focus

    evidence = [
        ("S1", ("Client › Client.get(url, *, params=None, timeout=DEFAULT)\n\n"
                "Sends a GET request.\n\nDefault: timeout is 5 seconds.")),
        ("S2", ("Client › Client.post(url, *, data=None, timeout=DEFAULT)\n\n"
                "Sends a POST request.\n\nDefault: timeout is 30 seconds.")),
        ("S3", "Overview\n\nThe client keeps connections open between requests."),
    ]
    assert named_things("What is the default timeout of Client.get?") == ["Client.get"]
    assert is_entry_heading(evidence[1][1].split("\n")[0])
    assert not is_entry_heading("Overview") and not is_entry_heading("2 Battery warranty")
    chosen = entry_focus("What is the default timeout of Client.get?", evidence)
    assert chosen.entries == {0} and chosen.others == {1}
    f = focus("What is the default timeout of Client.get?", evidence)
    assert f.lead[(0, "Default: timeout is 5 seconds.")] == 3
    assert (1, "Default: timeout is 30 seconds.") in f.dropped
    # a question naming no entry changes nothing
    assert entry_focus("What is the default timeout?", evidence).entries == frozenset()


@pytest.mark.integration
def test_when_was_x_added_takes_the_asked_thing_never_the_product(releases_app):
    """Seen in an audit: "“partialDeepStrictEqual, Node.js”" was looked for, and no version had it."""
    a = _ask(releases_app, "When was the assert method partialDeepStrictEqual added to "
                           "Node.js Assert?")
    # the page's history note ("Added in: v22.13.0") states a release between the pages: it
    # leads, and the pages' own finding follows
    assert a.answer.startswith("“partialDeepStrictEqual” was added in version 22.13.0"), a.answer
    assert "first appears in version 22.14.0" in a.answer
    assert "Node.js”" not in a.answer and "11.15.0" not in a.answer


@pytest.mark.integration
@pytest.mark.parametrize(("question", "said"), [
    (("When was new sample code for weakmap and weakset comparison added to Node.js "
      "Assert?"), "“sample code weakmap and weakset comparison”"),
    ("With what Node.js version were changes about OpenSSL error codes introduced?",
     "“OpenSSL”"),
])
def test_when_nothing_holds_the_asked_thing_the_reply_says_so_plainly(releases_app, question,
                                                                      said):
    """Seen in an audit: "“Node.js” first appears in version 11.15.0" — the product's first release."""
    a = _ask(releases_app, question)
    assert a.status.value == "no_evidence"
    assert a.answer == f"No version of the documents you may read has {said}."


@pytest.mark.integration
def test_a_first_appearance_walks_only_the_pages_that_document_it(releases_app):
    """EMFILE is in the error catalogue: the assert page of 16.20.2 is no "version before"."""
    a = _ask(releases_app, "In which version was EMFILE added?")
    assert a.answer.startswith("“EMFILE” first appears in version 17.9.1")
    assert "NODE-ASSERT" not in a.answer


@pytest.mark.integration
def test_a_name_in_the_singular_is_held_by_its_plural(tmp_path, embeddings):
    """Issue 84: "How long do I get to keep a DVD?" got "No document you may read mentions
    “DVD”" where the rules say "DVDs and Blu-ray discs are lent for 1 week"."""
    write(tmp_path / "docs" / "lending.md", md(
        "MPL-LEND", "## 1 Loan periods\n\nBooks are lent for 3 weeks. DVDs and Blu-ray discs "
        "are lent for 1 week.\n", title="Maple library lending rules"))
    app = indexed_app(tmp_path, embeddings)
    a = _ask(app, "How long do I get to keep a DVD?")
    assert a.status.value == "answered" and "1 week" in a.answer


@pytest.mark.unit
def test_the_cli_prints_sources_in_label_order(tmp_path):
    from io import StringIO

    from rich.console import Console

    from situated.chains.contract import Answer, Citation, Status
    from situated.cli_print import print_answer
    from situated.situation import Situation

    cites = [Citation(label=lab, source_id=f"D{lab}", section="1", link=f"/documents/D{lab}")
             for lab in ("S2", "S10", "S1", "S3")]
    out = StringIO()
    print_answer(Console(file=out, width=120), Answer.model_construct(
        status=Status.ANSWERED, answer="x", situation=Situation(), citations=cites, missing=[],
        changes=[], budget=None, versions=[], releases=[], appearance=None))
    text = out.getvalue()
    assert [text.index(f"DS{n} ") for n in (1, 2, 3, 10)] == sorted(
        text.index(f"DS{n} ") for n in (1, 2, 3, 10))

"""What the offline answer quotes and how it reads: a code block whole, the same words once, no
unit unrelated to the question after the first, escapes that survive a second pass, and a
release lead that names the release of the source the answer cites first."""

from __future__ import annotations

import re

import pytest

from situated.chains.say.citations import safe_text
from situated.chains.say.models import ExtractiveChatModel
from situated.chains.say.quoting import announces_code, with_list
from situated.loaders.neutralise import defang_links, neutralise
from situated.loaders.sentences import evidence_units, is_code
from situated.situation import Scope

STREAMING = ("4 Streaming\n\nYou can stream the body:\n```python\n"
             '>>> with httpx.stream("GET", "https://www.example.com") as r:\n'
             "...     for data in r.iter_bytes():\n...         print(data)\n```\n"
             "Streaming keeps memory flat.")


def test_the_product_named_is_not_what_makes_a_block_answer(ask):
    """Nothing in quickq's docs says how to install it: "How do I install quickq?" was
    answered with the 1.0.0 notes' "First release", because every block of the product holds
    its name. The product is the question's situation, not its topic (issue 84): refused, and
    no other release is said to answer it."""
    a = ask("How do I install quickq?")
    assert a.status.value == "no_evidence" and "versions" not in a.answer, a.answer
    assert ask("How many tasks does a quickq worker run in parallel?").status.value == \
        "answered"


@pytest.mark.unit
@pytest.mark.parametrize("text", [STREAMING, neutralise(STREAMING)])
def test_a_fenced_code_block_is_one_unit_with_its_lines_and_indentation(text):
    units = evidence_units(text)
    assert len(units) == 3, units
    lead, code, after = units
    assert lead == "You can stream the body:" and after == "Streaming keeps memory flat."
    assert is_code(code) and not is_code(lead)
    assert code.splitlines()[2] == "...     for data in r.iter_bytes():"  # indentation kept
    assert code.count("\n") == 4


@pytest.mark.unit
def test_a_fence_the_block_cut_left_open_is_still_one_unit():
    units = evidence_units("1 Setup\n\nRun this:\n```\npip install quickq\nquickq worker")
    assert units == ["Run this:", "```\npip install quickq\nquickq worker"]


@pytest.mark.unit
def test_the_lead_of_a_code_block_brings_it_and_its_label_follows_the_fence():
    m = ExtractiveChatModel(max_sentences=2)
    got = m.answer("How do I stream the body?", [("S1", STREAMING)])
    first = got.split("[S1]", 1)[0]
    assert first.startswith("You can stream the body:\n```python\n>>> with httpx.stream(")
    assert first.endswith("print(data)\n```\n"), got  # the fence closes on a line of its own
    assert "```." not in got and ":." not in got


@pytest.mark.unit
def test_the_same_words_in_two_blocks_are_quoted_once():
    page = "2 Timeouts\n\nclient = httpx.Client(timeout=None) disables every timeout."
    m = ExtractiveChatModel(max_sentences=4)
    got = m.answer("How do I disable every timeout?", [("S1", page), ("S2", page)])
    assert got.count("disables every timeout") == 1, got


def test_a_unit_unrelated_to_the_question_is_not_quoted_after_the_first(embeddings):
    guide = ("1 Installing\n\nInstall quickq with pip install quickq.\n"
             "It needs Python 3.10 or later and a Redis server.")
    notes = "1.0.0\n\n- First release."
    m = ExtractiveChatModel(embeddings=embeddings)
    ranked = {u.text: u for u in m.ranked("How do I install quickq?", [("S1", guide),
                                                                          ("S2", notes)])}
    assert ranked["- First release."].meaning < m.min_meaning  # 0.16 with MiniLM
    got = m.answer("How do I install quickq?", [("S1", guide), ("S2", notes)])
    assert got.startswith("Install quickq with pip install quickq. [S1]")
    assert "First release" not in got and "[S2]" not in got
    lenient = ExtractiveChatModel(embeddings=embeddings, min_meaning=0.0)
    assert "First release" in lenient.answer("How do I install quickq?",
                                             [("S1", guide), ("S2", notes)])


def test_the_unit_after_a_quoted_one_goes_on_from_it_and_is_kept(embeddings):
    returns = ("1 Returns\n\nReturn requests are filed by e-mail to the dealer with the receipt.\n"
               "The dealer confirms within 5 working days.")
    m = ExtractiveChatModel(embeddings=embeddings)
    question = "How do I file a return?"
    ranked = {u.text: u for u in m.ranked(question, [("S1", returns)])}
    assert ranked["The dealer confirms within 5 working days."].meaning < m.min_meaning
    assert m.answer(question, [("S1", returns)]) == (
        "Return requests are filed by e-mail to the dealer with the receipt. [S1] "
        "The dealer confirms within 5 working days. [S1]")


HOSTILE = ["x `code` y", "C:\\path\\to", "see https://www.example.com now", "\\\\`evil` `a b`",
           "mail me@x.org or evil.com/x", "[a](http://evil.example) ![i](x.png)", "``` ``",
           "\\\\\\`", "`evil.com`", "<b>x</b> `<i>`"]


@pytest.mark.unit
@pytest.mark.parametrize("text", HOSTILE)
def test_defanged_text_defangs_to_itself_and_opens_no_code_span_of_its_own(text):
    """An answer quotes evidence defanged at ingest and is made safe again: a second pass
    changes nothing (no `\\\\\\``), and every backtick is escaped unless it bounds an address's
    span."""
    once = safe_text(neutralise(text))
    assert safe_text(once) == once and defang_links(once) == once
    spans = re.findall(r"(?<!\\)`([^`]*)`", once)
    for span in spans:  # only an address is put in a span, never text of the document's
        assert " " not in span and "\\" not in span, (text, once)
    for m in re.finditer(r"(\\*)`", once):
        if len(m.group(1)) % 2 == 0:  # an unescaped backtick bounds an address span
            assert any(f"`{s}`" in once for s in spans), (text, once)


@pytest.fixture(scope="module")
def ask(quickq):
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(quickq)
    return lambda q: chain.invoke({"question": q, "scope": Scope()})


@pytest.mark.parametrize("question", [
    # the first three were led by another release than the one first cited
    "What is the default task timeout?", "How do I schedule a task for later?",
    "Tell me about quickq workers", "How many times is a failed quickq task retried?"])
def test_the_release_lead_names_the_release_of_the_first_source_cited(ask, question):
    """"From the release notes of version 1.0.0:" before a quote of the 2.0.0 guide named the
    first block the model was given, not what it quoted."""
    a = ask(question)
    assert a.status.value == "answered", a.answer
    first = a.citations[0].source_id
    notes = re.search(r"From the release notes of version ([\d.]+):", a.answer)
    latest = re.search(r"For version ([\d.]+) \(the latest", a.answer)
    assert notes or latest, a.answer
    if notes:
        assert first == f"QQ-LOG@{notes.group(1)}", a.answer
    else:
        assert first == f"QQ-GUIDE-{latest.group(1)}", a.answer


@pytest.mark.unit
def test_an_item_of_a_list_brings_its_lead_and_its_list_once():
    """The proxy answer quoted "1. The client connects to the proxy" alone, then again inside
    its lead's list."""
    body = ("7 Proxies\n\nIn general, the flow through a proxy is as follows:\n"
            "1. The client connects to the proxy.\n2. The proxy transfers data to the server.\n\n"
            "Proxies are configured per client.")
    m = ExtractiveChatModel(max_sentences=3)
    got = m.answer("Does the client connect to the proxy?", [("S1", body)])
    assert got.startswith("In general, the flow through a proxy is as follows: 1. The client "
                          "connects to the proxy. 2. The proxy transfers data to the server. "
                          "[S1]"), got
    assert got.count("The client connects") == 1
    plain = ("1 Colours\n\nFrames come in red.\n- Red.\n- Blue.")  # no colon: no lead
    assert ExtractiveChatModel(max_sentences=1).answer("Is blue offered?", [("S1", plain)]) == \
        "- Blue. [S1]"


@pytest.mark.unit
def test_an_answer_quotes_one_code_block_at_most():
    send = ("2 JSON\n\nSend JSON with the json argument:\n```python\nr = httpx.post(url, json=data)\n"
            "```\nJSON bodies are compact.")
    mock = ("9 Mock transports\n\n```python\nclass JSONTransport:\n    def handle(self, request):\n"
            "        return json_response(data)\n```")
    m = ExtractiveChatModel(max_sentences=4)
    got = m.answer("How do I send JSON data?", [("S1", send), ("S2", mock)])
    assert got.count("```python") == 1 and "json=data" in got and "[S2]" not in got, got
    assert "JSON bodies are compact. [S1]" in got


@pytest.mark.unit
def test_a_bracketed_reference_alone_ends_the_sentence_before_it():
    units = evidence_units("0.27.1\n\n- Support for zstd is added. Installable using "
                           "httpx[zstd]. (#3139)\n- Fix the app type (#3109)\n(a) b.")
    assert units == ["- Support for zstd is added.", "Installable using httpx[zstd]. (#3139)",
                     "- Fix the app type (#3109)", "(a) b."]


HTTP2 = ("2 Enabling HTTP/2\n\nWhen using the client, HTTP/2 support is not enabled by default, "
         "because HTTP/1.1 is a mature transport layer. It is possible that a future version "
         "may enable HTTP/2 support by default.\n\nIf you issue highly concurrent requests you "
         "might want to try our HTTP/2 support. You can do so by first making sure to install "
         "the optional HTTP/2 dependencies...\n\n```shell\n$ pip install httpx[http2]\n```\n\n"
         "And then instantiating a client with HTTP/2 support enabled:\n\n```python\n"
         "client = httpx.AsyncClient(http2=True)\n```\n\nHTTP/2 support is available on both "
         "Client and AsyncClient.")


@pytest.mark.unit
def test_a_unit_ending_in_an_ellipsis_brings_the_code_it_leads_into():
    units = evidence_units(HTTP2)
    at = next(i for i, u in enumerate(units) if u.endswith("dependencies..."))
    text, taken = with_list(units[at], at, units)
    assert taken == [at, at + 1] and "pip install httpx[http2]" in text, text
    assert not announces_code(units, 0)


def test_a_how_to_question_brings_the_code_steps_of_the_section_it_quotes(embeddings):
    """"How do I turn on HTTP/2?" was answered with why HTTP/2 is off by default and not how
    to turn it on: the section's two steps (install the extra, then the client argument) were
    ranked below the prose around them. A how-to question brings a quoted section's code
    steps, in the section's order."""
    m = ExtractiveChatModel(embeddings=embeddings, max_sentences=2)
    got = m.answer("How do I turn on HTTP/2?", [("S1", HTTP2)])
    assert "pip install httpx[http2]" in got and "http2=True" in got, got
    assert got.index("pip install") < got.index("http2=True")
    said = m.answer("Why is HTTP/2 not enabled by default?", [("S1", HTTP2)])
    assert "```" not in said, said  # a question that asks no way brings no steps

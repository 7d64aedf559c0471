"""Hostile text in answers and citations: links, images, bidirectional overrides, terminal
controls and backtracking shapes never reach an answer, a prompt or a terminal as anything but
text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from situated import build_ask_chain
from situated.chains.contract import Status

TODAY = __import__("datetime").date(2026, 11, 29)


_URLS = st.sampled_from(["http://evil.example/x", "//evil.example/nested", "https://evil.com",
                         "www.evil.org/p", "evil.com/steal", "javascript:alert(1)",
                         "a@evil.com", "/docs/k1", "mailto:x@evil.io"])


_WORDS = st.sampled_from(["the", "secure", "refund", "portal", "desk", "S1", "[S2]", "fee",
                          "\\", "`", "*", "_", "!", "\n", " ", "(", ")", "[", "]", ":"])


@st.composite
def _markdown_attack(draw) -> str:
    """Text a document (or a model) could write to get a live link or image into an answer:
    inline and reference links and images, nested and escaped brackets, link text across
    lines, autolinks, bare addresses, HTML, stray backticks — mixed with filler."""
    url, text = draw(_URLS), "".join(draw(st.lists(_WORDS, max_size=6)))
    forms = [f"[{text}]({url})", f"![{text}]({url})", f"[the [{text}] portal]({url})",
             f"\\[the \\[{text}\\] desk\\]({url})", f"[{text}\nmore]({url})",
             f"[evil]: {url}\n\n[portal][evil] ![t][evil] [evil]", f"<{url}>", url,
             f"`{url}", f"<a href=\"{url}\">x</a>", f"<img src=\"{url}\">",
             f"&#91;x&#93;({url})", f"[x]\t({url})"]
    parts = draw(st.lists(st.one_of(st.sampled_from(forms), _WORDS), min_size=1, max_size=6))
    return " ".join(parts)


def _rendered_links(markdown: str) -> tuple[list[str], bool]:
    from markdown_it import MarkdownIt

    html_text = MarkdownIt("gfm-like").render(markdown)
    return re.findall(r"<a href=\"([^\"]*)\"", html_text), "<img" in html_text


@pytest.mark.integration
def test_headings_neither_forge_nor_withhold_a_change_answer(heading_app):
    a = build_ask_chain(heading_app, clock=lambda: TODAY).invoke(
        {"question": "What changed in the Orbit plan-terms?"})
    assert a.status is Status.ANSWERED, a.answer
    assert "7 euros" in a.answer or "5 → 7" in a.answer
    # every link in the answer is a citation the parser made, of a block that was supplied
    supplied = {e.block_id for e in a.evidence}
    links = re.findall(r"\]\(([^)]*)\)", a.answer)
    assert links and all(link.startswith("/documents/T-") for link in links)
    assert {c.label for c in a.citations} <= {e.label for e in a.evidence}
    assert all(b in supplied for c in a.changes for s in c.sections
               for b, lab in zip(s.old_blocks + s.new_blocks, s.old_labels + s.new_labels,
                                 strict=False) if lab)
    sections = [s.section for c in a.changes for s in c.sections]
    assert sections and not any(re.search(r"\[S\d", s) for s in sections), sections


@pytest.mark.unit
def test_bidirectional_overrides_never_reach_a_prompt():
    from situated.loaders.neutralise import neutralise

    assert neutralise("invoice\u202etxt.exe and \u2067x\u2069") == "invoicetxt.exe and x"


@pytest.mark.unit
def test_terminal_controls_and_markup_never_reach_the_terminal():
    from situated.cli_print import term

    shown = term("Fees \x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\ [link=http://x]y[/link]"
                 " \x1b[2J\u202e")
    assert "\x1b" not in shown and "\u202e" not in shown
    from rich.console import Console

    console = Console(record=True, force_terminal=True, width=200)
    console.print(shown, highlight=False)
    assert "\x1b]8" not in console.export_text(styles=True)  # no terminal hyperlink


@pytest.mark.unit
@settings(max_examples=300, deadline=None)
@given(document=_markdown_attack(), reply=_markdown_attack())
def test_rendered_answers_hold_only_the_parsers_links_and_no_images(document, reply):
    """Evidence neutralised, a reply quoting it and adding Markdown of its own, through the
    citation parser, rendered as GFM with linkify: the only links are the parser's citations,
    and there is no image."""
    from situated.chains.contract import Evidence
    from situated.chains.say.citations import parse_citations
    from situated.loaders.neutralise import neutralise

    evidence = Evidence(label="S1", block_id="B-1", source_id="B", section="1", page=None,
                        tokens=1, text=neutralise(document))
    parsed = parse_citations(f"{evidence.text} {reply} [S1].", [evidence],
                             {"B-1": "/documents/B#section-1"})
    links, image = _rendered_links(parsed.answer)
    if parsed.status is Status.ANSWERED:  # (text that opens an indented code block: none)
        assert set(links) <= {"/documents/B#section-1"}, (parsed.answer, links)
    else:  # the reply cited a label it was not given ([S2]), or it is labels and no word
        # (`S1 S1 [S1].`): withheld, nothing of it shown
        assert "[S2]" in reply or "says nothing" in parsed.answer, parsed.answer
        assert links == [], parsed.answer
    assert not image, parsed.answer


@pytest.mark.unit
def test_a_label_after_an_exclamation_mark_is_a_link_never_an_image():
    from situated.chains.contract import Evidence
    from situated.chains.say.citations import parse_citations

    evidence = Evidence(label="S1", block_id="B-1", source_id="B", section="1", page=None,
                        tokens=1, text="Text.")
    parsed = parse_citations("[the [!S1] portal](http://evil.example/x) Look![S1]", [evidence],
                             {"B-1": "/documents/B#section-1"})
    links, image = _rendered_links(parsed.answer)
    assert parsed.status is Status.ANSWERED and not image, parsed.answer
    assert set(links) == {"/documents/B#section-1"}


@pytest.mark.unit
@pytest.mark.parametrize("text", ["[" * 20_000, "[a](" * 10_000, "Intro " + "a" * 150_000,
                                  "[a](" + "b" * 100_000, "a@" * 20_000])
def test_backtracking_shapes_are_neutralised_and_make_no_link(text):
    """Shapes that made the neutraliser's patterns backtrack once per position (their time:
    benchmarks/worst_cases.py neutralise) still come out with no link a renderer would make."""
    from markdown_it import MarkdownIt

    from situated.loaders.neutralise import neutralise

    out = neutralise(text)
    assert "<a href" not in MarkdownIt("gfm-like").render(out[:5000])
    assert len(out) >= len(text) // 2  # the text is kept, not dropped

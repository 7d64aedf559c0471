"""HTML inside Markdown (issue 83, G1): comments and history notes are read in one linear
pass. An unclosed comment is text, kept; a history note is found past other comments; an
unclosed note is no note, and its end is searched for within a window. How long the worst
shapes take, before beside now, is `benchmarks/worst_cases.py loader` (tests never time)."""

from __future__ import annotations

import pytest

from situated.loaders.html import MAX_NOTE_CHARS, history_note, html_text
from situated.loaders.markdown import parse_markdown

HEAD = "---\nsource_id: W\n---\n\n# Worst\n\nIntro.\n\n"


def _texts(body: str) -> list[str]:
    _, _, sections = parse_markdown(HEAD + body, "w.md")
    return [getattr(e, "text", "") for s in sections for e in s.elements]


@pytest.mark.unit
def test_an_unclosed_comment_of_160k_characters_is_kept_as_text():
    bomb = "<!-- YAML a\n" * (160_000 // 12)
    texts = _texts(bomb + "the last words\n")
    assert texts[0] == "Intro." and texts[-1].endswith("YAML a the last words")
    assert sum(t.count("YAML a") for t in texts) == 160_000 // 12


@pytest.mark.unit
def test_a_history_note_is_found_past_other_comments_and_an_unclosed_one_is_none():
    assert history_note("<!-- a comment --><!--YAML\nadded: v2.1\n-->") == \
        "History: added in v2.1."
    assert history_note("<!-- YAML\nadded: v2.1\n") is None
    assert history_note("<!-- YAMLish added: v2.1 -->") is None
    far = "<!-- YAML\nadded: v2.1\n" + "x" * MAX_NOTE_CHARS + "-->"
    assert history_note(far) is None  # past the searched window: no note, its text kept


@pytest.mark.unit
def test_html_text_drops_tags_comments_and_scripts_and_reads_entities():
    html = '<div class="a>b">one<br>two</div> <script>if (a < b) {}</script><!-- c -->three &amp; four'
    assert html_text(html) == "one two three & four"
    assert html_text("<p>kept <!-- unclosed comment") == "kept <!-- unclosed comment"

"""Real documents become blocks that fit: the Markdown parser's structures, the clause depths,
size-bounded splitting at a section's own structure, sentences, pieces and file limits."""

from __future__ import annotations

import random

import pytest
from conftest import md, minimal_pdf, write
from typer.testing import CliRunner

from situated.cli import app
from situated.errors import DocumentError
from situated.loaders.corpus import load_corpus, load_file
from situated.loaders.sentences import fit_text, split_sentences
from situated.loaders.sizing import BlockLimit, Unit, pack_units
from situated.loaders.structure import ClauseDepth, clause_marker

pytestmark = pytest.mark.unit


def load(tmp_path, body: str, limit: BlockLimit | None = None, name: str = "doc.md", **meta):
    path = write(tmp_path / name, md("DOC", body=body, **meta))
    return load_file(path, limit=limit)


def texts(doc) -> str:
    return "\n\n".join(b.text for b in doc.blocks)


# --- the parser -------------------------------------------------------------------------------

def test_nothing_inside_a_code_fence_is_structure(tmp_path):
    body = ("## 1 Setup\n\nRun this:\n\n```bash\n## not a heading\n| not | a table |\n"
            "|---|---|\n```\n\nThen restart.\n")
    doc = load(tmp_path, body)
    assert [b.kind.value for b in doc.blocks] == ["section"]
    assert [b.title for b in doc.blocks] == ["Setup"]
    assert "```bash\n## not a heading\n| not | a table |\n|---|---|\n```" in doc.blocks[0].text


def test_an_escaped_pipe_stays_inside_its_cell(tmp_path):
    body = "## 2 Codes\n\n| Code | Meaning |\n|---|---|\n| E-1 | on \\| off switch |\n"
    table = load(tmp_path, body).blocks[0]
    assert table.kind.value == "table"
    assert table.rows == (("E-1", "on | off switch"),)


def test_setext_and_bold_line_headings_start_sections_with_their_path(tmp_path):
    body = ("Terms of use\n============\n\nIntro.\n\nAccounts\n--------\n\n"
            "**1.1. Your account**\n\nKeep your password safe.\n\n"
            "**1.2. Closing it**\n\nYou may close it at any time.\n\n"
            "**Section 3**\n\nOther text.\n\n"
            "**Note:** this bold label opens a paragraph, it is not a heading.\n")
    doc = load(tmp_path, body)
    by_title = {b.title: b for b in doc.blocks}
    assert doc.meta.title == "Terms of use"
    assert by_title["Your account"].section == "1.1"
    assert by_title["Your account"].path == ("Accounts", "1.1 Your account")
    assert by_title["Your account"].text.startswith("Accounts › 1.1 Your account\n\n")
    assert by_title["Closing it"].path == ("Accounts", "1.2 Closing it")
    assert by_title["Section 3"].path == ("Accounts", "Section 3")
    assert "Note: this bold label opens a paragraph" in by_title["Section 3"].text


def test_a_bold_sentence_is_not_a_heading(tmp_path):
    body = "## 1 Rules\n\n**You must not resell the service. Doing so ends the contract.**\n"
    doc = load(tmp_path, body)
    assert [b.title for b in doc.blocks] == ["Rules"]


def test_nested_lists_keep_their_markers_and_depth(tmp_path):
    body = ("## 4 Returns\n\nYou may return an item when:\n\n- it is unused\n  - with tags\n"
            "  - in its box\n- it was bought online\n\n1. Ask for a label.\n2. Send it.\n")
    text = load(tmp_path, body).blocks[0].text
    assert "- it is unused\n\n  - with tags\n\n  - in its box\n\n- it was bought online" in text
    assert "1. Ask for a label.\n\n2. Send it." in text


def test_html_remnants_lose_their_tags_and_keep_their_text(tmp_path):
    body = ("## 5 Contact\n\n<div class=\"x\">Write to <b>support</b><br>any day</div>\n\n"
            "Call us<br/>now <!-- hidden note --> please.\n")
    text = load(tmp_path, body).blocks[0].text
    assert "Write to support any day" in text and "Call us now please." in text
    assert "<" not in text and "hidden note" not in text


def test_definition_lists_become_term_and_definition(tmp_path):
    body = "## 6 Definitions\n\nService\n: The online platform.\n\nUser\n: Anyone who signs up.\n"
    text = load(tmp_path, body).blocks[0].text
    assert "Service: The online platform." in text and "User: Anyone who signs up." in text


def test_an_admonition_reads_as_words_not_markup(tmp_path):
    """MkDocs' `!!! warning` reached answers as "!!! tip "Gotcha" In most cases …"."""
    body = ('## 8 Proxies\n\n!!! tip "Gotcha"\n    In most cases the proxy URL uses http://.\n\n'
            "!!! warning\n    Close every client.\n\n- !!! note\n    Items too.\n\n"
            "Three marks !!! inside a sentence stay.\n")
    text = load(tmp_path, body).blocks[0].text
    assert "Gotcha: In most cases the proxy URL uses http://." in text
    assert "Warning: Close every client." in text and "- Note: Items too." in text
    assert "Three marks !!! inside a sentence stay." in text and "!!! " not in text.replace(
        "marks !!! inside", "")


def test_figures_scopes_and_pages_keep_their_conventions(tmp_path):
    body = ("## 7 Parts\n\nScope: C-3 only\n\n| Part | Size |\n|---|---|\n| Bolt | M5 |\n\n"
            "![Figure 1. The bolt](bolt.png)\n\nFigure description: A bolt with a washer.\n\n"
            "Page: 3\n")
    doc = load(tmp_path, body)
    table = next(b for b in doc.blocks if b.kind.value == "table")
    figure = next(b for b in doc.blocks if b.kind.value == "figure")
    assert table.scope == "C-3 only" and table.rows == (("Bolt", "M5"),)
    assert (figure.caption, figure.image, figure.page) == ("Figure 1. The bolt", "bolt.png", 3)
    assert figure.description == "A bolt with a washer."


def test_unclosed_front_matter_is_an_error_with_the_fix(tmp_path):
    path = write(tmp_path / "open.md", "---\nsource_id: X\n\n## 1 A\n\nText.\n")
    with pytest.raises(DocumentError, match=r"open.md: front matter is not closed; add a line"):
        load_corpus([path])


# --- clauses ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, style", [
    ("1. First", "num1."), ("2) Second", "num1)"), ("1.1. Sub", "num2"), ("1.1.1 Deep", "num3"),
    ("(a) item", "alpha-lower()"), ("b) item", "alpha-lower)"), ("(iv) item", "roman-lower()"),
    ("i. item", "roman-lower."), ("A. Part", "alpha-upper."), ("• dot", "bullet"),
    ("(3) item", "(num)"),
])
def test_clause_markers(text, style):
    assert clause_marker(text).style == style


@pytest.mark.parametrize("text", ["2026 was a good year.", "No. 5 applies.", "Art. 5 GDPR.",
                                  "Mr. Smith agrees.", "I agree.", "Plain words."])
def test_words_and_years_are_not_clause_markers(text):
    assert clause_marker(text) is None


def test_clause_depth_nests_new_styles_and_closes_at_a_known_one():
    depth = ClauseDepth()
    seen = [depth.of(t) for t in ("Intro.", "1. Fees", "(a) monthly", "(b) yearly", "(i) net",
                                  "(c) other", "2. Taxes", "Plain continuation.")]
    assert seen == [0, 1, 2, 2, 3, 2, 1, 2]


def test_i_after_h_continues_the_alphabet():
    depth = ClauseDepth()
    [depth.of(f"({c}) x") for c in "abcdefgh"]
    assert depth.of("(i) x") == 1 and clause_marker("(i) x").style == "roman-lower()"


# --- sentences --------------------------------------------------------------------------------

def test_sentences_in_english_and_russian():
    assert split_sentences("Returns take 30 days, e.g. for unused items. See Sec. 4.2 for more. "
                           "Write to help@x.com. Done!") == [
        "Returns take 30 days, e.g. for unused items.", "See Sec. 4.2 for more.",
        "Write to help@x.com.", "Done!"]
    assert split_sentences("Возврат в течение 14 дней, т.е. до конца месяца. См. ст. 5 ниже. "
                           "Г. Иванов согласен.") == [
        "Возврат в течение 14 дней, т.е. до конца месяца.", "См. ст. 5 ниже.",
        "Г. Иванов согласен."]


def test_a_sentence_too_long_is_cut_at_clauses_then_words():
    sentence = ", ".join(f"clause number {i} of the very long sentence" for i in range(40)) + "."
    parts = fit_text(sentence, lambda t: len(t) <= 200)
    assert len(parts) > 1 and all(len(p) <= 200 for p in parts)
    assert " ".join(parts) == sentence  # nothing lost, nothing reordered
    words = fit_text("x" * 500, lambda t: len(t) <= 100)
    assert "".join(words) == "x" * 500 and all(len(w) <= 100 for w in words)


def _greedy_fit(text, fits):
    """The one-sentence-at-a-time cut `fit_text` made before it galloped (the reference)."""
    from situated.loaders.sentences import _CLAUSE_BREAKS, is_exception

    def cut(text, level=0):
        if fits(text) or level >= len(_CLAUSE_BREAKS):
            if fits(text):
                return [text]
            half = max(1, len(text) // 2)
            return cut(text[:half], level) + cut(text[half:], level)
        pieces = [p for p in _CLAUSE_BREAKS[level].split(text) if p]
        if len(pieces) == 1:
            return cut(text, level + 1)
        out, current = [], ""
        for p in pieces:
            candidate = f"{current} {p}" if current else p
            if fits(candidate):
                current = candidate
                continue
            if current:
                out.append(current)
            current, out = (p, out) if fits(p) else ("", out + cut(p, level + 1))
        return out + [current] if current else out

    if fits(text):
        return [text]
    out, current = [], []
    for sentence in split_sentences(text):
        if fits(" ".join([*current, sentence])):
            current.append(sentence)
            continue
        carried = []
        if len(current) > 1 and is_exception(sentence) and fits(f"{current[-1]} {sentence}"):
            carried = [current.pop()]
        if current:
            out.append(" ".join(current))
        if fits(" ".join([*carried, sentence])):
            current = [*carried, sentence]
        else:
            out, current = out + carried + cut(sentence), []
    return out + [" ".join(current)] if current else out


@pytest.mark.parametrize("seed", range(40))
def test_fit_text_cuts_exactly_where_adding_one_sentence_at_a_time_did(seed):
    """`fit_text` finds how many sentences fit by doubling and halving, not one at a time (a
    5 MB file spent most of its load re-measuring growing parts): the parts are the same."""
    rng = random.Random(seed)
    words = ["fee", "the", "is", "due", "monthly", "Unless", "However,", "item", "x" * 30,
             "plan;", "rate,", "a", "deposit", "refund"]
    sentences = []
    for _ in range(rng.randint(1, 60)):
        body = " ".join(rng.choice(words) for _ in range(rng.randint(1, 40)))
        sentences.append(body[:1].upper() + body[1:] + rng.choice([".", "!", "?"]))
    text = " ".join(sentences)
    size = rng.choice([40, 80, 150, 400, 1000])
    for fits in (lambda t: len(t) <= size, lambda t: len(t.split()) <= size // 8):
        assert fit_text(text, fits) == _greedy_fit(text, fits)


def test_pieces_stay_within_the_models_token_reach(tmp_path):
    words = len  # a counter where every character is a token: the reach binds before 700 chars
    limit = BlockLimit(tokens=5000, count=words, piece_tokens=120)
    doc = load(tmp_path, "## 1 Fees\n\n" + "The fee is due monthly. " * 30 + "\n", limit=limit)
    assert len(doc.pieces) > 1
    assert all(len(p.search_text) <= 120 for p in doc.pieces)


def test_pieces_never_exceed_what_the_embedding_model_reads(tmp_path):
    sentence = " and ".join(f"the provider may change fee {i}" for i in range(60)) + "."
    doc = load(tmp_path, f"## 1 Fees\n\n{sentence}\n")
    assert len(doc.pieces) > 1
    assert all(len(p.search_text) <= 700 for p in doc.pieces)


# --- splitting at structure -------------------------------------------------------------------

def _clause_section(n_clauses: int, words: int) -> str:
    clauses = []
    for i in range(1, n_clauses + 1):
        clauses.append(f"{i}. Clause {i} says " + "text " * words)
        clauses += [f"({c}) sub-clause {c} of clause {i}." for c in "ab"]
    return "## 9 Payment\n\nThese rules apply to payment.\n\n" + "\n\n".join(clauses) + "\n"


def test_an_oversized_section_is_split_between_top_level_clauses(tmp_path):
    limit = BlockLimit(tokens=260)
    doc = load(tmp_path, _clause_section(6, 40), limit=limit)
    assert len(doc.blocks) > 1
    assert all(limit.count(b.text) <= 260 for b in doc.blocks)
    for b in doc.blocks:  # every clause arrives with its own sub-clauses
        for i in range(1, 7):
            if f"{i}. Clause {i} says" in b.text:
                assert f"(a) sub-clause a of clause {i}." in b.text
                assert f"(b) sub-clause b of clause {i}." in b.text


def test_parts_say_which_part_they_are_and_link_to_their_own_anchor(tmp_path):
    doc = load(tmp_path, _clause_section(6, 40), limit=BlockLimit(tokens=260))
    n = len(doc.blocks)
    assert [b.part for b in doc.blocks] == list(range(1, n + 1))
    assert all(b.parts == n and b.section == "9" and b.title == "Payment" for b in doc.blocks)
    assert doc.blocks[0].text.startswith(f"9 Payment (part 1 of {n})\n\n")
    assert doc.blocks[1].text.startswith(f"9 Payment (part 2 of {n})\n\n")
    assert [b.link.rsplit("#", 1)[1] for b in doc.blocks] == \
        ["section-9"] + [f"section-9-part{k}" for k in range(2, n + 1)]
    assert {p.block_id for p in doc.pieces} == {b.block_id for b in doc.blocks}


def test_a_split_keeps_every_word(tmp_path):
    doc = load(tmp_path, _clause_section(6, 40), limit=BlockLimit(tokens=260))
    rebuilt = " ".join(" ".join(b.text.split("\n\n", 1)[1].split()) for b in doc.blocks)
    original = " ".join(load(tmp_path, _clause_section(6, 40), name="whole.md")
                        .blocks[0].text.split("\n\n", 1)[1].split())
    assert rebuilt == original


@pytest.mark.parametrize("exception", [
    "Unless the casing was opened, the rule applies.",
    "However, a refund is refused for used goods.",
    "Кроме случаев, когда корпус был вскрыт.",
    "За исключением товаров со скидкой.",
])
def test_an_exception_stays_with_the_rule_before_it(exception):
    limit = BlockLimit(tokens=120)
    rule = "A rule sentence that is rather long. " * 4
    units = [Unit("Short intro."), Unit(rule), Unit(exception), Unit(rule)]
    groups = pack_units("3 Heading", units, limit)
    assert [rule, exception] in groups
    assert all(limit.count("3 Heading (part 1 of 3)\n\n" + "\n\n".join(g)) <= 120
               for g in groups)


def test_a_list_item_too_large_is_split_inside_and_its_siblings_stay_whole():
    limit = BlockLimit(tokens=150)
    units = [Unit("You must:"), Unit("- " + "keep the receipt. " * 40, 1),
             Unit("- pay on time.", 1), Unit("- tell us of changes.", 1)]
    groups = pack_units("H", units, limit)
    flat = [t for g in groups for t in g]
    assert "- pay on time." in flat and "- tell us of changes." in flat
    assert all(limit.count("H (part 9 of 9)\n\n" + "\n\n".join(g)) <= 150 for g in groups)


def test_code_is_cut_between_lines_never_reflowed():
    limit = BlockLimit(tokens=100)
    code = "```\n" + "\n".join(f"line {i} = value" for i in range(60)) + "\n```"
    groups = pack_units("H", [Unit(code, code=True)], limit)
    assert len(groups) > 1
    assert "\n".join(g[0] for g in groups) == code


def test_tables_larger_than_the_limit_repeat_their_header_in_each_part(tmp_path):
    rows = "\n".join(f"| E-{i} | Error number {i} means the sensor {i} failed |" for i in range(80))
    doc = load(tmp_path, f"## 2 Codes\n\n| Code | Meaning |\n|---|---|\n{rows}\n",
               limit=BlockLimit(tokens=300))
    tables = [b for b in doc.blocks if b.kind.value == "table"]
    assert len(tables) > 1 and all(b.header == ("Code", "Meaning") for b in tables)
    assert sum(len(b.rows) for b in tables) == 80
    assert all(b.text.count("| Code | Meaning |") == 1 for b in tables)
    assert all(len(b.text) // 2 + 1 <= 300 for b in tables)


def test_ingest_counts_the_split_sections(tmp_path):
    write(tmp_path / "a.md", md("A", body=_clause_section(6, 40)))
    write(tmp_path / "b.md", md("B"))
    corpus = load_corpus([tmp_path], limit=BlockLimit(tokens=260))
    assert corpus.split_sections == 1


def _generated(size: int, seed: int = 7) -> str:
    """A Markdown file of `size` characters mixing every structure the parser knows."""
    rng = random.Random(seed)
    words = ["the", "provider", "may", "suspend", "access", "to", "the", "service", "unless", "the", "user", "pays", "the", "fee", "within", "thirty", "days", "of", "notice", "and", "except", "where", "law", "requires"]

    def sentence(n: int) -> str:
        return " ".join(rng.choice(words) for _ in range(n)).capitalize() + "."
    out, n = ["# Generated terms", ""], 0
    while sum(len(x) + 1 for x in out) < size:
        n += 1
        out += [[f"## {n} Section {n}", f"**{n}.1. Clause {n}**", f"Part {n}\n-------"][n % 3], ""]
        for k in range(rng.randint(3, 40)):
            r = rng.random()
            if r < 0.3:
                out += [f"({chr(97 + k % 26)}) " + " ".join(sentence(rng.randint(5, 40))
                                                           for _ in range(rng.randint(1, 6))), ""]
            elif r < 0.5:
                out += ["- " + sentence(20), "  - " + sentence(15), ""]
            elif r < 0.55:
                out += ["```", "## no heading", "| no | table |", "```", ""]
            elif r < 0.6:
                out += ["| A | B |", "|---|---|", "| x \\| y | " + sentence(10) + " |", ""]
            else:
                out += [" ".join(sentence(rng.randint(5, 60)) for _ in range(rng.randint(1, 12)))
                        , ""]
        if n % 50 == 0:
            out += [sentence(2000), ""]  # one sentence far over any limit
    return "\n".join(out)


@pytest.mark.slow
@pytest.mark.integration
def test_no_block_of_a_5_mb_file_is_over_the_limit(tmp_path, embeddings):
    from situated.settings import Settings

    settings = Settings()
    limit = BlockLimit(settings.block_limit, embeddings.count_tokens,
                       piece_tokens=embeddings.max_tokens)
    path = write(tmp_path / "big.md", md("BIG", body=_generated(4_900_000)))
    doc = load_corpus([path], limit=limit, max_mb=settings.max_file_mb).documents[0]
    assert len(doc.blocks) > 500
    assert max(embeddings.count_tokens(b.text) for b in doc.blocks) <= settings.block_limit
    assert max(len(p.search_text) for p in doc.pieces) <= 700
    assert max(embeddings.count_tokens(p.search_text) for p in doc.pieces) <= 254


# --- file limits ------------------------------------------------------------------------------

def test_a_file_over_the_size_limit_is_refused_naming_the_file_and_the_setting(tmp_path):
    write(tmp_path / "huge.md", md("HUGE", body="## 1 A\n\n" + "word " * 300_000))
    write(tmp_path / "small.md", md("SMALL"))
    with pytest.raises(DocumentError) as err:
        load_corpus([tmp_path], max_mb=1)
    message = str(err.value)
    assert "huge.md: 1.5 MB is over the per-file limit of 1 MB" in message
    assert "SITUATED_MAX_FILE_MB" in message and "small.md" not in message


def test_cli_ingest_refuses_a_file_over_the_limit_and_publishes_nothing(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    write(docs / "huge.md", md("HUGE", body="## 1 A\n\n" + "word " * 5_000))
    monkeypatch.setenv("SITUATED_MAX_FILE_MB", "0.01")
    index = tmp_path / "index"
    result = CliRunner().invoke(app, ["ingest", str(docs), "--index", str(index)])
    assert result.exit_code == 1
    assert "huge.md" in result.output and "per-file limit of 0.01 MB" in result.output
    assert not (index / "current").exists()


def test_a_long_pdf_page_is_split_at_its_clauses(tmp_path):
    lines = ["2 Seal replacement"]
    for n in range(1, 9):
        lines += [f"2.{n}. Step {n} of the seal replacement: " + "loosen the bolts evenly and",
                  "check the flange for wear before you continue with the next step."]
        lines += [f"({c}) sub-step {c} of step {n}." for c in "ab"]
    pdf = tmp_path / "seal.pdf"
    pdf.write_bytes(minimal_pdf([lines]))
    (tmp_path / "seal.pdf.meta.yaml").write_text("source_id: SEAL\n", encoding="utf-8")
    limit = BlockLimit(tokens=200)
    doc = load_file(pdf, limit=limit)
    assert len(doc.blocks) > 1 and all(b.page == 1 and b.section == "2" for b in doc.blocks)
    assert all(limit.count(b.text) <= 200 for b in doc.blocks)
    for b in doc.blocks:  # a step arrives with its wrapped line and its sub-steps
        for n in range(1, 9):
            if f"Step {n} of the seal" in b.text:
                assert "next step." in b.text.split(f"Step {n} of the seal")[1]
                assert f"(b) sub-step b of step {n}." in b.text


def test_a_table_row_larger_than_the_limit_continues_over_rows_that_fit(tmp_path):
    huge = " ".join(f"Sentence {i} explains what the sensor reports." for i in range(60))
    body = f"## 2 Codes\n\n| Code | Meaning |\n|---|---|\n| E-9 | {huge} |\n| E-10 | Short. |\n"
    limit = BlockLimit(tokens=300)
    tables = [b for b in load(tmp_path, body, limit=limit).blocks if b.kind.value == "table"]
    assert len(tables) > 1 and all(len(b.text) // 2 + 1 <= 300 for b in tables)
    rows = [r for b in tables for r in b.rows]
    assert all(r[0] == "E-9" for r in rows[:-1]) and rows[-1] == ("E-10", "Short.")
    assert " ".join(r[1] for r in rows[:-1]) == huge  # the meaning is continued, not cut off

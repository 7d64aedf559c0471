"""The question is read once: `prepare` makes one frozen record of what its words name and how
they ask (`chains.read.said`), and no step outside `chains/read/` reads its raw text again,
except those that hand it to a model (the proposal, the prompt, the reranker and the focus
model) and the search text of a question that says nothing but its situation."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import situated
from situated.chains.read.change_kind import Kind
from situated.chains.read.intent import LineFact
from situated.chains.read.products import ProductMatcher
from situated.chains.read.said import read_said

# (module under situated/chains, the function or method) that may read a question's text:
# each hands it to a model, or is the search text of a question that is only its situation
MODEL_FACING = {
    ("steps.py", "_proposer_input"),  # the model's proposal of the situation
    ("steps.py", "AskSteps.periods"),  # a comparison's periods, read again by the reader
    ("say/reply_steps.py", "ReplySteps.budget"),  # the reranker and the focus model
    ("say/reply_steps.py", "ReplySteps.prompt_input"),  # the answer prompt
    ("state.py", "Reading.query"),  # what the legs search where the question is only dates
}
RAW = {"text", "follows"}  # a question's raw fields
QUESTION_NAMES = {"q", "question"}


def raw_reads(chains: Path) -> list[str]:
    """Every read of a question's raw text in `chains` outside `read/` and `MODEL_FACING`, as
    "module:line function"."""
    out = []
    for path in sorted(chains.rglob("*.py")):
        rel = path.relative_to(chains).as_posix()
        if rel.startswith("read/"):
            continue
        for where, node in _attributes(ast.parse(path.read_text("utf-8"))):
            value = node.value
            owner = value.id if isinstance(value, ast.Name) else getattr(value, "attr", None)
            if node.attr in RAW and owner in QUESTION_NAMES and (rel, where) not in MODEL_FACING:
                out.append(f"{rel}:{node.lineno} {where}")
    return out


def _attributes(tree: ast.Module):
    """(the qualified name of the enclosing function, node) for each attribute read."""
    def walk(node: ast.AST, scope: str):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                yield from walk(child, f"{scope}.{child.name}" if scope else child.name)
            else:
                if isinstance(child, ast.Attribute):
                    yield scope, child
                yield from walk(child, scope)
    yield from walk(tree, "")


@pytest.mark.unit
def test_no_step_outside_the_reader_reads_the_raw_question():
    chains = Path(situated.__file__).parent / "chains"
    assert raw_reads(chains) == []


@pytest.mark.unit
def test_the_scan_finds_a_raw_read_where_one_is_written(tmp_path):
    """The scan itself can fail: a step that searches `q.text` is named."""
    (tmp_path / "versions").mkdir()
    (tmp_path / "versions" / "steps.py").write_text(
        "import re\n\nclass S:\n    def answer(self, q):\n"
        "        return re.search('added', q.text)\n", "utf-8")
    (tmp_path / "read").mkdir()
    (tmp_path / "read" / "reader.py").write_text("def f(q):\n    return q.text\n", "utf-8")
    assert raw_reads(tmp_path) == ["versions/steps.py:5 S.answer"]


@pytest.mark.unit
def test_the_record_holds_the_mentions_the_later_steps_read():
    matcher = ProductMatcher(["Node.js", "Bootstrap"], as_written_loosely=True)
    said = read_said("When was `assert.partialDeepStrictEqual` deprecated in Node.js 22.14.0?",
                     matcher)
    assert said.identifiers[0] == "assert.partialDeepStrictEqual"
    assert said.change_kind is Kind.DEPRECATED
    assert [m.asked.text for m in said.releases] == ["22.14.0"]
    listing = read_said("Is 5.3.5 the latest bootstrap version?", matcher)
    assert listing.line.named_end is LineFact.LATEST and listing.about_line
    assert read_said("List every release, newest first").line.newest_first
    since = read_said("What changed since 1 April 2026?")
    assert since.since == (True,)
    assert read_said("What changed on 1 April 2026?").since == (False,)


@pytest.mark.unit
def test_the_record_is_frozen_through():
    said = read_said("Which versions of quickq exist?")
    with pytest.raises(dataclasses.FrozenInstanceError):
        said.about_line = False  # type: ignore[misc]
    for f in dataclasses.fields(said):
        assert not isinstance(getattr(said, f.name), list | dict | set), f.name


@pytest.mark.unit
def test_a_cue_not_read_is_told_apart_from_no_cue():
    """`None` is a reading ("the words give no cue"); only `NOT_READ` reads the words again."""
    from situated.chains.read.extract import ExtractedSituation, NotRead, validate_extraction
    from situated.chains.read.intent import Intent

    def clock():
        import datetime as dt
        return dt.date(2026, 5, 1)

    q = "What changed in quickq?"
    matcher = ProductMatcher(["quickq"])
    asked = validate_extraction(ExtractedSituation(), q, matcher, clock,
                                cue=NotRead.NOT_READ)
    assert asked.intent is Intent.CHANGES
    told = validate_extraction(ExtractedSituation(), q, matcher, clock, cue=None)
    assert told.intent is Intent.AT


@pytest.mark.unit
def test_the_first_appearance_subject_is_read_by_the_reader_once():
    """What a first-appearance question asks about is a field of the reading
    (`Reading.subject`), read in `chains/read/`; the version steps read the record, never the
    question's words again (`subject_of` was called on the query in versions/)."""
    chains = Path(situated.__file__).parent / "chains"
    def called(node: ast.AST) -> str:
        func = getattr(node, "func", None)
        return getattr(func, "id", getattr(func, "attr", ""))

    calls = [f"{path.relative_to(chains)}:{node.lineno}" for path in sorted(chains.rglob("*.py"))
             if not path.relative_to(chains).as_posix().startswith("read/")
             for node in ast.walk(ast.parse(path.read_text("utf-8")))
             if isinstance(node, ast.Call) and called(node) == "subject_of"]
    assert calls == []
    from situated.chains.read.subject import subject_of

    subject = subject_of("When was the `proxy` argument added to httpx?", ["httpx"])
    assert subject.identifiers == ("proxy",) and subject.said() == "proxy"

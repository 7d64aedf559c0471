"""The words questions are read by live in per-language files (`situated/words/<lang>/`): a
third language is added by adding files, and no reading module writes a language's words in
its own code."""

from __future__ import annotations

import ast
import io
import json
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

import situated
from situated import words
from situated.chains.read.dates import find_dates
from situated.chains.read.intent import Intent, find_intent

ROOT = Path(situated.__file__).parent

# German, written only as files: a since cue, a change cue, the months, a date's ordinal dot and
# the cue of a purchase ("am 15. März 2026 gekauft")
GERMAN = {
    "since.py": 'SINCE_Q = r"\\bseit\\s+welcher\\s+(?:version|release)\\b"\n',
    "changes.py": 'CHANGES = r"\\bwas\\s+hat\\s+sich\\b[^.?!]{0,40}\\bge(?:ä|ae)ndert\\b"\n',
    "calendar.py": (
        'MONTHS = {m: i for i, m in enumerate(["januar", "februar", "märz", "april", "mai",\n'
        '    "juni", "juli", "august", "september", "oktober", "november", "dezember"], 1)}\n'
        'MONTH = "(?:" + "|".join(MONTHS) + r")(?!\\w)"\n\n\n'
        "def month_number(token: str) -> int | None:\n"
        '    return MONTHS.get(token.lower().rstrip("."))\n'),
    "dates.py": 'ORDINAL = r"\\."\nPURCHASE = r"gekauft|kaufte"\n',
}
QUESTIONS = ["Seit welcher Version gibt es geplante Aufgaben?",
             "Was hat sich in Version 1.1 geändert?",
             "Ich habe das Rad am 15. März 2026 gekauft. Gilt die Garantie?"]
READ = """
import json, sys
from situated.chains.read.dates import find_dates
from situated.chains.read.intent import find_intent
out = []
for q in json.loads(sys.argv[1]):
    intent = find_intent(q)
    out.append([intent.value if intent else None,
                [(str(m.value), m.role.value if m.role else None) for m in find_dates(q)]])
print(json.dumps(out))
"""


def _read_with(package: Path) -> list:
    done = subprocess.run([sys.executable, "-c", READ, json.dumps(QUESTIONS)], cwd=package.parent,
                          check=False, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(package.parent), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
def test_a_third_language_is_added_by_files_alone(tmp_path):
    copy = tmp_path / "situated"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__", "*.npz", "sample"))
    before = _read_with(copy)
    assert before == [[None, []], [None, []], [None, []]]
    (copy / "words" / "de").mkdir()
    (copy / "words" / "de" / "__init__.py").write_text('"""German."""\n')
    for name, text in GERMAN.items():
        (copy / "words" / "de" / name).write_text(text, encoding="utf-8")
    assert _read_with(copy) == [["since", []], ["changes", []],
                                [None, [["2026-03-15", "purchase_date"]]]]


@pytest.mark.unit
def test_the_languages_are_joined_english_first_then_russian():
    assert words.languages()[:2] == ("en", "ru")
    assert find_intent("Since which version can I schedule tasks?") is Intent.SINCE
    assert find_intent("С какой версии можно планировать задачи?") is Intent.SINCE
    [mention] = find_dates("куплен 15 марта 2026 года")
    assert str(mention.value) == "2026-03-15" and mention.role.value == "purchase_date"


@pytest.mark.unit
def test_a_class_no_language_writes_is_an_error_naming_the_file():
    with pytest.raises(LookupError, match=r"situated/words/en/since\.py"):
        words.alt("since", "NO_SUCH_CLASS")


@pytest.mark.unit
def test_either_gives_the_leftmost_match_of_any_language():
    either = words.Either("lines", "AFTER", re.IGNORECASE)
    found = either.search("Какие версии вышли после 1.0, and which came out after 2.0?")
    assert found is not None and found.group("v") == "1.0"
    found = either.search("which came out after 2.0, и какие после 3.0?")
    assert found is not None and found.group("v") == "2.0"


# the modules that read a question, and the Cyrillic their code may still hold: a character
# class of letters is script, not words (`words.letters` builds them), and none is left
READERS = ("chains/read", "chains/versions", "retrievers", "months.py")
# model-facing field descriptions, whose examples are in the asker's languages (what the
# structured-output model and a client read, never a rule that reads a question)
MODEL_FACING = {"chains/read/extract.py", "chains/read/question.py"}


def _cyrillic_in_code(path: Path) -> list[str]:
    """String literals of `path` with Cyrillic, docstrings left out (comments are not tokens
    of type STRING)."""
    source = path.read_text("utf-8")
    docs = {line for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)}
    return [f"{path.relative_to(ROOT)}:{tok.start[0]}"
            for tok in tokenize.generate_tokens(io.StringIO(source).readline)
            if tok.type == tokenize.STRING and re.search(r"[А-Яа-яЁё]", tok.string)
            and tok.start[0] not in docs]


@pytest.mark.unit
def test_no_module_that_reads_questions_writes_a_languages_words():
    found = [hit for reader in READERS
             for path in sorted((ROOT / reader).rglob("*.py") if (ROOT / reader).is_dir()
                                else [ROOT / reader])
             if path.relative_to(ROOT).as_posix() not in MODEL_FACING
             for hit in _cyrillic_in_code(path)]
    assert found == []


@pytest.mark.unit
def test_a_language_file_that_fails_to_import_is_an_error_not_an_absent_class(monkeypatch):
    """Only the concern module itself may be missing (a language that does not write it); a
    language file whose own import fails must say so, not silently read no words."""
    import importlib

    def broken(name: str):
        raise ModuleNotFoundError("No module named 'somewhere'", name="somewhere")

    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="somewhere"):
        words._module.__wrapped__("en", "since")
    monkeypatch.setattr(importlib, "import_module", lambda name: (_ for _ in ()).throw(
        ModuleNotFoundError(f"No module named {name!r}", name=name)))
    assert words._module.__wrapped__("xx", "since") is None

"""Ingest validation: every rejected case names the file(s) and the fix; nothing is published."""

from __future__ import annotations

import pytest
from conftest import md, write
from typer.testing import CliRunner

from situated.cli import app
from situated.errors import DocumentError
from situated.loaders.corpus import load_corpus

pytestmark = pytest.mark.unit

CASES = {
    "missing_source_id": ({"a.md": md(None)}, [r"a\.md: missing source_id"]),
    "duplicate_source_id": (
        {"a.md": md("X"), "b.md": md("X")},
        [r"duplicate source_id 'X' in .*a\.md and .*b\.md"],
    ),
    "unreadable_date": (
        {"a.md": md("A", valid_from="2026-02-30")},
        [r"a\.md: unreadable date valid_from: '2026-02-30'; write an ISO date"],
    ),
    "empty_period": (
        {"a.md": md("A", valid_from="2026-01-01", valid_to="2026-01-01")},
        [r"a\.md: valid_to 2026-01-01 is not after valid_from 2026-01-01"],
    ),
    "both_ends": (
        {"a.md": md("A", valid_to="2026-01-01", applies_through="2025-12-31")},
        [r"a\.md: both valid_to and applies_through are given; keep one"],
    ),
    "overlap": (
        {
            "r1.md": md("R1", family="w", product="C-3", valid_from="2025-01-01",
                        valid_to="2026-02-01"),
            "r2.md": md("R2", family="w", product="C-3", valid_from="2026-01-01"),
        },
        [r"overlapping versions of family 'w' for product 'C-3': .*r1\.md .* and .*r2\.md"],
    ),
    "overlap_with_any_product_version": (
        {
            "r1.md": md("R1", family="w", valid_from="2025-01-01"),
            "r2.md": md("R2", family="w", product="C-3", valid_from="2026-01-01"),
        },
        [r"overlapping versions of family 'w'.*r1\.md.*r2\.md"],
    ),
    "bad_valid_for": (
        {"a.md": md("A", valid_for="delivery_date")},
        [r"valid_for must be one of purchase_date, request_date, as_of, got 'delivery_date'"],
    ),
    "no_front_matter": ({"a.md": "# Just text\n"}, [r"a\.md: no YAML front matter"]),
    # a misspelt permission key would be kept as ordinary metadata and make the document
    # public: it fails closed, naming the key it looks like
    "misspelt_access": ({"a.md": md("A", acess="[hr]")},
                        [r"a\.md: key 'acess' looks like a misspelt 'access'.*write `access:`"]),
    "misspelt_assets": ({"a.md": md("A", assests="[P-4]")},
                        [r"a\.md: key 'assests' looks like a misspelt 'assets'"]),
    "misspelt_valid_for": ({"a.md": md("A", valid_form="as_of")},
                           [r"key 'valid_form' looks like a misspelt 'valid_for'"]),
    "folded_valid_from": ({"a.md": md("A", **{"Valid-From": "2026-01-01"})},
                          [r"key 'Valid-From' looks like a misspelt 'valid_from'"]),
}


def test_keys_unlike_a_permission_key_stay_ordinary_metadata(tmp_path):
    write(tmp_path / "a.md", md("A", audience="[hr]", lang="en", address="Main St",
                                recorded_commit="5813aa8", author="Ann"))
    (doc,) = load_corpus([tmp_path]).documents
    assert doc.meta.access == () and doc.meta.extra["audience"] == ["hr"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_bad_corpus_is_rejected_naming_files_and_fix(tmp_path, name):
    files, patterns = CASES[name]
    for fname, text in files.items():
        write(tmp_path / fname, text)
    with pytest.raises(DocumentError) as info:
        load_corpus([tmp_path])
    for pattern in patterns:
        assert any(__import__("re").search(pattern, p) for p in info.value.problems), (
            pattern, info.value.problems)


def test_all_problems_are_reported_at_once(tmp_path):
    write(tmp_path / "a.md", md(None))
    write(tmp_path / "b.md", md("B", valid_from="yesterday"))
    with pytest.raises(DocumentError) as info:
        load_corpus([tmp_path])
    assert len(info.value.problems) == 2


def test_gap_between_versions_is_a_warning_not_an_error(tmp_path):
    write(tmp_path / "r1.md", md("R1", family="w", product="C-3", valid_from="2025-01-01",
                                 applies_through="2025-06-30"))
    write(tmp_path / "r2.md", md("R2", family="w", product="C-3", valid_from="2025-09-01"))
    corpus = load_corpus([tmp_path])
    assert len(corpus.documents) == 2
    (warning,) = corpus.warnings
    assert "gap in family 'w'" in warning and "2025-07-01 to 2025-08-31" in warning


def test_adjacent_versions_are_neither_overlap_nor_gap(tmp_path):
    write(tmp_path / "r1.md", md("R1", family="w", valid_from="2025-01-01",
                                 applies_through="2025-12-31"))
    write(tmp_path / "r2.md", md("R2", family="w", valid_from="2026-01-01"))
    assert load_corpus([tmp_path]).warnings == ()


def test_cli_ingest_of_overlapping_versions_exits_nonzero_names_both_and_publishes_nothing(
    tmp_path,
):
    docs = tmp_path / "docs"
    write(docs / "r1.md", md("R1", family="w", product="C-3", valid_from="2025-01-01"))
    write(docs / "r2.md", md("R2", family="w", product="C-3", valid_from="2026-01-01"))
    index = tmp_path / "index"
    result = CliRunner().invoke(app, ["ingest", str(docs), "--index", str(index)])
    assert result.exit_code == 1
    assert "r1.md" in result.output and "r2.md" in result.output
    assert "nothing was published" in result.output
    assert not (index / "current").exists()


def test_cli_ingest_of_missing_path_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(app, ["ingest", str(tmp_path / "nope"), "--index",
                                      str(tmp_path / "i")])
    assert result.exit_code == 1 and "no such file or directory" in result.output


def test_cli_ingest_of_an_unsupported_file_type_names_it_and_the_fix(tmp_path):
    bad = write(tmp_path / "notes.txt", "plain text")
    result = CliRunner().invoke(app, ["ingest", str(bad), "--index", str(tmp_path / "i")])
    assert result.exit_code == 1
    assert "unsupported file type '.txt'" in result.output and ".md, .markdown, .pdf, .json" in (
        result.output)
    assert not (tmp_path / "i" / "current").exists()

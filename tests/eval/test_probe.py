"""Temporal probe cases from a versioned corpus, the Open Terms Archive converter, and the whole
chain answering the generated cases on a real index (MiniLM, Chroma, bm25s)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import app_over
from typer.testing import CliRunner

from situated.chains.ask import build_ask_chain
from situated.cli import app as cli
from situated.eval.cases import load_cases
from situated.eval.metrics import score_case
from situated.eval.probe import probe_cases
from situated.index.writer import build_index
from situated.loaders.corpus import load_corpus
from situated.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
TOPICS = [
    "Accounts may be shared with family members living in the same household.",
    "Refunds are granted within fourteen days when the service was not used.",
    "Generated images must carry a visible watermark when published commercially.",
    "Support tickets are answered by a human agent within two working days.",
]
# (service, document, [(valid_from, distinctive sentence index)])
VERSIONS = [
    ("Nimbus", "Usage Rules", [("2026-01-10T08:00:00+01:00", 0), ("2026-03-01T12:00:00+00:00", 1),
                               ("2026-03-01T18:30:00+00:00", 2), ("2026-06-15T00:00:00+02:00", 3)]),
    ("Q", "Privacy Notice", [("2026-02-01T00:00:00+00:00", 1), ("2026-05-20T10:00:00-05:00", 3)]),
]


def _export(tmp_path: Path) -> Path:
    """A tiny export in the Open Terms Archive layout (versions.jsonl + texts/)."""
    src = tmp_path / "export"
    rows = []
    for service, doc, versions in VERSIONS:
        for i, (start, topic) in enumerate(versions):
            file = f"texts/{service}/{doc}/{start.replace(':', '-')}.md"
            (src / file).parent.mkdir(parents=True, exist_ok=True)
            body = (f"# {doc}\n\n## 1 General\n\nThese rules apply to {service}. "
                    f"{TOPICS[topic]}\n\n## 2 Changes\n\nWe may change these rules.\n")
            (src / file).write_text(body, encoding="utf-8")
            end = versions[i + 1][0] if i + 1 < len(versions) else None
            rows.append({"doc_key": f"{service}/{doc}", "product": service, "doc_type": doc,
                         "version_index": i, "valid_from": start, "valid_to": end,
                         "commit": "0" * 40, "file": file})
    (src / "versions.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", "utf-8")
    return src


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("probe")
    out = tmp / "docs"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "ota_to_corpus.py"),
                           str(_export(tmp)), str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.unit
def test_converter_keeps_instants_families_and_products(corpus_dir):
    docs = {d.meta.source_id: d.meta for d in load_corpus([corpus_dir]).documents}
    assert len(docs) == 6
    first = docs["Nimbus.Usage-Rules.v000"]
    assert (first.product, first.family, first.valid_for.value) == (("Nimbus",), "Usage Rules",
                                                                      "as_of")
    assert first.valid_from.isoformat() == "2026-01-10T08:00:00+01:00"
    assert first.valid_to == docs["Nimbus.Usage-Rules.v001"].valid_from
    assert docs["Nimbus.Usage-Rules.v003"].valid_to is None
    assert docs["Q.Privacy-Notice.v000"].product == ("Q",)


@pytest.mark.unit
def test_converter_refuses_a_folder_without_versions(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "ota_to_corpus.py"),
                           str(tmp_path), str(tmp_path / "out")], capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "no versions.jsonl" in done.stderr


@pytest.mark.unit
def test_probe_cases_expect_the_version_in_force_at_the_end_of_the_day(corpus_dir):
    cases, _ = probe_cases(list(load_corpus([corpus_dir]).documents))
    by_id = {c.id: c for c in cases}
    # v001 and v002 both start on 1 March 2026: that day belongs to v002
    same_day = by_id["probe.same_day.Nimbus.Usage-Rules.v001"]
    assert same_day.expect.evidence == ["Nimbus.Usage-Rules.v002"]
    assert set(same_day.expect.stale) == {"Nimbus.Usage-Rules.v001", "Nimbus.Usage-Rules.v003"}
    assert "on 1 March 2026" in same_day.question or "March 1, 2026" in same_day.question or \
        "2026-03-01" in same_day.question
    before = by_id["probe.before_first.Nimbus.Usage-Rules.v000"]
    assert before.expect.status.value == "no_evidence"
    assert before.expect.facts == ["10 January 2026"]
    inside = by_id["probe.inside.Q.Privacy-Notice.v000"]
    assert inside.expect.evidence == ["Q.Privacy-Notice.v000"]
    assert inside.expect.stale == ["Q.Privacy-Notice.v001"]
    phrase = inside.question.split("“")[1].split("”")[0].lower()
    texts = {d.meta.source_id: " ".join(b.text for b in d.blocks).lower().replace(".", "")
             for d in load_corpus([corpus_dir]).documents}
    # found in that version, not in its neighbour
    assert phrase in texts["Q.Privacy-Notice.v000"] and phrase not in texts["Q.Privacy-Notice.v001"]
    assert {c.tags[0] for c in cases} <= {"dev", "test"}
    for c in cases:  # each product lies in one half only
        assert len({x.tags[0] for x in cases if x.question.split("'s")[0] ==
                    c.question.split("'s")[0]}) == 1


@pytest.mark.unit
def test_probe_change_cases_name_the_pair_and_skip_a_day_with_two_versions(corpus_dir):
    cases, skipped = probe_cases(list(load_corpus([corpus_dir]).documents))
    by_id = {c.id: c for c in cases}
    nimbus = [c for c in cases if "changes" in c.tags and "Nimbus" in c.id]
    # v001 and v002 both start on 1 March 2026: neither change can be asked by its day
    assert [c.expect.changes for c in nimbus] == [
        ["Nimbus.Usage-Rules.v002>Nimbus.Usage-Rules.v003"]]
    assert skipped["changes: several versions start that day"] == 2
    q = by_id["probe.changes.Q.Privacy-Notice.v001"]
    assert q.expect.changes == ["Q.Privacy-Notice.v000>Q.Privacy-Notice.v001"]
    assert "What changed in Q's Privacy Notice on " in q.question and not q.expect.stale
    (phrase,) = q.expect.changed_text
    texts = [" ".join(b.text for b in d.blocks).lower().replace(".", "")
             for d in load_corpus([corpus_dir]).documents if d.meta.product == ("Q",)]
    assert (phrase.lower() in texts[0]) != (phrase.lower() in texts[1])
    listing = by_id["probe.versions.Nimbus.Usage-Rules.v000"]
    assert listing.expect.versions == [f"Nimbus.Usage-Rules.v00{i}" for i in range(4)]


@pytest.mark.integration
def test_the_chain_answers_the_probe_cases(corpus_dir, tmp_path, embeddings):
    out = tmp_path / "cases"
    result = CliRunner().invoke(cli, ["probe-versions", str(corpus_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    cases = load_cases(out / "probe-dev.yaml") + load_cases(out / "probe-test.yaml")
    assert len(cases) >= 10
    root = tmp_path / "index"
    settings = Settings(index_dir=root, cache_dir=tmp_path / "cache")
    build_index(load_corpus([corpus_dir]), root, embeddings, settings)

    application = app_over(settings, embeddings)
    chain = build_ask_chain(application)
    kinds = {t for c in cases for t in c.tags}
    assert {"changes", "versions"} <= kinds
    for case in cases:
        answer = chain.invoke({"question": case.question})
        assert answer.status is case.expect.status, (case.id, answer.answer)
        scored = score_case(case, answer, 0.0)
        assert scored.change_ok in (None, True), (case.id, answer.answer)
        assert scored.listing_ok in (None, True), (case.id, answer.answer)
        supplied = {e.source_id for e in answer.evidence} | {h.source_id for h in answer.hits}
        assert not supplied & set(case.expect.stale), case.id
        assert set(case.expect.evidence) <= {e.source_id for e in answer.evidence}, case.id
        for fact in case.expect.facts:
            assert fact in answer.answer, (case.id, answer.answer)


@pytest.mark.unit
def test_probe_command_explains_a_corpus_without_versions(tmp_path):
    (tmp_path / "a.md").write_text("---\nsource_id: A\n---\n\n## 1 Rule\n\nText.\n", "utf-8")
    result = CliRunner().invoke(cli, ["probe-versions", str(tmp_path), "--out",
                                      str(tmp_path / "o")])
    assert result.exit_code == 1 and "no family with two or more dated versions" in result.output
    assert not (tmp_path / "o").exists()

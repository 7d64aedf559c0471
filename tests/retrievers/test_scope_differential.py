"""The public/restricted differential set (issue 83, items 1 and 5): every public reply is
byte-identical with and without restricted documents — the sample's own (a technician's pump
manuals, a ticket, the HR file), 40 unrelated restricted memos, and a
staff-only correction of a public dated procedure. 71 public questions of the sample's cases
and 8 of this set's own, 79 in all. What made replies differ before: corrections written into
the public version's fields (P6), calibration over restricted text (P7), and BM25's idf and
average length and the exact leg's idf over every piece (P8)."""

from __future__ import annotations

import datetime as dt
import json
import shutil

import pytest
import yaml
from conftest import indexed_app, md, seed_cache, write

from situated import build_ask_chain
from situated.index.store import sample_docs_dir
from situated.situation import Scope

TODAY = dt.date(2026, 11, 29)
RECORDED = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
RESTRICTED_SAMPLE = ("hr-salary-bands.md", "pump-p2-maintenance.pdf",
                     "pump-p2-maintenance.pdf.meta.yaml", "pump-p4-maintenance.md",
                     "ticket-p2-4711.md")
TOPICS = ["warehouse budget", "board election", "office lease", "supplier audit",
          "battery recall plan", "charger tender", "merger talks", "salary review"]
OWN_QUESTIONS = [
    "How do I request a return on 1 March 2026?",
    "How do I request a return on 1 July 2026?",
    "How do I request a return on 1 September 2026 as known on 1 October 2026?",
    "Which versions of the returns procedure exist?",
    "What changed in the returns procedure?",
    "What budget did the board approve for the warehouse?",
    "Is there a battery recall plan?",
    "What does the charger tender say about the E-417 error?",
]


def _sample_questions() -> list[str]:
    cases = yaml.safe_load((sample_docs_dir().parent.parent / "eval" /
                            "sample_cases.yaml").read_text("utf-8"))
    return [c["question"] for c in cases if not c.get("scope")]


QUESTIONS = _sample_questions() + OWN_QUESTIONS


def _restricted_extras(docs) -> None:
    for i in range(40):
        topic = TOPICS[i % len(TOPICS)]
        write(docs / "memos" / f"memo{i}.md", md(
            f"MEMO-{i}", f"## 1 Decision\n\nThe board decided on the {topic}: item {i} is "
            f"approved with a budget of {1000 + i} EUR, see error E-{400 + i}.\n",
            title=f"Board memo {i} on the {topic}", access="[board]"))
    write(docs / "returns-2026-staff.md", md(
        "RET-2026-STAFF", "# Returns procedure, staff correction\n\n## 1 How to request a "
        "return\n\nStaff request returns through the internal desk only.\n",
        title="Atlas returns procedure 2026 (staff correction)", family="returns-procedure",
        valid_from="2026-06-01", valid_for="request_date", access="[staff]",
        recorded_at="2026-08-01T00:00:00Z"))


@pytest.fixture(scope="module")
def twins(tmp_path_factory, embeddings, warm_vectors):
    """The sample's public documents alone, and the whole sample with the extra restricted
    documents, each ingested at one recording instant."""
    apps = {}
    for restricted in (False, True):
        root = tmp_path_factory.mktemp(f"differential-{restricted}")
        shutil.copytree(sample_docs_dir(), root / "docs")
        if restricted:
            _restricted_extras(root / "docs")
        else:
            for name in RESTRICTED_SAMPLE:
                (root / "docs" / name).unlink()
        seed_cache(root / "cache", warm_vectors)
        apps[restricted] = indexed_app(root, embeddings, now=lambda: RECORDED)
    return apps


def _replies(app) -> list[str]:
    chain = build_ask_chain(app, clock=lambda: TODAY)
    return [json.dumps(chain.invoke({"question": q, "scope": Scope()}).model_dump(mode="json"),
                       ensure_ascii=False) for q in QUESTIONS]


@pytest.mark.slow
@pytest.mark.integration
def test_every_public_reply_is_byte_identical_with_or_without_restricted_documents(twins):
    assert len(QUESTIONS) >= 75
    without, with_ = _replies(twins[False]), _replies(twins[True])
    differing = [(q, a, b) for q, a, b in zip(QUESTIONS, without, with_, strict=True) if a != b]
    assert differing == []
    assert not any("MEMO-" in r or "RET-2026-STAFF" in r or "internal desk" in r for r in with_)

"""Property (issue 52): a document the caller cannot read changes nothing that caller sees.

For generated corpora of release documents — families with public and restricted versions,
restricted families with higher numbers, ranges, documents without a family — everything the
release axis computes from which documents exist is the same for a public caller on the corpus
with the restricted documents as on the corpus without them: the latest release of each line
(the filter a question naming no release reads, in its reference, numpy and Chroma forms), the
listing, count, latest, oldest and existence answers, and an unknown release's nearest. The
whole chain is compared byte for byte on fixed corpora in `test_hostile_scope.py` (an ingest
each: too slow for hundreds)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from situated.chains.read.release import ReleaseReading
from situated.chains.read.said import read_said
from situated.chains.say.release_words import unknown_text
from situated.chains.say.wording import Lang
from situated.chains.versions.release_history import line_text
from situated.documents import DocumentMeta
from situated.index.columns import FilterColumns
from situated.index.versions import MemoryCatalogue, Versions
from situated.retrievers.filter import Filter
from situated.situation import Scope

_VERSIONS = ["0.9", "1.0", "1.1", "2.0", "2.0.1", "3.0", "3.1rc1", "4.0", "9.0", "9.1"]
QUESTIONS = ["Which versions exist?", "How many versions are there?",
             "What is the latest version?", "What is the oldest version?"]


@st.composite
def corpora(draw) -> list[DocumentMeta]:
    """Release documents: each a family (or none), a version or a range, public or not."""
    docs = []
    for n in range(draw(st.integers(1, 9))):
        family = draw(st.sampled_from(["widget-api", "widget-api", "gateway", None]))
        ranged = draw(st.booleans()) and draw(st.booleans())
        version = None if ranged else draw(st.sampled_from(_VERSIONS))
        covers = draw(st.sampled_from([">=1.0,<2.0", "2.x", ">=3.0"])) if ranged else None
        access = draw(st.sampled_from([(), (), ("staff",), ("hr", "staff")]))
        product = draw(st.sampled_from([(), ("Widget",)]))
        docs.append(DocumentMeta(source_id=f"D{n}", path=f"d{n}.md", family=family,
                                 version=version, applies_to_versions=covers, access=access,
                                 product=product))
    return _without_key_clashes(docs)


def _without_key_clashes(docs: list[DocumentMeta]) -> list[DocumentMeta]:
    """One document per (family, version), as ingest requires of a family."""
    seen, out = set(), []
    for d in docs:
        key = (d.family or d.source_id, d.version, d.applies_to_versions)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _seen_by_public(metas: list[DocumentMeta]) -> dict:
    versions = Versions(MemoryCatalogue([(m, []) for m in metas]))
    public = Filter(scope=Scope())
    superseded = versions.superseded(public, Scope())
    latest = Filter(scope=Scope(), latest_release=True, superseded=superseded)
    fields = [versions.fields_of(m.source_id) for m in metas]
    cols = FilterColumns(fields)
    declared = versions.release_line(public)
    return {
        "latest (reference)": sorted(f.source_id for f in fields if latest.admits(f)),
        "latest (numpy)": sorted(str(s) for s in cols.source_ids[latest.group_mask(cols)]),
        "latest (chroma)": latest.chroma_where(),
        "line": [str(v) for v in declared],
        "answers": [line_text(read_said(q), ReleaseReading(), declared, "Widget", Lang.EN)[0]
                    for q in QUESTIONS] if declared else [],
        "unknown": unknown_text("5.5", "Widget", declared, Lang.EN) if declared else "",
    }


@pytest.mark.unit
@settings(max_examples=250, deadline=None)
@given(corpus=corpora())
def test_a_public_caller_sees_the_same_release_axis_with_or_without_restricted_documents(
        corpus):
    public_only = [m for m in corpus if not m.access]
    assert _seen_by_public(corpus) == _seen_by_public(public_only)


@pytest.mark.unit
def test_a_staff_only_release_supersedes_for_staff_alone():
    """Computed over what staff read, 4.0 supersedes 3.0; over what the public reads it does
    not (the round-4 rule computed it over everything, and the property above fails then)."""
    metas = [DocumentMeta(source_id=f"W{v}", path="w.md", family="widget-api", version=v)
             for v in ("1.0", "2.0", "3.0")]
    staff = DocumentMeta(source_id="W4", path="w.md", family="widget-api", version="4.0",
                         access=("staff",))
    versions = Versions(MemoryCatalogue([(m, []) for m in [*metas, staff]]))
    everyone = Filter(scope=Scope(roles=["staff"]))
    assert "W3.0" in versions.superseded(everyone, "all")
    assert "W3.0" not in versions.superseded(Filter(scope=Scope()), Scope())

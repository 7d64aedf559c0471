"""A hand-written oracle for the filter (issue 27, test gaps): for each situation and scope, the
documents that may be returned, written out by hand from DESIGN "Applicability and permission",
not computed by the code under test. Every leg is run with its final re-check disabled and
every compiled form (numpy mask, Chroma `where`, the reference `Filter.admits`) is held to the
table, so a wrong clause in any one of them fails here: the property suite only checks that the
backends agree with the reference, and the re-check hides a leg that does not pre-filter."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import md, write

from situated.index.reader import Index
from situated.index.writer import build_index
from situated.loaders.corpus import load_corpus
from situated.retrievers import legs
from situated.retrievers.filter import Filter
from situated.retrievers.legs import BM25Leg, ExactLeg, VectorLeg
from situated.settings import Settings
from situated.situation import Scope, Situation

pytestmark = pytest.mark.integration

DOCS = {  # every document matches the query in every leg ("pump seal", code E-7)
    "PUB": {},
    "PROD-A": {"product": "[A-1]"},
    "ROLE-R1": {"access": "[r1]"},
    "ASSET-X1": {"assets": "[X-1]"},
    "R1-X2": {"access": "[r1]", "assets": "[X-2]"},
    "DATED-P": {"valid_from": "2025-01-01", "valid_to": "2025-07-01",
                "valid_for": "purchase_date"},
    "DATED-R": {"valid_from": "2025-06-01", "valid_for": "request_date"},
    "B2-R2": {"product": "[B-2]", "access": "[r2]"},
}
ALWAYS = {"PUB", "PROD-A", "DATED-P", "DATED-R"}  # no scope, no situation
D = dt.date.fromisoformat
CASES = [
    (Situation(), Scope(), ALWAYS),
    (Situation(), Scope(roles=("r1",)), ALWAYS | {"ROLE-R1"}),
    (Situation(), Scope(roles=("r1",), assets=("X-2",)), ALWAYS | {"ROLE-R1", "R1-X2"}),
    (Situation(), Scope(assets=("X-1",)), ALWAYS | {"ASSET-X1"}),
    (Situation(), Scope(assets=("X-2",)), ALWAYS),  # R1-X2 needs the role too
    (Situation(product="B-2"), Scope(roles=("r2",)), {"PUB", "DATED-P", "DATED-R", "B2-R2"}),
    (Situation(product="A-1"), Scope(roles=("r2",)), ALWAYS),
    (Situation(purchase_date=D("2025-03-01")), Scope(), ALWAYS),
    (Situation(purchase_date=D("2025-07-01")), Scope(), ALWAYS - {"DATED-P"}),  # end exclusive
    (Situation(purchase_date=D("2024-12-31")), Scope(), ALWAYS - {"DATED-P"}),
    (Situation(as_of=D("2025-03-01")), Scope(), ALWAYS - {"DATED-R"}),  # as-of stands in
    (Situation(as_of=D("2025-06-15")), Scope(), ALWAYS),
    (Situation(request_date=D("2025-05-31"), as_of=D("2025-06-15")), Scope(),
     ALWAYS - {"DATED-R"}),  # its own date wins over the stand-in
    (Situation(product="A-1", purchase_date=D("2026-01-01")), Scope(roles=("r1", "r2"),
                                                                   assets=("X-1",)),
     {"PUB", "PROD-A", "DATED-R", "ROLE-R1", "ASSET-X1"}),
]


@pytest.fixture(scope="module")
def oracle_index(tmp_path_factory, embeddings):
    docs = tmp_path_factory.mktemp("oracle-docs")
    for sid, meta in DOCS.items():
        write(docs / f"{sid}.md", md(sid, body="## 1 Pump\n\nThe pump seal check for code "
                                         "E-7 is done weekly.\n", **meta))
    root = tmp_path_factory.mktemp("oracle-index")
    settings = Settings(index_dir=root, cache_dir=root / "cache")
    build_index(load_corpus([docs]), root, embeddings, settings)
    index = Index(root, embeddings)
    yield index
    index.close()


@pytest.fixture
def no_recheck(monkeypatch):
    monkeypatch.setattr(legs, "_recheck", lambda index, flt, hits: hits)


def _sources(index, hits) -> set[str]:
    return {index.pieces[h.pos].source_id for h in hits}


@pytest.mark.parametrize("situation, scope, expected", CASES)
def test_every_leg_and_every_compiled_form_returns_exactly_the_oracle(
        oracle_index, no_recheck, situation, scope, expected):
    index = oracle_index
    flt = Filter(situation=situation, scope=scope, timezone=index.timezone)
    everything = range(len(index))
    assert {index.pieces[p].source_id for p in everything
            if flt.admits(index.fields_of([p])[0])} == expected  # the reference
    mask = flt.mask(index.columns)
    assert {index.pieces[p].source_id for p in everything if mask[p]} == expected  # numpy
    k = len(index)
    assert _sources(index, ExactLeg().search(index, "pump E-7", flt, mask, k)) == expected
    assert _sources(index, BM25Leg().search(index, "pump seal", flt, mask, k)) == expected
    qvec = index.embeddings.encode_query("pump seal check")
    admitted = int(mask.sum())
    by_mask = VectorLeg().search(index, qvec, flt, admitted, k, mask)
    by_where = VectorLeg().search(index, qvec, flt, admitted, k, None)  # Chroma `where` only
    by_ids = VectorLeg(oversample=1).search(index, qvec, flt, admitted, k, mask)  # `ids` only
    assert _sources(index, by_ids) == expected
    assert _sources(index, by_mask) == expected
    assert _sources(index, by_where) == expected

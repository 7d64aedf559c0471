"""Property (issue 83, P6): a correction the caller may not read changes nothing that caller
sees. For generated dated families — public and restricted versions, later-recorded ones that
correct earlier ones over overlaps, "as known on" days — the versions a public caller is given
on each day are the same with the restricted versions in the corpus as without them, in all
three forms of the filter (the reference predicate, the numpy mask, and a `where` run by a real
Chroma collection); and a caller who may read a correction has it applied."""

from __future__ import annotations

import datetime as dt

import chromadb
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from situated.documents import DocumentMeta, ValidFor, instant
from situated.index.columns import FilterColumns
from situated.loaders.corpus import corrections_as_fields
from situated.loaders.families import check_families
from situated.retrievers.filter import Filter
from situated.situation import Scope, Situation

DAYS = [dt.date(2025, m, 15) for m in range(1, 13)] + [dt.date(2026, m, 1) for m in (1, 3, 9)]
_STARTS = [None, dt.date(2025, 1, 1), dt.date(2025, 4, 1), dt.date(2025, 6, 1),
           dt.date(2025, 9, 1)]
_RECORDED = [None, dt.datetime(2025, 2, 1, tzinfo=dt.UTC), dt.datetime(2025, 7, 1, tzinfo=dt.UTC),
             dt.datetime(2026, 2, 1, tzinfo=dt.UTC)]
ACCESS = [(), (), ("staff",), ("hr", "staff")]


@st.composite
def dated_corpora(draw) -> list[DocumentMeta]:
    """Versions of one or two dated families: each a period, an access and when it was
    recorded (later ones correct earlier ones where they overlap)."""
    docs = []
    for n in range(draw(st.integers(2, 7))):
        start = draw(st.sampled_from(_STARTS))
        end = draw(st.sampled_from([None, *[d for d in _STARTS if d and (not start or d > start)]]))
        docs.append(DocumentMeta(
            source_id=f"L{n}", path=f"l{n}.md", family=draw(st.sampled_from(["leave", "leave",
                                                                             "travel"])),
            valid_from=start, valid_to=end, valid_for=ValidFor.AS_OF,
            access=draw(st.sampled_from(ACCESS)), recorded_at=draw(st.sampled_from(_RECORDED))))
    return docs


def _fields(metas: list[DocumentMeta]):
    """Each version's filter fields as ingest writes them (`validate_documents`' checks and
    corrections), or None when ingest would refuse the corpus."""
    base = {m.source_id: m.filter_fields() for m in metas}
    rec = {sid: f.recorded_s for sid, f in base.items()}
    bounds = {sid: (f.valid_from_s, f.valid_to_s) for sid, f in base.items()}
    problems, _, corrections = check_families(metas, rec, bounds)
    if problems:
        return None
    return [base[m.source_id].model_copy(update=corrections_as_fields(
        sorted(corrections.get(m.source_id, ())))) for m in metas]


def _admitted(fields, flt: Filter, chroma) -> tuple[list[str], list[str], list[str]]:
    cols = FilterColumns(fields)
    reference = sorted(f.source_id for f in fields if flt.admits(f))
    numpy_form = sorted(str(s) for s in cols.source_ids[flt.group_mask(cols)])
    found = chroma.get(where=flt.chroma_where())["metadatas"]
    return reference, numpy_form, sorted(str(m["source_id"]) for m in found)


def _seen(fields, scope: Scope, client) -> dict:
    """What `scope` is given on each day, as of now and as known on each day."""
    if not fields:
        return {(day, known): [] for day in DAYS for known in (None, day)}
    name = f"c{abs(hash(tuple(f.source_id for f in fields)))}"
    if name in [c.name for c in client.list_collections()]:
        client.delete_collection(name)
    col = client.create_collection(name, embedding_function=None)
    col.add(ids=[f.source_id for f in fields], embeddings=[[1.0, 0.0]] * len(fields),
            metadatas=[f.to_chroma(f.source_id) for f in fields])
    seen = {}
    for day in DAYS:
        for known in (None, day):
            flt = Filter(situation=Situation(as_of=day, known_on=known), scope=scope)
            forms = _admitted(fields, flt, col)
            assert forms[0] == forms[1] == forms[2], (day, known, forms)
            seen[day, known] = forms[0]
    client.delete_collection(name)
    return seen


@pytest.fixture(scope="module")
def client():
    return chromadb.EphemeralClient()


@pytest.mark.unit
@settings(max_examples=200, deadline=None)
@given(corpus=dated_corpora())
def test_a_public_caller_sees_the_same_versions_with_or_without_restricted_corrections(
        corpus, client):
    public_only = [m for m in corpus if not m.access]
    every, public = _fields(corpus), _fields(public_only)
    assume(every is not None and public is not None)
    kept = {m.source_id for m in public_only}
    assert _seen(every, Scope(), client) == _seen(
        [f for f in public if f.source_id in kept], Scope(), client)


@pytest.mark.unit
def test_a_restricted_correction_replaces_the_version_for_its_readers_alone(client):
    """LEAVE-A (public, from 2025) and LEAVE-B (staff only, from June 2025, recorded in
    February 2026): on 1 March 2026 the public reads LEAVE-A, staff read LEAVE-B — and as
    known on 1 January 2026, before LEAVE-B was recorded, staff read LEAVE-A too."""
    a = DocumentMeta(source_id="LEAVE-A", path="a.md", family="leave", valid_for=ValidFor.AS_OF,
                     valid_from=dt.date(2025, 1, 1))
    b = DocumentMeta(source_id="LEAVE-B", path="b.md", family="leave", valid_for=ValidFor.AS_OF,
                     valid_from=dt.date(2025, 6, 1), access=("staff",),
                     recorded_at=dt.datetime(2026, 2, 1, tzinfo=dt.UTC))
    fields = _fields([a, b])
    assert fields is not None and fields[0].corrector_access == ((("staff",), ()),)
    march = dt.date(2026, 3, 1)
    staff = Scope(roles=["staff"])
    assert _seen(fields, Scope(), client)[march, None] == ["LEAVE-A"]
    assert _seen(fields, staff, client)[march, None] == ["LEAVE-B"]
    assert _seen(fields, staff, client)[march, march] == ["LEAVE-B"]
    early = Filter(situation=Situation(as_of=march, known_on=dt.date(2026, 1, 1)), scope=staff)
    assert [f.source_id for f in fields if early.admits(f)] == ["LEAVE-A"]
    assert instant(dt.date(2025, 6, 1)) in fields[0].corrected[0]


LEAVE_A = ("## 1 Carry-over\n\nEmployees may carry over 5 days of unused leave into the next "
           "year.\n")
LEAVE_B = ("## 1 Carry-over\n\nEmployees may carry over 10 days of unused leave into the next "
           "year.\n")
LEAVE_QUESTIONS = ["How many days of leave can I carry over as of 1 March 2026?",
                   "How many days of leave can I carry over as of 1 July 2025?",
                   "Which versions of the leave policy exist?",
                   "What changed in the leave policy?"]


@pytest.fixture(scope="module")
def leave(tmp_path_factory, embeddings):
    """A public leave policy ingested alone, then with a staff-only correction recorded a
    year later (the second ingest adds it, as an admin would)."""
    from conftest import indexed_app, md, write

    recorded = dt.datetime(2026, 2, 1, tzinfo=dt.UTC)
    apps = {}
    for restricted in (False, True):
        root = tmp_path_factory.mktemp(f"leave-{restricted}")
        write(root / "docs" / "a.md", md("LEAVE-A", LEAVE_A, family="leave", title="Leave "
                                         "policy", valid_from="2025-01-01", valid_for="as_of"))
        apps[restricted] = indexed_app(root, embeddings, now=lambda: recorded)
        if restricted:
            write(root / "docs" / "b.md", md("LEAVE-B", LEAVE_B, family="leave",
                                             title="Leave policy", valid_from="2025-06-01",
                                             valid_for="as_of", access="[staff]"))
            apps[restricted] = indexed_app(root, embeddings,
                                           now=lambda: recorded + dt.timedelta(days=1))
    return apps


def _reply(app, question: str, scope: Scope) -> str:
    import json

    from situated import build_ask_chain

    answer = build_ask_chain(app, clock=lambda: dt.date(2026, 11, 29)).invoke(
        {"question": question, "scope": scope})
    return json.dumps(answer.model_dump(mode="json"), ensure_ascii=False)


@pytest.mark.integration
@pytest.mark.parametrize("question", LEAVE_QUESTIONS)
def test_a_restricted_correction_changes_no_public_reply(leave, question):
    """Seen in an audit: the public reply went from "5 days" to "No version of leave was in force"
    and date probes gave away the correction's start and recording day."""
    public = _reply(leave[True], question, Scope())
    assert public == _reply(leave[False], question, Scope())
    assert "2025-06-01" not in public and "1 June 2025" not in public
    assert "LEAVE-B" not in public and "10 days" not in public


@pytest.mark.integration
def test_staff_read_the_correction_that_replaces_the_public_version(leave):
    public = _reply(leave[True], LEAVE_QUESTIONS[0], Scope())
    staff = _reply(leave[True], LEAVE_QUESTIONS[0], Scope(roles=["staff"]))
    assert '"answered"' in public and "5 days" in public
    assert "10 days" in staff and "5 days" not in staff

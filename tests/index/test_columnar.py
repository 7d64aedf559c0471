"""The columnar index: filter columns saved and memory-mapped give the masks the in-memory
columns give; the row store answers by key from many threads and lets go of its files on close;
a generation without its row store, or a corpus that breaks the one-set-of-fields-per-document
rule, fails with an error that says what to do."""

from __future__ import annotations

import datetime as dt
import os
import random
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from situated.documents import OPEN_END, FilterFields, ValidFor
from situated.errors import IndexError_
from situated.index.columns import FilterColumns
from situated.index.reader import Index, generation_documents
from situated.index.store import current_generation
from situated.index.writer import write_columns
from situated.loaders.corpus import load_corpus
from situated.retrievers.filter import Filter
from situated.situation import Scope, Situation

T0 = 1_735_689_600  # 2025-01-01


def _is_mapped(arr) -> bool:
    """True when the array's memory is a file map (a view over a `np.memmap`)."""
    while arr is not None:
        if isinstance(arr, np.memmap):
            return True
        arr = getattr(arr, "base", None)
    return False


def _fields(rnd: random.Random, i: int) -> FilterFields:
    start = T0 + rnd.randint(0, 400) * 86400
    corrections = tuple((start + a * 86400, start + (a + rnd.randint(1, 30)) * 86400,
                         start + rnd.randint(0, 60) * 86400)
                        for a in sorted(rnd.sample(range(90), rnd.choice([0, 0, 1, 2]))))
    return FilterFields(
        source_id=f"D{i}", products=tuple(rnd.sample(["A", "B", "C"], rnd.randint(0, 2))),
        valid_for=rnd.choice(list(ValidFor)), valid_from_s=start,
        valid_to_s=rnd.choice([OPEN_END, start + rnd.randint(1, 200) * 86400]),
        roles=tuple(rnd.sample(["r1", "r2"], rnd.randint(0, 1))),
        assets=tuple(rnd.sample(["X", "Y"], rnd.randint(0, 1))),
        recorded_s=start + rnd.randint(0, 30) * 86400, corrected=corrections)


DAYS = st.one_of(st.none(), st.dates(min_value=dt.date(2024, 12, 1),
                                     max_value=dt.date(2026, 6, 1)))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), product=st.sampled_from([None, "A", "B", "Z"]),
       day=DAYS, known=DAYS, roles=st.frozensets(st.sampled_from(["r1", "r2"])),
       assets=st.frozensets(st.sampled_from(["X", "Y"])),
       narrow=st.one_of(st.none(), st.frozensets(st.sampled_from(["D0", "D3", "D7", "nope"]))))
def test_saved_columns_give_the_masks_of_the_reference(tmp_path_factory, seed, product, day,
                                                       known, roles, assets, narrow):
    rnd = random.Random(seed)
    groups = [_fields(rnd, i) for i in range(12)]
    row_group = np.asarray([rnd.randrange(12) for _ in range(60)], dtype=np.int32)
    out = tmp_path_factory.mktemp("cols")
    FilterColumns(groups, row_group=row_group).save(out)
    loaded = FilterColumns.load(out)
    assert _is_mapped(loaded.valid_from)
    flt = Filter(situation=Situation(product=product, purchase_date=day, request_date=day,
                                     as_of=day, known_on=known),
                 scope=Scope(roles=roles, assets=assets), sources=narrow)
    expected = [flt.admits(groups[g]) for g in row_group]
    assert flt.mask(loaded).tolist() == expected
    assert flt.mask(FilterColumns(groups, row_group=row_group)).tolist() == expected


def test_an_empty_corpus_saves_and_loads(tmp_path):
    FilterColumns([], row_group=np.zeros(0, dtype=np.int32)).save(tmp_path / "c")
    assert Filter().mask(FilterColumns.load(tmp_path / "c")).tolist() == []


def test_the_opened_index_reads_by_key_and_holds_no_piece_objects(sample_index):
    index = sample_index
    assert _is_mapped(index.piece_doc) and _is_mapped(index.piece_block)
    assert len(index) == index.manifest.pieces == len(index.pieces)
    blocks = index.blocks_of("WARR-R2")
    assert blocks and [b.source_id for b in blocks] == ["WARR-R2"] * len(blocks)
    assert index.blocks_of("NO-SUCH-DOC") == []
    first, last = index.pieces[0], index.pieces[-1]
    assert index.piece_pos[first.piece_id] == 0 and index.piece_pos[last.piece_id] == len(index) - 1
    assert index.positions_of([last.piece_id, "nope", first.piece_id]) == {
        last.piece_id: len(index) - 1, first.piece_id: 0}
    many = index.pieces.many([0, len(index) - 1])
    assert many[0] == first and many[len(index) - 1] == last
    assert index.block_ids([0])[0] == first.block_id
    assert index.fields_of([0])[0] == first.fields == index.blocks[first.block_id].fields
    with pytest.raises(IndexError, match="outside"):
        index.pieces[len(index)]
    with pytest.raises(KeyError):
        index.blocks["NO-SUCH-BLOCK"]
    assert "NO-SUCH-BLOCK" not in index.blocks and first.block_id in index.blocks
    assert index.code_positions("NOSUCHCODE") is None


def test_many_threads_read_the_row_store_at_once_and_close_lets_go(sample_root, embeddings,
                                                                    tmp_path):
    import shutil

    shutil.copytree(sample_root, tmp_path / "own", symlinks=True)  # no other reader has it open
    index = Index(tmp_path / "own", embeddings)
    ids = list(index.blocks)
    errors: list[BaseException] = []

    def read(offset: int) -> None:
        try:
            for i in range(60):
                bid = ids[(offset + i) % len(ids)]
                assert index.blocks[bid].block_id == bid
                assert index.pieces[(offset * 7 + i) % len(index)].piece_id
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=read, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    store = str(index.generation / "store.sqlite")
    assert _open(store)
    index.close()
    assert not _open(store)


def _open(path: str) -> bool:
    fds = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            fds.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
    return any(f.startswith(path) for f in fds)


def test_a_generation_without_its_row_store_is_refused_with_the_fix(sample_root, embeddings,
                                                                     tmp_path):
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(sample_root, root, symlinks=True)
    (current_generation(root) / "store.sqlite").unlink()
    with pytest.raises(IndexError_, match=r"store\.sqlite is missing.*situated ingest"):
        Index(root, embeddings)  # the checksums name it before anything is opened


def test_generation_documents_round_trips_the_corpus(sample_root):
    from situated.index.store import sample_docs_dir

    corpus = load_corpus([sample_docs_dir()])
    back = {d.meta.source_id: d for d in generation_documents(current_generation(sample_root))}
    for d in corpus.documents:
        got = back[d.meta.source_id]
        assert got.meta == d.meta and got.content_hash == d.content_hash
        assert got.blocks == d.blocks and got.pieces == d.pieces


def test_documents_whose_pieces_carry_other_fields_are_refused(tmp_path):
    from situated.index.store import sample_docs_dir

    doc = load_corpus([sample_docs_dir()]).documents[0]
    odd = doc.pieces[0].model_copy(update={"fields": doc.pieces[0].fields.model_copy(
        update={"roles": ("someone",)})})
    broken = doc.model_copy(update={"pieces": (odd, *doc.pieces[1:])})
    with pytest.raises(IndexError_, match=doc.meta.source_id):
        write_columns(tmp_path / "columns", [broken])


def test_piece_ids_map_by_hash_and_by_the_row_store_alike(sample_root, embeddings, tmp_path):
    import shutil

    shutil.copytree(sample_root, tmp_path / "own", symlinks=True)
    hashed = Index(tmp_path / "own", embeddings)
    assert hashed._ids is not None
    ids = [p.piece_id for p in hashed.pieces]
    want = {pid: n for n, pid in enumerate(ids)}
    assert hashed.positions_of([*ids, "not-a-piece"]) == want
    hashed.close()
    (current_generation(tmp_path / "own") / "columns" / "piece_hash.npy").unlink()
    # as when two ids shared a hash (that generation is written without the file)
    plain = Index(tmp_path / "own", embeddings, verify=False)
    assert plain._ids is None and plain.positions_of([*ids, "not-a-piece"]) == want
    plain.close()


def test_ids_that_share_a_hash_write_no_hash_table(tmp_path, monkeypatch):
    from situated.index import columns

    monkeypatch.setattr(columns, "id_hashes", lambda ids: np.zeros(len(list(ids)), np.uint64))
    assert columns.IdTable.save(tmp_path, ["a", "b"]) is False
    assert not (tmp_path / "piece_hash.npy").exists()


def test_a_generation_missing_a_column_file_is_refused_naming_it(sample_root, embeddings,
                                                                 tmp_path):
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(sample_root, root, symlinks=True)
    (current_generation(root) / "columns" / "filter" / "valid_to.npy").unlink()
    with pytest.raises(IndexError_, match=r"valid_to\.npy is missing.*situated ingest"):
        Index(root, embeddings)  # the checksums name it
    with pytest.raises(IndexError_, match=r"missing columns/filter/valid_to\.npy.*situated ingest"):
        Index(root, embeddings, verify=False)  # and so does the reader's own check


def test_many_blocks_are_read_in_one_look_up_and_unknown_ids_left_out(sample_index):
    ids = list(sample_index.blocks)[:3]
    got = sample_index.blocks.many([*ids, "NO-SUCH-BLOCK", ids[0]])
    assert list(got) == ids and all(got[b] == sample_index.blocks[b] for b in ids)

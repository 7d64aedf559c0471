"""Small failures an audit found (issue 83, S2, D2, D3, `access: null`): each gives one clear
line naming the file and the fix, never a traceback, a 500 or advice that loses data."""

from __future__ import annotations

import errno
import logging
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from conftest import md, write
from typer.testing import CliRunner

from situated.auth import KeyStore, hash_key
from situated.cli import app
from situated.errors import ConfigError, DocumentError, IndexError_
from situated.index.cache import EmbeddingCache
from situated.index.publisher import writer_lock
from situated.loaders.corpus import load_corpus

pytestmark = pytest.mark.unit


def _new_key(path: Path, name: str, *more: str):
    return CliRunner().invoke(app, ["keys", "new", name, "--keys", str(path), *more])


@pytest.mark.parametrize("replacement", ["invalid utf-8", "junk", "directory"])
def test_a_keys_file_replaced_under_a_running_server_accepts_no_key_and_says_why(
        tmp_path, caplog, replacement):
    """Seen in an audit: a 500 on every request, and the log named auth.py rather than the file."""
    path = tmp_path / "keys.yaml"
    key = _new_key(path, "alice").stdout.strip().splitlines()[-1]
    store = KeyStore.load(path)
    assert store.authenticate(key).name == "alice"
    path.unlink()
    if replacement == "invalid utf-8":
        path.write_bytes(b"principals:\n  - name: \xff\xfe\n")
    elif replacement == "junk":
        path.write_text("just some words\n")
    else:
        path.mkdir()
    with caplog.at_level(logging.ERROR, logger="situated.auth"):
        assert store.authenticate(key) is None  # fail closed: the edit may be a revocation
    assert str(path) in caplog.text and "no key is accepted" in caplog.text
    with pytest.raises(ConfigError, match=str(path)):
        KeyStore.load(path)


@pytest.mark.parametrize("replacement", ["invalid utf-8", "directory"])
def test_keys_new_and_serve_on_a_bad_keys_file_print_one_line_and_exit_non_zero(
        tmp_path, replacement):
    path = tmp_path / "keys.yaml"
    if replacement == "directory":
        path.mkdir()
    else:
        path.write_bytes(b"\xff\xfe")
    for result in (_new_key(path, "bob"),
                   CliRunner().invoke(app, ["serve", "--keys", str(path)])):
        assert result.exit_code == 1
        assert "Traceback" not in result.output and result.exception.__class__ is SystemExit
        assert str(path) in result.output.replace("\n", "")


def test_two_principals_sharing_one_key_are_an_error_naming_both(tmp_path):
    """Seen in an audit: accepted, and the last one won: a staffer's key got `admin`."""
    h = hash_key("k" * 40)
    path = write(tmp_path / "keys.yaml", f"principals:\n  - {{name: staffer, key_sha256: {h}, "
                 f"roles: [staff]}}\n  - {{name: boss, key_sha256: {h}, roles: [admin]}}\n")
    with pytest.raises(ConfigError, match="principals 'staffer' and 'boss' share one key_sha256"):
        KeyStore.load(path)


def test_keys_new_for_an_existing_name_names_the_fix_and_replace_gives_a_new_key(tmp_path):
    path = tmp_path / "keys.yaml"
    old = _new_key(path, "alice").stdout.strip().splitlines()[-1]
    again = _new_key(path, "alice")
    assert again.exit_code == 1 and "--replace" in again.output and again.stdout == ""
    new = _new_key(path, "alice", "--replace", "--role", "staff").stdout.strip().splitlines()[-1]
    store = KeyStore.load(path)
    assert store.authenticate(old) is None
    assert store.authenticate(new).scope.roles == ("staff",)


@pytest.mark.parametrize("value", ["null", "~", "[null]", "[staff, Null]"])
def test_access_null_is_an_error_never_a_role_named_null(tmp_path, value):
    write(tmp_path / "a.md", md("A", access=value))
    with pytest.raises(DocumentError, match="which YAML means as no value"):
        load_corpus([tmp_path])


def test_a_read_only_index_gives_one_clear_line(tmp_path, monkeypatch):
    """Seen in an audit: ingest, --prune and calibrate --write ended in `OSError … .lock`. (Root may
    write anywhere, so the read-only file system is the error the kernel gives for it.)"""
    real = Path.open

    def read_only(self, *args, **kwargs):
        if self.name == ".lock":
            raise OSError(errno.EROFS, "Read-only file system", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr("builtins.open", lambda file, *a, **k: read_only(Path(file), *a, **k))
    with pytest.raises(IndexError_, match=r"cannot be written \(Read-only file system\); make "
                       "it writable, or ingest into another --index directory"):
        with writer_lock(tmp_path / "index"):
            pass


def test_a_full_disk_under_the_cache_says_the_disk_is_full_and_keeps_the_cache(tmp_path):
    """Seen in an audit: reported as "the cache is damaged; delete it" though the cache was intact."""
    cache = EmbeddingCache(tmp_path / "embeddings.sqlite")
    cache.put_many({"a": np.ones(384, np.float32)})
    pages = cache._db.execute("PRAGMA page_count").fetchone()[0]
    cache._db.execute(f"PRAGMA max_page_count = {pages + 1}")  # SQLite's own SQLITE_FULL
    big = {f"k{i}": np.ones(384, np.float32) for i in range(200)}
    with pytest.raises(IndexError_, match="is full; free space there") as err:
        cache.put_many(big)
    assert "damaged" not in str(err.value) and "delete" not in str(err.value)
    cache.close()
    db = sqlite3.connect(tmp_path / "embeddings.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("SELECT count(*) FROM vec").fetchone() == (1,)


def test_a_documents_validity_reads_as_words():
    """Issue 84: the page said "valid from 2025-09-01, by as of"."""
    import datetime as dt

    from situated.documents import DocumentMeta, ValidFor
    from situated.web import _validity

    meta = DocumentMeta(source_id="L", path="l.md", valid_from=dt.date(2025, 9, 1),
                        valid_for=ValidFor.AS_OF)
    assert _validity(meta) == "valid from 2025-09-01, on the date asked about"
    bought = meta.model_copy(update={"valid_for": ValidFor.PURCHASE_DATE})
    assert _validity(bought).endswith("by the date of purchase")

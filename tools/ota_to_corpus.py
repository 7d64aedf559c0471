"""Convert an Open Terms Archive versions export into `situated` documents.

    python tools/ota_to_corpus.py SRC OUT [--services A,B]

SRC holds `versions.jsonl` (one line per version: doc_key, product, doc_type, version_index,
valid_from, valid_to as ISO instants with a UTC offset, file) and the version texts it names
(`texts/SERVICE/DOCUMENT TYPE/TIMESTAMP.md`), as in the genai-eu export. Each version becomes
one Markdown file with front matter:

    product: the service          family: the document type      valid_for: as_of
    valid_from / valid_to: the recorded instants, offsets kept (valid_to absent = still current)

so the versions of one document are one family of one product and the date filter picks the
version in force on the asked day. The text is kept as recorded. Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path


def source_id(product: str, doc_type: str, index: int) -> str:
    def part(text: str) -> str:
        return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")

    return f"{part(product)}.{part(doc_type)}.v{index:03d}"


def _yaml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid YAML scalar


def convert(src: Path, out: Path, services: set[str] | None = None) -> int:
    rows = [json.loads(line) for line in (src / "versions.jsonl").read_text("utf-8").splitlines()
            if line.strip()]
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for row in rows:
        if services and row["product"] not in services:
            continue
        text = (src / row["file"]).read_text(encoding="utf-8")
        sid = source_id(row["product"], row["doc_type"], row["version_index"])
        meta = [
            "---",
            f"source_id: {sid}",
            f"title: {_yaml_str(row['product'] + ' ' + row['doc_type'])}",
            f"revision: {_yaml_str(str(row['version_index']))}",
            f"product: {_yaml_str(row['product'])}",
            f"family: {_yaml_str(row['doc_type'])}",
            "valid_for: as_of",
            f"valid_from: {_yaml_str(row['valid_from'])}",
        ]
        if row.get("valid_to"):
            meta.append(f"valid_to: {_yaml_str(row['valid_to'])}")
        meta += [f"recorded_commit: {row.get('commit', '')}", "---", ""]
        target = out / row["product"] / f"{sid}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(meta) + "\n" + text.lstrip("\ufeff"), encoding="utf-8")
        written += 1
    return written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--services", help="comma-separated services to keep (default: all)")
    args = ap.parse_args()
    if not (args.src / "versions.jsonl").exists():
        sys.exit(f"{args.src}: no versions.jsonl; pass the folder of an Open Terms Archive "
                 "versions export")
    keep = set(args.services.split(",")) if args.services else None
    n = convert(args.src, args.out, keep)
    print(f"wrote {n} documents to {args.out}")


if __name__ == "__main__":
    main()

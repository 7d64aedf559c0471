"""Convert documentation published per release into `situated` documents.

    python tools/versions_to_corpus.py SRC OUT [--product NAME]

SRC holds `manifest.jsonl` (one line per release: `version`, `files`: paths under
`docs/VERSION/`) and the pages (`docs/VERSION/PATH.md`), as in the httpx-versions export. Each
page at each release becomes one Markdown file with front matter:

    product: NAME (default: the folder's name before "-versions")
    family: NAME PATH (a page is one family; its releases are its versions)
    version: VERSION

and the page's own text, unchanged. A `CHANGELOG.md` (or `release-notes.md`) beside the manifest
becomes one more document without a release (it is as of its last release), whose sections are
the release notes. Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path


def _yaml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid YAML scalar


def page_id(product: str, version: str, path: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9]+", "-", path.removesuffix(".md")).strip("-")
    return f"{re.sub(r'[^A-Za-z0-9]+', '-', product)}.{stem}.v{version}"


def _title(text: str, path: str) -> str:
    """The page's first `# ` heading outside fenced code, else its path."""
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#\s+(.+)$", line)):
            return m.group(1).strip()
    return path.removesuffix(".md").replace("_", " ")


def convert(src: Path, out: Path, product: str | None = None) -> int:
    product = product or src.name.removesuffix("-versions")
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for line in (src / "manifest.jsonl").read_text("utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        for path in row["files"]:
            text = (src / "docs" / row["version"] / path).read_text("utf-8")
            page = path.removesuffix(".md")
            meta = ["---", f"source_id: {page_id(product, row['version'], path)}",
                    f"title: {_yaml_str(f'{product} {_title(text, path)}')}",
                    f"product: {_yaml_str(product)}",
                    f"family: {_yaml_str(f'{product} {page}')}",
                    f"version: {_yaml_str(row['version'])}", "---", ""]
            target = out / row["version"] / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("\n".join(meta) + text, encoding="utf-8")
            written += 1
    changelog = next((src / name for name in NOTES_FILES if (src / name).exists()), None)
    if changelog is not None:
        meta = ["---", f"source_id: {re.sub(r'[^A-Za-z0-9]+', '-', product)}.changelog",
                f"title: {_yaml_str(f'{product} changelog')}", f"product: {_yaml_str(product)}",
                "---", ""]
        text = _FRONT_MATTER.sub("", changelog.read_text("utf-8"), count=1)  # MkDocs' own
        (out / "CHANGELOG.md").write_text("\n".join(meta) + text, encoding="utf-8")
        written += 1
    return written


NOTES_FILES = ("CHANGELOG.md", "release-notes.md")  # httpx's, starlette's
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("src", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--product")
    args = ap.parse_args()
    print(f"{convert(args.src, args.out, args.product)} documents written to {args.out}")


if __name__ == "__main__":
    main()

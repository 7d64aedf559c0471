"""What the whole corpus decides about each document's axes beyond its own dates: whether it
covers its release line's latest release, and the values of the index's declared facets."""

from __future__ import annotations

from collections import defaultdict

from situated.documents import DocumentMeta


def release_lines(metas: list[DocumentMeta], spans: dict[str, tuple[int, int]],
                  ) -> tuple[list[str], dict[str, bool]]:
    """Per line of releases (the documents of one product set with a release axis): which
    documents cover its latest release (what a question naming no version reads); and the
    problems: two different versions the key cannot tell apart (`releases.key`)."""
    lines: dict[tuple[str, ...], list[DocumentMeta]] = defaultdict(list)
    for m in metas:
        if m.release_scoped:
            lines[tuple(sorted(m.product))].append(m)
    latest: dict[str, bool] = {}
    problems: list[str] = []
    for members in lines.values():
        named: dict[int, set[str]] = defaultdict(set)
        for m in members:
            if m.version is not None:
                named[spans[m.source_id][0]].add(m.version)
        problems += [f"versions {' and '.join(sorted(v))} cannot be told apart in order (a "
                     "pre-release's dev part); give one of them another number"
                     for v in named.values() if len(v) > 1]
        top = max(named) if named else max(spans[m.source_id][0] for m in members)
        for m in members:
            lo, hi = spans[m.source_id]
            latest[m.source_id] = lo <= top < hi
    return problems, latest


def facet_values(meta: DocumentMeta, facets: tuple[str, ...], problems: list[str],
                 ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each declared facet with the values the document gives it (its metadata key: one value
    or a list; absent = any), or a problem naming the file and the fix."""
    out = []
    for name in facets:
        raw = meta.extra.get(name)
        values = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
        if raw not in (None, "") and not values or not all(
                isinstance(v, str) and v.strip() and len(v) <= 300 and v.isprintable()
                for v in values):
            problems.append(f"{meta.path}: facet {name} must be one value or a list of "
                            f"one-line values, got {raw!r}; write e.g. `{name}: EU` or "
                            f"`{name}: [EU, UK]`")
            values = []
        out.append((name, tuple(sorted({v.strip() for v in values if isinstance(v, str)}))))
    return tuple(out)


__all__ = ["facet_values", "release_lines"]

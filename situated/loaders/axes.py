"""What a set of documents decides about each one's axes beyond its own dates: the release
line it belongs to, which readable documents a later release supersedes, and the values of the
index's declared facets."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from situated.documents import DocKind, DocumentMeta


def line_of(meta: DocumentMeta) -> tuple[str, ...]:
    """The release line a document belongs to: its `family` (docs/design.md "Releases": a
    line is a family, never a product set); a release document without a family shares the
    line of the release documents without one for the same products."""
    return ("family", meta.family) if meta.family else ("products", *sorted(meta.product))


def superseded(metas: Iterable[DocumentMeta]) -> frozenset[str]:
    """Of the release documents `metas` (those one caller may read), the ones that do not cover
    their line's latest release: the latest is the highest declared `version` of the line, or
    the highest range start where none is declared. A question naming no release reads past
    them. Computed over what the caller may read only, so a document the caller cannot read
    never changes which release is latest (docs/design.md "Latest within the caller's scope").
    Release notes are never superseded: each says what changed in its own release
    (`loaders.notes`)."""
    lines: dict[tuple[str, ...], list[DocumentMeta]] = defaultdict(list)
    for m in metas:
        if m.release_scoped and m.kind is not DocKind.NOTES:
            lines[line_of(m)].append(m)
    out: set[str] = set()
    for members in lines.values():
        spans = {m.source_id: m.release_span() for m in members}  # what the filter stores
        named = [spans[m.source_id][0] for m in members if m.version is not None]
        top = max(named) if named else max(lo for lo, _ in spans.values())
        out |= {sid for sid, (lo, hi) in spans.items() if not lo <= top < hi}
    return frozenset(out)


def release_problems(metas: list[DocumentMeta], spans: dict[str, tuple[int, int]]) -> list[str]:
    """Two different versions the key cannot tell apart (`releases.key`), in any documents of
    the index: a question's release is one key, read in every family."""
    named: dict[int, set[str]] = defaultdict(set)
    for m in metas:
        if m.version is not None:
            named[spans[m.source_id][0]].add(m.version)
    return [f"versions {' and '.join(sorted(v))} cannot be told apart in order (a pre-release's "
            "dev part); give one of them another number" for v in named.values() if len(v) > 1]


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


def alias_problems(metas: Iterable[DocumentMeta]) -> list[str]:
    """An alias names one product: declared for two, or the name of another product, a
    question naming it could not be bound."""
    metas = list(metas)
    names = {p.casefold(): p for m in metas for p in m.product}
    owner: dict[str, tuple[str, str]] = {}
    problems = []
    for m in metas:
        for alias in m.aliases:
            product, key = m.product[0], alias.casefold()
            if names.get(key, product) != product:
                problems.append(f"{m.path}: alias {alias!r} of {product!r} is the name of the "
                                f"product {names[key]!r}; remove it from the aliases")
            first = owner.setdefault(key, (product, m.path))
            if first[0] != product:
                problems.append(f"{m.path}: alias {alias!r} names {product!r}, and {first[1]} "
                                f"declares it for {first[0]!r}; an alias names one product")
    return problems


__all__ = ["alias_problems", "facet_values", "line_of", "release_problems", "superseded"]

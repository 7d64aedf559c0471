"""The checks across a family's versions: two versions of one family and product must not
overlap on every axis (period, releases, facet values) unless a later-recorded one corrects the
other; gaps between dated versions are warnings."""

from __future__ import annotations

import datetime as dt
import itertools
from collections import defaultdict

from situated.documents import MAX_CORRECTIONS, DocumentMeta

# a later-recorded version's correction of another: (from_s, to_s, known_from_s, the
# corrector's roles, its assets); who may read the corrector decides who it corrects for
Correction = tuple[int, int, int, tuple[str, ...], tuple[str, ...]]


def _period(m: DocumentMeta) -> str:
    end = f"{m.valid_to}" if m.valid_to else "open end"
    releases = (f" for versions {m.applies_to_versions}" if m.applies_to_versions else
                f" for version {m.version}" if m.version else "")
    return f"[{m.valid_from or 'open start'}, {end}){releases}"


def _gaps(family: str, product: str | None, group: list[DocumentMeta],
          bounds: dict[str, tuple[int, int]]) -> list[str]:
    """Warnings for the periods between consecutive versions where nothing applies."""
    warnings: list[str] = []
    for a, b in itertools.pairwise(group):
        if a.valid_to and b.valid_from and bounds[a.source_id][1] < bounds[b.source_id][0]:
            last = b.valid_from - dt.timedelta(1) if not isinstance(
                b.valid_from, dt.datetime) else f"before {b.valid_from.isoformat()}"
            warnings.append(
                f"gap in family {family!r}{f' for product {product!r}' if product else ''}"
                f": nothing applies from {a.valid_to} to {last} "
                f"(between {a.path} and {b.path})"
            )
    return warnings


def _share_facets(a: tuple, b: tuple) -> bool:
    """Two documents' facets leave a case both apply to: per facet, one applies to any value
    or they share one."""
    other = dict(b)
    return all(not values or not other.get(name) or set(values) & set(other[name])
               for name, values in a)


def _overlap(a: DocumentMeta, b: DocumentMeta, rec: dict[str, int],
             bounds: dict[str, tuple[int, int]],
             corrections: dict[str, set[Correction]]) -> str | None:
    """Two overlapping versions: the later-recorded one corrects the other over the overlap
    (recorded in `corrections`, None returned) when it applies to every product of it; else
    what to fix."""
    (fa, ta), (fb, tb) = bounds[a.source_id], bounds[b.source_id]
    ra, rb = rec[a.source_id], rec[b.source_id]
    old, new = (a, b) if ra < rb else (b, a)
    covers = not new.product or (old.product and set(old.product) <= set(new.product))
    if ra != rb and covers:
        corrections[old.source_id].add((max(fa, fb), min(ta, tb), rec[new.source_id],
                                        tuple(sorted(new.access)), tuple(sorted(new.assets))))
        return None
    if ra != rb:
        return "the later-recorded one must apply to every product of the one it corrects"
    if a.release_scoped and b.release_scoped:
        return ("a family holds one document per release: give them different `version`s or "
                "ranges (applies_to_versions) that do not overlap")
    return ("end the older one (valid_to / applies_through) before the newer one starts, or, "
            "if one corrects the other, give it a later `recorded_at`")


def check_families(metas: list[DocumentMeta], rec: dict[str, int],
                    bounds: dict[str, tuple[int, int]],
                    spans: dict[str, tuple[int, int]] | None = None,
                    faceted: dict[str, tuple] | None = None,
                    ) -> tuple[list[str], list[str], dict[str, set[Correction]]]:
    """Versions of one family and product must not overlap on every axis — in time and in
    releases (two documents of different releases may share a period, and two periods may
    share a release) — unless one corrects the other (it was recorded later and applies to
    every product of the one it corrects); gaps between versions are warnings. Returns
    (problems, warnings, corrections by corrected source id).

    A version without a product applies to every product, so it is compared with all of them.
    `bounds`: each version's instants as its filter fields hold them (the index's timezone);
    `spans`: its releases as key ranges (`releases`; absent: every release); `faceted`: its
    declared facets' values — two versions for different values of a facet (an EU and a US
    version) are not versions of one rule, as for products.
    """
    spans, faceted = spans or {}, faceted or {}
    problems: list[str] = []
    warnings: list[str] = []
    corrections: dict[str, set[Correction]] = defaultdict(set)
    families: dict[str, list[DocumentMeta]] = defaultdict(list)
    for m in metas:
        if m.family:
            families[m.family].append(m)
    for family, members in families.items():
        products: set[str | None] = {p for m in members for p in m.product} or {None}
        reported: set[tuple[str, ...]] = set()
        for product in sorted(products, key=lambda p: p or ""):
            group = [m for m in members if not m.product or product in m.product]
            group.sort(key=lambda m: (bounds[m.source_id][0], m.source_id))
            for i, a in enumerate(group):
                for b in group[i + 1:]:
                    pair = tuple(sorted((a.path, b.path)))
                    if pair in reported:
                        continue
                    (fa, ta), (fb, tb) = bounds[a.source_id], bounds[b.source_id]
                    (la, ha), (lb, hb) = (spans.get(x.source_id, (0, 1)) for x in (a, b))
                    if fa < tb and fb < ta and la < hb and lb < ha and _share_facets(
                            faceted.get(a.source_id, ()), faceted.get(b.source_id, ())):
                        reported.add(pair)
                        problem = _overlap(a, b, rec, bounds, corrections)
                        if problem:
                            problems.append(
                                f"overlapping versions of family {family!r}"
                                f"{f' for product {product!r}' if product else ''}: {a.path} "
                                f"{_period(a)} and {b.path} {_period(b)}; {problem}")
            warnings += _gaps(family, product, [m for m in group if not m.release_scoped],
                              bounds)
    problems += [f"{sid}: corrected by {len(c)} later versions, more than {MAX_CORRECTIONS}; "
                 "merge the corrections into one version" for sid, c in corrections.items()
                 if len(c) > MAX_CORRECTIONS]
    return problems, warnings, corrections


__all__ = ["Correction", "check_families"]

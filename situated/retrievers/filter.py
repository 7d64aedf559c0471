"""One `Filter` = applicability(Situation) ∧ permission(Scope) [∧ an optional narrowing],
compiled per backend: a Chroma `where`, a numpy mask for bm25s, and a predicate for the exact
leg and for the final re-check of every returned piece.

The permission clauses come from the scope and are always part of the filter; a caller-supplied
narrowing (`sources`) can only remove pieces, never re-admit them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from situated import releases
from situated.documents import (
    MAX_CORRECTIONS,
    FilterFields,
    ValidFor,
    asset_key,
    end_of_day,
    facet_any_key,
    facet_key,
    role_key,
)
from situated.index.columns import FilterColumns
from situated.situation import Scope, Situation


class Filter(BaseModel):
    """Which pieces may be searched for this request. Built once per request."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    situation: Situation = Field(default_factory=Situation)
    scope: Scope = Field(default_factory=Scope)
    sources: frozenset[str] | None = Field(
        default=None, description="Optional narrowing to these source ids (never widens)."
    )
    timezone: str = Field(default="UTC", description="The index's timezone: a question's day "
                          "means the instant at the end of that day there.")
    latest_release: bool = Field(default=False, description="With no version in the "
                                 "situation, admit only documents that cover the latest "
                                 "release of their line (a question about a moment; listings "
                                 "and changes read every release).")
    superseded: frozenset[str] = Field(default=frozenset(), description="Readable release "
                                       "documents past which a question naming no release "
                                       "reads (`Snapshot.filter`, within the scope).")

    def readable(self) -> Filter:
        """What the caller may read at all: this filter's scope and narrowing, no situation (a
        document of another date or product is readable, just not applicable)."""
        return Filter(scope=self.scope, sources=self.sources, timezone=self.timezone)

    @property
    def known_at(self) -> int | None:
        """The instant the records are read at ("as known on" a day: its end), None = now."""
        d = self.situation.known_on
        return None if d is None else end_of_day(d, self.timezone)

    @property
    def release(self) -> int | None:
        """The situation's release as a key (`releases.key`), None when it names none."""
        v = self.situation.version
        return None if v is None else releases.key_of(v)

    @property
    def latest_only(self) -> bool:
        return self.latest_release and self.situation.version is None

    def moment(self, vf: ValidFor) -> int | None:
        """The instant that decides documents valid for `vf` (None: no date, no clause)."""
        d = self.situation.date_for(vf)
        return None if d is None else end_of_day(d, self.timezone)

    # -- the reference semantics: every other form must agree with this ----------------------
    def admits(self, f: FilterFields) -> bool:
        s = self.situation
        for name, value in s.every_facet:  # the product, then the declared facets
            values = f.facet(name)
            if values and value not in values:
                return False
        t = self.moment(f.valid_for)
        if t is not None and not (f.valid_from_s <= t < f.valid_to_s):
            return False
        k = self.known_at
        if k is not None and f.recorded_s > k:
            return False  # not recorded yet on the day the records are read at
        if t is not None and any(a <= t < b and (k is None or r <= k)
                                 and self.scope.reads(*f.corrector_access_of(j))
                                 for j, (a, b, r) in enumerate(f.corrected)):
            return False  # a correction the caller may read, known by then, replaces it
        r = self.release
        if r is not None and not (f.release_lo <= r < f.release_hi):
            return False
        if self.latest_only and f.source_id in self.superseded:
            return False
        if not self.scope.reads(f.roles, f.assets):
            return False
        if self.sources is not None and f.source_id not in self.sources:
            return False
        return True

    def declared(self, names: Iterable[str]) -> Filter:
        """This filter for an index declaring the facets `names` (`Situation.declared`)."""
        situation = self.situation.declared(names)
        return self if situation is self.situation else self.model_copy(
            update={"situation": situation})

    # -- Chroma ----------------------------------------------------------------------------
    def chroma_where(self) -> dict[str, Any]:
        """The same filter as a Chroma `where` (`_chroma_clauses`)."""
        clauses = _chroma_clauses(self)
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    # -- numpy mask (bm25s and the exact leg) ------------------------------------------------
    def mask(self, cols: FilterColumns) -> np.ndarray:
        """Admitted rows (pieces)."""
        return cols.expand(self.group_mask(cols))

    def group_mask(self, cols: FilterColumns) -> np.ndarray:
        """Admitted groups (documents)."""
        s = self.situation
        m: np.ndarray = np.ones(cols.n, dtype=bool)
        for name, value in s.every_facet:
            m &= cols.facet_mask(name, value)
        for vf in ValidFor:
            t = self.moment(vf)
            if t is None:
                continue
            in_period = (cols.valid_from <= t) & (t < cols.valid_to)
            for j, (a, b, r) in enumerate(cols.corr):
                covered = (a <= t) & (t < b) & cols.corrector_reads(j, self.scope)
                if self.known_at is not None:
                    covered &= r <= self.known_at
                in_period &= ~covered
            m &= (cols.valid_for != cols.vf_code(vf)) | in_period
        if self.known_at is not None:
            m &= cols.recorded <= self.known_at
        release = self.release
        if release is not None:
            m &= (cols.release_lo <= release) & (release < cols.release_hi)
        if self.latest_only and self.superseded:
            m &= ~np.isin(cols.source_ids, np.asarray(sorted(self.superseded), dtype=str))
        m &= cols.any_of(cols.role_any, cols.roles, self.scope.roles)
        m &= cols.any_of(cols.asset_any, cols.assets, self.scope.assets)
        if self.sources is not None:
            m &= np.isin(cols.source_ids, np.asarray(sorted(self.sources), dtype=str))
        return m


def _any(flag: str, keys: list[str]) -> dict[str, Any]:
    options: list[dict[str, Any]] = [{flag: True}] + [{k: True} for k in keys]
    return options[0] if len(options) == 1 else {"$or": options}


def _chroma_clauses(flt: Filter) -> list[dict[str, Any]]:
    """`Filter.admits` clause by clause, in Chroma's operators (ranges compare numbers only:
    every instant and release is stored as a number)."""
    clauses: list[dict[str, Any]] = []
    for name, value in flt.situation.every_facet:  # only the index's declared ones
        clauses.append({"$or": [{facet_any_key(name): True},
                                {facet_key(name, value): True}]})
    for vf in ValidFor:
        t = flt.moment(vf)
        if t is None:
            continue
        clauses.append({"$or": [
            {"valid_for": {"$ne": vf.value}},
            {"$and": [{"valid_from_s": {"$lte": t}}, {"valid_to_s": {"$gt": t}},
                      *_uncorrected_where(t, flt.known_at, flt.scope)]},
        ]})
    if flt.known_at is not None:
        clauses.append({"recorded_s": {"$lte": flt.known_at}})
    r = flt.release
    if r is not None:
        clauses += [{"release_lo": {"$lte": r}}, {"release_hi": {"$gt": r}}]
    if flt.latest_only and flt.superseded:
        clauses.append({"source_id": {"$nin": sorted(flt.superseded)}})
    clauses.append(_any("access_any", [role_key(r) for r in sorted(flt.scope.roles)]))
    clauses.append(_any("assets_any", [asset_key(a) for a in sorted(flt.scope.assets)]))
    if flt.sources is not None:
        clauses.append({"source_id": {"$in": sorted(flt.sources) or ["\x00none"]}})
    return clauses


def _uncorrected_where(t: int, known_at: int | None, scope: Scope) -> list[dict[str, Any]]:
    """No correction known by `known_at`, made by a version `scope` may read, covers instant
    `t` (one clause per slot). Chroma's `$ne` admits a record lacking the key, so "may not
    read the corrector" is: not open to anyone and none of the scope's keys set."""
    out = []
    for j in range(MAX_CORRECTIONS):
        outside: list[dict[str, Any]] = [{f"corr{j}_from_s": {"$gt": t}},
                                         {f"corr{j}_to_s": {"$lte": t}}]
        if known_at is not None:
            outside.append({f"corr{j}_known_s": {"$gt": known_at}})
        for flag, key, values in ((f"corr{j}_access_any", role_key, scope.roles),
                                  (f"corr{j}_assets_any", asset_key, scope.assets)):
            outside.append(_all_of([{flag: {"$ne": True}},
                                    *({f"corr{j}_{key(v)}": {"$ne": True}} for v in values)]))
        out.append({"$or": outside})
    return out


def _all_of(clauses: list[dict[str, Any]]) -> dict[str, Any]:
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}

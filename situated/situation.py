"""What the filter is built from: the asker's situation (from the question) and the caller's
scope (from authentication only, never from the question)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from situated.documents import PRODUCT, ValidFor

FIRST_DAY, LAST_DAY = dt.date(1900, 1, 1), dt.date(2199, 12, 31)  # dates a situation may hold


class Situation(BaseModel):
    """Validated facts about the asker's case; None means unknown."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("purchase_date", "request_date", "as_of", "known_on")
    @classmethod
    def _in_range(cls, value: dt.date | None) -> dt.date | None:
        """Outside this range a date is a mistake (and `9999-12-31`'s end of day overflows)."""
        if value is not None and not FIRST_DAY <= value <= LAST_DAY:
            raise ValueError(f"{value.isoformat()} is outside the supported dates "
                             f"{FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}; give a date "
                             "in that range")
        return value

    product: str | None = None
    version: str | None = Field(
        default=None, description="The release the asker runs (`version: 16.20.2` documents); "
        "None = the latest release of each line.")
    facets: tuple[tuple[str, str], ...] = Field(
        default=(), description="The index's declared facets the asker's case has (`region`: "
        "`EU`), as (name, value) pairs; a mapping is accepted.")
    purchase_date: dt.date | None = None
    request_date: dt.date | None = None
    as_of: dt.date | None = None
    known_on: dt.date | None = Field(
        default=None, description="Answer as the records stood at the end of this day (\"as "
        "known on\"); None = everything recorded so far.")

    def given(self, valid_for: ValidFor) -> dt.date | None:
        """The date the asker gave for exactly this role (no stand-in)."""
        return getattr(self, valid_for.value)

    def date_for(self, valid_for: ValidFor) -> dt.date | None:
        """The date that decides documents whose validity refers to `valid_for`.

        The one place this is resolved (DESIGN "Dates in a question"): the date given for that
        role, else the as-of date, which stands in for every role without a date of its own.
        The filter, the router and the answer's slice all ask here."""
        return getattr(self, valid_for.value) or self.as_of

    @field_validator("facets", mode="before")
    @classmethod
    def _pairs(cls, value):
        """{"region": "EU"} or [("region", "EU")] → sorted pairs, one value per facet."""
        pairs = value.items() if isinstance(value, dict) else value or ()
        out = {}
        for pair in pairs:
            name, v = pair if isinstance(pair, (list, tuple)) and len(pair) == 2 else (None, None)
            if not isinstance(name, str) or not isinstance(v, str) or not v.strip():
                raise ValueError(f"facet {pair!r} must be a name and a non-empty value, e.g. "
                                 "{\"region\": \"EU\"}")
            if name == PRODUCT:
                raise ValueError(f"facet {pair!r}: the product is given as `product`, not "
                                 "among the facets")
            out[name] = v.strip()
        return tuple(sorted(out.items()))

    def facet(self, name: str) -> str | None:
        """The asker's value of facet `name` (the product is the facet every index has)."""
        return self.product if name == PRODUCT else dict(self.facets).get(name)

    def declared(self, names: Iterable[str]) -> Situation:
        """This situation without the facets an index does not declare (`names`): a client's
        carried situation may name any, and they are dropped, never compiled and never echoed.
        No document holds an undeclared facet, so the reference filter admits every document
        for it while a Chroma `where` would require a key never stored: dropping it here keeps
        every form of one filter in agreement."""
        declared = set(names)
        if all(name in declared for name, _ in self.facets):
            return self
        return self.model_copy(update={"facets": tuple(
            (n, v) for n, v in self.facets if n in declared)})

    @property
    def every_facet(self) -> tuple[tuple[str, str], ...]:
        """The facets the asker's case gives, the product first."""
        return (((PRODUCT, self.product),) if self.product else ()) + self.facets

    @field_validator("version")
    @classmethod
    def _a_version(cls, value: str | None) -> str | None:
        if value is None:
            return None
        from situated import releases
        try:
            return str(releases.parse(value))
        except releases.ReleaseError as exc:
            raise ValueError(str(exc)) from None

    def known_facts(self) -> str:
        parts = [f"product {self.product}"] if self.product else []
        if self.version:
            parts.append(f"version {self.version}")
        parts += [f"{name} {value}" for name, value in self.facets]
        for vf in ValidFor:
            d = self.given(vf)
            if d:
                parts.append(f"{vf.value.replace('_', ' ')} {d.isoformat()}")
        if self.known_on:
            parts.append(f"as known on {self.known_on.isoformat()}")
        return "; ".join(parts)


class Scope(BaseModel):
    """Roles and assets the authenticated caller holds. The empty scope reads public text only.

    Stored as sorted tuples (any iterable is accepted) so a scope is hashable, comparable and
    JSON-serialisable."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    roles: tuple[str, ...] = ()
    assets: tuple[str, ...] = ()

    @field_validator("roles", "assets", mode="before")
    @classmethod
    def _sorted(cls, value):
        if isinstance(value, str):
            value = [value]
        return tuple(sorted(set(value or ())))

    def reads(self, roles: tuple[str, ...], assets: tuple[str, ...]) -> bool:
        """True when this scope may read text restricted to `roles` and `assets` (empty: to
        anyone): one of the roles and one of the assets, where any are named."""
        return ((not roles or bool(set(roles) & set(self.roles)))
                and (not assets or bool(set(assets) & set(self.assets))))

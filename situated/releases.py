"""The release axis (docs/design.md "Releases"): documents versioned by release, model or firmware
revision as well as (or instead of) by date.

A document says which release it describes (`version: 16.20.2`) or which releases it covers
(`applies_to_versions: ">=2.1,<3.0"`). Versions are ordered by PEP 440 (`packaging.version`;
SemVer pre-releases such as `1.0.0-beta.1` read as `1.0.0b1`), never as strings. Chroma's range
operators compare numbers only, so each version is stored as an order-preserving integer key
(`key`) and a document's releases as the half-open key range `[lo, hi)`; an unversioned
document covers every key. The filters then compare keys exactly as they compare instants.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from packaging.specifiers import InvalidSpecifier, Specifier, SpecifierSet
from packaging.version import InvalidVersion, Version

ANY_LO, ANY_HI = -1, 1 << 62  # the key range of a document without a release axis
# bits of a key: release components (13 + 3 × 12 bits), then a phase and its number (3 + 10)
_WIDTHS = (13, 12, 12, 12)
_PHASES = {"dev": 0, "a": 1, "b": 2, "rc": 3, None: 4, "post": 5}
_NUM_BITS = 10
_TAIL = 3 + _NUM_BITS


class ReleaseError(ValueError):
    """A version or range that cannot be read or ordered; the message says the fix."""


def parse(text: str) -> Version:
    """A version as written (`v5.3.3`, `1.0.0-beta.1`, `2.1`), or a `ReleaseError`."""
    try:
        v = Version(str(text).strip())
    except InvalidVersion:
        raise ReleaseError(f"{text!r} is not a version; write e.g. 2.1, 16.20.2, v5.3.3 or "
                           "1.0.0-beta.1 (PEP 440 / SemVer)") from None
    _check(v, text)
    return v


def parse_or_none(text: str | None) -> Version | None:
    """`parse`, or None where there is no text or it does not read as a version."""
    try:
        return parse(text) if text else None
    except ReleaseError:
        return None


def _check(v: Version, text: str) -> None:
    if v.epoch or v.local:
        raise ReleaseError(f"{text!r}: epochs (1!) and local parts (+abc) cannot be ordered "
                           "across documents; drop them")
    if len(v.release) > len(_WIDTHS) or any(
            c >= 1 << w for c, w in zip(v.release, _WIDTHS, strict=False)):
        raise ReleaseError(f"{text!r} has more than {len(_WIDTHS)} numbers or a number too "
                           f"large (the first below {1 << _WIDTHS[0]}, the others below "
                           f"{1 << _WIDTHS[1]}); shorten it")
    number = v.pre[1] if v.pre else v.post if v.post is not None else v.dev or 0
    if number >= 1 << _NUM_BITS:
        raise ReleaseError(f"{text!r}: pre-, post- or dev-release number {number} is above "
                           f"{(1 << _NUM_BITS) - 1}")


def _release_bits(release: tuple[int, ...]) -> int:
    out = 0
    for i, width in enumerate(_WIDTHS):
        out = (out << width) | (release[i] if i < len(release) else 0)
    return out


def key(v: Version) -> int:
    """An integer that orders as the versions do (a pre-release's dev part and a post-release's
    dev part are not told apart: ingest refuses two versions with one key)."""
    if v.pre:
        phase, number = _PHASES[v.pre[0]], v.pre[1]
    elif v.post is not None:
        phase, number = _PHASES["post"], v.post
    elif v.dev is not None:
        phase, number = _PHASES["dev"], v.dev
    else:
        phase, number = _PHASES[None], 0
    return (_release_bits(v.release) << _TAIL) | (phase << _NUM_BITS) | number


@lru_cache(maxsize=4096)
def key_of(text: str) -> int:
    """`key(parse(text))`, kept: the filter asks it for every piece it checks."""
    return key(parse(text))


def _floor(release: tuple[int, ...]) -> int:
    """The smallest key of a release (its first dev release)."""
    return _release_bits(release) << _TAIL


def _prefix_end(release: tuple[int, ...]) -> int:
    """The first key after every version that starts with `release` (`2.1.*`)."""
    bumped = (*release[:-1], release[-1] + 1)
    if bumped[-1] >= 1 << _WIDTHS[len(bumped) - 1]:
        return ANY_HI
    return _floor(bumped)


def _one(spec: Specifier) -> tuple[int, int]:
    op, text = spec.operator, spec.version
    if op == "==" and text.endswith(".*"):
        base = parse(text[:-2])
        return _floor(base.release), _prefix_end(base.release)
    v = parse(text)
    k = key(v)
    exact = v.pre is None and v.post is None and v.dev is None
    if op == "==":
        return k, k + 1
    if op == ">=":
        return k, ANY_HI
    if op == ">":  # ">1.0" leaves out 1.0's post-releases too (PEP 440)
        return ((_release_bits(v.release) << _TAIL) | (6 << _NUM_BITS) if exact else k + 1,
                ANY_HI)
    if op == "<=":
        return ANY_LO, k + 1
    if op == "<":  # "<2.0" leaves out 2.0's pre-releases too (PEP 440)
        return ANY_LO, _floor(v.release) if exact else k
    if op == "~=":
        return k, _prefix_end(v.release[:-1])
    raise ReleaseError(f"operator {op!r} in {str(spec)!r} cannot be a range of releases; use "
                       ">=, >, <=, <, ==, == X.* or ~=")


def span(spec: str) -> tuple[int, int]:
    """`applies_to_versions` (">=2.1,<3.0", "2.x", "==16.*") as a key range `[lo, hi)`."""
    clauses = [re.sub(r"\.[xX](?=\s*$)", ".*", c.strip()) for c in str(spec).split(",")]
    text = ",".join(c if re.match(r"[=<>~!]", c) else f"=={c}" for c in clauses)
    try:
        specs = SpecifierSet(text)
    except InvalidSpecifier:
        raise ReleaseError(f"applies_to_versions {spec!r} is not a range of versions; write "
                           "e.g. \">=2.1,<3.0\" or \"2.x\"") from None
    lo, hi = ANY_LO, ANY_HI
    for one in specs:
        a, b = _one(one)
        lo, hi = max(lo, a), min(hi, b)
    if not specs or lo >= hi:
        raise ReleaseError(f"applies_to_versions {spec!r} covers no version; write e.g. "
                           "\">=2.1,<3.0\"")
    return lo, hi


@dataclass(frozen=True)
class Asked:
    """A version as a question says it: the version and whether it names a series ("16.x",
    "Node 18", "0.23" among 0.23.0 and 0.23.3) rather than one release."""

    text: str  # as written
    version: Version
    series: bool

    def covers(self, v: Version) -> bool:
        """`v` is this release, or in this series."""
        if not self.series:
            return v == self.version
        n = len(self.version.release)
        return v.release[:n] == self.version.release


def asked(text: str) -> Asked | None:
    """A question's version mention (`16.20.2`, `v5.3.3`, `16.x`, `18`) read, or None."""
    raw = text.strip().lstrip("vV")
    series = bool(re.search(r"\.[xX*]$", raw))
    v = parse_or_none(re.sub(r"\.[xX*]$", "", raw))
    return Asked(text, v, series) if v is not None else None


def resolve(mention: Asked, declared: list[Version]) -> Version | None:
    """The release a mention means among the `declared` ones: the same release written with
    as many numbers; else the latest of the series it names — "16.x", or a mention with fewer
    numbers than the releases ("Node 18", "5.3" among 5.3.0 and 5.3.3: people name a line by
    its leading numbers, although PEP 440 reads 5.3 as 5.3.0); None when none matches."""
    n = len(mention.version.release)
    if not mention.series:
        exact = [v for v in declared if v == mention.version and len(v.release) <= n]
        if exact:
            return exact[0]
    inside = sorted(v for v in declared if v.release[:n] == mention.version.release
                    and (mention.series or len(v.release) > n))
    if inside:
        return inside[-1]
    if not mention.series:
        return next((v for v in declared if v == mention.version), None)
    return None


def nearest(v: Version, declared: list[Version]) -> list[Version]:
    """The declared versions on either side of `v` (one or two), for "not among the
    versions" answers."""
    ordered = sorted(set(declared))
    below = [x for x in ordered if x < v][-1:]
    above = [x for x in ordered if x > v][:1]
    return [*below, *above]


__all__ = ["ANY_HI", "ANY_LO", "Asked", "ReleaseError", "asked", "key", "key_of", "nearest",
           "parse",
           "resolve", "span"]

"""Front-matter keys that look like a known key spelt otherwise (`Access`, `acess`,
`valid_form`): kept as ordinary metadata such a key would be silently ignored — a misspelt
`access` would make a restricted document public — so it fails closed, naming the key meant."""

from __future__ import annotations

import re
from typing import Any

from situated.documents import KNOWN_KEYS


def _distance(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions)."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, start=1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


_DATE_KEYS = frozenset({"valid_from", "valid_to", "applies_through", "recorded_at"})
_DATE_VALUE = re.compile(r"\d{4}-\d{2}-\d{2}")


def near_key(key: str, value: Any = None) -> str | None:
    """The known key an unknown one looks like a misspelling of: the same after folding case,
    spaces, hyphens and underscores, or within edit distance 2 of it (1 for a key of five
    letters or fewer, so that `lang` stays `lang` and is not read as `link`). Among the keys
    that near, one whose values look like `value` comes first: `valid_form: 2026-01-01` means
    `valid_from` (a date), `valid_form: as_of` means `valid_for`."""
    folded = re.sub(r"[\s\-]+", "_", key.strip().lower())
    if folded in KNOWN_KEYS:
        return folded
    near = sorted((k for k in KNOWN_KEYS if _distance(folded, k) <= (2 if len(k) > 5 else 1)),
                  key=lambda k: (_distance(folded, k), k))
    if value is None or not near:
        return near[0] if near else None
    dated = bool(_DATE_VALUE.match(str(value).strip()))
    return next((k for k in near if (k in _DATE_KEYS) is dated), near[0])


def key_problems(raw: dict[str, Any], path: str) -> list[str]:
    """Keys that look like a known key spelt otherwise (`Access`, `acess`, `asets`,
    `valid_form`, `products`). Kept as ordinary metadata such a key would be silently ignored —
    a misspelt `access` would make a restricted document public — so it is refused, naming the
    key meant. Unknown keys far from every known key stay as ordinary metadata."""
    problems: list[str] = []
    for key, value in raw.items():
        if not isinstance(key, str) or key in KNOWN_KEYS:
            continue
        meant = near_key(key, value)
        if meant is not None and key.strip().lower() == meant:
            problems.append(f"{path}: key {key!r} is not {meant!r}; keys are lower case: "
                            f"write `{meant}:`")
        elif meant is not None:
            problems.append(f"{path}: key {key!r} looks like a misspelt {meant!r}; write "
                            f"`{meant}:` (or rename the key so it is not mistaken for it)")
    return problems


__all__ = ["key_problems", "near_key"]

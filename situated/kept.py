"""What is kept per caller scope (matchers, readable values, release lines): made once per key,
the store cleared past a bound. Scopes are few in practice; a flood of keys costs one rebuild,
never a wrong value."""

from __future__ import annotations

from collections.abc import Callable, Hashable, MutableMapping
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")
PER_SCOPE = 1024  # keys kept before the store is cleared


def kept(store: MutableMapping[K, T], key: K, make: Callable[[], T],
         most: int = PER_SCOPE) -> T:
    """`store[key]`, made by `make()` the first time (the store is cleared once it holds more
    than `most` keys)."""
    if key not in store:
        value = make()
        if len(store) > most:
            store.clear()
        store[key] = value
    return store[key]


__all__ = ["PER_SCOPE", "kept"]

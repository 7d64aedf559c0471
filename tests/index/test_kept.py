"""What is kept per caller scope (`situated.kept`)."""

from __future__ import annotations

import pytest


@pytest.mark.unit
def test_what_is_kept_per_scope_is_made_once_and_the_store_is_bounded():
    from situated.kept import kept

    made: list[int] = []
    store: dict[int, int] = {}
    for key in (1, 1, 2, 1):
        assert kept(store, key, lambda k=key: made.append(k) or k * 10, most=1) == key * 10
    assert made == [1, 2]  # each made once while kept
    kept(store, 3, lambda: 30, most=1)  # past the bound: cleared, then kept
    assert store == {3: 30}

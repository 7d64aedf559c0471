"""The token budget: evidence allowance = window − reserved input − reserved output.

Blocks are packed whole, in rank order. `PREFIX` (default) stops at the first block that does
not fit (a block that fills the remaining room exactly fits); `SKIP_OVERSIZED` skips it and
tries the next ones. Counting is pluggable: the offline model counts with MiniLM's own
`tokenizer.json`; for other models the count is multiplied by a safety margin (see docs/reference.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from situated.settings import BudgetPolicy

TokenCounter = Callable[[str], int]


@dataclass(frozen=True)
class Budget:
    """What packs one answer's evidence: the chat model's token counter, the allowance and the
    policy (the same for a model's answer and a change answer written by code)."""

    count: TokenCounter
    allowance: int
    policy: BudgetPolicy = BudgetPolicy.PREFIX


def fit(costs: list[int], allowance: int, policy: BudgetPolicy = BudgetPolicy.PREFIX) -> list[int]:
    """Indices of the blocks kept, in order."""
    if allowance < 0:
        raise ValueError(f"allowance must be >= 0, got {allowance}")
    kept: list[int] = []
    used = 0
    for i, cost in enumerate(costs):
        if used + cost <= allowance:
            kept.append(i)
            used += cost
        elif policy is BudgetPolicy.PREFIX:
            break
    return kept


def margin_counter(count: TokenCounter, margin: float) -> TokenCounter:
    """Round a foreign tokenizer's count up by `margin` (1.15 = 15% head-room)."""
    if margin == 1.0:
        return count
    return lambda text: math.ceil(count(text) * margin)

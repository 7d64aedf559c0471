"""Chains: evidence packing and the answer contract (extraction and routing come next)."""

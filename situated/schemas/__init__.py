"""Package data: the JSON Schema of the answer contract (generated; see chains/contract.py)."""

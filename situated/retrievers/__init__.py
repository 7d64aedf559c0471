"""Search legs (exact codes, BM25, vectors), the filter they all apply, fusion and parent swap."""

"""The persistent index: Chroma pieces, block docstore, bm25s index and manifest in one directory."""

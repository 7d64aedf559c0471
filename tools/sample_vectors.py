"""Write the sample corpus's vectors (`situated/sample/vectors.npz`) and their sha256 into
`situated/index/sample_vectors.py`: the sample is built into a temporary folder with an empty
embedding cache, and every vector that build embedded is kept (`sample_vectors.write_vectors`).
Run it after editing the sample corpus or changing a model:

    python tools/sample_vectors.py
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from situated.app import App
from situated.index import sample_vectors
from situated.index.cache import EmbeddingCache
from situated.index.writer import build_index, sample_corpus
from situated.settings import Settings


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(index_dir=Path(tmp) / "index", cache_dir=Path(tmp) / "cache")
        embeddings = App(settings).embeddings
        corpus = sample_corpus(settings, embeddings)
        cache = EmbeddingCache.of(settings)
        build_index(corpus, settings.index_dir, embeddings, settings, cache=cache)
        sha = sample_vectors.write_vectors(cache)
        cache.close()
    module = Path(sample_vectors.__file__)
    text = re.sub(r'^SHA256 = "[0-9a-f]{64}"$', f'SHA256 = "{sha}"', module.read_text("utf-8"),
                  flags=re.M)
    module.write_text(text, encoding="utf-8")
    print(f"{sample_vectors.SAMPLE_VECTORS} written; sha256 {sha} set in {module}")


if __name__ == "__main__":
    main()

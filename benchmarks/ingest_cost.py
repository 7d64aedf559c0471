"""What the sentence vectors add to an ingest of real pages: how many distinct quotable units a
corpus has beside its pieces, the time to embed them beside the pieces' time (same model, same
batch size, a sample of each, extrapolated), and their size on disk.

    python benchmarks/ingest_cost.py [--docs DIR] [--index DIR] [--sample 2000] [--out benchmarks/results]

Defaults: the genai-eu documents and index built by `benchmarks/temporal_probe.py`. Prints a
table and writes JSON (`ingest_cost.json`).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from _provenance import write_result
from rich.console import Console
from rich.table import Table

from situated.index.embeddings import MiniLMEmbeddings
from situated.index.sentences import block_units
from situated.loaders.corpus import load_corpus
from situated.loaders.sizing import BlockLimit
from situated.settings import Settings

HERE = Path(__file__).resolve().parent


def dir_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def per_text_s(emb: MiniLMEmbeddings, texts: list[str], sample: int, rnd: random.Random) -> float:
    chosen = rnd.sample(texts, min(sample, len(texts)))
    emb.encode(chosen[:64])  # warm-up
    t = time.perf_counter()
    emb.encode(chosen)
    return (time.perf_counter() - t) / len(chosen)


def main() -> None:
    work = HERE / "cache" / "temporal-probe"
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=Path, default=work / "docs")
    ap.add_argument("--index", type=Path, default=work / "index")
    ap.add_argument("--sample", type=int, default=2000)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    settings = Settings(index_dir=args.index)
    emb = MiniLMEmbeddings(batch_size=settings.embed_batch_size)
    corpus = load_corpus([args.docs], timezone=settings.timezone, limit=BlockLimit(
        settings.block_limit, emb.count_tokens, piece_tokens=emb.max_tokens))
    pieces = list(dict.fromkeys(p.search_text for d in corpus.documents for p in d.pieces))
    units = block_units(b.text for d in corpus.documents for b in d.blocks)
    rnd = random.Random(3)
    piece_s, unit_s = per_text_s(emb, pieces, args.sample, rnd), per_text_s(emb, units,
                                                                          args.sample, rnd)
    gen = (args.index / "current").resolve()
    row = {"documents": len(corpus.documents), "blocks": corpus.n_blocks,
           "pieces": corpus.n_pieces, "distinct_piece_texts": len(pieces),
           "distinct_units": len(units), "piece_embed_s": piece_s * len(pieces),
           "unit_embed_s": unit_s * len(units),
           "index_mb": dir_mb(gen) if gen.exists() else None,
           "sentences_mb": dir_mb(gen / "sentences") if (gen / "sentences").exists() else None}
    row["added_embedding_share"] = row["unit_embed_s"] / row["piece_embed_s"]
    if row["index_mb"] and row["sentences_mb"]:
        row["added_size_share"] = row["sentences_mb"] / (row["index_mb"] - row["sentences_mb"])
    t = Table(title=f"sentence vectors on {args.docs} (sample {args.sample} of each)")
    for col in ("pieces", "units", "embed pieces s", "embed units s", "+ embedding",
                "sentences MB", "+ size"):
        t.add_column(col, justify="right")
    t.add_row(f"{row['pieces']:,}", f"{row['distinct_units']:,}", f"{row['piece_embed_s']:.0f}",
              f"{row['unit_embed_s']:.0f}", f"{row['added_embedding_share']:.1%}",
              f"{row['sentences_mb'] or 0:.1f}", f"{row.get('added_size_share', 0):.1%}")
    Console().print(t)
    write_result(args.out / "ingest_cost.json", row)


if __name__ == "__main__":
    main()

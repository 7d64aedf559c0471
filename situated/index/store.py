"""The persistent index's shared vocabulary: layout, manifest, Chroma clients.

Layout of an index directory:

    INDEX/
      current -> generations/<id>     symlink, switched atomically on publish
      generations/<id>/
        manifest.json                 schema, embedding model id, timezone, corpus hash, counts
        store.sqlite                  rows by key: documents (metadata, content hash, filter
                                      fields), blocks (the parent docstore), pieces (search
                                      text, codes), code postings (`docstore`)
        columns/                      numpy arrays, memory-mapped by readers: piece → document
                                      and → block, version families, the filter columns
        history.jsonl                 when each version became known (and was superseded)
        bm25/                         the saved bm25s index (one row per piece, same order)
        bm25-blocks/                  the BM25 block field (one row per block)
        sentences/                    vectors of every block's quotable sentences, by text hash
        chroma/                       Chroma persistent collection `pieces` (ids = piece ids)

Jobs live apart: `writer` builds a generation, `publisher` switches `current` and prunes,
`reader` opens one generation for search.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field

from situated.errors import IndexError_
from situated.modes import Mode

if TYPE_CHECKING:
    from situated.documents import LoadedDocument
    from situated.settings import Settings

# 2: epoch-second bounds, timezone; 3: recorded history; 4: row store + columns;
# 5: sentence vectors (`index.sentences`); 6: piece ids by position (the vector leg's `ids`);
# 7: evidence neutralised for any Markdown renderer — the sentence store is keyed by that text;
# 8: the release axis (`release_lo`, `release_hi`, `release_latest` on every piece);
# 9: no `release_latest`: the latest release is decided per caller (`Filter.superseded`);
# 10: each unit under its section's title (`sentences_titled/`), the relevance rule's signal
# 11: who may read each correction's corrector (`corrector_access`, `corr{j}_access_any`);
#     the public pieces' own bm25s index (`bm25-public`)
SCHEMA_VERSION = 11
PUBLIC_BM25 = "bm25-public"  # the pieces' bm25s index over public pieces (`writer`)
COLLECTION = "pieces"


class ThresholdSource(Mode):
    CALIBRATED = "calibrated"  # set by `situated.calibration` on this index's own questions
    DEFAULT = "default"  # the package default (see `Thresholds.default`)
    SETTINGS = "settings"  # given explicitly in the settings


# multilingual-e5-small 4-bit, the multilingual leg: set on the dev half of XQuAD (Russian and
# English twins) with the shipped off-topic questions (docs/reference.md "Multilingual leg")
DEFAULT_MIN_MULTILINGUAL = 0.84
DEFAULT_MIN_MULTILINGUAL_ACROSS = 0.82


class Thresholds(BaseModel):
    """The relevance decision of one index, and where its numbers come from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min_cover: float = Field(ge=0, le=1)
    min_cosine: float = Field(ge=-1, le=1)
    min_cosine_in_product: float | None = Field(
        default=None, ge=-1, le=1, description="The cosine floor of a question asked within one "
        "product's documents (fewer candidates, so off-topic questions score lower there than "
        "across the index); None: `min_cosine`.")
    min_sentence: float | None = Field(
        default=None, ge=-1, le=1, description="The floor of a block's best sentence cosine "
        "(its quotable units, embedded bare at ingest; a piece is embedded with its title and "
        "headings, which hides a short paraphrase of one sentence): a block over it is relevant "
        "as one over `min_cosine` is. None: the sentence cosine decides nothing (the package "
        "default, and thresholds written before it).")
    min_sentence_in_product: float | None = Field(
        default=None, ge=-1, le=1, description="The same within one product's documents; None: "
        "`min_sentence`.")
    min_multilingual: float = Field(
        default=DEFAULT_MIN_MULTILINGUAL, ge=-1, le=1, description="The multilingual leg's "
        "cosine floor for a question and a block in the same script, where all-MiniLM-L6-v2 "
        "cannot read them (a Russian question and a Russian block).")
    min_multilingual_across: float = Field(
        default=DEFAULT_MIN_MULTILINGUAL_ACROSS, ge=-1, le=1, description="The same for a "
        "question and a block in different scripts (a Russian question and an English block): "
        "across languages, related pairs score lower, so one floor cannot serve both.")
    min_standing_across: float | None = Field(
        default=None, ge=-1, le=1, description="The floor of a block's standing across scripts: "
        "its multilingual cosine less the mean cosine of the admitted pieces in its script "
        "(`Signals.standing`). None: standing decides nothing; `sized` sets the package's for "
        "the pieces a search admits (`package_standing`).")
    sentence_floor: float | None = Field(
        default=None, ge=-1, le=1, description="The package's floor of a block's best "
        "sentence cosine in a search over `FLOOR_PIECES` candidates (`sized` raises it with "
        "the log of the admitted pieces); None: no package floor (a model without one).")
    source: ThresholdSource
    note: str = Field(default="", description="How the thresholds were set, for the asker.")
    dev: dict[str, float] | None = Field(
        default=None, description="precision, recall, positives, negatives on the dev half")
    held_out: dict[str, float] | None = Field(
        default=None, description="the same on the held-out half (never used to set them)")

    def multilingual_floor(self, same_script: bool) -> float:
        """The multilingual cosine a block needs (`retrievers.relevance.Signals`)."""
        return self.min_multilingual if same_script else self.min_multilingual_across

    def floored(self, package: Thresholds) -> Thresholds:
        """These thresholds, each cosine floor raised to at least the package's (`package`:
        `Thresholds.default` of the index's model): a calibration may raise a floor, never
        lower it (its own off-topic questions put an index of 20 privacy policies at 0.185,
        where a quarter of the off-topic questions asked within a site were answered)."""
        update = {}
        for name in ("min_cosine", "min_cosine_in_product"):
            value = getattr(self, name)
            if value is not None and value < package.min_cosine:
                update[name] = package.min_cosine
        if package.sentence_floor is not None:
            update["sentence_floor"] = package.sentence_floor
        return self.model_copy(update=update) if update else self

    def sized(self, admitted: int) -> Thresholds:
        """The thresholds of a search over `admitted` pieces: the sentence floor and the
        standing across scripts at least the package's for that many candidates
        (`package_sentence_floor`, `package_standing`)."""
        update = {}
        if self.sentence_floor is not None:
            floor = package_sentence_floor(self.sentence_floor, admitted)
            if self.min_sentence is None or self.min_sentence < floor:
                update["min_sentence"] = floor
        standing = package_standing(admitted)
        if self.min_standing_across is None or self.min_standing_across < standing:
            update["min_standing_across"] = standing
        return self.model_copy(update=update) if update else self

    def for_search(self, in_product: bool, admitted: int) -> Thresholds:
        """The thresholds that decide one search: within one product's documents or across
        the index (`scoped`), sized to the `admitted` pieces (`sized`; 0: nothing searched)."""
        th = self.scoped(in_product)
        return th.sized(admitted) if admitted else th

    def scoped(self, in_product: bool) -> Thresholds:
        """The thresholds of a question asked within one product's documents (`in_product`)
        or across the index."""
        if not in_product:
            return self
        update = {}
        if self.min_cosine_in_product is not None:
            update["min_cosine"] = self.min_cosine_in_product
        if self.min_sentence_in_product is not None:
            update["min_sentence"] = self.min_sentence_in_product
        return self.model_copy(update=update) if update else self

    @classmethod
    def default(cls, embedding_model: str | None = None) -> Thresholds:
        """Set by `benchmarks/calibrate_floor.py` on the dev half of the genai-eu terms corpus
        (real terms-of-service pages; not the sample), one cosine per embedding model (a
        model's cosines have their own scale: e5's unrelated pairs score ~0.75); see docs/reference.md
        "Relevance". `embedding_model`: the index's model id (its manifest)."""
        name = (embedding_model or "").split(" (")[0]
        return cls(min_cover=DEFAULT_MIN_COVER,
                   min_cosine=DEFAULT_MIN_COSINE_BY_MODEL.get(name, DEFAULT_MIN_COSINE),
                   sentence_floor=SENTENCE_FLOOR_BY_MODEL.get(name, SENTENCE_FLOOR),
                   source=ThresholdSource.DEFAULT,
                   note="package default, set on the dev halves of other corpora (real terms "
                        "pages, privacy policies, small corpora in other domains; not this "
                        "index): `situated calibrate --index DIR --write` raises it to this "
                        "index's own where they are higher")


DEFAULT_MIN_COVER = 0.5
DEFAULT_MIN_COSINE = 0.435  # all-MiniLM-L6-v2
DEFAULT_MIN_COSINE_BY_MODEL = {
    "all-MiniLM-L6-v2": DEFAULT_MIN_COSINE,
    "multilingual-e5-small 4-bit": 0.865,  # genai-eu dev half, 2026-12-01 (docs/reference.md "Embedding models")
}


# The package floor of the best sentence cosine (all-MiniLM-L6-v2), one rule for every index:
# set on the dev halves of four kinds of index at once (`benchmarks/relevance_rule.py`: two
# small corpora of 3 documents in other domains, PolicyQA within a site and across its 20
# sites) with paraphrased and natural questions beside far and near-domain off-topic ones.
# The best of N strangers' cosines rises with N, so the floor rises with the log of the
# candidates a search admits: SENTENCE_FLOOR at FLOOR_PIECES, + SENTENCE_FLOOR_PER_DECADE for
# each tenfold more (0.38 over 10 pieces, 0.44 over 1,000, 0.47 over 10,000).
SENTENCE_FLOOR = 0.38
SENTENCE_FLOOR_PER_DECADE = 0.03
FLOOR_PIECES = 10
SENTENCE_FLOOR_BY_MODEL = {
    "all-MiniLM-L6-v2": SENTENCE_FLOOR,
    "multilingual-e5-small 4-bit": None,  # its cosines have another scale: not measured
}


def package_sentence_floor(floor: float, admitted: int) -> float:
    """`floor` (the package's at `FLOOR_PIECES` candidates) for a search over `admitted`."""
    return round(floor + SENTENCE_FLOOR_PER_DECADE * math.log10(max(admitted, 1) / FLOOR_PIECES),
                 3)


# A block's standing across scripts (`retrievers.relevance.Signals.standing`): how far its
# multilingual-e5 cosine stands above the mean of the admitted pieces in its script. e5 scores
# every Russian question about 0.79 against English text, so an absolute floor tells little
# there (AUC 0.55-0.58 on XQuAD's Russian questions over the English articles); the standing
# tells 0.92. Set on XQuAD's dev half (Russian over English and English over Russian, beside
# the shipped off-topic questions' dev half); the best of N strangers rises with N, so it rises
# with the log of the candidates as the sentence floor does (0.07 over 10 pieces, 0.09 over
# 1,000; docs/design.md "Standing across languages").
STANDING_ACROSS = 0.07
STANDING_PER_DECADE = 0.01


def package_standing(admitted: int) -> float:
    """The package's floor of a block's standing across scripts over `admitted` pieces."""
    return round(STANDING_ACROSS + STANDING_PER_DECADE
                 * math.log10(max(admitted, 1) / FLOOR_PIECES), 3)


# Chroma keeps the pieces written since its last sync of the HNSW graph (up to
# `sync_threshold`, 1,000 by default) outside the saved graph and inserts them again, on several
# threads, each time a process opens the store: the graph, and so one question's approximate
# neighbours, then differed between processes (1 to 4 answers in 300 on the httpx probe listed
# other evidence). Syncing on every write saves the whole graph, so every process that opens a
# generation searches the same one (docs/design.md "One graph per generation").
GRAPH_SYNC = 2  # the least Chroma accepts
HNSW = {"space": "cosine", "sync_threshold": GRAPH_SYNC}


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int
    embedding_model: str
    chroma_url: str | None = None  # None: embedded store in the generation directory
    collection: str = COLLECTION
    corpus_hash: str
    created_at: str
    documents: int
    blocks: int
    pieces: int
    products: list[str]
    # declared other names of products: (alias, product, the declaring document's source id)
    aliases: list[tuple[str, str, str]] = Field(default_factory=list)
    timezone: str = "UTC"  # date-only bounds and date-only questions are read here
    facets: list[str] = Field(default_factory=list)  # declared situation facets (settings)
    block_limit: int | None = None  # tokens; sections longer than this were split
    split_sections: int = 0  # how many sections were split into parts to fit the limit
    sentences: int = 0  # distinct quotable units embedded at ingest (`index.sentences`)
    titled: int = 0  # ... and distinct units under their sections' titles (`index.titled`)
    multilingual_model: str | None = None  # the multilingual leg's model; None: no such leg
    warnings: list[str]
    sources: dict[str, str]  # source_id -> content hash
    relevance: Thresholds | None = None  # set by calibration at ingest; None: the default
    # the HNSW graph's sync threshold the store was written with; None: Chroma's default (an
    # index written before `GRAPH_SYNC`: its store is rebuilt, not copied, by the next ingest)
    graph_sync: int | None = None

    def current_format(self) -> bool:
        """Written in this version's format: its schema, and a vector graph saved whole."""
        return self.schema_version == SCHEMA_VERSION and self.graph_sync == GRAPH_SYNC

    def built_as(self, settings: Settings, model_id: str) -> bool:
        """Its pieces and vectors are what `settings` and the embedding model `model_id` would
        make now: the current format, the same model, timezone, block limit and vector store
        (the one check an ingest makes before it copies or keeps a generation)."""
        return (self.current_format() and self.embedding_model == model_id
                and self.timezone == settings.timezone and self.block_limit == settings.block_limit
                and self.chroma_url == settings.chroma_url)


def chroma_client(path: Path, url: str | None = None):
    """The embedded store in the generation directory, or a Chroma server (`chroma run`) when
    `url` (settings `chroma_url`) is given."""
    from situated.process import offline_environment

    offline_environment()  # before chromadb reads its telemetry setting
    import chromadb

    if url:
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise IndexError_(f"chroma_url must look like http://127.0.0.1:8001, got {url!r}")
        try:
            return chromadb.HttpClient(
                host=parsed.hostname, port=parsed.port or (443 if parsed.scheme == "https" else 80),
                ssl=parsed.scheme == "https",
                settings=chromadb.Settings(anonymized_telemetry=False))
        except Exception as exc:  # chromadb raises plain ValueError/ConnectError here
            raise IndexError_(f"cannot reach the Chroma server at {url} ({exc}); start it with "
                              "`chroma run --path DIR --host 127.0.0.1 --port N`") from None
    return chromadb.PersistentClient(
        path=str(path), settings=chromadb.Settings(anonymized_telemetry=False)
    )


def collection_name(generation: str, url: str | None) -> str:
    """One collection per generation on a server (it hosts them all); `pieces` when embedded."""
    return f"{COLLECTION}-{generation}" if url else COLLECTION


def release_chroma(path: Path) -> None:
    """Stop Chroma's shared system for the embedded store at `path` (its files closed) so the
    directory can be moved or removed; the stores of other paths (open readers) are untouched.
    Chroma keeps one system per path in a class-level cache that only `clear_system_cache`
    (every path) or the last client's `close()` empties."""
    from chromadb.api.shared_system_client import SharedSystemClient

    system = SharedSystemClient._identifier_to_system.pop(str(path), None)
    SharedSystemClient._identifier_to_refcount.pop(str(path), None)
    if system is not None:
        system.stop()


def history_record(doc: LoadedDocument) -> dict:
    """One open line of a generation's `history.jsonl`: this version, when it became known."""
    return {"source_id": doc.meta.source_id, "content_hash": doc.content_hash,
            "recorded_s": doc.blocks[0].fields.recorded_s, "superseded_s": None}


def current_generation(root: Path) -> Path:
    link = Path(root) / "current"
    if not link.exists():
        raise IndexError_(
            f"no index at {root}; build one with `situated ingest PATH --index {root}`"
        )
    return link.resolve()


def sample_docs_dir() -> Path:
    return Path(__file__).resolve().parents[1] / "sample" / "docs"


SAMPLE_STAMP = "sample.stamp"


MULTILINGUAL_LAYOUT = 2  # the multilingual leg's files (`index.multilingual`): pieces, sentences


def sample_stamp(settings, model_id: str) -> str:
    """What a built sample index was made from, without parsing it: every sample file's path
    and bytes, the loaders' source, the schema, the model and the settings an index records.
    `ensure_sample_index` writes it after checking the index; an `ask` that finds it equal
    opens the index without loading the corpus (or importing the writer)."""
    import hashlib
    import json

    digest = hashlib.sha256(json.dumps(
        [SCHEMA_VERSION, model_id, list(settings.facets), settings.chroma_url,
         settings.timezone, settings.block_limit, settings.multilingual_leg,
         MULTILINGUAL_LAYOUT]).encode())
    package = Path(__file__).resolve().parents[1]
    files = [*sorted(p for p in sample_docs_dir().rglob("*") if p.is_file()),
             *sorted((package / "loaders").glob("*.py"))]
    for path in files:
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()

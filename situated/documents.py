"""The typed structure every loader produces: document metadata, parent blocks, child pieces.

A *block* is what the model reads (a whole section, a whole table with its scope and header,
a figure with image and page, a slide); a *piece* is what the search legs match, and always
points at its block through `block_id` (LangChain's `parent_id`).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, Strict

from situated import releases
from situated.modes import Mode

OPEN_START = -(10**13)  # stored instead of a missing valid_from (Chroma needs the key)
OPEN_END = 10**13  # stored instead of a missing valid_to
MAX_CORRECTIONS = 3  # later-recorded versions that may correct parts of one version's period
# A validity bound is a calendar date (read in the index's timezone) or an instant with a UTC
# offset. Strict types keep the two apart through JSON (a lax date would swallow a midnight
# instant and drop its offset).
Bound = Annotated[
    Annotated[dt.date, Strict()] | Annotated[dt.datetime, Strict()] | None,
    Field(union_mode="left_to_right"),
]


def instant(bound: dt.date | dt.datetime, timezone: str = "UTC") -> int:
    """A bound as epoch seconds (Chroma's range operators compare numbers only): an instant as
    itself, a date as the midnight that starts it in `timezone`."""
    if isinstance(bound, dt.datetime):
        if bound.tzinfo is None:
            bound = bound.replace(tzinfo=ZoneInfo(timezone))
        return int(bound.timestamp())
    return int(dt.datetime.combine(bound, dt.time(), ZoneInfo(timezone)).timestamp())


def end_of_day(day: dt.date, timezone: str = "UTC") -> int:
    """The last second of `day` in `timezone`: a question that names a day means the version in
    force at the end of it (when one day holds two versions, the later one)."""
    return instant(day + dt.timedelta(days=1), timezone) - 1


# the facet every index has (docs/design.md "Facets"): the index's declared facets follow it
PRODUCT = "product"

# the front-matter keys of the document format (DESIGN "Documents"); any other key is kept as
# ordinary metadata, or is a situation facet an index declares (`Settings.facets`)
KNOWN_KEYS = {
    "source_id", "title", "revision", "product", "valid_from", "valid_to", "applies_through",
    "valid_for", "family", "access", "assets", "recorded_at", "link", "kind", "version",
    "applies_to_versions", "aliases",
}


class ValidFor(Mode):
    """Which date of the asker's situation a document's validity period refers to."""

    PURCHASE_DATE = "purchase_date"
    REQUEST_DATE = "request_date"
    AS_OF = "as_of"


class DocKind(Mode):
    """What a document is (`kind:`). A document at a release is a reference (the state at its
    release) unless it is `notes` (what changed in its release: `loaders.notes`)."""

    DOCUMENT = "document"  # undeclared: a reference, or notes when titled or shaped as such
    SLIDES = "slides"
    NOTES = "notes"
    REFERENCE = "reference"  # declared: never read as notes


class BlockKind(Mode):
    SECTION = "section"
    TABLE = "table"
    FIGURE = "figure"
    SLIDE = "slide"


class DocumentMeta(BaseModel):
    """Validated front matter (or sidecar / JSON metadata) of one document."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source_id: str
    path: str = Field(description="File the document came from, for error messages.")
    title: str | None = None
    revision: str | None = None
    product: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()  # other names of its one product ("Node", "NodeJS")
    valid_from: Bound = None
    valid_to: Bound = None  # exclusive
    valid_for: ValidFor = ValidFor.PURCHASE_DATE
    family: str | None = None
    version: str | None = None  # the release it describes (PEP 440 / SemVer), normalised
    applies_to_versions: str | None = None  # the releases it covers: ">=2.1,<3.0", "2.x"
    access: tuple[str, ...] = ()
    assets: tuple[str, ...] = ()
    recorded_at: dt.datetime | None = None
    link: str | None = None
    kind: DocKind = DocKind.DOCUMENT
    extra: dict[str, Any] = Field(default_factory=dict)

    @property
    def base_link(self) -> str:
        return self.link or f"/documents/{self.source_id}"

    @property
    def date_scoped(self) -> bool:
        """The document applies within a period (`FilterFields.date_scoped`: one rule)."""
        return self.filter_fields().date_scoped

    @property
    def release_scoped(self) -> bool:
        """The document applies to some releases only (`version` or `applies_to_versions`)."""
        return self.version is not None or self.applies_to_versions is not None

    @property
    def declared_version(self) -> str:
        """`version`, of a document already known to declare one (an error naming the
        document otherwise)."""
        if self.version is None:
            raise ValueError(f"{self.source_id} declares no version; it was read as one that "
                             "does")
        return self.version

    def release_span(self) -> tuple[int, int]:
        """The releases it covers as a key range `[lo, hi)` (`releases.span`); every key when
        it has no release axis."""
        if self.applies_to_versions is not None:
            return releases.span(self.applies_to_versions)
        if self.version is not None:
            k = releases.key_of(self.version)
            return k, k + 1
        return releases.ANY_LO, releases.ANY_HI

    def filter_fields(self, timezone: str = "UTC") -> FilterFields:
        """The filterable fields; date-only bounds are read in the index's `timezone`."""
        lo, hi = self.release_span()
        return FilterFields(
            release_lo=lo, release_hi=hi,
            source_id=self.source_id,
            products=self.product,
            valid_for=self.valid_for,
            valid_from_s=instant(self.valid_from, timezone) if self.valid_from else OPEN_START,
            valid_to_s=instant(self.valid_to, timezone) if self.valid_to else OPEN_END,
            roles=self.access,
            assets=self.assets,
            recorded_s=instant(self.recorded_at, timezone) if self.recorded_at else OPEN_START,
        )


class FilterFields(BaseModel):
    """The filterable metadata every piece carries, in the form the filters compile against."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source_id: str
    products: tuple[str, ...] = ()  # empty = any product
    valid_for: ValidFor = ValidFor.PURCHASE_DATE
    valid_from_s: int = OPEN_START  # epoch seconds, inclusive
    valid_to_s: int = OPEN_END  # epoch seconds, exclusive
    roles: tuple[str, ...] = ()  # empty = anyone
    assets: tuple[str, ...] = ()  # empty = any asset
    # recorded history (docs/design.md "Recorded history"): when this version became known, and the
    # parts of its period that later-recorded corrections replace: (from_s, to_s, known_from_s)
    recorded_s: int = OPEN_START
    corrected: tuple[tuple[int, int, int], ...] = ()
    # who may read each correction's corrector, by slot: (roles, assets), empty = anyone; a
    # slot without an entry was written by anyone's corrector. A correction applies only for a
    # caller who may read the version that makes it (`corrector_reads`): a restricted
    # correction changes nothing a caller without it sees
    corrector_access: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    # the release axis (`situated.releases`): the releases covered as keys [lo, hi); a
    # document without one covers all. Which release is a line's latest depends on who asks,
    # so it is decided per caller (`Filter.superseded`), never stored
    release_lo: int = releases.ANY_LO
    release_hi: int = releases.ANY_HI
    # the index's declared facets (`Settings.facets`), each with the values the document
    # applies to (empty: any), in the order declared
    facets: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def facet(self, name: str) -> tuple[str, ...]:
        """The values this document applies to on facet `name` (empty: any); the product is
        the facet every index has."""
        if name == PRODUCT:
            return self.products
        return next((values for key, values in self.facets if key == name), ())

    @property
    def every_facet(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The product, then the index's declared facets, each with its values."""
        return ((PRODUCT, self.products), *self.facets)

    def corrector_access_of(self, slot: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Who may read the version that makes correction `slot`: (roles, assets)."""
        return self.corrector_access[slot] if slot < len(self.corrector_access) else ((), ())

    @property
    def date_scoped(self) -> bool:
        return self.valid_from_s != OPEN_START or self.valid_to_s != OPEN_END

    @property
    def release_scoped(self) -> bool:
        return self.release_lo != releases.ANY_LO or self.release_hi != releases.ANY_HI

    def to_chroma(self, block_id: str) -> dict[str, str | int | bool]:
        """Flat scalar metadata for Chroma. Lists become one boolean key per value, and every
        key is always present (`*_any` flags, open-range bounds) because Chroma's positive
        operators exclude records that lack a key."""
        md: dict[str, str | int | bool] = {
            "source_id": self.source_id,
            "parent_id": block_id,
            "valid_for": self.valid_for.value,
            "valid_from_s": self.valid_from_s,
            "valid_to_s": self.valid_to_s,
            "access_any": not self.roles,
            "assets_any": not self.assets,
            "recorded_s": self.recorded_s,
            "release_lo": self.release_lo,
            "release_hi": self.release_hi,
        }
        for key, values in self.every_facet:  # per facet a flag and one key per value
            md[facet_any_key(key)] = not values
            for v in values:
                md[facet_key(key, v)] = True
        for j in range(MAX_CORRECTIONS):  # every key always present, neutral when unused
            a, b, r = self.corrected[j] if j < len(self.corrected) else (OPEN_END,) * 3
            md[f"corr{j}_from_s"], md[f"corr{j}_to_s"], md[f"corr{j}_known_s"] = a, b, r
            roles, assets = self.corrector_access_of(j)
            md[f"corr{j}_access_any"], md[f"corr{j}_assets_any"] = not roles, not assets
            md.update({f"corr{j}_{role_key(x)}": True for x in roles})
            md.update({f"corr{j}_{asset_key(x)}": True for x in assets})
        for role in self.roles:
            md[role_key(role)] = True
        for asset in self.assets:
            md[asset_key(asset)] = True
        return md


def squashed(text: str) -> str:
    """A name without case, spaces or punctuation: "Node.js", "NodeJs", "node js" → "nodejs"."""
    return re.sub(r"[\W_]+", "", text).casefold()


def product_key(value: str) -> str:
    return f"product::{value}"


def facet_key(name: str, value: str) -> str:
    """Chroma's key for one value of a facet (the product's keys predate declared facets)."""
    return product_key(value) if name == PRODUCT else f"facet::{name}::{value}"


def facet_any_key(name: str) -> str:
    return "product_any" if name == PRODUCT else f"facet_any::{name}"


def role_key(value: str) -> str:
    return f"role::{value}"


def asset_key(value: str) -> str:
    return f"asset::{value}"


class Block(BaseModel):
    """A parent block: the unit the model reads and a citation points at."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    block_id: str
    source_id: str
    kind: BlockKind
    section: str | None = None  # e.g. "4.2"; None when the heading is not numbered
    title: str = ""
    page: int | None = None
    text: str
    link: str
    scope: str | None = None  # tables
    header: tuple[str, ...] = ()  # tables
    rows: tuple[tuple[str, ...], ...] = ()  # tables; first column is the record id
    caption: str | None = None  # figures
    description: str | None = None  # figures
    path: tuple[str, ...] = ()  # headings from the outermost section down to this block's
    part: int = 1  # a section over the block limit is split: this is part `part` of `parts`
    parts: int = 1
    image: str | None = None  # figures
    fields: FilterFields


class Piece(BaseModel):
    """A child piece: what the legs match. `search_text` is never shown to the model."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    piece_id: str
    block_id: str
    source_id: str
    search_text: str
    codes: tuple[str, ...] = ()  # normalised identifiers for the exact leg
    fields: FilterFields


class LoadedDocument(BaseModel):
    """One source file after loading: its metadata, blocks and pieces."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    meta: DocumentMeta
    blocks: tuple[Block, ...]
    pieces: tuple[Piece, ...]
    content_hash: str
    # what loading it degraded rather than refused (a heading read as body text), each naming
    # the file; reported by the ingest that loads it
    warnings: tuple[str, ...] = ()


_CODE_RE = re.compile(r"(?<![\w-])([A-Za-zА-Яа-яЁё]{1,4})[-‐‑]?(\d{1,6})([A-Za-z]?)(?![\w-])")


def normalise_code(letters: str, digits: str, suffix: str = "") -> str:
    """`E-417`, `e417` and `E‑417` all become `E417`; `R07` and `R7` both become `R7`."""
    return f"{letters.upper()}{int(digits)}{suffix.upper()}"


def code_surfaces(text: str) -> dict[str, str]:
    """Normalised code → the code as `text` writes it (`P4` → `P-4`), first writing wins."""
    out: dict[str, str] = {}
    for _, code, surface in _all_codes(text):
        out.setdefault(code, surface)
    return out


# longer codes: parts joined by hyphens or underscores, with a digit or an underscore, that
# the short form does not cover: an underscore, three parts or more, or a first part of five
# characters or more, whose first part is written in capitals (`ERR_FS_FILE_TOO_LARGE`,
# `CVE-2024-3094`, `SPARK-31967`; not `WARR-R2`, a document id, nor `unit-3-care` or
# `trust_env`, words joined)
_LONG_CODE_RE = re.compile(r"(?<![\w‐‑-])([A-Za-z][A-Za-z0-9]*(?:[_‐‑-][A-Za-z0-9]+)+)"
                           r"(?![\w‐‑-])")


def _long_codes(text: str, short: list[tuple[int, int]]) -> list[tuple[int, str, str]]:
    """(start, normal form, as written) of the long codes not already short ones: upper case,
    hyphens of any kind one hyphen."""
    out = []
    for m in _LONG_CODE_RE.finditer(text):
        code = m.group(1)
        parts = re.split(r"[_‐‑-]", code)
        long_enough = "_" in code or len(parts) > 2 or len(parts[0]) >= 5
        if not long_enough or not parts[0].isupper() or not (
                re.search(r"\d", code) or "_" in code) or any(
                a <= m.start() < b for a, b in short):
            continue
        out.append((m.start(), re.sub(r"[‐‑]", "-", code).upper(), code))
    return out


def _all_codes(text: str) -> list[tuple[int, str, str]]:
    short = [(m.start(), normalise_code(m.group(1), m.group(2), m.group(3)), m.group(0))
             for m in _CODE_RE.finditer(text)]
    spans = [(m.start(), m.end()) for m in _CODE_RE.finditer(text)]
    return sorted(short + _long_codes(text, spans))


def without_long_codes(text: str) -> str:
    """`text` with its long codes (`SPARK-31967`, `ERR_FS_FILE_TOO_LARGE`) taken out: what it
    says around the identifiers. A model reading meaning reads a long code's letters as a topic
    every code of its kind shares; which code a block carries is the exact leg's to decide."""
    spans = [(m.start(), m.end()) for m in _CODE_RE.finditer(text)]
    out, end = [], 0
    for start, _, raw in _long_codes(text, spans):
        out.append(text[end:start])
        end = start + len(raw)
    left = re.sub(r"\s+([?.!,;:])", r"\1", re.sub(r"\s{2,}", " ", "".join(out) + text[end:]))
    return left.strip() if re.search(r"\w", left) else ""  # no word left: nothing to read


def extract_codes(text: str) -> tuple[str, ...]:
    """Identifier-like tokens, normalised, in order: letters then digits with an optional
    hyphen (`E-417` → `E417`), and longer codes (`SPARK-31967`, `ERR_FS_FILE_TOO_LARGE`)."""
    return tuple(dict.fromkeys(code for _, code, _ in _all_codes(text)))

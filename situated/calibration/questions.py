"""The questions an index is calibrated on: positives written from its own documents, negatives
that none of them answers, each on a dev or a held-out half.

* positives: for documents sampled across the index, "What does <product>'s <family> say about
  “<phrase>”?" with a run of 4–7 words from one sentence of one of its blocks (the probe's
  phrase picker, `eval.probe`), in the block's language. Split by product (else by family), so
  no product has questions on both halves.
* negatives: questions about other domains and other companies' products, shipped in English
  and Russian (`offtopic.yaml`), split by a hash of their text; and questions that name a
  company the index does not hold, asking about a family and a phrase it does hold (the asker
  asked about someone else's terms).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml

from situated.chains.say.wording import Lang, language_of
from situated.documents import LoadedDocument
from situated.errors import ConfigError
from situated.eval.probe import Version, pick_phrase
from situated.modes import Mode


class Half(Mode):
    DEV = "dev"
    TEST = "test"


@dataclass(frozen=True)
class Question:
    text: str
    positive: bool
    half: Half
    kind: str  # "own-text", "other-domain", "other-company"
    product: str | None = None  # a positive's document's product: where an asker would ask it


def half_of(key: str) -> Half:
    """A stable half from a hash of `key` (not of its meaning)."""
    return Half.DEV if hashlib.sha256(key.encode("utf-8")).digest()[0] % 2 == 0 else Half.TEST


# companies whose terms no index of ours is assumed to hold; one whose name the index does
# contain is skipped (`negatives` is given the index's test for that)
OTHER_COMPANIES = ("Zalando", "Spotify", "Airbnb", "Booking.com", "Vinted", "Deliveroo",
                   "Duolingo", "Strava", "Tinder", "Revolut", "Bolt", "Glovo")


def shipped_negatives(path: Path | None = None) -> list[str]:
    """The off-topic questions (`offtopic.yaml`, or a file of the same shape: `en:` and/or
    `ru:` lists of questions)."""
    try:
        text = path.read_text("utf-8") if path else (
            resources.files("situated.calibration") / "offtopic.yaml").read_text("utf-8")
        data = yaml.safe_load(text)
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read the negatives file {path}: {exc}; give a YAML file with "
                          "`en:` and `ru:` lists of questions") from None
    if not isinstance(data, dict) or not all(
            isinstance(v, list) and all(isinstance(q, str) and q.strip() for q in v)
            for v in data.values()):
        raise ConfigError(f"negatives file {path or 'offtopic.yaml'} must map languages to lists "
                          "of questions (`en: [..]`, `ru: [..]`)")
    return [q.strip() for v in data.values() for q in v]


def _owner(doc: LoadedDocument) -> str:
    m = doc.meta
    name = m.family or m.title or m.source_id
    return f"{m.product[0]}'s {name}" if m.product else f"the {name}"


def _question(owner: str, phrase: str, lang: Lang) -> str:
    if lang is Lang.RU:
        return f"Что сказано в документе «{owner}» про «{phrase}»?"
    return f"What does {owner} say about “{phrase}”?"


MIN_PRODUCTS_TO_SPLIT = 4  # fewer products than this: positives split by family instead


def positives(docs: list[LoadedDocument], limit: int = 240, seed: int = 0) -> list[Question]:
    """Up to `limit` questions from the documents' own text, at most three per document (more
    when the index has fewer than `limit / 3` documents, up to twelve)."""
    rnd = random.Random(seed)
    pool = sorted(docs, key=lambda d: hashlib.sha256(
        f"{seed}:{d.meta.source_id}".encode()).hexdigest())
    out: list[Question] = []
    # halves by product when there are products enough to split; else by family (an index of
    # one product — one library's documentation — would put every positive in one half)
    by_product = len({p for d in docs for p in d.meta.product}) >= MIN_PRODUCTS_TO_SPLIT
    per_document = min(12, max(3, -(-limit // max(len(docs), 1))))
    for doc in pool:
        if len(out) >= limit:
            break
        blocks = [b for b in doc.blocks if len(b.text.split()) >= 8]
        rnd.shuffle(blocks)
        key = doc.meta.product[0] if doc.meta.product and by_product else (
            doc.meta.family or doc.meta.source_id)
        for block in blocks[:per_document]:
            one = LoadedDocument(meta=doc.meta, blocks=(block,), pieces=(),
                                 content_hash=doc.content_hash)
            phrase = pick_phrase(Version(one, 0, 0), [], rnd)
            if phrase is None:
                continue
            lang = language_of(block.text)
            out.append(Question(_question(_owner(doc), phrase, lang), True, half_of(key),
                                "own-text", doc.meta.product[0] if doc.meta.product else None))
    return out[:limit]


def negatives(docs: list[LoadedDocument], known_name, extra: Path | None = None,
              seed: int = 0) -> list[Question]:
    """The shipped (or given) off-topic questions, and questions naming another company
    (`known_name(name)` tells whether the index holds a name; those it holds are skipped)."""
    out = [Question(q, False, half_of(q), "other-domain") for q in shipped_negatives(extra)]
    rnd = random.Random(seed)
    docs = sorted(docs, key=lambda d: d.meta.source_id)
    for company in OTHER_COMPANIES:
        if known_name(company) or not docs:
            continue
        doc = rnd.choice(docs)
        blocks = [b for b in doc.blocks if len(b.text.split()) >= 8]
        if not blocks:
            continue
        one = LoadedDocument(meta=doc.meta, blocks=(rnd.choice(blocks),), pieces=(),
                             content_hash=doc.content_hash)
        phrase = pick_phrase(Version(one, 0, 0), [], rnd)
        if phrase is None:
            continue
        name = doc.meta.family or doc.meta.title or "terms"
        out.append(Question(_question(f"{company}'s {name}", phrase, language_of(phrase)),
                            False, half_of(company), "other-company"))
    return out

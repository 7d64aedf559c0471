"""Temporal regression cases generated from any versioned corpus (`situated probe-versions`).

For every family of versions (same `family`, same products, dated validity), each version
gives questions of the form "What did <product>'s <family> say about “<phrase>” on <date>?",
where the phrase is present in the version that applies on that date and absent from that
version's neighbours, on these dates:

* `inside`: a day well inside the version's period;
* `first_day`: the day it starts (where a second version starts later the same day, the one in
  force at the end of the day applies: tagged `same_day`);
* `previous_last_day`: the day before it starts, answered by the previous version;
* `before_first`: the day before the first version, which must answer `no_evidence` naming the
  first date.

The expected evidence is exactly the version in force at the end of the asked day (in the
index's timezone); its neighbours are `stale` (never in evidence or hits).

Questions about change (tags `changes`, `versions`): for every pair of consecutive versions,
"What changed in <product>'s <family> on <day the newer one starts>?", whose gold is the pair
(both sides cited) and a phrase present in one version and absent from the other (among the
sentences the pair removed or added); every other version of the family is `stale`. A day on
which two versions start, or a pair with no distinguishing phrase, is skipped and counted. And
per family "List the versions of <product>'s <family>.", whose gold is the exact listing. Families are split by
product into a dev half and a test half with a stable hash, so thresholds can be tuned on one
and reported on the other. Nothing here knows any particular corpus.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

from situated.chains.say.wording import Lang, day_text
from situated.documents import LoadedDocument, end_of_day
from situated.eval.cases import Case, Expect
from situated.loaders.sentences import split_sentences
from situated.substance import DATES

_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)
_NOISE = re.compile(r"https?://|\|")
DATE_FORMS = ("{d} {B} {Y}", "{B} {d}, {Y}", "{iso}")


@dataclass(frozen=True)
class Version:
    doc: LoadedDocument
    start: int  # epoch seconds
    end: int

    @property
    def sid(self) -> str:
        return self.doc.meta.source_id


def splits(docs: list[LoadedDocument], key=None) -> dict[str, str]:
    """Product (or `key(doc)`: a release probe splits by family) → `dev` or `test`: in the
    order of a hash of the name (not its meaning), each to the half with fewer versions so far,
    so the halves are of similar size."""
    key = key or (lambda d: d.meta.product[0] if d.meta.product else "")
    counts: dict[str, int] = defaultdict(int)
    for d in docs:
        counts[key(d)] += 1
    size = {"dev": 0, "test": 0}
    out = {}
    for product in sorted(counts, key=lambda p: hashlib.sha256(p.encode("utf-8")).hexdigest()):
        half = "dev" if size["dev"] <= size["test"] else "test"
        out[product] = half
        size[half] += counts[product]
    return out


def families(docs: list[LoadedDocument], timezone: str) -> list[list[Version]]:
    groups: dict[tuple, list[Version]] = defaultdict(list)
    for d in docs:
        m = d.meta
        if not m.date_scoped:
            continue
        f = m.filter_fields(timezone)
        key = (m.family or m.source_id, m.product, m.valid_for)
        groups[key].append(Version(d, f.valid_from_s, f.valid_to_s))
    return [sorted(g, key=lambda v: v.start) for g in groups.values()]


def _local_day(seconds: int, timezone: str) -> dt.date:
    return dt.datetime.fromtimestamp(seconds, ZoneInfo(timezone)).date()


def in_force(group: list[Version], day: dt.date, timezone: str) -> int | None:
    """Index of the version in force at the end of `day`, or None."""
    t = end_of_day(day, timezone)
    for i, v in enumerate(group):
        if v.start <= t < v.end:
            return i
    return None


_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_PART = re.compile(r"\s*\(part \d+ of \d+\)", re.MULTILINE)
_QUOTES = str.maketrans("\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f", "''''\"\"\"\"")


def _grams(tokens: list[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def pick_phrase(version: Version, others: list[Version], rnd: random.Random,
                undated: bool = False) -> str | None:
    """A run of 7 (else 6, 5 or 4) words inside one sentence of `version` that none of
    `others` contains (compared case- and punctuation-insensitively, digits ignored so that no
    date slips into the question); None when the texts do not differ so. `undated`: dates
    removed first (month names too), so a version that only prints another date has none —
    for change questions, where that is no change in substance."""
    for words in (7, 6, 5, 4):
        phrase = _phrase(version, others, rnd, words, undated)
        if phrase is not None:
            return phrase
    return None


def _phrase(version: Version, others: list[Version], rnd: random.Random,
            words: int, undated: bool = False) -> str | None:
    def plain(text: str) -> str:
        text = _LINK.sub(r"\1", text)
        if not undated:
            return text
        # a split section's "(part 2 of 3)" is the loader's, not the document's; typographic
        # quotes are formatting
        return _PART.sub("", DATES.sub(" ", text)).translate(_QUOTES)

    seen = {g for o in others for b in o.doc.blocks
            for g in _grams(_WORD.findall(plain(b.text).lower()), words)}
    candidates = []
    for block in version.doc.blocks:
        for para in plain(block.text).split("\n"):
            for sentence in split_sentences(para):
                if _NOISE.search(sentence):
                    continue
                tokens = _WORD.findall(sentence)
                candidates += [" ".join(tokens[i:i + words])
                               for i, g in enumerate(_grams([t.lower() for t in tokens], words))
                               if g not in seen]
    return rnd.choice(candidates) if candidates else None


def _date_words(day: dt.date, n: int) -> str:
    form = DATE_FORMS[n % len(DATE_FORMS)]
    return form.format(d=day.day, B=f"{day:%B}", Y=day.year, iso=day.isoformat())


def _question(v: Version, phrase: str, day: dt.date, n: int) -> str:
    return f"What did {_owner(v)} say about “{phrase}” on {_date_words(day, n)}?"


def _owner(v: Version) -> str:
    m = v.doc.meta
    product = m.product[0] if m.product else ""
    name = m.family or m.title or m.source_id
    return f"{product}'s {name}" if product else f"the {name}"


def change_cases(group: list[Version], timezone: str, seed: int, halves: dict[str, str],
                 skipped: dict[str, int]) -> list[Case]:
    """One change question per consecutive pair of `group`, one listing per group."""
    product = group[0].doc.meta.product[0] if group[0].doc.meta.product else ""
    half = halves[product]
    sids = [v.sid for v in group]
    cases = [Case(id=f"probe.versions.{group[0].sid}",
                  question=f"List the versions of {_owner(group[0])}.",
                  tags=[half, "versions"], expect=Expect(status="answered", versions=sids))]
    days = [_local_day(v.start, timezone) for v in group]
    for i in range(1, len(group)):
        if days.count(days[i]) > 1:
            skipped["changes: several versions start that day"] += 1
            continue
        rnd = random.Random(f"{seed}:{group[i].sid}:changes")
        phrase = pick_phrase(group[i], [group[i - 1]], rnd, undated=True) or pick_phrase(
            group[i - 1], [group[i]], rnd, undated=True)
        if phrase is None:
            skipped["changes: no distinguishing phrase"] += 1
            continue
        cases.append(Case(
            id=f"probe.changes.{group[i].sid}",
            question=f"What changed in {_owner(group[i])} on {_date_words(days[i], i)}?",
            tags=[half, "changes"],
            expect=Expect(status="answered", changes=[f"{group[i - 1].sid}>{group[i].sid}"],
                          changed_text=[phrase],
                          stale=[s for k, s in enumerate(sids) if k not in (i - 1, i)])))
    return cases


def probe_cases(docs: list[LoadedDocument], timezone: str = "UTC", seed: int = 0,
                changes: bool = True) -> tuple[list[Case], dict[str, int]]:
    """Cases for every version of every family; also how many were skipped and why."""
    cases: list[Case] = []
    skipped: dict[str, int] = defaultdict(int)
    halves = splits(docs)
    for group in families(docs, timezone):
        if len(group) < 2:
            skipped["single-version family"] += 1
            continue
        if changes:
            cases += change_cases(group, timezone, seed, halves, skipped)
        for i, v in enumerate(group):
            first = _local_day(v.start, timezone)
            last = _local_day(v.end - 1, timezone) if v.end < 10**12 else first + dt.timedelta(60)
            wanted: list[tuple[str, dt.date]] = []
            if (last - first).days >= 2:
                wanted.append(("inside", first + (last - first) // 2))
            wanted.append(("first_day", first))
            wanted.append(("before_first" if i == 0 else "previous_last_day",
                           first - dt.timedelta(days=1)))
            for kind, day in wanted:
                case = _case(group, i, kind, day, timezone, seed, len(cases), halves)
                if case is None:
                    skipped[f"{kind}: no distinguishing phrase"] += 1
                elif case.id not in {c.id for c in cases}:
                    cases.append(case)
    return cases, dict(skipped)


def _case(group: list[Version], i: int, kind: str, day: dt.date, timezone: str, seed: int,
          n: int, halves: dict[str, str]) -> Case | None:
    rnd = random.Random(f"{seed}:{group[i].sid}:{kind}")
    j = in_force(group, day, timezone)
    product = group[i].doc.meta.product[0] if group[i].doc.meta.product else ""
    tags = [halves[product]]
    if j is None:  # before the first version: the first version's phrase, no answer expected
        phrase = pick_phrase(group[0], group[1:2], rnd)
        if phrase is None:
            return None
        first_day = _local_day(group[0].start, timezone)
        return Case(id=f"probe.{kind}.{group[i].sid}", question=_question(group[0], phrase, day, n),
                    tags=[*tags, kind],
                    expect=Expect(status="no_evidence", facts=[day_text(first_day, Lang.EN)],
                                  stale=[v.sid for v in group]))
    if kind == "first_day" and j != i:
        kind = "same_day"
    neighbours = [group[k] for k in (j - 1, j + 1) if 0 <= k < len(group)]
    phrase = pick_phrase(group[j], neighbours, rnd)
    if phrase is None:
        return None
    return Case(id=f"probe.{kind}.{group[i].sid}", question=_question(group[j], phrase, day, n),
                tags=[*tags, kind],
                expect=Expect(status="answered", evidence=[group[j].sid],
                              stale=[v.sid for v in neighbours]))


def write_cases(cases: list[Case], out: Path) -> dict[str, Path]:
    """One YAML file per split (`probe-dev.yaml`, `probe-test.yaml`)."""
    import yaml

    out.mkdir(parents=True, exist_ok=True)
    files = {}
    for split in ("dev", "test"):
        chosen = [c.model_dump(mode="json", exclude_defaults=True) for c in cases
                  if split in c.tags]
        path = out / f"probe-{split}.yaml"
        path.write_text(yaml.safe_dump(chosen, allow_unicode=True, sort_keys=False,
                                       width=100), encoding="utf-8")
        files[split] = path
    return files

"""Release regression cases generated from any corpus of documents versioned by release
(`benchmarks/version_probe.py`), as `eval/probe.py` does for dated ones.

Per family of releases (same `family`, same products, a `version` each), oldest first:

* `at`: "What does <title> say about “<phrase>” in version V?" — the phrase is in version V and
  in neither neighbour; the gold is V's document, the neighbours are `stale` (they differ, and
  must never reach the evidence). The version is said in rotating forms ("in version V", "in
  vV", "<product> V", «в версии V»);
* `lacking`: a phrase that first appears in version V+1 (in no document of any release before
  it), asked at V: `no_evidence`, and the answer must name V+1 among the versions that have it;
* `changes`: "What changed in <title> in version V?" — the pair (previous, V), both cited, a
  distinguishing phrase among the sentences it removed or added;
* `versions`: "List the versions of <title>." — the exact listing.

Per release line (the releases every document declares): which versions exist, how many, the
latest, the oldest, and "Does version X exist?" for every release and for releases the line
lacks (those a changelog names, else neighbours made up by bumping the last number).

First appearance: for every `Added` entry of a changelog (an unversioned document whose sections
are headed by releases, Keep-a-Changelog style) that names a backticked identifier some page
holds, "In which version was `X` added?", whose gold is the changelog's release (`appearance`);
entries at or before the first documented release are skipped (any answer would pass).

Families are split dev/test by a hash of the family name; line and first-appearance cases by a
hash of their id. Nothing here knows any particular corpus.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import defaultdict
from collections.abc import Sequence

from packaging.version import Version

from situated.chains.read.release import holds, identifiers
from situated.documents import DocKind, LoadedDocument
from situated.eval.cases import Case, Expect
from situated.eval.probe import Version as Doc
from situated.eval.probe import pick_phrase, splits
from situated.loaders.notes import notes_release, path_release

# a changelog entry whose first words say what is new: "Add `X` parameter to `Y`" adds X, not
# Y ("to", "on", "for", "," … end what is added); "Support `get(..., auth=None)`" adds an
# argument, not `get` (a call written with arguments is skipped). The probe's own reading of
# the changelog, kept apart from the product's (`chains.versions.appearance.states`).
_NEW = re.compile(r"\s*(?:Add(?:ed|s)?|Supports?|Supported|New|Introduc\w*|Expose[sd]?)\s+"
                  r"(?:(?:the|a|an|support|for|new)\s+){0,3}(.*)", re.IGNORECASE | re.DOTALL)
_OBJECT_END = re.compile(r"\s(?:to|on|in|into|for|of|from|within|at|by|so|when|that|"
                         r"which|allowing|using|instead)\s|[,;:]|\((?!\))", re.IGNORECASE)
_WITH_ARGUMENTS = re.compile(r"^[\w.]+\((?!\s*\))")
_ARGUMENTS = re.compile(r"\((?!\s*\))")
_DROP = re.compile(r"(?:Drop(?:s|ped)?|Remove[sd]?)\s+(.*)", re.DOTALL)
_DROP_FRAME = re.compile(r"^(?:(?:the|a|an|deprecated|unnecessary|support|for)\s+)+",
                         re.IGNORECASE)
_GONE = re.compile(r"(?:The\s+)?(.{1,80}?)\s(?:has|have)\s+(?:now\s+)?been\s+removed")
_FULLY_GONE = re.compile(r"\bIt is now (?:fully )?removed")
_DEPRECATED_NOW = re.compile(r"(?:The\s+)?(.{1,80}?)\s(?:(?:is|are)\s+(?:now\s+)?|"
                             r"(?:has|have)\s+been\s+)deprecated")
_FORMS = ("in version {v}", "in v{v}", "for {p} {v}", "in release {v}")


def half_of(key: str) -> str:
    return "dev" if int(hashlib.sha256(key.encode("utf-8")).hexdigest(), 16) % 2 == 0 \
        else "test"


def _pages(docs: list[LoadedDocument]) -> list[LoadedDocument]:
    """The documents at a release that describe it (release notes are read as notes)."""
    return [d for d in docs if d.meta.version and d.meta.kind is not DocKind.NOTES]


def release_families(docs: list[LoadedDocument]) -> list[list[LoadedDocument]]:
    groups: dict[tuple, list[LoadedDocument]] = defaultdict(list)
    for d in _pages(docs):
        m = d.meta
        if m.family:
            groups[(m.family, m.product)].append(d)
    return [sorted(g, key=lambda d: Version(d.meta.declared_version)) for g in groups.values()]


def _title(d: LoadedDocument) -> str:
    return d.meta.title or d.meta.family or d.meta.source_id


def _said(d: LoadedDocument, n: int) -> str:
    product = d.meta.product[0] if d.meta.product else "it"
    return _FORMS[n % len(_FORMS)].format(v=d.meta.version, p=product)


def family_cases(group: list[LoadedDocument], seed: int, every: list[LoadedDocument],
                 skipped: dict[str, int], half: str) -> list[Case]:
    sids = [d.meta.source_id for d in group]
    cases = [Case(id=f"rprobe.versions.{group[0].meta.family}",
                  question=f"List the versions of the {_title(group[-1])}.",
                  tags=[half, "versions"], expect=Expect(status="answered", versions=sids))]
    docs = [Doc(d, 0, 0) for d in group]
    for i, d in enumerate(group):
        rnd = random.Random(f"{seed}:{d.meta.source_id}")
        near = _differing(group, i)
        # absent from both differing neighbours, else from one of them (the question still
        # tells release i from that one)
        phrase = next((p for p in (pick_phrase(docs[i], [docs[k] for k in ks], rnd)
                                   for ks in (near, *([k] for k in near)) if ks) if p), None)
        if phrase is None:
            skipped["at: no neighbour that differs"] += 1
        else:  # every other release's page is a wrong version, identical or not
            cases.append(Case(
                id=f"rprobe.at.{d.meta.source_id}", tags=[half, "at"],
                question=f"What does the {_title(d)} say about “{phrase}” {_said(d, i)}?",
                expect=Expect(status="answered", evidence=[d.meta.source_id],
                              stale=[s for k, s in enumerate(sids) if k != i])))
        if i:
            cases += _change_case(group, i, docs, rnd, half, sids, skipped)
            cases += _lacking_case(group, i, docs, rnd, half, every, skipped)
    return cases


def _text(d: LoadedDocument) -> str:
    return "\n".join(b.text for b in d.blocks)


def _differing(group: list[LoadedDocument], i: int) -> list[int]:
    """The nearest release on each side whose page differs from release i's."""
    own = _text(group[i])
    before = next((k for k in range(i - 1, -1, -1) if _text(group[k]) != own), None)
    after = next((k for k in range(i + 1, len(group)) if _text(group[k]) != own), None)
    return [k for k in (before, after) if k is not None]


def _change_case(group, i, docs, rnd, half, sids, skipped) -> list[Case]:
    phrase = pick_phrase(docs[i], [docs[i - 1]], rnd, undated=True) or pick_phrase(
        docs[i - 1], [docs[i]], rnd, undated=True)
    if phrase is None:
        skipped["changes: no change in substance"] += 1
        return []
    d = group[i]
    return [Case(id=f"rprobe.changes.{d.meta.source_id}", tags=[half, "changes"],
                 question=f"What changed in the {_title(d)} in version {d.meta.version}?",
                 expect=Expect(status="answered", changes=[f"{sids[i - 1]}>{sids[i]}"],
                               changed_text=[phrase],
                               stale=[s for k, s in enumerate(sids) if k not in (i - 1, i)]))]


def _terms(d: LoadedDocument) -> set[str]:
    """Identifiers the page names (`Client.stream`, `HTTPTransport`, `trust_env`)."""
    return {t for b in d.blocks for t in identifiers(b.text) if len(t) >= 5}


def _lacking_case(group, i, docs, rnd, half, every, skipped) -> list[Case]:
    """An identifier new in release i (no document of an earlier release has it), asked
    about at release i-1: no evidence for i-1, naming release i among those that have it."""
    new = Version(group[i].meta.declared_version)
    earlier = "\n".join(_text(d) for d in _pages(every) if Version(d.meta.declared_version) < new)
    fresh = sorted(t for t in _terms(group[i])
                   if not holds(earlier, t))
    if not fresh:
        skipped["lacking: no new identifier"] += 1
        return []
    term, old = rnd.choice(fresh), group[i - 1]
    return [Case(id=f"rprobe.lacking.{old.meta.source_id}", tags=[half, "lacking"],
                 question=f"What does the {_title(old)} say about `{term}` "
                          f"in version {old.meta.version}?",
                 expect=Expect(status="no_evidence", facts=[str(new)],
                               stale=[d.meta.source_id for d in group if d is not old]))]


def line_cases(docs: list[LoadedDocument], notes: list[tuple[Version, str]]) -> list[Case]:
    """Which versions exist, how many, the latest, the oldest, does X exist (yes and no)."""
    releases = sorted({Version(d.meta.declared_version) for d in _pages(docs)})
    if not releases:
        return []
    names = [str(v) for v in releases]
    product = next((d.meta.product[0] for d in docs if d.meta.product), "the documents")
    asked = [("list", "Which versions exist?", names),
             ("list2", f"List all versions of {product}.", names),
             ("count", f"How many versions of {product} are there?", names),
             ("latest", "What is the latest version?", names[-1:]),
             ("latest2", f"Which is the newest release of {product}?", names[-1:]),
             ("oldest", f"What is the oldest version of {product}?", names[:1]),
             ("ru-latest", "Какая последняя версия?", names[-1:])]
    cases = [Case(id=f"rprobe.line.{k}", question=q, tags=[half_of(k), "line"],
                  expect=Expect(status="answered", releases=r)) for k, q, r in asked]
    for v in releases:
        cases.append(Case(id=f"rprobe.exists.{v}", question=f"Does version {v} exist?",
                          tags=[half_of(f"exists.{v}"), "exists"],
                          expect=Expect(status="answered", releases=[str(v)])))
    absent = sorted({v for v, _ in notes if v not in releases and v > releases[0]}
                    or {Version(f"{v.major}.{v.minor}.{v.micro + 7}") for v in releases})
    for v in absent[:len(releases)]:
        cases.append(Case(id=f"rprobe.absent.{v}", question=f"Does version {v} exist?",
                          tags=[half_of(f"absent.{v}"), "exists"],
                          expect=Expect(status="answered", releases=[])))
    return cases


def _sections(docs: list[LoadedDocument]):
    """(release, block) of the notes: release notes (a changelog is split per release at
    load: `loaders.notes`), and an unversioned document's sections headed by a release."""
    for d in docs:
        notes = d.meta.kind is DocKind.NOTES
        if not notes and (d.meta.version is not None or d.meta.valid_from is not None):
            continue
        for b in d.blocks:
            release = notes_release(d.meta, b.path) or path_release(b.path)
            if release is not None:
                yield Version(release), b


def _entries(block) -> list[str]:
    return [e.strip() for e in re.split(r"\n\s*-\s+", block.text)]


def _plain(text: str) -> list[str]:
    """The identifiers `text` names, less the names of calls written with arguments
    (`httpx.Timeout(5.0, connect_timeout=60.0)` is about `connect_timeout`)."""
    return [x for x in identifiers(text)
            if not any(_ARGUMENTS.match(text, m.end())
                       for m in re.finditer(rf"(?<![\w.]){re.escape(x)}", text))]


def _object(text: str) -> list[str]:
    """The identifiers a verb's object names."""
    if _WITH_ARGUMENTS.match(text):
        return []
    return _plain(_OBJECT_END.split(text, 1)[0])


def changelog_notes(docs: list[LoadedDocument]) -> list[tuple[Version, str]]:
    """(release, identifier) of every `Added` entry of an unversioned document's sections
    headed by a release."""
    out = []
    for v, b in _sections(docs):
        if not any(p.strip().lower() == "added" for p in b.path):
            continue
        for entry in _entries(b):
            m = _NEW.match(entry)  # "Add `X`", "Support for `X`", "New `X`": X is new
            if m:
                out += [(v, x) for x in _object(m.group(1))]
    return out


def changelog_endings(docs: list[LoadedDocument]) -> list[tuple[str, Version, str]]:
    """(kind, release, identifier) of the entries, in any section, that remove or deprecate
    something: "Drop `X` …", "The deprecated `X` argument has now been removed", "`X` had
    previously been deprecated … It is now fully removed", "The `X` argument is now
    deprecated"."""
    out = []
    for v, b in _sections(docs):
        for entry in _entries(b):
            if (m := _DROP.match(entry)) is not None:
                out += [("removed", v, x) for x in _object(_DROP_FRAME.sub("", m.group(1)))]
            elif (m := _GONE.match(entry)) is not None:
                out += [("removed", v, x) for x in _plain(m.group(1))]
            elif "previously been deprecated" in entry and _FULLY_GONE.search(entry):
                head = entry.split("previously been deprecated", 1)[0]
                out += [("removed", v, x) for x in _plain(head)[:1]]
            elif (m := _DEPRECATED_NOW.match(entry)) is not None:
                out += [("deprecated", v, x) for x in _plain(m.group(1))]
    return out


def _earlier(x: str, v: Version, docs: list[LoadedDocument]) -> bool:
    """A changelog section of a release before `v` already names `x` (so `v`'s entry is not
    where it was added), or `x` is a web address."""
    if re.search(r"\.(?:com|org|net|io)$|^www\.|^__", x):
        return True
    return any(at < v and holds(b.text, x) for at, b in _sections(docs))


_ASKED = {"added": ("In which version was `{x}` added?",
                    "Since which version is `{x}` available?", "When was `{x}` introduced?"),
          "removed": ("In which version was `{x}` removed?", "When was `{x}` dropped?"),
          "deprecated": ("In which version was `{x}` deprecated?",
                         "Since which version is `{x}` deprecated?")}


def appearance_cases(docs: list[LoadedDocument], notes: list[tuple[Version, str]],
                     endings: Sequence[tuple[str, Version, str]] = ()) -> list[Case]:
    """"In which version was X added / removed / deprecated?", gold the changelog's release:
    added (not named by an earlier section), removed or deprecated (some earlier page names
    it), each after the first documented release (any answer would pass at it)."""
    pages = _pages(docs)
    first = min((Version(d.meta.declared_version) for d in pages), default=None)
    cases, seen = [], set()
    for kind, v, x in sorted([*(("added", v, x) for v, x in notes), *endings]):
        if (kind, x) in seen or first is None or v <= first or len(x) < 5:
            continue
        if kind == "added" and _earlier(x, v, docs):
            continue
        if not any(holds(b.text, x) for d in pages for b in d.blocks
                   if kind == "added" or Version(d.meta.declared_version) < v):
            continue
        seen.add((kind, x))
        cid = f"rprobe.first.{x}" if kind == "added" else f"rprobe.{kind}.{x}"
        forms = _ASKED[kind]
        cases.append(Case(id=cid, question=forms[len(seen) % len(forms)].format(x=x),
                          tags=[half_of(cid), "first", kind],
                          expect=Expect(status="answered", appearance=str(v))))
    return cases


def release_probe_cases(docs: list[LoadedDocument], seed: int = 0,
                        ) -> tuple[list[Case], dict[str, int]]:
    skipped: dict[str, int] = defaultdict(int)
    cases: list[Case] = []
    families = [g for g in release_families(docs) if len(g) > 1]
    halves = splits([d for g in families for d in g], key=lambda d: d.meta.family or "")
    for group in families:
        cases += family_cases(group, seed, docs, skipped, halves[group[0].meta.family or ""])
    notes = changelog_notes(docs)
    cases += line_cases(docs, notes) + appearance_cases(docs, notes, changelog_endings(docs))
    return cases, dict(skipped)


__all__ = ["appearance_cases", "changelog_endings", "changelog_notes", "half_of", "line_cases",
           "release_families", "release_probe_cases"]

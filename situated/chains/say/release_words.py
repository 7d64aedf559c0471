"""The texts of replies about releases, in the asker's language: a version not among the
line's (and the nearest), the latest or the notes a slice is read from, a version to ask for,
how far back a text stands, and the releases that hold what the asked one lacks."""

from __future__ import annotations

from packaging.version import Version

from situated import releases
from situated.chains.say import wording as w
from situated.chains.say.wording import Lang


def version_list(versions: list[Version], lang: Lang, most: int = 100) -> str:
    """Every version, "0.13.3, 0.14.0, 0.15.0"; past `most`, each major series as a range
    with its count ("0.x: 0.1.0–0.28.1 (77)")."""
    names = [str(v) for v in versions]
    if len(names) <= most:
        return ", ".join(names)
    series: dict[int, list[Version]] = {}
    for v in versions:
        series.setdefault(v.major, []).append(v)
    return ", ".join(f"{major}.x: {vs[0]}–{vs[-1]} ({len(vs)})" if len(vs) > 1 else str(vs[0])
                     for major, vs in series.items())


def unknown_text(said: str, line: str, declared: list[Version], lang: Lang) -> str:
    """A named version no readable document has: say so, with the nearest releases."""
    asked = releases.asked(said)
    near = releases.nearest(asked.version, declared) if asked else []
    near_text = f" {w.fixed('and', lang)} ".join(str(v) for v in near)
    head = w.fixed("unknown_version", lang, v=said, line=line, n=len(declared),
                   versions=version_list(declared, lang))
    if not near:
        return head + "."
    return head + w.fixed("nearest_many" if len(near) > 1 else "nearest_one", lang,
                          near=near_text)


def latest_text(version: str, lang: Lang) -> str:
    """The slice of an answer read from the latest release because the question named none."""
    return w.fixed("latest_slice", lang, v=version)


def page_last_text(version: str, latest: str, lang: Lang) -> str:
    """The slice of an answer read from the last release of a page the product's latest
    release no longer has (split or renamed), naming that latest release."""
    return w.fixed("page_last_slice", lang, v=version, latest=latest)


def notes_text(version: str, lang: Lang) -> str:
    """The slice of an answer read from a release's notes because the question named none."""
    return w.fixed("notes_slice", lang, v=version)


def ask_version_text(line: str, versions: list[Version], lang: Lang) -> str:
    """Which release the question is about, its candidates named (a reply of one version
    completes the situation)."""
    return w.fixed("ask_version", lang, line=line, versions=version_list(versions, lang))


def same_text(first: str, last: str, every: bool, lang: Lang) -> str:
    """How far back the answer's text stands word for word."""
    return w.fixed("same_text_every" if every else "same_text", lang, first=first, last=last)


def elsewhere_text(version: str, latest: bool, having: list[Version], lang: Lang) -> str:
    """The asked (or latest) release has nothing on the question; these releases do."""
    name = ("elsewhere_latest" if latest else "elsewhere") + ("_one" if len(having) == 1 else "")
    return w.fixed(name, lang, v=version, versions=version_list(having, lang), last=having[-1])


__all__ = ["ask_version_text", "elsewhere_text", "latest_text", "notes_text", "same_text", "unknown_text", "version_list"]

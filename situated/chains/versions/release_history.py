"""Facts of a release line from metadata, without a model (docs/design.md "Releases"): which
versions exist and how many (in the order asked, or for a place in a list the whole line), the
latest and the oldest, and whether a version exists (a clear no naming the nearest). A line is
the releases the readable documents declare, for the question's product when it names one."""

from __future__ import annotations

import dataclasses

from packaging.version import Version

from situated import releases
from situated.chains.contract import Answer
from situated.chains.read.intent import LineFact
from situated.chains.read.line_words import LineWords
from situated.chains.read.release import ReleaseReading
from situated.chains.read.said import Said
from situated.chains.say import assemble
from situated.chains.say import wording as w
from situated.chains.say.citations import safe_text
from situated.chains.say.release_words import unknown_text
from situated.chains.say.wording import Lang
from situated.situation import Situation


def plural_line(lang: Lang) -> str:
    """How a line of several products is named (`ReleaseSteps.line_name`)."""
    return w.fixed("documents", lang)


def line_text(said: Said, reading: ReleaseReading, declared: list[Version], line: str,
              lang: Lang, fact: LineFact | None = None, meant: bool = False,
              ) -> tuple[str, list[Version]]:
    """The answer's text and the releases it shows. The question's words say which fact it
    asks for; where they say none, the model's validated `fact` does ("Up to which version does
    your coverage extend?"), else the line is listed. `meant`: `fact` was read from the whole
    question's meaning where no rule read it, and wins over a word the rules would take for an
    order ("Your last answer quoted one release. How many do you have?": the count, not the
    latest)."""
    # "Which versions came out after 0.40.0?": that part of the line (an existence question
    # about one release, «есть ли документация по 1.1.0?», is not a listing)
    window = None if said.line.exists and not said.line.whole else \
        _window(said.line, declared, lang)
    if window is not None:
        return _window_text(said.line, reading, window, declared, line, lang, fact)
    n = len(declared)
    # a release exists when a document declares it; one a range only covers (2.0.7 under
    # ">=2.0,<3.0") is not among the versions
    missing = reading.unknown or (reading.version if reading.version is not None and releases.parse(
        reading.version) not in declared else None) or _unknown_number(said, reading, declared)
    facts = {"line": line, "n": n, "first": declared[0], "last": declared[-1]}
    end = said.line.named_end if reading.version is not None or missing is not None else None
    if missing is not None:  # "Is 1.0 the first?" of a line that starts at 0.13.3: no, and it
        no = w.fixed("no", lang) + unknown_text(missing, line, declared, lang)
        return (no, []) if end is None else _end_text(no + " ", end, facts, lang)
    words = _asked_fact(said.line, reading)  # a whole-line word ("which") yields to the model;
    # an order asked for ("…, oldest first") does not: the line is listed in it
    yields = words is None or (words is LineFact.LIST and not said.line.order_named)
    asked = fact if fact is not None and (meant or yields) else words
    if end is not None:  # "Is 1.1.0 the latest?": "No. The latest version of quickq is 2.0.0 …"
        at = facts["last"] if end is LineFact.LATEST else facts["first"]
        yes_no = w.fixed("yes" if releases.parse(str(reading.version)) == at else "no", lang)
        return _end_text(yes_no, end, facts, lang)
    if reading.version is not None and asked is LineFact.EXISTS:
        shown = [releases.parse(reading.version)]
        return w.fixed("line_has", lang, v=reading.version, **facts), shown
    if asked is LineFact.LATEST:
        return w.fixed("line_latest", lang, **facts), [declared[-1]]
    if asked is LineFact.OLDEST:
        return w.fixed("line_oldest", lang, **facts), [declared[0]]
    # "httpx has …", "The documents have …"; backwards where the newest is asked first
    listing = "line_listing_plural" if line == plural_line(lang) else "line_listing"
    shown = list(declared)
    if said.line.newest_first:
        listing, shown = listing + "_newest", shown[::-1]
    names = ", ".join(str(v) for v in shown)
    return w.fixed(listing, lang, names=names, **facts), shown


def _window(words: LineWords, declared: list[Version], lang: Lang,
            ) -> tuple[str, list[Version]] | None:
    """The part of the line a listing asks for (`LineWords.after`, `before`) as the answer
    says it, and the releases inside it; None when the question bounds nothing. A bound
    written with fewer numbers than the releases is a series ("up to 0.25" includes
    0.25.2)."""
    after, before = words.after, words.before
    lo = releases.asked(after.release) if after else None
    hi = releases.asked(before.release) if before else None
    if lo is None and hi is None:
        return None

    def inside(v: Version) -> bool:
        for bound, asked, above in ((after, lo, True), (before, hi, False)):
            if bound is None or asked is None:
                continue
            n = len(asked.version.release)
            head, at = v.release[:n], asked.version.release
            if (head < at if above else head > at) or (head == at and not bound.included):
                return False
        return True

    if after and before and lo and hi:
        said = w.fixed("window_between", lang, lo=after.release, hi=before.release)
    elif after and lo:
        said = w.fixed("window_from" if after.included else "window_after", lang,
                       v=after.release)
    else:
        assert before is not None
        said = w.fixed("window_up_to" if before.included else "window_before", lang,
                       v=before.release)
    return said, [v for v in declared if inside(v)]


def _window_text(words: LineWords, reading: ReleaseReading, window: tuple[str, list[Version]],
                 declared: list[Version], line: str, lang: Lang, fact: LineFact | None,
                 ) -> tuple[str, list[Version]]:
    """The versions inside the window, or the latest or oldest of them when that is asked."""
    said, inside = window
    facts = {"line": line, "n": len(declared), "first": declared[0], "last": declared[-1]}
    if not inside:
        return w.fixed("line_window_none", lang, window=said, **facts), []
    asked = _asked_fact(words, dataclasses.replace(reading, version=None)) or fact
    part = {**facts, "n": len(inside), "first": inside[0], "last": inside[-1]}
    if asked is LineFact.LATEST:
        return w.fixed("line_latest", lang, **part), [inside[-1]]
    if asked is LineFact.OLDEST:
        return w.fixed("line_oldest", lang, **part), [inside[0]]
    shown = inside[::-1] if words.newest_first else inside
    return w.fixed("line_window", lang, k=len(inside), window=said,
                   names=", ".join(str(v) for v in shown), **facts), shown


def _end_text(said: str, end: LineFact, facts: dict, lang: Lang) -> tuple[str, list[Version]]:
    """`said` (yes or no) before the end of the line asked about, and that end shown."""
    if end is LineFact.LATEST:
        return said + w.fixed("line_latest", lang, **facts), [facts["last"]]
    return said + w.fixed("line_oldest", lang, **facts), [facts["first"]]


def _asked_fact(words: LineWords, reading: ReleaseReading) -> LineFact | None:
    """The fact the question's words ask for: whether the version it names exists (a
    version named and no word of the whole line), the latest, the oldest, the whole line;
    None when they say none of these. Which end, asked outright, is asked whatever release is
    named beside it («Есть у тебя что-то старше 1.1.0? Какая самая старая?»)."""
    if reading.version is not None and not words.which_end and (
            words.exists or not words.whole):
        return LineFact.EXISTS
    if words.in_order:
        return LineFact.LIST  # "List every release, oldest first": the line, in that order
    if words.backward:
        return LineFact.OLDEST  # "Going back in time, where does your coverage stop?"
    if words.latest:
        return LineFact.LATEST
    if words.oldest:
        return LineFact.OLDEST
    return LineFact.LIST if words.whole else None


def _unknown_number(said: Said, reading: ReleaseReading, declared: list[Version],
                    ) -> str | None:
    """A number the question about the line names without a cue ("Is 1.5.0 a version you
    have?") that is not among the releases: a version asked about (`find_mentions` reads it;
    never a section's "4.2")."""
    if reading.version is not None:
        return None
    return next((m.asked.text for m in said.numbers if m.bare and not m.asked.series
                 and m.asked.version not in declared), None)


def line_answer(said: Said, reading: ReleaseReading, lines: list[tuple[str, list[Version]]],
                situation: Situation, lang: Lang, fact: LineFact | None = None,
                tail: str = "", meant: bool = False) -> Answer:
    """The fact asked of each line (`lines`: name, its releases; several products' lines one
    after another); `tail`: said after the fact (where notes hold a release the line lacks);
    `meant`: as `line_text`'s."""
    texts, shown = [], []
    for line, declared in lines:
        text, own = line_text(said, reading, declared, line, lang, fact, meant)
        texts.append(text)
        shown += [str(v) for v in own if str(v) not in shown]
    return assemble.from_metadata(safe_text(" ".join(texts) + tail), situation, releases=shown)


__all__ = ["line_answer", "line_text"]

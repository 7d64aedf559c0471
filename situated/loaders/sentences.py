"""Sentences of English or Russian text, and text cut to fit a size.

Sentence boundaries come from razdel (natasha project, MIT): rule-based, no model to download,
≈0.2 s for 400 kB, and right on "e.g.", "i.e.", "U.S.", "Inc.", e-mail addresses and «т.е.»,
«г.», «п.». Measured against the alternatives on the same text: pysbd took 80 s and broke after
«т.е.»; syntok has no Russian and joined "x.com. Done!"; NLTK's punkt needs a data download.
One rule is added on top: no break between an abbreviation that announces a number ("Sec.",
"Art.", "approx.", «ст.», «п.») and the number ("See Sec. 4.2 below" stays one sentence).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import razdel

_BEFORE_NUMBER = re.compile(
    r"\b(?:sec|secs|art|arts|para|paras|approx|fig|figs|ch|chap|p|pp|no|nos|vol|cl|ст|стр|п|пп|"
    r"гл|рис|ч|разд)\.$", re.IGNORECASE)

# an exception or limitation that belongs with the rule before it
EXCEPTION = re.compile(
    r"^\W*(?:unless|except|excepting|however|but\b|notwithstanding|provided\s+that|"
    r"this\s+does\s+not\s+apply|the\s+foregoing\s+does\s+not|кроме|за\s+исключением|однако|"
    r"но\b|если\s+только|это\s+не\s+распространяется|исключение)", re.IGNORECASE)


def is_exception(text: str) -> bool:
    """Does `text` open with an exception to what precedes it ("Unless …", «Однако …»)?"""
    return bool(EXCEPTION.match(text))


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, in order, each stripped; never a break inside "e.g.", "т.е."."""
    spans: list[list[int]] = []
    for s in razdel.sentenize(text):
        if spans and s.text[:1].isdigit() and _BEFORE_NUMBER.search(text[spans[-1][0]:spans[-1][1]]):
            spans[-1][1] = s.stop
        else:
            spans.append([s.start, s.stop])
    return [text[a:b].strip() for a, b in spans if text[a:b].strip()]


_CLAUSE_BREAKS = (re.compile(r"(?<=[;:])\s+"), re.compile(r"(?<=,)\s+"), re.compile(r"\s+"))


def _cut(text: str, fits: Callable[[str], bool], level: int = 0) -> list[str]:
    """One sentence that does not fit → parts at "; ", then ", ", then between words."""
    if fits(text) or level >= len(_CLAUSE_BREAKS):
        if fits(text):
            return [text]
        half = max(1, len(text) // 2)  # one word longer than the limit: cut it
        return _cut(text[:half], fits, level) + _cut(text[half:], fits, level)
    pieces = [p for p in _CLAUSE_BREAKS[level].split(text) if p]
    if len(pieces) == 1:
        return _cut(text, fits, level + 1)
    out: list[str] = []
    current: list[str] = []
    i = 0
    while (i := _extend(current, pieces, i, fits)) < len(pieces):
        if current:  # the next piece starts a part of its own, alone if it fits alone
            out.append(" ".join(current))
            current = []
        else:
            out += _cut(pieces[i], fits, level + 1)
            i += 1
    return [*out, " ".join(current)] if current else out


def _extend(head: list[str], items: list[str], start: int, fits: Callable[[str], bool]) -> int:
    """Append to `head` the most of `items[start:]` that still fit joined to it; the index of
    the first item left. Appending text never makes a part fit that did not (characters and
    word pieces only add up), so how many is found by doubling, then halving: about 2·log k
    calls of `fits` where adding one item at a time made k calls, each over the whole growing
    part (quadratic in a long paragraph)."""
    taken = _reach(head, items, start, fits)
    head += items[start:start + taken]
    return start + taken


def _reach(head: list[str], items: list[str], start: int, fits: Callable[[str], bool]) -> int:
    """The most k for which `head` joined with `items[start:start + k]` still fits (`_extend`)."""
    def ok(k: int) -> bool:
        return fits(" ".join([*head, *items[start:start + k]]))

    left = len(items) - start
    lo, step = 0, 1
    while lo < left:
        hi = min(lo + step, left)
        if not ok(hi):
            break
        lo, step = hi, step * 2
    else:
        return lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def fit_text(text: str, fits: Callable[[str], bool]) -> list[str]:
    """`text` as consecutive parts that each satisfy `fits`, cut between sentences; a sentence
    opening with an exception stays with the one before it when both fit; a sentence that does
    not fit alone is cut at clause punctuation, then between words (the last resort). `fits`
    must only get stricter as text is appended (a size limit), as every caller's does."""
    if fits(text):
        return [text]
    out: list[str] = []
    current: list[str] = []
    sentences = split_sentences(text)
    i = 0
    while (i := _extend(current, sentences, i, fits)) < len(sentences):
        sentence = sentences[i]
        i += 1
        carried: list[str] = []
        if len(current) > 1 and is_exception(sentence) and fits(f"{current[-1]} {sentence}"):
            carried = [current.pop()]  # the rule goes with its exception into the next part
        if current:
            out.append(" ".join(current))
        if fits(" ".join([*carried, sentence])):
            current = [*carried, sentence]
        else:
            out += [*carried, *_cut(sentence, fits)]
            current = []
    return [*out, " ".join(current)] if current else out


# a code fence as the loaders keep it, or as the evidence neutralised it (`\`\`\``)
_FENCE = re.compile(r"\s{0,3}(?:(?:\\?`){3,}|~{3,})")


def is_code(unit: str) -> bool:
    """Is `unit` a fenced code block (`evidence_units` keeps one whole)?"""
    return bool(_FENCE.match(unit))


# a "sentence" that is only a reference in brackets ("(#3139)", "[12]"): it ends the one before
_REFERENCE = re.compile(r"[(\[][^()\[\]\s]{1,24}(?:[ ,;]+[^()\[\]\s]{1,24}){0,3}[)\]]\.?")


def _with_references(sentences: list[str]) -> list[str]:
    out: list[str] = []
    for s in sentences:
        if out and _REFERENCE.fullmatch(s):
            out[-1] = f"{out[-1]} {s}"
        else:
            out.append(s)
    return out


# a list item that defines a term — a parameter, an option, a field — by a dash or a colon
# after it ("- `max_age` - Sets …", "* timeout: …"): its sentences are one unit, so the
# default its last sentence states is quoted with the term it is the default of
TERM_ITEM = re.compile(r"^[-*+]\s+`?[\w.$\[\]()*-]{1,60}`?\s+[-–—:]\s+\S")
MAX_TERM_ITEM = 400


def evidence_units(block_text: str) -> list[str]:
    """What an answer may quote from a block's text: the sentences of its paragraphs, each
    table row as `Header: cell; ...`, each fenced code block whole (its fences and indentation
    kept: a line of code alone says little); the first line (the section heading) and the
    `Scope:`, `Image:`, `Page:` lines left out. The extractive model quotes these, and ingest
    embeds them (`index.sentences`) so no sentence is encoded at question time."""
    lines = block_text.splitlines()
    header: list[str] | None = None
    out: list[str] = []
    code: list[str] | None = None  # the lines of an open code fence
    for line in lines[1:] if lines else []:  # first line is the section heading
        s = line.strip()
        if code is not None:
            code.append(line.rstrip())
            if _FENCE.match(line) and len(code) > 1:
                out.append("\n".join(code))
                code = None
            continue
        if not s:
            continue
        if _FENCE.match(line):
            code = [s]
        elif s.startswith("|"):
            cells = [c.strip() for c in s.strip("|").split("|")]
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells):
                continue
            if header is None:
                header = cells
                continue
            out.append("; ".join(f"{h}: {c}" for h, c in zip(header, cells, strict=False)))
        elif s.lower().startswith(("scope:", "image:", "page:")):
            continue
        elif TERM_ITEM.match(s) and len(s) <= MAX_TERM_ITEM:
            out.append(s)  # "- `max_age` - Sets … Defaults to `600`.": one thing, said once
        else:
            out += _with_references(split_sentences(s))
    if code is not None:  # a fence the block's cut left open: its lines still one unit
        out.append("\n".join(code))
    return out

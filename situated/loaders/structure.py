"""Numbered clauses in running text: `1.`, `1.1.`, `(a)`, `b)`, `i.`, `(iv)`, `A.`, bullets.

Legal and policy pages write their structure as clause markers at the start of a paragraph (or,
in PDFs, of a line) rather than as Markdown lists. `ClauseDepth` turns each marker into a depth
the way a reader does: a marker style seen for the first time nests under the one before it; a
style seen before closes everything opened after it. The depth decides where an oversized section
may be split (`loaders.sizing`): between siblings first, inside a clause only when one clause
alone is too large.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ROMAN = re.compile(r"^(?=[ivxlc]+$)c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$")
_MARKER = re.compile(
    r"^\s*(?:"
    r"(?P<num>\d{1,3}(?:\.\d{1,3})*)(?P<num_end>\.|\))?"  # 1.  1.1  1.1.  2)
    r"|\((?P<pnum>\d{1,3})\)"  # (1)
    r"|\((?P<plet>[a-zA-Z]{1,4})\)"  # (a) (iv) (A)
    r"|(?P<let>[a-zA-Z]{1,4})(?P<let_end>[.)])"  # a.  b)  iv.  A.
    r"|(?P<bullet>[•·▪◦‣∙–—*-])"
    r")\s+(?=\S)")

# a letter after which the same letter is the next alphabetical item, not a roman numeral
_ALPHA_BEFORE = {"i": "h", "v": "u", "x": "w", "l": "k", "c": "b"}


@dataclass(frozen=True)
class Marker:
    style: str  # e.g. "num2" (1.1), "paren-alpha", "roman.", "bullet"
    label: str


def clause_marker(text: str, previous_alpha: str | None = None) -> Marker | None:
    """The clause marker `text` opens with, if any. A bare number needs its `.` or `)` (a
    sentence may start with "2026 …"); a letter is a marker only when followed by `.`/`)` or
    in parentheses; `i`, `v`, `x` are roman unless they continue an alphabetical list."""
    m = _MARKER.match(text)
    if not m:
        return None
    if m.group("num"):
        parts = m.group("num").split(".")
        if len(parts) == 1 and not m.group("num_end"):
            return None
        end = m.group("num_end") or "."
        return Marker(f"num{len(parts)}{end if len(parts) == 1 else ''}", m.group("num"))
    if m.group("pnum"):
        return Marker("(num)", m.group("pnum"))
    if m.group("bullet"):
        return Marker("bullet", m.group("bullet"))
    paren = m.group("plet") is not None
    label = m.group("plet") if paren else m.group("let")
    end = "()" if paren else m.group("let_end")
    lower = label.lower()
    if len(label) > 1 and not _ROMAN.match(lower):
        return None  # "No." "Art." "Mr." are words, not markers
    roman = bool(_ROMAN.match(lower)) and not (
        len(label) == 1 and previous_alpha is not None
        and _ALPHA_BEFORE.get(lower) == previous_alpha.lower())
    if len(label) == 1 and lower in "vxlc" and previous_alpha is None:
        roman = False  # a lone v/x/l/c opens an alphabetical list more often than a roman one
    case = "upper" if label.isupper() else "lower"
    return Marker(f"{'roman' if roman else 'alpha'}-{case}{end}", label)


@dataclass
class ClauseDepth:
    """Depth of each paragraph of one section, from its clause markers (0 = no marker yet)."""

    _stack: list[str] = field(default_factory=list)
    _alpha: dict[str, str] = field(default_factory=dict)

    def of(self, text: str) -> int:
        """The depth of the next paragraph; a paragraph without a marker continues the clause
        it follows (one level below it), or sits at depth 0 before any clause."""
        previous = next((self._alpha[s] for s in reversed(self._stack) if s in self._alpha), None)
        marker = clause_marker(text, previous)
        if marker is None:
            return len(self._stack) + 1 if self._stack else 0
        if marker.style in self._stack:
            del self._stack[self._stack.index(marker.style) + 1:]
        else:
            self._stack.append(marker.style)
        if marker.style.startswith("alpha"):
            self._alpha[marker.style] = marker.label
        return len(self._stack)

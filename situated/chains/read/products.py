"""Finding the index's products in a question (or in a one-word reply to a clarification).

A product is matched by its normalised name: codes by their normal form (`c3` = `C-3`), names as
a run of stemmed words (`тарифа «Старта»` finds `Старт`, "Google Generative AI Services" needs
all four words in order). One-word names that could be ordinary words ("Buffer", "Vibe",
«Старт») must be written with the name's own capitalisation, and one-letter names ("X") exactly
as named and standing alone ("X-ray" is not X), so that "the buffer size" names no product. When
one match lies inside another ("Meta" in "Meta AI"), the longer wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from situated.chains.read.dates import inside, quoted_spans
from situated.chains.read.version_cue import asks_about_releases
from situated.documents import extract_codes, squashed
from situated.index.text import STOP_WORDS, Tokenizer

_POSSESSIVE = re.compile(r"['’]s?\b")


# a word of a product's name read alone ("Spark" for Apache Spark) needs this many letters
MIN_NAME_WORD = 4


def _opens_sentence(text: str, start: int) -> bool:
    """The word at `start` is the first of a sentence (or of a quote, or after a colon)."""
    before = text[:start].rstrip(" \t\"'«“(")
    return not before or before[-1] in ".!?:\n"


# a name joined to an identifier's other part: "httpx.Client", "pixpack-cli", "node:assert"
_ATTACHED = re.compile(r"\w[.\-_/:]\0|\0[.\-_/:]\w")


class ProductMatcher:
    def __init__(self, products: Iterable[str], aliases: dict[str, str] | None = None,
                 as_written_loosely: bool = False):
        """`as_written_loosely`: product names, read as their users write them in a question
        about releases (`spans`); family and facet names are read as written."""
        self._tok = Tokenizer()
        self._loosely = as_written_loosely
        self.products = sorted(products)
        # declared other names (`aliases:` in front matter): alias → product
        self.aliases = {a: p for a, p in (aliases or {}).items() if p in self.products}
        self._keys = {p: self._key(p) for p in self.products}
        self._alias_keys = {a: self._key(a) for a in self.aliases}
        self._squashed = {squashed(p): p for p in self.products
                          if len(self._keys[p]) > 1 and len(squashed(p)) > MIN_NAME_WORD}
        self._own_words = self._distinctive_words()

    def _distinctive_words(self) -> dict[str, str]:
        """Each word of a multi-word name that no other name shares, → its product: "spark"
        → Apache Spark (a word two names share says neither)."""
        owners: dict[str, set[str]] = {}
        for p, key in self._keys.items():
            for t in key:
                owners.setdefault(t, set()).add(p)
        return {t: p for p, key in self._keys.items() if len(key) > 1 for t in key
                if owners[t] == {p} and len(t) >= MIN_NAME_WORD - 1 and not t.isdigit()
                and t not in STOP_WORDS}

    def _key(self, name: str) -> tuple[str, ...]:
        codes = extract_codes(name)
        if len(codes) == 1 and len(name.strip()) <= 12 and len(name.split()) == 1:
            return (codes[0].lower(),)
        return tuple(t for t, *_ in self._tok.terms(name))

    def _case_ok(self, name: str, surface: str, text: str, start: int, end: int) -> bool:
        if len(name) == 1:  # "X": exactly, and not the start of "X-ray" or "X2"
            return surface == name and not (end < len(text) and text[end] in "-‐‑")
        if name[:1].isupper():
            return surface[:1].isupper()
        # a name written in lower case ("npm", "starlette") is matched as written; a product's
        # also capitalised inside a sentence ("… in Starlette?", "install HTTPX"), where
        # capitals mark a name (a sentence's first word is capitalised whatever it is: "Buffer
        # size?"); a family's or facet's is read as written ("`Client`" is not "client")
        return surface == name or (self._loosely and surface[:1].isupper()
                                   and not _opens_sentence(text, start))

    def spans(self, text: str) -> list[tuple[str, int, int]]:
        """(product, start, end) of every product named in `text`, longest matches kept.

        A question that names or asks about releases reads names as their users write them
        ("bootstrap 5.3.4", "Spark Release 3.4.4", "NodeJs version 5.2.3"): the case rule is
        lifted (one-letter names aside) and a word of a multi-word name no other name shares
        names it. Written together ("NodeJs") or declared (`aliases:`), a name is read
        whatever the question asks."""
        terms = self._tok.terms(text)
        loose = self._loosely and asks_about_releases(text)
        found: list[tuple[str, int, int]] = []
        named = [*self._keys.items(), *((self.aliases[a], k) for a, k in self._alias_keys.items())]
        for product, key in named:
            if not key:
                continue
            n = len(key)
            single_word = n == 1 and not extract_codes(product)
            for i in range(len(terms) - n + 1):
                if tuple(t for t, *_ in terms[i:i + n]) != key:
                    continue
                _, surface, start, _ = terms[i]
                end = terms[i + n - 1][3]
                name = product if (product, key) in self._keys.items() else surface
                if single_word and not (loose and len(name) > 1) and not self._case_ok(
                        name, surface, text, start, end):
                    continue
                found.append((product, start, end))
        if self._loosely:
            found += self._written_loosely(terms, loose)
        return [f for f in found
                if not any(o != f and o[1] <= f[1] and f[2] <= o[2] and o[2] - o[1] > f[2] - f[1]
                           for o in found)]

    def _written_loosely(self, terms: list[tuple[str, str, int, int]], loose: bool,
                         ) -> list[tuple[str, int, int]]:
        """Names written together ("NodeJs", "nodejs"), and, in a question about releases, a
        word of a name that no other name shares ("Spark", "Node")."""
        found = []
        for term, surface, start, end in terms:
            whole = self._squashed.get(squashed(surface))
            if whole is not None:
                found.append((whole, start, end))
            elif loose and (owner := self._own_words.get(term)) and len(surface) >= MIN_NAME_WORD:
                found.append((owner, start, end))
        return found

    def find(self, text: str) -> list[str]:
        """The products named in `text`, each once, in the order they appear.

        A name inside a quoted phrase ("say about “use of Le Chat”") is part of what the asker
        quotes: it counts only when nothing outside quotes names a product (a quote that is
        just the name, «Старт», names it). Of several names, the one in the possessive
        ("Vibe's Privacy Policy") is the one the question is about."""
        spans = sorted(self.spans(text), key=lambda s: s[1])
        quoted = quoted_spans(text)
        outside = [s for s in spans if not inside((s[1], s[2]), quoted)]
        found = list(dict.fromkeys(p for p, _, _ in (outside or spans)))
        if len(found) > 1:
            owners = list(dict.fromkeys(p for p, _, end in (outside or spans)
                                        if _POSSESSIVE.match(text, end)))
            if len(owners) == 1:
                return owners
        return found

    def canonical(self, text: str) -> str:
        """`text` with each product written loosely ("Postgres", "NodeJs", "spark") written as
        the index names it, so that the search reads the name its documents hold."""
        out, last = [], 0
        for product, start, end in sorted(self.spans(text), key=lambda s: s[1]):
            if start >= last and squashed(text[start:end]) != squashed(product):
                out += [text[last:start], product]
                last = end
        out.append(text[last:])
        return "".join(out)

    def strip(self, text: str, lead: re.Pattern | None = None, *,
              standalone: bool = False) -> str:
        """`text` without the names it finds (what is left says what it asks about); `lead`:
        the words that govern a name, taken out with it ("in the EU"); `standalone`: only a
        name standing as a word, never one inside an identifier (`httpx.Client`,
        `pixpack-cli`, `node:assert`)."""
        out, last = [], 0
        for _, start, end in sorted(self.spans(text), key=lambda s: s[1]):
            if standalone and _ATTACHED.search(text[max(0, start - 2):start] + "\0"
                                               + text[end:end + 2]):
                continue
            if start >= last:
                m = lead.search(text, last, start) if lead else None
                out.append(text[last:m.start() if m else start])
                last = end
        out.append(text[last:])
        joined = re.sub(r"\s{2,}", " ", "".join(out))
        return re.sub(r"\s+([?.!,;:])", r"\1", joined).strip() or text

    def resolve(self, proposed: str) -> str | None:
        """A proposed product string ("the S-2", "c3", "Старт") → the index's product id."""
        exact = [p for p in self.products if p.casefold() == proposed.strip().casefold()]
        if exact:
            return exact[0]
        found = self.find(proposed)
        return found[0] if len(found) == 1 else None

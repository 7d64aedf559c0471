"""What makes a question one about releases: a cue word before a number ("version 16.20.2",
«версия 2.1»), a `v` before one ("v5.3.3"), a dotted number ("3.4.4"), or the word alone
("which versions exist?"). Release reading (`chains.read.release`) finds the number; product
reading (`chains.read.products`) only needs to know a release is asked about, to read a product
name as its user writes it ("bootstrap 5.3.4", "Spark Release 3.4.4")."""

from __future__ import annotations

import re

from situated.words import alt

NUM = r"v?\d+(?:\.\d+){0,3}(?:\.[xX*])?(?:[-.]?(?:a|b|rc|alpha|beta|pre|dev|post)\.?\d*)?"
CUE = rf"(?:{alt('periods', 'RELEASE_CUE')})"
# the words alone that ask about releases ("build", "revision" are ordinary words too)
_WORDS = rf"(?:{alt('periods', 'RELEASE_WORDS')})"
_ASKS = re.compile(rf"(?<!\w){_WORDS}(?!\w)|(?<![\w.])v\d+(?:\.\d+)*(?![\w.]*\d)|"
                   r"(?<![\w.§/-])\d+\.\d+(?:\.\d+){0,2}(?![\w.]*\d)", re.IGNORECASE)


def asks_about_releases(text: str) -> bool:
    """`text` names a release or asks about releases."""
    return _ASKS.search(text) is not None


__all__ = ["CUE", "NUM", "asks_about_releases"]

"""The cues of a question about what changed (`chains.read.intent` reads them): what a release,
a family or a named thing changed ("What changed in quickq 1.1.0?", «Что изменилось в тарифе
Старт?», "What was reworked in 1.1.0?"), and what is not such a question though it names
changes ("Which changes require a referendum?", "Can I change the battery?"). The words are in
`words/<lang>/changes.py`; a release number is read as 0 there."""

from __future__ import annotations

import re

from situated.words import alt


def _cue(name: str) -> re.Pattern[str]:
    return re.compile(alt("changes", name), re.IGNORECASE)


CHANGES = _cue("CHANGES")
# "changes to the policy" asks what changed, unless the changes are what someone makes or
# announces ("Will they inform me if they make changes to the policy?", "Can I make changes in
# my account?": a question about what the text says of changes)
CHANGES_OF = _cue("CHANGES_OF")
MAKING_CHANGES = _cue("MAKING_CHANGES")
# a question that names change and asks something else: the value a thing was changed to ("To
# what gauge have some lines been changed?"), what changes need, or how changes are told ("What
# changes … are being informed to the users?"): what the text says, not a version history
NOT_A_CHANGE = _cue("NOT_A_CHANGE")


__all__ = ["CHANGES", "CHANGES_OF", "MAKING_CHANGES", "NOT_A_CHANGE"]

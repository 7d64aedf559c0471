"""The cues of a first-appearance question (`chains.read.intent` reads them): in which release
something was added, removed or deprecated ("Since which version can I schedule tasks?",
«В каком выпуске впервые появился X?»), and the least release that has a thing ("What's the
minimum quickq version I need for X?"). The words are in `words/<lang>/since.py`."""

from __future__ import annotations

import re

from situated.words import alt

# the least release that has something, the product's name taken away ("What's the minimum
# quickq version that has scheduled tasks?"); with another name between, it asks what that
# needs ("What's the minimum Python version that quickq needs?": content)
LEAST_RELEASE = re.compile(alt("since", "LEAST_RELEASE"), re.IGNORECASE)
# how long the product has had a thing, read with the product's name taken away, where it
# stood ("How long has quickq had X?", «Как давно quickq поддерживает X?»); without the name
# they are content ("How far back does the audit log go?")
HELD_SINCE = re.compile(alt("since", "HELD_SINCE"), re.IGNORECASE)
# in which release a thing arrived ("In which version did quickq add X?", «С какой версией
# quickq пришёл X?»)
SINCE_Q = re.compile(alt("since", "SINCE_Q"), re.IGNORECASE)


__all__ = ["HELD_SINCE", "LEAST_RELEASE", "SINCE_Q"]

"""The English script (`situated.words.letters`): its capital and small letters."""

UPPER = r"A-Z"
LOWER = r"a-z"

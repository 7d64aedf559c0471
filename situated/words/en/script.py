"""The English script (`situated.words.letters`): its capital and small letters."""

UPPER = "A-Z"
LOWER = "a-z"

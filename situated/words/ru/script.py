"""The Russian script (`situated.words.letters`): its capital and small letters."""

UPPER = r"А-ЯЁ"
LOWER = r"а-яё"

"""The Russian script (`situated.words.letters`): its capital and small letters."""

UPPER = "А-ЯЁ"
LOWER = "а-яё"

"""Base for the string enums that name modes (statuses, policies, date roles)."""

from __future__ import annotations

from enum import Enum
from typing import Self, TypeVar

E = TypeVar("E", bound="Mode")


class Mode(str, Enum):
    """A string enum whose `parse` error lists the valid values."""

    @classmethod
    def parse(cls, value: str, what: str | None = None) -> Self:
        try:
            return cls(value)
        except ValueError:
            valid = ", ".join(v.value for v in cls)
            name = what or cls.__name__
            raise ValueError(f"{name} must be one of {valid}, got {value!r}") from None

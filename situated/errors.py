"""Typed errors. Each message names the bad value and how to fix it; the CLI prints one line."""

from __future__ import annotations


class SituatedError(Exception):
    """Base of every error this package raises on purpose."""


class DocumentError(SituatedError):
    """A document (or a set of documents) cannot be ingested; nothing was published."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        head = f"{len(self.problems)} problem(s) in the documents; nothing was published:"
        super().__init__("\n".join([head, *(f"  - {p}" for p in self.problems)]))


class IndexError_(SituatedError):
    """The index directory is missing, incomplete or built with another model/schema."""


class ConfigError(SituatedError):
    """A setting is invalid."""


class QuestionError(SituatedError, ValueError):
    """A question (or the question a reply follows) cannot be asked: empty, or too long.
    Also a `ValueError`, so pydantic validators can raise it as a validation error."""


class ModelError(SituatedError):
    """The chat model could not answer (unreachable, timed out, refused the request)."""

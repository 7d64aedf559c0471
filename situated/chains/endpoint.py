"""A chat model's endpoint failing: told apart from a bug, and reported as the `ModelError`
naming the setting and the URL (every step that calls a model: the proposal, the rewrite, the
restatement, the answer)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from situated.errors import ModelError
from situated.settings import Settings


def is_model_failure(exc: BaseException) -> bool:
    """An error of the chat model's endpoint (connection, timeout, HTTP status), not a bug."""
    try:
        import openai
    except ImportError:  # pragma: no cover - langchain-openai depends on it
        return False
    return isinstance(exc, openai.APIError)


def is_unreachable(exc: BaseException) -> bool:
    """The endpoint did not answer at all (connection refused, timed out): no other request
    to it can do better now."""
    try:
        import openai
    except ImportError:  # pragma: no cover
        return False
    return isinstance(exc, openai.APIConnectionError)  # APITimeoutError is one


@contextlib.contextmanager
def model_call(settings: Settings) -> Iterator[None]:
    """Around a call of the chat model: a failure of its endpoint becomes the `ModelError`
    naming the setting and the URL (`model_failure`), never a raw client error; any other
    error passes unchanged."""
    try:
        yield
    except Exception as exc:
        if is_model_failure(exc):
            raise model_failure(exc, settings) from None
        raise


def model_failure(exc: BaseException, settings: Settings) -> ModelError:
    """The error to report: what failed, where, and the settings that fix it."""
    what = type(exc).__name__.removeprefix("OpenAI")
    detail = str(exc).splitlines()[0][:200] if str(exc) else ""
    return ModelError(
        f"the chat model {settings.openai_model!r} at {settings.openai_base_url} "
        f"(SITUATED_OPENAI_BASE_URL) failed: {what}{': ' + detail if detail else ''}; start "
        f"it or fix the URL (requests time out after {settings.openai_timeout_s:g} s, "
        "SITUATED_OPENAI_TIMEOUT_S), or answer offline: SITUATED_MODEL=extractive, or "
        "SITUATED_MODEL_FALLBACK=true to fall back when it fails")


__all__ = ["is_model_failure", "is_unreachable", "model_call", "model_failure"]

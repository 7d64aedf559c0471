"""What stands between the network and the handlers: bounded bodies, checked JSON, and errors
that are logged without the caller's text.

* `BodyLimit`: a hard cap on every request body, whatever its transfer encoding.
* `JsonGuard`: a POSTed body must be UTF-8 JSON without lone surrogates, nested at most
  `max_depth` levels, and a `/batch` request may carry at most `max_batch` inputs; anything
  else is a 400/413 that says what is wrong and how to fix it, before a handler parses it
  (LangServe's own parsing answered 500 for all of these).
* `ErrorShield`: an unexpected error becomes a 500 with a reference; the log line names the
  route, the error type, the body's length and SHA-256, the reference and where it failed (file,
  line and function of each frame), never the error's message or the body (a validation
  error's message quotes the question).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import traceback
import uuid
from typing import Any

from fastapi import HTTPException
from fastapi.responses import JSONResponse

log = logging.getLogger("situated.server")

MAX_BODY_BYTES = 64 * 1024
MAX_JSON_DEPTH = 32

class BodyLimit:
    """A hard cap on every request body, whatever its transfer encoding: a declared
    `Content-Length` over the limit is refused before reading, and a chunked body is counted as
    it streams in and refused (413) the moment it passes the limit — nothing past the limit is
    read, parsed or echoed."""

    def __init__(self, app, limit: int, hint: str = ""):
        self.app, self.limit, self.hint = app, limit, hint

    def _detail(self, size: str) -> str:
        return f"request body of {size} is over the {self.limit} byte limit; {self.hint}"

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length", b"").decode()
        if length.isdigit() and int(length) > self.limit:
            response = JSONResponse(status_code=413,
                                    content={"detail": self._detail(f"{length} bytes")})
            return await response(scope, receive, send)
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise HTTPException(status_code=413,
                                        detail=self._detail(f"more than {self.limit} bytes"))
            return message

        return await self.app(scope, counted, send)



_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def json_depth(body: bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text, without parsing it."""
    depth = deepest = 0
    for ch in _BRACKET.findall(_STRING.sub(b'""', body)):
        depth += 1 if ch in (b"[", b"{") else -1
        deepest = max(deepest, depth)
    return deepest


def _surrogate_at(value: Any, where: str = "body") -> str | None:
    """The path of the first string holding a lone UTF-16 surrogate (not valid Unicode)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where
        return None
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, item in items:
        found = _surrogate_at(key, f"{where} key") if isinstance(key, str) else None
        found = found or _surrogate_at(item, f"{where}.{key}")
        if found:
            return found
    return None


MAX_INT_DIGITS = 30  # no field of ours holds a larger number


class _BadNumber(ValueError):
    pass


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise _BadNumber(f"the number {text[:20]} is not finite")
    return value


def _small_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _BadNumber(f"an integer of {len(text.lstrip('-'))} digits is larger than any "
                         "field accepts")
    return int(text)


def _constant(name: str):
    raise _BadNumber(f"{name} is not a JSON number")


def _input_problem(model, value: Any, where: str) -> str | None:
    from pydantic import ValidationError

    try:
        model.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(x) for x in first["loc"])
        return f"{where}{'.' + loc if loc else ''}: {first['msg']}"
    return None


def check_json_body(body: bytes, path: str, max_depth: int, max_batch: int,
                    input_model=None) -> tuple[int, str] | None:
    """(status, what is wrong and the fix) for a body no handler should see, else None.

    `input_model` (the route's input) validates `input`, or every one of a batch's `inputs`
    (naming the bad one), before any handler runs: a bad input is a 4xx before the first byte
    of a stream, never a 500 or a stream cut short."""
    if not body.strip():
        return None  # the handler's own "field required" answer is clear enough
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return 400, (f"the request body is not valid UTF-8 (byte {exc.start}); send the JSON "
                     "encoded as UTF-8")
    depth = json_depth(body)
    if depth > max_depth:
        return 400, (f"the JSON body is nested {depth} levels deep, more than the {max_depth} "
                     "allowed; send the documented shape ({\"input\": {\"question\": ...}})")
    try:
        data = json.loads(text, parse_float=_finite, parse_int=_small_int,
                          parse_constant=_constant)
    except _BadNumber as exc:
        return 400, f"the request body holds a number no field accepts: {exc}; send a plain " \
                    "value"
    except json.JSONDecodeError as exc:
        return 400, f"the request body is not valid JSON ({exc.msg} at position {exc.pos})"
    except ValueError as exc:  # e.g. a number the parser itself refuses
        return 400, f"the request body is not valid JSON ({str(exc)[:120]})"
    where = _surrogate_at(data)
    if where:
        return 400, (f"{where} holds a lone UTF-16 surrogate, which is not valid Unicode; send "
                     "well-formed text")
    if path.endswith("/batch"):
        inputs = data.get("inputs") if isinstance(data, dict) else None
        if not isinstance(inputs, list) or not inputs:
            return 422, ("a batch needs `inputs`, a non-empty list of inputs: "
                         "{\"inputs\": [{\"question\": ...}, ...]}")
        if len(inputs) > max_batch:
            return 413, (f"a batch of {len(inputs)} inputs is more than the {max_batch} "
                         "allowed; split it into smaller batches (setting max_batch_inputs)")
        if input_model is not None:
            for i, one in enumerate(inputs):
                if (problem := _input_problem(input_model, one, f"inputs[{i}]")) is not None:
                    return 422, problem
    elif input_model is not None and path.endswith(("/invoke", "/stream", "/stream_log",
                                                    "/stream_events")):
        if not isinstance(data, dict) or "input" not in data:
            return 422, "the body needs `input`: {\"input\": {\"question\": ...}}"
        if (problem := _input_problem(input_model, data["input"], "input")) is not None:
            return 422, problem
    return None


class JsonGuard:
    """Reads a POST body (already capped by `BodyLimit`), refuses it with `check_json_body`'s
    answer, or replays it unchanged to the app."""

    def __init__(self, app, max_depth: int = MAX_JSON_DEPTH, max_batch: int = 32,
                 input_model=None, body_timeout: float = 30.0):
        self.app, self.max_depth, self.max_batch = app, max_depth, max_batch
        self.input_model, self.body_timeout = input_model, body_timeout

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") != "POST":
            return await self.app(scope, receive, send)
        chunks: list[bytes] = []
        deadline = asyncio.get_running_loop().time() + self.body_timeout
        try:
            while True:
                left = deadline - asyncio.get_running_loop().time()
                try:  # a client that trickles its body holds a connection: not for long
                    message = await asyncio.wait_for(receive(), timeout=max(left, 0.001))
                except TimeoutError:
                    return await JSONResponse(status_code=408, content={"detail": (
                        f"the request body did not arrive within {self.body_timeout:g} s; "
                        "send it at once")})(scope, receive, send)
                if message["type"] != "http.request":
                    return None  # the client went away
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    break
        except HTTPException as exc:  # BodyLimit refused the stream
            return await JSONResponse(status_code=exc.status_code,
                                      content={"detail": exc.detail})(scope, receive, send)
        body = b"".join(chunks)
        problem = check_json_body(body, scope.get("path", ""), self.max_depth, self.max_batch,
                                  self.input_model)
        if problem:
            status, detail = problem
            return await JSONResponse(status_code=status,
                                      content={"detail": detail})(scope, receive, send)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        scope.setdefault("state", {})["body_sha256"] = hashlib.sha256(body).hexdigest()[:16]
        scope["state"]["body_bytes"] = len(body)
        return await self.app(scope, replay, send)


class ErrorShield:
    """An unexpected error → 500 with a reference, logged by type, route, body length and
    hash only."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def watched(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            return await self.app(scope, receive, watched)
        except Exception as exc:  # noqa: BLE001 - every error must be logged redacted
            ref = uuid.uuid4().hex[:12]
            state = scope.get("state") or {}
            # where it failed (file, line, function of every frame), never what it said
            frames = " < ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno}:{f.name}"
                                for f in reversed(traceback.extract_tb(exc.__traceback__)))
            log.error("request %s %s failed: %s (ref %s, body %s bytes, sha256 %s) at %s",
                      scope.get("method"), scope.get("path"), type(exc).__name__, ref,
                      state.get("body_bytes", "?"), state.get("body_sha256", "-"), frames)
            if not started:
                await JSONResponse(status_code=500, content={
                    "detail": f"internal error (reference {ref}); the server log has the "
                              "details"})(scope, receive, send)
            return None

"""The HTTP server: LangServe `/ask`, `/documents/{source_id}`, `/health`, API-key scopes, and
the browser page (`situated.web`: `/`, `/session`).

The caller's scope comes only from the API key (sent as a header, or exchanged once for a
browser session cookie, whose POSTs must carry its CSRF token): an auth dependency guards every
route, and a
per-request config modifier replaces the run config's `configurable` with the key's scope
(whatever a client sent there). The request body holds the question and, optionally, the
situation carried from a previous clarification; unknown keys are refused (422). Bodies are
capped, checked and errors logged redacted before any handler runs (`situated.guard`); every
request runs on the index generation published when it starts (`App.pinned`).

Streaming (`/ask/stream`) yields the answer in chunks `{"answer": "..."}` followed by one final
chunk with every other field of the answer contract (status, citations, evidence, hits,
budget, …); the chunks add up to the same body `/ask/invoke` returns. The model's reply is
checked for citations before any of it is released, because an answer that cites an unknown
label must not be shown at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any, cast

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse
from langchain_core.runnables import Runnable, RunnableConfig, RunnableGenerator
from langchain_core.runnables.config import var_child_runnable_config
from langchain_core.runnables.utils import AddableDict
from pydantic import BaseModel, Field, field_validator
from uvicorn.protocols.http.h11_impl import H11Protocol

from situated.auth import KeyStore, Principal
from situated.chains.ask import build_ask_chain
from situated.chains.contract import Answer
from situated.chains.state import AskFields, check_question
from situated.guard import MAX_BODY_BYTES, BodyLimit, ErrorShield, JsonGuard
from situated.retrievers.parts import SCOPE_KEY
from situated.situation import Scope
from situated.web import PAGE_HEADERS, add_page_routes, document_page
from situated.web.sessions import COOKIE, CSRF_HEADER, BrowserSessions, new_secret

_SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def app_from_env() -> FastAPI:
    """The app of one `situated serve --workers N` worker (uvicorn imports it by name in each
    process): the keys file and the index directory come from the parent through the
    environment, every other setting from the usual `SITUATED_*` variables."""
    from situated.app import App
    from situated.process import WorkerHandoff
    from situated.settings import Settings

    handed = WorkerHandoff.received()
    settings = Settings(index_dir=handed.index) if handed.index else Settings()
    return create_app(App(settings), KeyStore.load(handed.keys),
                      session_secret=handed.session_secret)


class TimelyH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for a request's head: a connection that has not
    sent a whole request line and headers `header_timeout` seconds after it opened (or after
    its last response) is closed. Stock uvicorn waits for it forever, so a few thousand slow
    clients hold the server. A module-level class: `serve --workers N` pickles it."""

    header_timeout = 10.0

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def _arm(self) -> None:
        cycle = self.cycle

        def late() -> None:
            if self.cycle is cycle and not self.transport.is_closing():
                self.transport.close()  # no new request began in time

        self.loop.call_later(self.header_timeout, late)


def timely_http(header_timeout: float) -> type[TimelyH11Protocol]:
    """The protocol with another deadline (tests, a server behind a slow proxy)."""
    return type("TimelyH11Protocol", (TimelyH11Protocol,), {"header_timeout": header_timeout})


def make_request_model(max_chars: int) -> type[BaseModel]:
    """The request body: `AskFields` (what the chain's `AskInput` holds but the scope, which
    comes from the API key) with the lengths capped and the question checked as the chain
    checks it (`check_question`)."""

    class AskRequest(AskFields):
        """One question; `situation` is the one returned by a previous clarification and
        `follows` the question that clarification was about (so a reply such as "C-3" is
        answered with it)."""

        question: str = Field(min_length=1, max_length=max_chars)
        follows: str | None = Field(default=None, max_length=max_chars)

        @field_validator("question")
        @classmethod
        def _checked(cls, value: str) -> str:
            check_question(value, max_chars)
            return value

    return AskRequest


def _chunks(answer: Answer) -> Iterator[AddableDict]:
    body = answer.model_dump(mode="json")
    text = body.pop("answer")
    for piece in re.findall(r"\S+\s*", text) or [""]:
        yield AddableDict(answer=piece)
    yield AddableDict(body)


TURNS_KEY = "situated_turns"  # per request: how many of its inputs may be answered at once


def serving_runnable(chain: Runnable) -> Runnable:
    """The ask chain as a generator: scope from config, answer in chunks, then the rest. The
    inputs of one request take turns (`TURNS_KEY`, a semaphore the server puts in each request's
    config): a batch of slow questions occupies `batch_concurrency` worker threads, not the
    pool, so a concurrent question of another request is not starved."""

    def _inputs(inp: Any, config: RunnableConfig) -> dict[str, Any]:
        scope = (config.get("configurable") or {}).get(SCOPE_KEY)
        if not isinstance(scope, Scope):
            raise PermissionError("no authenticated scope in the run config")
        data = inp if isinstance(inp, dict) else inp.model_dump()
        return {"question": data["question"], "situation": data.get("situation"),
                "follows": data.get("follows"), "scope": scope}

    # The inner chain runs detached from the request's run (fresh context, no callbacks):
    # stream_events then carries only this runnable's chunks, released after the citation
    # check, never the model's raw tokens of an answer that ends up withheld.
    def inner(config: RunnableConfig) -> RunnableConfig:
        return {"run_name": "situated_ask_chain", "metadata": dict(config.get("metadata", {}))}

    def detached() -> contextvars.Context:
        ctx = contextvars.copy_context()
        ctx.run(var_child_runnable_config.set, None)
        return ctx

    def transform(inputs: Iterator[Any], config: RunnableConfig) -> Iterator[AddableDict]:
        for inp in inputs:
            answer = detached().run(chain.invoke, _inputs(inp, config), inner(config))
            yield from _chunks(answer)

    async def atransform(inputs: AsyncIterator[Any], config: RunnableConfig
                         ) -> AsyncIterator[AddableDict]:
        turns = (config.get("configurable") or {}).get(TURNS_KEY) or contextlib.nullcontext()
        async for inp in inputs:
            async with turns:
                answer = await asyncio.create_task(
                    chain.ainvoke(_inputs(inp, config), inner(config)), context=detached())
            for chunk in _chunks(answer):
                yield chunk

    # the stub types a transform of one argument; the class passes the config to one that
    # declares it (`RunnableGenerator`'s own signature inspection)
    return RunnableGenerator(cast(Any, transform), cast(Any, atransform), name="situated_ask")


SECURITY_SCHEMES = {
    "bearer": {"type": "http", "scheme": "bearer",
               "description": "`Authorization: Bearer KEY`, a key of the keys file"},
    "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key",
               "description": "the same key in `X-API-Key`"},
    "session": {"type": "apiKey", "in": "cookie", "name": COOKIE,
                "description": f"a browser session from `POST /session`; a POST with it must "
                               f"carry `{CSRF_HEADER}` (the token `/session` returns)"},
}


def declare_security(api: FastAPI) -> None:
    """The OpenAPI document names the two ways to send a key, required on every route but
    `/health` (an OpenAPI client can then authenticate instead of meeting 401s)."""
    plain = api.openapi

    def openapi() -> dict[str, Any]:
        if api.openapi_schema is None:
            schema = plain()
            schema.setdefault("components", {})["securitySchemes"] = SECURITY_SCHEMES
            schema["security"] = [{"bearer": []}, {"apiKey": []}, {"session": []}]
            for path in ("/health", "/session"):
                for op in schema.get("paths", {}).get(path, {}).values():
                    if isinstance(op, dict):
                        op["security"] = []
            api.openapi_schema = schema
        return api.openapi_schema

    api.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented override


def create_app(application, keys: KeyStore, model=None,
               session_secret: str | None = None) -> FastAPI:
    """A FastAPI app over one `App` (settings, index, engine) and one key store; `model`
    overrides the chat model the settings name (tests use a scripted one). Browser sessions
    are signed with `session_secret` (random per app when None; `serve --workers N` hands
    its workers one)."""
    from langserve import add_routes

    settings = application.settings
    application.snapshot()  # open (or build the sample) index now, not on the first request
    chain = build_ask_chain(application, model=model)
    AskRequest = make_request_model(settings.max_question_chars)
    # /docs and /redoc load Swagger UI and ReDoc from a CDN: offline they are blank pages, so
    # they are off; /openapi.json stays, declaring how to authenticate
    api = FastAPI(title="situated", version="0.1.0", docs_url=None, redoc_url=None,
                  description="Answers from the evidence that applies to the asker.")
    declare_security(api)

    # outermost last: errors shielded → body capped → JSON checked → handlers
    api.add_middleware(JsonGuard, max_batch=settings.max_batch_inputs, input_model=AskRequest,
                       body_timeout=settings.body_timeout_s)
    api.add_middleware(BodyLimit, limit=MAX_BODY_BYTES,
                       hint=f"questions may have at most {settings.max_question_chars} "
                            "characters")
    api.add_middleware(ErrorShield)

    sessions = BrowserSessions(keys, session_secret or new_secret(),
                               hours=settings.session_hours)
    principal_of = _authenticator(keys, sessions)

    scope_config = _scope_config(principal_of, settings.batch_concurrency)
    add_routes(
        api, serving_runnable(chain), path="/ask", input_type=AskRequest, output_type=Answer,
        # "configurable" passes LangServe's batch path, which keeps only these keys of the
        # config *after* the modifier; the modifier replaces it whole with the key's scope, so a
        # client can never send one of its own
        config_keys=("configurable",), per_req_config_modifier=scope_config,
        dependencies=[Depends(principal_of)],
        # not LangServe's playground: it cannot draw this input's optional fields and calls
        # routes that are off; the page at / is this server's own (`situated.web`)
        enabled_endpoints=["invoke", "batch", "stream", "stream_events", "input_schema",
                           "output_schema"],
    )

    _without_langserve_banner(api)
    @api.get("/health")
    def health() -> dict[str, Any]:
        snap = application.snapshot()
        return {"status": "ok", "generation": snap.generation, "pid": os.getpid()}

    _document_routes(api, application, principal_of)
    add_page_routes(api, sessions)
    return api


def _scope_config(principal_of, concurrency: int):
    """The per-request config modifier: the key's scope replaces whatever `configurable` a
    client sent, and the request's inputs share one semaphore of `concurrency` turns."""

    def scope_config(config: dict[str, Any], request: Request) -> dict[str, Any]:
        principal = principal_of(request)
        config = dict(config)
        if not hasattr(request.state, "turns"):  # one per request, however its configs come
            request.state.turns = asyncio.Semaphore(concurrency)
        config["configurable"] = {SCOPE_KEY: principal.scope, TURNS_KEY: request.state.turns}
        config["metadata"] = {**config.get("metadata", {}), "principal": principal.name}
        return config

    return scope_config


def _without_langserve_banner(api: FastAPI) -> None:
    """LangServe prints a banner at start-up ending "See all available routes at None/" (the
    docs pages are off): `situated serve` says where it listens itself."""
    api.router.on_startup[:] = [h for h in api.router.on_startup
                                if getattr(h, "__module__", "") != "langserve.server"]


def _authenticator(keys: KeyStore, sessions: BrowserSessions):
    """The auth dependency: a key in a header, else a session cookie (whose POSTs must carry
    its CSRF token: a cookie is sent by the browser on its own, a header is not)."""

    def principal_of(request: Request) -> Principal:
        auth = request.headers.get("authorization", "")
        key = auth[7:].strip() if auth.lower().startswith("bearer ") else None
        key = key or request.headers.get("x-api-key")
        cookie = request.cookies.get(COOKIE) if not key else None
        principal = keys.authenticate(key) if key else sessions.principal(cookie)
        if principal is None:
            raise HTTPException(
                status_code=401, headers={"WWW-Authenticate": "Bearer"},
                detail="missing or unknown API key; send `Authorization: Bearer KEY`, or "
                       "sign in on the page at /")
        if cookie and request.method not in _SAFE_METHODS \
                and not sessions.csrf_ok(cookie, request.headers.get(CSRF_HEADER)):
            raise HTTPException(
                status_code=403, detail=f"a POST signed in by cookie needs the `{CSRF_HEADER}` "
                "header holding the token `GET /session` returns")
        return principal

    return principal_of


def _readable_blocks(engine, source_id: str, scope: Scope) -> list:
    """The blocks of one document the scope may read, in document order; none for a document
    that is absent or forbidden alike. Permission comes from the documents table first, by one
    key look-up: a restricted document costs what an absent one does (no block is read), so
    timing discloses nothing."""
    index, flt = engine.index, engine.filter_for(scope)
    try:
        readable = flt.admits(index.fields_of_source(source_id))
    except KeyError:
        readable = False
    return [b for b in index.blocks_of(source_id) if flt.admits(b.fields)] if readable else []


def _document_routes(api: FastAPI, application, principal_of) -> None:
    """`GET /documents/{source_id}`: the blocks of one document the key may read, as HTML or
    JSON; absent and forbidden look the same."""

    @api.get("/documents/{source_id}", response_model=None)
    def document(source_id: str, request: Request, format: str = "html",
                 principal: Principal = Depends(principal_of)):
        with application.pinned() as snap:  # one generation for the whole read
            blocks = _readable_blocks(snap.engine, source_id, principal.scope)
            meta = snap.index.document(source_id) if blocks else None
        if not blocks or meta is None:  # absent and forbidden look the same
            raise HTTPException(status_code=404,
                                detail=f"no document {source_id!r} that this key may read")
        wants_json = format == "json" or "application/json" in request.headers.get("accept", "")
        if wants_json:
            return {"source_id": source_id, "blocks": [
                {"block_id": b.block_id, "anchor": b.link.partition("#")[2] or None,
                 "section": b.section, "page": b.page, "kind": b.kind.value, "text": b.text}
                for b in blocks]}
        return HTMLResponse(document_page(meta, blocks), headers=PAGE_HEADERS)

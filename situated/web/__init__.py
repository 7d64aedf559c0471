"""The browser page: `GET /` (a page of this package's own, no CDN), a login that exchanges an
API key for a session cookie (`POST /session`), who is signed in (`GET /session`) and sign-out
(`DELETE /session`). The page asks through `/ask/invoke` with the cookie and the CSRF token
(`situated.web.sessions`); citation links open `/documents/…` with the same cookie.

Every page response carries a Content-Security-Policy that allows only this server's own
script and style (no inline script, no frames, no form posts elsewhere): the page renders
answers as text nodes and makes links only from the answer's own citation links.
"""

from __future__ import annotations

import html
from importlib import resources

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from situated.documents import ValidFor
from situated.web.sessions import COOKIE, CSRF_HEADER, BrowserSessions

PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "connect-src 'self'; img-src 'self'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
_ASSETS = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8",
           "icon.svg": "image/svg+xml"}


def _asset(name: str) -> bytes:
    return resources.files("situated.web").joinpath("static", name).read_bytes()


class Login(BaseModel):
    """`POST /session`: the API key, once."""

    model_config = ConfigDict(extra="forbid")

    key: str = Field(min_length=1, max_length=200)


async def _login(request: Request) -> Login:
    """The sign-in body, read only once its media type is JSON; an error never echoes it (it
    holds a key)."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() \
            != "application/json":
        raise HTTPException(status_code=415, detail="send the key as JSON: Content-Type: "
                            "application/json, body {\"key\": KEY}")
    try:
        return Login.model_validate_json(await request.body())
    except ValidationError:
        raise HTTPException(status_code=422, detail="the body must be {\"key\": KEY} with "
                            "one key of 1 to 200 characters") from None


def add_page_routes(api: FastAPI, sessions: BrowserSessions) -> None:
    page = _asset("index.html")
    assets = {name: _asset(name) for name in _ASSETS}

    @api.get("/", include_in_schema=False)
    def index() -> Response:
        return Response(page, media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)

    @api.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(assets["icon.svg"], media_type=_ASSETS["icon.svg"], headers=PAGE_HEADERS)

    @api.get("/ui/{name}", include_in_schema=False)
    def asset(name: str) -> Response:
        if name not in assets:
            raise HTTPException(status_code=404, detail=f"no page asset {name!r}")
        return Response(assets[name], media_type=_ASSETS[name], headers=PAGE_HEADERS)

    @api.post("/session", tags=["browser"],
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/json": {"schema": Login.model_json_schema()}}}})
    async def login(request: Request) -> JSONResponse:
        """Exchange an API key for a session cookie (`HttpOnly; SameSite=Strict`) and the CSRF
        token to send as `X-CSRF-Token` with each POST. JSON only: a form of another site can
        post `text/plain` without a preflight, never `application/json` (no login CSRF). The
        body is read here, after the media type is checked, and an error never echoes it (it
        holds a key)."""
        made = sessions.issue((await _login(request)).key)
        if made is None:
            raise HTTPException(status_code=401, detail="unknown API key; paste a key "
                                "`situated keys new` printed")
        principal, issued = made
        reply = JSONResponse({"name": principal.name, "csrf": issued.csrf},
                             headers={"Cache-Control": "no-store"})
        reply.set_cookie(COOKIE, issued.cookie, max_age=issued.max_age, path="/", httponly=True,
                         samesite="strict", secure=request.url.scheme == "https")
        return reply

    @api.get("/session", tags=["browser"])
    def who(request: Request) -> JSONResponse:
        """Who the session cookie belongs to, and its CSRF token (401 without one)."""
        cookie = request.cookies.get(COOKIE)
        principal = sessions.principal(cookie)
        if principal is None or cookie is None:
            raise HTTPException(status_code=401, detail="not signed in; POST /session with "
                                "{\"key\": KEY}")
        return JSONResponse({"name": principal.name, "csrf": sessions.csrf_for(cookie)},
                            headers={"Cache-Control": "no-store"})

    @api.delete("/session", tags=["browser"])
    def logout(request: Request) -> JSONResponse:
        """Sign out: the session ends on the server (its cookie is refused from now on, by
        every worker) and the cookie is cleared; it needs the CSRF token, like every write."""
        cookie = request.cookies.get(COOKIE)
        if cookie and not sessions.csrf_ok(cookie, request.headers.get(CSRF_HEADER)):
            raise HTTPException(status_code=403, detail=f"missing or wrong {CSRF_HEADER}")
        sessions.end(cookie)
        reply = JSONResponse({"signed_out": True})
        reply.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return reply


def _validity(meta) -> str:
    if meta.valid_from is None and meta.valid_to is None:
        return ""
    start = f" from {meta.valid_from}" if meta.valid_from is not None else ""
    end = "" if meta.valid_to is None else (
        f" {'to' if start else 'until'} {meta.valid_to} (exclusive)")
    return f"valid{start}{end}, {_BY[meta.valid_for]}"


# which date of the asker's a version's period is read against, as a person says it
_BY = {ValidFor.PURCHASE_DATE: "by the date of purchase",
       ValidFor.REQUEST_DATE: "by the date of the request",
       ValidFor.AS_OF: "on the date asked about"}


def document_page(meta, blocks) -> str:
    """One document as a person reads it: its title, id, version and validity, each section
    under its heading (the text, never markup: escaped), the cited one highlighted
    (`section:target`)."""
    facts = [meta.source_id, *([f"version {meta.version}"] if meta.version else []),
             *([f"versions {meta.applies_to_versions}"] if meta.applies_to_versions else []),
             _validity(meta)]
    title = meta.title or meta.source_id
    parts = [f"<!doctype html><meta charset='utf-8'><title>{html.escape(title)}</title>",
             "<link rel='stylesheet' href='/ui/app.css'>", f"<h1>{html.escape(title)}</h1>",
             f"<p class='doc-meta'>{html.escape(' · '.join(f for f in facts if f))}</p>"]
    seen: set[str] = set()
    for b in blocks:  # a section's text and its table share an anchor: the first gets it
        anchor = b.link.partition("#")[2]
        own = f" id='{html.escape(anchor)}'" if anchor and anchor not in seen else ""
        seen.add(anchor)
        heading = b.path[-1] if b.path else (b.title or "")
        first, _, rest = b.text.partition("\n")
        body = rest if first.lstrip("#").strip() == heading.strip() else b.text
        shown = heading if b.part == 1 else f"{heading} (continued)"
        parts.append(f"<section{own}><h2>{html.escape(shown)}</h2>"
                     f"<pre>{html.escape(body.strip())}</pre></section>")
    return "\n".join(parts)


__all__ = ["PAGE_HEADERS", "add_page_routes", "document_page"]

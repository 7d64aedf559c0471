"""`situated keys` and `situated serve`: API keys, stored hashed, and the server that reads
them."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from situated.cli_common import _fail, _settings, err, stage_bar
from situated.cli_print import term
from situated.errors import SituatedError

keys_app = typer.Typer(help="Manage API keys (stored hashed) for `situated serve`.")


@keys_app.command("new")
def keys_new(
    name: str = typer.Argument(..., help="Principal name, e.g. technician-p2"),
    keys: Path = typer.Option(Path("keys.yaml"), "--keys", help="Keys file to add to"),
    role: list[str] = typer.Option([], "--role", help="Role (repeatable)"),
    asset: list[str] = typer.Option([], "--asset", help="Asset (repeatable)"),
    replace: bool = typer.Option(False, "--replace", help="Give an existing principal a new "
                                 "key (and these roles and assets); its old key stops working"),
) -> None:
    """Create a principal with a fresh API key; the key is printed once and stored hashed."""
    from situated.auth import add_principal

    try:
        key = add_principal(keys, name, role, asset, replace=replace)
    except SituatedError as exc:
        _fail(str(exc))
        return
    err.print(f"added {name} to {keys}; the key is shown only now:", highlight=False)
    sys.stdout.write(key + "\n")


def serve(
    host: str = typer.Option("127.0.0.1", "--host"),
    port: int = typer.Option(8000, "--port"),
    keys: Path = typer.Option(Path("keys.yaml"), "--keys", help="API keys file"),
    index: Path | None = typer.Option(None, "--index", help="Index dir (default: sample)"),
    workers: int = typer.Option(1, "--workers", min=1, help="Worker processes; each opens "
                                "the index and follows its published generation"),
) -> None:
    """Serve the page at /, /ask (LangServe), /documents/{source_id} and /health with uvicorn."""
    import uvicorn

    from situated.app import App
    from situated.auth import KeyStore
    from situated.process import WorkerHandoff, share_cores
    from situated.server import create_app
    from situated.web.sessions import new_secret

    try:
        store = KeyStore.load(keys)
        settings = _settings(index)
        with stage_bar() as hear:
            application = App(settings, progress=hear)
            application.root  # noqa: B018 (the sample built here, under the progress)
        if workers == 1:
            api = create_app(application, store)
        else:  # workers import the app by name: hand them the keys and the index by path
            # the sample is built once; one browser-session secret for all
            WorkerHandoff(keys.resolve(), application.root.resolve(), new_secret()).export()
            share_cores(workers)  # each worker's thread pools get its share, unless set
    except SituatedError as exc:
        _fail(str(exc))
        return
    from situated.server import TimelyH11Protocol

    http = TimelyH11Protocol  # slow request heads are cut off; idle keep-alive after 5 s
    shown = f"[{host}]" if ":" in host else host
    err.print(term(f"serving http://{shown}:{port}/ (the page: sign in with a key), "
                   f"/ask/invoke, /ask/stream, /documents/ID, /health ({workers} worker(s)); "
                   "API clients send `Authorization: Bearer KEY`"), highlight=False)
    if workers == 1:
        uvicorn.run(api, host=host, port=port, log_level="warning", http=http,
                    timeout_keep_alive=5)
    else:
        uvicorn.run("situated.server:app_from_env", factory=True, workers=workers, host=host,
                    port=port, log_level="warning", http=http, timeout_keep_alive=5,
                    timeout_worker_healthcheck=settings.worker_start_s)


__all__ = ["keys_app", "serve"]

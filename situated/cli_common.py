"""What every `situated` command shares: the consoles, one-line failures, and the settings
read from flags over `SITUATED_*` variables."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from situated.cli_print import term
from situated.settings import Settings

err = Console(stderr=True, soft_wrap=True)
out = Console()


def _fail(message: str, code: int = 1) -> None:
    err.print(f"[bold red]error:[/] {term(message)}", highlight=False)
    raise typer.Exit(code)


def _day(text: str, option: str):
    import datetime as dt

    from situated.errors import ConfigError

    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ConfigError(f"{option} {text!r} is not a date; write it as 2026-11-29") from None


def _settings(index: Path | None, **flags) -> Settings:
    """The settings, `--index` (and other flags given) over `SITUATED_*` variables (an absent
    flag leaves the variable's value, or the default)."""
    given = {"index_dir": index, **flags}
    try:
        return Settings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as exc:
        _fail("invalid settings: " + "; ".join(_setting_error(e) for e in exc.errors()))
        raise


# what each build stage is called on the progress bar
_STAGES = {"embed": "embedding", "sentences": "sentence vectors", "titled sentences":
           "sentence vectors", "multilingual": "multilingual leg", "calibrate": "calibrating"}


class StageBar:
    """The progress of an index build on stderr: a bar per stage (rich draws nothing where
    stderr is not a terminal), the files as they load, and a line when the sample corpus is
    built on first use. Called as the writer's `Progress` (stage, done, total)."""

    def __init__(self, bar: Progress):
        self.bar, self.task = bar, bar.add_task("", total=None, visible=False)

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage == "sample":
            err.print(f"indexing the sample corpus ({total} documents) on first use, once, "
                      "from its shipped vectors: later asks reuse it", highlight=False)
        elif stage in _STAGES:
            self.bar.update(self.task, description=_STAGES[stage], completed=done, total=total,
                            visible=True)

    def file(self, _path: object) -> None:
        """One more file read (ingest's `on_file`)."""
        self.bar.update(self.task, description="loading", visible=True)
        self.bar.advance(self.task)


@contextmanager
def stage_bar() -> Iterator[StageBar]:
    """A `StageBar` for the span of a build: `App.progress` for the commands that may build
    the sample index (nothing shows when it is built already), `ingest`'s progress."""
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  console=err, transient=True) as bar:
        yield StageBar(bar)


def _setting_error(error) -> str:
    """One setting's error naming the setting, its variable and the value given
    ("multilingual_leg (SITUATED_MULTILINGUAL_LEG) = '': Input should be a valid boolean");
    a check of several settings at once has no single name and says its own message."""
    msg = error["msg"].removeprefix("Value error, ")
    field = ".".join(str(p) for p in error.get("loc", ()))
    if not field:
        return msg
    given = repr(error.get("input"))  # no setting holds a credential (keys stay in the env)
    if len(given) > 80:
        given = given[:77] + "..."
    return (f"{field} (SITUATED_{field.upper()}, or its flag) = {given}: {msg}; "
            "set a valid value or unset the variable")


__all__ = ["_day", "_fail", "_settings", "err", "out", "stage_bar"]

"""The ``errdex`` group: global options, one-line errors, exit codes, progress bars.

Exit codes everywhere: 0 found / done, 1 nothing matched, 2 bad input or usage.
Errors are one line on stderr; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

import errdex
from errdex.errors import EXIT_BAD_INPUT, ErrdexError
from errdex.visible import visible

F = TypeVar("F", bound=Callable[..., Any])
ProgressCallback = Callable[[int, int], None]
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for `cat big | head`


class Settings:
    """The group's options, handed to every command (``click.pass_obj``)."""

    def __init__(self, db: str | None, debug: bool):
        self.db = db
        self.debug = debug

    def store(self) -> errdex.Store:
        return errdex.open_store(self.db)


def handle_errors(func: F) -> F:
    """Turn ErrdexError (and any surprise) into one line and an exit code."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        settings: Settings = click.get_current_context().obj
        try:
            return func(*args, **kwargs)
        except ErrdexError as exc:
            if settings.debug:
                raise
            click.echo(f"errdex: {visible(str(exc))}", err=True)
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except BrokenPipeError:
            _reader_went_away()
        except KeyboardInterrupt:
            click.echo("errdex: interrupted; nothing was changed by the unfinished step", err=True)
            sys.exit(130)
        except Exception as exc:
            if settings.debug:
                raise
            click.echo(
                f"errdex: internal error: {type(exc).__name__}: {visible(str(exc))} "
                "(run with --debug for the traceback and report it)", err=True,
            )
            sys.exit(EXIT_BAD_INPUT)

    return wrapper  # type: ignore[return-value]


def _reader_went_away() -> None:
    """The reader of our output closed it (``errdex export | head``): stop quietly.

    Output still buffered would fail again when Python flushes at exit, so stdout is
    pointed at the null device first; the exit status is the shell's for SIGPIPE.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout is not a file (tests)
        pass
    sys.exit(EXIT_BROKEN_PIPE)


class _Cli(click.Group):
    """Click group whose usage errors are one line too, like every other error."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx else "errdex"
            click.echo(f"errdex: {visible(exc.format_message())} (see '{where} --help')",
                       err=True)
            sys.exit(EXIT_BAD_INPUT)
        except click.ClickException as exc:
            click.echo(f"errdex: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("errdex: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            _reader_went_away()
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db", type=click.Path(dir_okay=False), envvar="ERRDEX_DB", show_envvar=True,
    help="Database file (default: errdex.sqlite in the user data directory).",
)
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.version_option(errdex.__version__, prog_name="errdex")
@click.pass_context
def main(ctx: click.Context, db: str | None, debug: bool) -> None:
    """errdex: the index of every error a codebase can raise.

    Mine a repository, then paste any error to find the line that raised it.
    """
    ctx.obj = Settings(db, debug)


@contextmanager
def progress(console: Console, *labels: str) -> Iterator[list[ProgressCallback | None]]:
    """One callback per phase (``labels``) drawing a Rich bar on a terminal; ``None`` each
    when output is piped. A phase's bar appears when it starts, the one before it goes."""
    if not console.is_terminal:
        yield [None for _ in labels]
        return
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=console, transient=True,
    ) as bar:
        tasks: list[TaskID] = [bar.add_task(labels[0], total=None)]

        def phase(number: int) -> ProgressCallback:
            def advance(done: int, total: int) -> None:
                while len(tasks) <= number:
                    bar.update(tasks[-1], visible=False)
                    tasks.append(bar.add_task(labels[len(tasks)], total=None))
                bar.update(tasks[number], completed=done, total=total)

            return advance

        yield [phase(number) for number in range(len(labels))]

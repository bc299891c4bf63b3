"""Entry point of the `forgegym` console script.

Subcommand modules register themselves on the shared typer app; heavy imports (torch, prefect)
happen inside the commands so `forgegym --help` stays fast.
"""

from __future__ import annotations

import importlib
import os
import sys

import typer

from synth.errors import InputError

# Prefect must never try to phone home; set before any prefect import.
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

COMMAND_MODULES = [
    "synth.cli.tools_cmd",  # forgegym tools
    "synth.cli.llm_cmd",  # forgegym llm serve|check
    "synth.cli.synth_cmd",  # forgegym synth, forgegym env check
    "synth.cli.tasks_cmd",  # forgegym tasks, forgegym verify
    "synth.cli.flows_cmd",  # forgegym schedule
    "synth.cli.eval_cmd",  # forgegym eval
    "synth.cli.train_cmd",  # forgegym train
    "synth.cli.interop_cmd",  # forgegym env serve, forgegym export
    "synth.cli.fidelity_cmd",  # forgegym fidelity
]


def build_app() -> typer.Typer:
    """Assemble the typer app from every command module."""
    app = typer.Typer(
        no_args_is_help=True, add_completion=False, help="forgegym: tool docs -> RL environments -> trained agents"
    )
    env_app = typer.Typer(no_args_is_help=True, help="Check and serve synthesized environments.")
    llm_app = typer.Typer(no_args_is_help=True, help="The LLM endpoint and the embedded default model.")
    groups = {"env": env_app, "llm": llm_app}
    for name in COMMAND_MODULES:
        mod = importlib.import_module(name)
        mod.register(app, groups)
    app.add_typer(env_app, name="env")
    app.add_typer(llm_app, name="llm")
    return app


def main(argv: list[str] | None = None) -> None:
    """Run the CLI on `argv` (default: sys.argv[1:]); bad input exits 2 with `PATH: location: problem` on stderr."""
    app = build_app()
    try:
        rc = app(args=argv, standalone_mode=False)  # click returns (not raises) typer.Exit codes here
        sys.exit(rc if isinstance(rc, int) else 0)
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    except typer.Exit as ex:
        sys.exit(ex.exit_code)
    except SystemExit:
        raise
    except Exception as ex:  # click usage errors and aborts
        import click

        if isinstance(ex, click.exceptions.ClickException):
            ex.show()
            sys.exit(ex.exit_code)
        if isinstance(ex, click.exceptions.Abort):
            sys.exit(1)
        raise


if __name__ == "__main__":
    main()

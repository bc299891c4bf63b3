"""`forgegym llm serve` (the embedded model in the foreground) and `forgegym llm check` (one structured answer).

Other commands take the endpoint options with the shared annotated types below:

    def cmd(base_url: BaseUrlOpt = None, model: ModelOpt = None, api_key: ApiKeyOpt = None):
        config = config_from_cli(base_url, model, api_key)
"""

from __future__ import annotations

import json
import signal
from typing import Annotated, Optional

import typer

from synth.errors import ForgeError
from synth.llm.config import DEFAULT_CACHE_PATH, EMBEDDED_MODEL_ALIAS, config_from_cli

BaseUrlOpt = Annotated[
    Optional[str],
    typer.Option(
        "--base-url",
        help="OpenAI-compatible endpoint, e.g. http://host:8000/v1 "
        "(default: $OPENAI_BASE_URL, else the embedded model).",
    ),
]
ModelOpt = Annotated[
    Optional[str],
    typer.Option("--model", help="Model name at the endpoint (default: $OPENAI_MODEL, else the first one it lists)."),
]
ApiKeyOpt = Annotated[
    Optional[str], typer.Option("--api-key", help="API key (default: $OPENAI_API_KEY, else 'sk-local').")
]

CHECK_SCHEMA = {
    "type": "object",
    "properties": {"capital": {"type": "string", "minLength": 1}},
    "required": ["capital"],
}

__all__ = ["ApiKeyOpt", "BaseUrlOpt", "ModelOpt", "config_from_cli", "register"]


def _raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _stop_on_sigterm() -> None:
    """Treat SIGTERM like Ctrl-C so the server subprocess is stopped too (main thread only)."""
    try:
        signal.signal(signal.SIGTERM, _raise_interrupt)
    except ValueError:
        pass


def serve(
    port: Annotated[Optional[int], typer.Option("--port", help="Port on 127.0.0.1 (default: a free one).")] = None,
    n_threads: Annotated[int, typer.Option("--n-threads", help="CPU threads for llama.cpp.")] = 2,
    n_ctx: Annotated[int, typer.Option("--n-ctx", help="Context length in tokens.")] = 4096,
) -> None:
    """Run the embedded SmolLM2-135M-Instruct server in the foreground until Ctrl-C."""
    from synth.llm.embedded import EmbeddedServer

    server = EmbeddedServer(port, n_threads=n_threads, n_ctx=n_ctx, log_dir=None)
    _stop_on_sigterm()
    try:
        base_url = server.start()
        typer.echo(f"serving model {EMBEDDED_MODEL_ALIAS} at {base_url} (Ctrl-C stops)")
        typer.echo(f"use it with: export OPENAI_BASE_URL={base_url} OPENAI_MODEL={EMBEDDED_MODEL_ALIAS}")
        code = server.wait()
        if code:
            typer.echo(f"error: the embedded model server exited with status {code}", err=True)
            raise typer.Exit(1)
    except ForgeError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        typer.echo("stopping")
    finally:
        server.stop()


def check(
    base_url: BaseUrlOpt = None,
    model: ModelOpt = None,
    api_key: ApiKeyOpt = None,
    cache: Annotated[
        bool, typer.Option("--cache/--no-cache", help="Answer from the on-disk cache when possible.")
    ] = False,
) -> None:
    """Print the model, one structured answer (the capital of France as JSON) and the call statistics."""
    from synth.llm.prompts import render
    from synth.llm.session import open_client

    config = config_from_cli(base_url, model, api_key, DEFAULT_CACHE_PATH if cache else None)
    try:
        with open_client(config) as client:
            typer.echo(f"endpoint: {client.base_url}")
            typer.echo(f"model: {client.model}")
            messages = [{"role": "user", "content": render("llm_check", country="France")}]
            result = client.json(messages, CHECK_SCHEMA, max_tokens=64, tag="check")
            typer.echo(f"answer: {json.dumps(result.data, sort_keys=True, ensure_ascii=False)}")
            typer.echo(f"attempts: {result.attempts}, cached: {str(result.cached).lower()}")
            typer.echo(f"stats: {json.dumps(client.stats.to_dict(), sort_keys=True)}")
    except ForgeError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None


def register(app: typer.Typer, groups: dict) -> None:
    """Add `serve` and `check` to the `forgegym llm` group."""
    groups["llm"].command("serve")(serve)
    groups["llm"].command("check")(check)

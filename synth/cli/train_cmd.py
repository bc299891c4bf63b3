"""`forgegym train CONFIG.yaml`: SFT warm start, then ERPO (or GRPO / REINFORCE++) on environments.

Runs plainly on one process, or under torchrun for data-parallel updates:

    forgegym train examples/train_tiny.yaml --set steps=10 --set optim.lr=1e-4
    torchrun --nproc_per_node 8 -m synth.cli.main train big.yaml
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
import yaml

from synth.errors import InputError


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:  # noqa: D103
    app.command("train")(train_command)


def parse_overrides(pairs: list[str]) -> dict[str, Any]:
    """`key.sub=value` pairs; values are read as YAML scalars (numbers, booleans, lists)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise InputError("--set", pair, "expected KEY=VALUE (e.g. optim.lr=1e-4)")
        key, raw = pair.split("=", 1)
        try:
            value = yaml.safe_load(raw)
        except yaml.YAMLError as err:
            raise InputError("--set", key, f"value is not valid YAML: {err}") from err
        if isinstance(value, str):  # YAML 1.1 reads 1e-4 as a string
            try:
                value = float(value)
            except ValueError:
                pass
        out[key.strip()] = value
    return out


def train_command(
    config: Annotated[Path, typer.Argument(help="Training config (YAML); see docs/training.md.")],
    set_: Annotated[
        Optional[list[str]], typer.Option("--set", help="Override a field: --set optim.lr=1e-4 (repeatable).")
    ] = None,
    output_dir: Annotated[
        Optional[Path], typer.Option("--output-dir", help="Where checkpoints, metrics and plots go.")
    ] = None,
    max_steps: Annotated[
        Optional[int], typer.Option("--max-steps", min=1, help="Stop after this many steps (resume later).")
    ] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="Ignore existing checkpoints in the output folder.")] = False,
) -> None:
    """Train a policy on environments: rollouts, judge, ERPO advantages, clipped update, checkpoints."""
    from rl.train_config import load_train_config
    from rl.trainer import Trainer

    overrides = parse_overrides(set_ or [])
    if output_dir is not None:
        overrides["output_dir"] = str(output_dir)
    if fresh:
        overrides["resume"] = False
    cfg = load_train_config(config, overrides)
    summary = Trainer(cfg, source=str(config)).run(max_steps=max_steps)
    typer.echo(json.dumps(summary, sort_keys=True))

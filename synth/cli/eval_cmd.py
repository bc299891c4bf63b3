"""`forgegym eval DIR...`: run every task k times and report pass^k / pass@k per environment.

Policies: `endpoint` (default; any OpenAI-compatible endpoint, the embedded model when none is set),
`gold` / `noop` (scripted, for checking environments and the loop), `hf:PATH` (a local transformers
checkpoint, token-in token-out). Users: `llm` (default; `--user-model` on the same endpoint) or
`scripted` (states the instruction, stops after the agent's first text reply).
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Optional

import typer

from synth.cli.llm_cmd import ApiKeyOpt, BaseUrlOpt, ModelOpt
from synth.errors import InputError


def _progress_bar(enabled: bool):
    """A rich progress bar (stderr) and its update callback; a no-op when disabled."""
    if not enabled:
        return ExitStack(), None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("episodes"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=Console(stderr=True)
    )
    task = bar.add_task("eval", total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, update


def _print_table(summary: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"forgegym eval (policy {summary['policy']}, user {summary['user']}, k={summary['k']})")
    for col in (
        "env",
        "tasks",
        "pass^1",
        f"pass^{summary['k']}",
        f"pass@{summary['k']}",
        "mean reward",
        "masked",
        "stop reasons",
    ):
        table.add_column(col)
    for env_id, row in summary["envs"].items():
        reasons = ", ".join(f"{k}:{v}" for k, v in row["stop_reasons"].items())
        table.add_row(
            env_id,
            str(row["tasks"]),
            f"{row['pass_hat_1']:.3f}",
            f"{row['pass_hat_k']:.3f}",
            f"{row['pass_at_k']:.3f}",
            f"{row['mean_reward']:.3f}",
            f"{row['masked']}/{row['judged']}",
            reasons,
        )
    Console().print(table)
    typer.echo(f"trajectories and summary: {summary['out']}")


def eval_command(
    env_dirs: Annotated[list[Path], typer.Argument(help="Environment folders (manifest.json, env.py, tasks.jsonl).")],
    base_url: BaseUrlOpt = None,
    model: ModelOpt = None,
    api_key: ApiKeyOpt = None,
    user_model: Annotated[
        Optional[str],
        typer.Option(
            "--user-model", help="Model of the simulated user and judge at the same endpoint (default: --model)."
        ),
    ] = None,
    policy: Annotated[str, typer.Option("--policy", help="endpoint | gold | noop | hf:PATH")] = "endpoint",
    user: Annotated[str, typer.Option("--user", help="llm | scripted")] = "llm",
    k: Annotated[int, typer.Option("--k", min=1, help="Trials per task.")] = 1,
    limit: Annotated[
        Optional[int], typer.Option("--limit", min=1, help="Only the first N tasks of each environment.")
    ] = None,
    out: Annotated[
        Optional[Path], typer.Option("--out", help="Output folder (default: runs/eval-<policy>-<envs>-k<k>).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
    judge: Annotated[bool, typer.Option("--judge/--no-judge", help="Judge LLM-user dialogues for user errors.")] = True,
    max_turns: Annotated[int, typer.Option("--max-turns", min=1, help="Assistant turns per episode.")] = 12,
    max_tool_calls: Annotated[
        int, typer.Option("--max-tool-calls", min=0, help="Tool calls per episode (ToRL's C).")
    ] = 16,
    max_new_tokens: Annotated[int, typer.Option("--max-new-tokens", min=1, help="Tokens per assistant turn.")] = 384,
    context_policy: Annotated[
        str, typer.Option("--context-policy", help="keep_all | sliding_window | summary")
    ] = "keep_all",
    no_interleave: Annotated[
        bool, typer.Option("--no-interleaved-thinking", help="Drop earlier turns' thinking (ablation).")
    ] = False,
    chat_format: Annotated[str, typer.Option("--chat-format", help="auto | template | hermes (hf: policies)")] = "auto",
    temperature: Annotated[
        Optional[float],
        typer.Option(
            "--temperature", help="Policy sampling temperature (default: 1 for hf:, the client's for endpoints)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Sampling seed.")] = 0,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar on stderr.")] = True,
) -> None:
    """Evaluate a policy on environments: pass^k and pass@k per environment, stop reasons, masked counts."""
    from rl.backends.scripted import SCRIPTED_POLICIES
    from rl.episode import RolloutConfig
    from rl.evaluate import evaluate
    from rl.user_sim import LLMUser, ScriptedUser
    from synth.llm import config_from_cli, open_client

    if user not in ("llm", "scripted"):
        raise InputError("--user", "value", f"{user!r} is not llm or scripted")
    config = RolloutConfig(
        max_turns=max_turns,
        max_tool_calls=max_tool_calls,
        max_new_tokens=max_new_tokens,
        seed=seed,
        context_policy=context_policy,
        interleaved_thinking=not no_interleave,
        chat_format=chat_format,
        temperature=1.0 if temperature is None else temperature,
    )
    needs_llm = policy == "endpoint" or user == "llm"
    with ExitStack() as stack:
        client = stack.enter_context(open_client(config_from_cli(base_url, model, api_key))) if needs_llm else None
        if policy in SCRIPTED_POLICIES:
            agent = SCRIPTED_POLICIES[policy]()
        elif policy == "endpoint":
            from rl.backends.openai_backend import OpenAIPolicy

            agent = OpenAIPolicy(client, max_tokens=max_new_tokens, temperature=temperature)
            stack.callback(agent.close)
        elif policy.startswith("hf:"):
            from rl.backends.transformers_backend import TransformersPolicy

            path = policy[3:]
            if not Path(path).is_dir():
                raise InputError(path, "--policy", "not a local model folder")
            agent = TransformersPolicy.from_pretrained(
                path, max_batch=config.max_batch, prefix_cache_mb=config.prefix_cache_mb
            )
        else:
            raise InputError("--policy", "value", f"{policy!r} is not endpoint, gold, noop or hf:PATH")
        user_client = client
        if user == "llm" and user_model and user_model != client.model:
            from synth.llm import LLMClient

            user_client = LLMClient(
                client.config,
                client.base_url,
                user_model,
                api_key=client.api_key,
                structured_style=client.structured_style,
            )
            stack.callback(user_client.close)
        simulated = LLMUser(user_client) if user == "llm" else ScriptedUser()
        verdicts = None
        if judge and user == "llm":
            from rl.judge import UserErrorJudge

            verdicts = UserErrorJudge(user_client)
        bar, update = _progress_bar(progress and not as_json)
        with bar:
            summary = evaluate(
                [str(d) for d in env_dirs],
                agent,
                simulated,
                config,
                k=k,
                judge=verdicts,
                out_dir=out,
                progress=update,
                limit=limit,
            )
    if as_json:
        typer.echo(json.dumps(summary, sort_keys=True))
    else:
        _print_table(summary)


def register(app: typer.Typer, groups: dict) -> None:
    """Add `forgegym eval`."""
    app.command("eval")(eval_command)

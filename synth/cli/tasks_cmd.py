"""`forgegym tasks DIR --n N [--seed S]` (synthesize tasks) and `forgegym verify DIR [--json]` (check them)."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Optional

import typer

from synth.errors import InputError


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:  # noqa: D103
    app.command("tasks")(tasks_command)
    app.command("verify")(probes_command)


def _env_dir(path: Path) -> Path:
    if not path.is_dir():
        raise InputError(str(path), "(folder)", "not a folder")
    if not (path / "manifest.json").exists():
        raise InputError(str(path / "manifest.json"), "(file)", "missing: not an environment folder")
    return path


def _reference_pass_rate(stack: ExitStack, env_dir: Path, base_url: str, model: str, api_key: str, k: int):
    """task -> pass rate of the reference agent (an endpoint policy, sampling at 0.7, up to 12 turns,
    the scripted user) over k rollouts, on rl's rollout loop; its clients close with `stack`."""
    from rl.backends.openai_backend import OpenAIPolicy
    from rl.episode import RolloutConfig
    from rl.evaluate import pass_rate_fn
    from rl.user_sim import ScriptedUser
    from synth.llm import LLMClient, config_from_cli

    client = LLMClient(config_from_cli(base_url, model, api_key, cache_path=None), base_url, model, api_key=api_key)
    stack.callback(client.close)
    policy = OpenAIPolicy(client, max_tokens=512, temperature=0.7)
    stack.callback(policy.close)
    return pass_rate_fn(env_dir, policy, ScriptedUser(), RolloutConfig(max_turns=12), k=k)


def tasks_command(
    env_dir: Annotated[Path, typer.Argument(help="An environment folder (manifest.json, state_schema.json, env.py).")],
    n: Annotated[int, typer.Option("--n", min=1, help="How many tasks to keep.")] = 20,
    seed: Annotated[int, typer.Option("--seed", help="Seed; rerunning a seed replaces its tasks.")] = 0,
    base_url: Annotated[
        Optional[str],
        typer.Option(
            "--base-url", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL, else the embedded model)."
        ),
    ] = None,
    model: Annotated[Optional[str], typer.Option("--model", help="Model name at the endpoint.")] = None,
    api_key: Annotated[Optional[str], typer.Option("--api-key", help="API key (default: $OPENAI_API_KEY).")] = None,
    cache: Annotated[Path, typer.Option("--cache", help="LLM answer cache (sqlite).")] = Path(
        ".forgegym_cache/llm.sqlite"
    ),
    no_llm: Annotated[
        bool, typer.Option("--no-llm", help="No model at all: heuristic edges, seeded text, template instructions.")
    ] = False,
    min_size: Annotated[int, typer.Option("--min-size", help="Keep tasks whose DAG has at least this many nodes.")] = 0,
    max_size: Annotated[
        int, typer.Option("--max-size", help="Keep tasks whose DAG has at most this many nodes.")
    ] = 1000,
    max_len: Annotated[int, typer.Option("--max-walk", help="Longest walk (calls) before merging.")] = 4,
    pass_rate_k: Annotated[
        int, typer.Option("--pass-rate-k", help="Measure a reference agent's pass rate over k rollouts (0: off).")
    ] = 0,
    agent_base_url: Annotated[
        Optional[str],
        typer.Option(
            "--agent-base-url",
            help="OpenAI-compatible endpoint of the reference agent "
            "(tools in the prompt, as forgegym eval --policy endpoint).",
        ),
    ] = None,
    agent_model: Annotated[Optional[str], typer.Option("--agent-model", help="Model of the reference agent.")] = None,
    min_pass: Annotated[
        float, typer.Option("--min-pass", help="Keep tasks with pass rate >= this (when measured).")
    ] = 0.0,
    max_pass: Annotated[
        float, typer.Option("--max-pass", help="Keep tasks with pass rate <= this (when measured).")
    ] = 1.0,
    confirm: Annotated[
        str, typer.Option("--confirm", help="Graph edges the LLM is asked about: all | weak | none.")
    ] = "all",
    as_json: Annotated[bool, typer.Option("--json", help="Print the run's report as one JSON object.")] = False,
) -> None:
    """Synthesize verified tasks for an environment folder (appends to tasks.jsonl, writes graph.json)."""
    from synth.tasks.difficulty import Band
    from synth.tasks.pipeline import TaskGenConfig, generate_tasks
    from synth.tasks.walks import WalkConfig

    env_dir = _env_dir(env_dir)
    if confirm not in ("all", "weak", "none"):
        raise InputError("--confirm", "option", f"must be all, weak or none, not {confirm!r}")
    cfg = TaskGenConfig(
        band=Band(min_size, max_size, min_pass, max_pass),
        walk=WalkConfig(max_len=max(2, max_len)),
        pass_rate_k=pass_rate_k,
        confirm=confirm,
    )
    if pass_rate_k > 0 and (not agent_base_url or not agent_model):
        raise InputError("--pass-rate-k", "options", "needs --agent-base-url and --agent-model (a tool-calling model)")
    with ExitStack() as stack:
        pass_rate = None
        if pass_rate_k > 0:
            pass_rate = _reference_pass_rate(
                stack, env_dir, agent_base_url, agent_model, api_key or "sk-local", pass_rate_k
            )
        llm_stats = None
        if no_llm:
            report = generate_tasks(env_dir, n=n, seed=seed, client=None, config=cfg, pass_rate=pass_rate)
        else:
            from synth.llm import config_from_cli, open_client

            client = stack.enter_context(open_client(config_from_cli(base_url, model, api_key, str(cache))))
            report = generate_tasks(env_dir, n=n, seed=seed, client=client, config=cfg, pass_rate=pass_rate)
            llm_stats = client.stats.to_dict()
    out = report.to_dict()
    if llm_stats is not None:
        out["llm"] = llm_stats
    if as_json:
        print(json.dumps(out, sort_keys=True))
    else:
        print(
            f"{out['env_id']}: kept {out['kept']} of {out['candidates']} candidates (seed {seed}); "
            f"DAG sizes {out['dag_sizes']}; dropped by stage {out['dropped_by_stage']}; "
            f"instructions {out['instruction_sources']}"
        )
        print(f"wrote {env_dir / 'tasks.jsonl'}, {env_dir / 'graph.json'}, {env_dir / 'tasks_dropped.jsonl'}")
    if out["kept"] < n:
        raise typer.Exit(1)


def probes_command(
    env_dir: Annotated[Path, typer.Argument(help="An environment folder with tasks.jsonl.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Replay every task's gold actions (must score 1) and run the three probes (each must score 0)."""
    from synth.task import load_tasks
    from synth.tasks.probes import PROBES, probe_env_dir

    env_dir = _env_dir(env_dir)
    path = env_dir / "tasks.jsonl"
    try:
        tasks = load_tasks(path)
    except (json.JSONDecodeError, TypeError, KeyError) as ex:
        raise InputError(str(path), "(line)", f"not a task line: {ex}") from None
    summary = probe_env_dir(env_dir, tasks)
    if as_json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print(
            f"{summary['env_id']}: {summary['tasks']} tasks; gold replay passes {summary['gold_pass']}; "
            + "; ".join(f"{p} scores 0 on {summary['probes'][p]}" for p in PROBES)
        )
        for f in summary["failures"][:20]:
            print(f"  {f['task_id']}: {' | '.join(f['problems'])}")
    if summary["ok"] != summary["tasks"]:
        raise typer.Exit(1)

"""Training as a Prefect flow: build the curriculum from envs_generated/, then train (SFT + ERPO).

    from flows.train import run_train_flow
    summary = run_train_flow("examples/train_tiny.yaml", envs_root="envs_generated")

`synthesize_and_train_flow` chains synthesis (flows.synthesize.synthesize_flow, one sub-flow per doc set)
and training in one flow, so one deployment turns tool docs into a trained agent:

    synthesize_and_train_flow.serve(name="docs-to-agent")   # or .deploy(...) to a work pool

The training task is not cached (a rerun resumes from the run's own checkpoints instead), and it is not
retried by Prefect: a crash resumes exactly where the last checkpoint left off on the next run.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows import runners  # sets Prefect's offline defaults before prefect is imported
from rl.curriculum import Curriculum
from rl.train_config import TrainConfig, config_from_dict, load_train_config
from rl.trainer_setup import load_env_entries
from synth.fsio import write_json_atomic


def build_curriculum(config: TrainConfig) -> dict[str, Any]:
    """The environments, task splits and the curriculum's difficulty order, written to curriculum.json."""
    entries = load_env_entries(config)
    train = [t for e in entries for t in e.train]
    cur = Curriculum(train, config.curriculum, total_steps=config.steps, seed=config.seed)
    tasks = {t.task_id: t for t in train}
    summary = {
        "envs": {e.env_id: {"dir": str(e.env_dir), "train": len(e.train), "heldout": len(e.heldout)} for e in entries},
        "order": [
            {"task_id": tid, "env_id": tasks[tid].env_id, "difficulty": tasks[tid].difficulty} for tid in cur.order
        ],
        "dag_sizes": dict(sorted(Counter(str(t.difficulty.get("dag_size", "?")) for t in train).items())),
        "turn_schedule": [cur.max_turns(s, config.rollout.get("max_turns", 16)) for s in range(config.steps)],
    }
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out / "curriculum.json", summary)
    return summary


@task(name="curriculum", cache_policy=NO_CACHE, persist_result=False)
def curriculum_task(config: dict[str, Any]) -> dict[str, Any]:
    cfg = config_from_dict(config, "flow parameter config")
    summary = build_curriculum(cfg)
    get_run_logger().info(
        "curriculum: %d training tasks in %d environments", len(summary["order"]), len(summary["envs"])
    )
    return summary


@task(name="train", cache_policy=NO_CACHE, persist_result=False)
def train_task(config: dict[str, Any], max_steps: int | None = None) -> dict[str, Any]:
    from rl.plots import read_metrics
    from rl.trainer import Trainer

    cfg = config_from_dict(config, "flow parameter config")
    logger = get_run_logger()
    summary = Trainer(cfg, source="flow parameter config", log=logger.info).run(max_steps=max_steps)
    rows = read_metrics(Path(cfg.output_dir) / "metrics.jsonl")
    evals = read_metrics(Path(cfg.output_dir) / "eval.jsonl")
    summary["last"] = rows[-1] if rows else {}
    summary["eval"] = evals
    return summary


def _artifact(config: dict[str, Any], curriculum: dict[str, Any], summary: dict[str, Any]) -> str:
    last = summary.get("last", {})
    lines = [
        f"# forgegym training: {config.get('output_dir')}",
        "",
        f"steps {summary.get('start_step')} -> {summary.get('end_step')}, advantage "
        f"{(config.get('advantage') or {}).get('mode', 'erpo')}",
        "",
        "| environment | train tasks | held-out | last reward | last success |",
        "|---|---|---|---|---|",
    ]
    for env, info in curriculum["envs"].items():
        lines.append(
            f"| {env} | {info['train']} | {info['heldout']} | {last.get(f'reward/{env}', float('nan')):.3f} "
            f"| {last.get(f'success/{env}', float('nan')):.3f} |"
        )
    for row in summary.get("eval", []):
        lines.append(f"\nheld-out success at step {row['step']}: {row.get('success/mean', float('nan')):.3f}")
    return "\n".join(lines)


@flow(name="forgegym-train", persist_result=False)
def train_flow(config: dict[str, Any], envs_root: str | None = None, max_steps: int | None = None) -> dict[str, Any]:
    """Curriculum from the environments (envs_root replaces config['envs']), then training; returns a summary."""
    config = dict(config)
    if envs_root:
        config["envs"] = [envs_root]
    curriculum = curriculum_task(config)
    summary = train_task(config, max_steps)
    summary["curriculum"] = {"tasks": len(curriculum["order"]), "envs": curriculum["envs"]}
    create_markdown_artifact(
        _artifact(config, curriculum, summary), key="forgegym-train", description="forgegym training run"
    )
    return summary


@flow(name="forgegym-synthesize-and-train", persist_result=False)
def synthesize_and_train_flow(
    docsets: list[dict[str, Any]],
    train_config: dict[str, Any],
    llm: dict[str, Any] | None = None,
    envs_root: str = "envs_generated",
    n_tasks: int = 20,
) -> dict[str, Any]:
    """Synthesize one environment per doc set ({"paths": [...], "env_id": ...}) into envs_root, then train on
    envs_root."""
    from flows.synthesize import synthesize_flow
    from synth.envsynth.pipeline import SynthConfig

    built = []
    for ds in docsets:
        env_id = ds["env_id"]
        synth = SynthConfig(env_id=env_id).to_dict()
        built.append(
            synthesize_flow(
                paths=list(ds["paths"]),
                out_dir=str(Path(envs_root) / env_id),
                synth=synth,
                llm=llm or {},
                n_tasks=n_tasks,
            )
        )
    summary = train_flow(train_config, envs_root=envs_root)
    summary["synthesized"] = [b.get("env_id") for b in built]
    return summary


def run_train_flow(
    config_path: str | Path,
    envs_root: str | None = None,
    overrides: dict[str, Any] | None = None,
    max_steps: int | None = None,
) -> dict[str, Any]:
    """Validate the config file, then run train_flow against the configured (or a temporary) Prefect API."""
    cfg = load_train_config(config_path, {**(overrides or {}), **({"envs": [envs_root]} if envs_root else {})})
    with runners.prefect_api():
        return train_flow(cfg.to_dict(), envs_root=envs_root, max_steps=max_steps)

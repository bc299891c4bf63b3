"""Evaluation: every task k times, pass^k and pass@k per environment, trajectories and a summary on disk.

pass^k (tau-bench): for a task with c successes in n trials, C(c, k) / C(n, k), averaged over tasks;
the chance that k fresh trials all succeed. pass@k: 1 - C(n - c, k) / C(n, k), averaged; the chance
that at least one does. A trial succeeds when its reward is 1. Trajectories the judge flagged (user
error) are counted in `masked` and still scored, so the figures stay comparable across judges.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from math import comb
from pathlib import Path
from typing import Any, Callable

from rl.episode import RolloutConfig
from rl.judge import UserErrorJudge
from rl.rollout import load_env_tasks, run_episodes
from rl.types import Trajectory
from rl.user_sim import UserSimulator
from synth.errors import InputError
from synth.fsio import write_text_atomic
from synth.task import Task

SUCCESS_REWARD = 1.0


def pass_hat_k(n: int, c: int, k: int) -> float:
    """tau-bench's pass^k for one task: all of k trials drawn from n succeed."""
    if k > n:
        raise ValueError(f"pass^k needs k <= n trials (k={k}, n={n})")
    return comb(c, k) / comb(n, k)


def pass_at_k(n: int, c: int, k: int) -> float:
    """pass@k for one task: at least one of k trials drawn from n succeeds."""
    if k > n:
        raise ValueError(f"pass@k needs k <= n trials (k={k}, n={n})")
    return 1.0 - comb(n - c, k) / comb(n, k)


def summarize(trajs: list[Trajectory], k: int) -> dict[str, Any]:
    """Per-environment figures: {"envs": {env_id: {...}}}."""
    by_task: dict[tuple[str, str], list[Trajectory]] = defaultdict(list)
    for t in trajs:
        by_task[(t.env_id, t.task_id)].append(t)
    envs: dict[str, dict[str, Any]] = {}
    for env_id in sorted({e for e, _ in by_task}):
        tasks = sorted(tid for e, tid in by_task if e == env_id)
        rows = [by_task[(env_id, tid)] for tid in tasks]
        counts = [(len(r), sum(1 for t in r if t.reward >= SUCCESS_REWARD)) for r in rows]
        env_trajs = [t for r in rows for t in r]
        envs[env_id] = {
            "tasks": len(tasks),
            "k": k,
            "trials": len(env_trajs),
            "pass_hat_1": sum(pass_hat_k(n, c, 1) for n, c in counts) / len(counts),
            "pass_hat_k": sum(pass_hat_k(n, c, k) for n, c in counts) / len(counts),
            "pass_at_k": sum(pass_at_k(n, c, k) for n, c in counts) / len(counts),
            "mean_reward": sum(t.reward for t in env_trajs) / len(env_trajs),
            "masked": sum(1 for t in env_trajs if t.verdict.user_error is True),
            "judged": sum(1 for t in env_trajs if t.verdict.user_error is not None),
            "stop_reasons": dict(sorted(Counter(str(t.dialogue.stop_reason) for t in env_trajs).items())),
            "parse_errors": sum(t.dialogue.num_parse_errors for t in env_trajs),
        }
    return {"envs": envs}


def pass_rate_fn(
    env_dir: str | Path, policy: Any, user: UserSimulator, config: RolloutConfig | None = None, k: int = 1
) -> Callable[[Task], float]:
    """task -> mean reward of k episodes of `policy` on it in `env_dir` (the pass rate that
    synth.tasks.difficulty records for a candidate task, which need not be in tasks.jsonl yet)."""
    if k <= 0:
        raise ValueError("k must be positive")

    def rate(task: Task) -> float:
        trajs = run_episodes(policy, [(env_dir, task)], user, config, k=k)
        return sum(t.reward for t in trajs) / len(trajs)

    return rate


def default_out_dir(env_ids: list[str], policy_name: str, k: int) -> Path:
    """runs/eval-<policy>-<envs>-k<k>: the same run always lands in the same folder."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{policy_name}-{'+'.join(sorted(env_ids))}")[:80]
    return Path("runs") / f"eval-{slug}-k{k}"


def load_eval_tasks(env_dirs: list[str | Path], limit: int | None = None) -> list[tuple[Path, Task]]:
    """(env_dir, task) for every task (the first `limit` per folder); a folder without tasks is bad input."""
    pairs: list[tuple[Path, Task]] = []
    for d in env_dirs:
        path = Path(d)
        if not (path / "manifest.json").is_file():
            raise InputError(str(path), "manifest.json", "not an environment folder (manifest.json missing)")
        try:
            tasks = load_env_tasks(path)
        except (ValueError, KeyError, TypeError) as err:
            raise InputError(str(path / "tasks.jsonl"), "(document)", f"cannot read tasks: {err}") from err
        if not tasks:
            raise InputError(str(path / "tasks.jsonl"), "(document)", "no tasks to evaluate")
        pairs.extend((path, t) for t in tasks[:limit])
    return pairs


def evaluate(
    env_dirs: list[str | Path],
    policy: Any,
    user: UserSimulator,
    config: RolloutConfig | None = None,
    k: int = 1,
    judge: UserErrorJudge | None = None,
    out_dir: str | Path | None = None,
    tokenizer: Any = None,
    progress: Callable[[int, int], None] | None = None,
    limit: int | None = None,
) -> dict[str, Any]:
    """Run the evaluation (the first `limit` tasks per folder), write trajectories.jsonl and summary.json."""
    config = config or RolloutConfig()
    pairs = load_eval_tasks(env_dirs, limit)
    chunk = max(1, config.max_batch // max(1, k))
    trajs: list[Trajectory] = []
    for start in range(0, len(pairs), chunk):
        part = pairs[start : start + chunk]
        trajs.extend(run_episodes(policy, part, user, config, k=k, judge=judge, tokenizer=tokenizer))
        if progress is not None:
            progress(len(trajs), len(pairs) * k)
    summary = summarize(trajs, k)
    summary.update(
        {
            "k": k,
            "policy": getattr(policy, "name", ""),
            "user": getattr(user, "name", ""),
            "judge": getattr(judge, "mode", None),
            "context_policy": config.context_policy,
            "interleaved_thinking": config.interleaved_thinking,
        }
    )
    out = Path(out_dir) if out_dir else default_out_dir(sorted(summary["envs"]), summary["policy"], k)
    out.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(t.to_dict(), sort_keys=True, ensure_ascii=False) for t in trajs]
    write_text_atomic(out / "trajectories.jsonl", "\n".join(lines) + ("\n" if lines else ""))
    summary["out"] = str(out)
    write_text_atomic(out / "summary.json", json.dumps(summary, sort_keys=True, indent=2) + "\n")
    return summary

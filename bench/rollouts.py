"""Rollouts: episodes per second with the transformers backend: KV cache kept across turns, batching.

Same tiny random Llama (rl.tiny_model, offline tokenizer), same tasks (tests/data/envs/mini_todo),
same user, same budgets, measured side by side in one run (passes alternate A B C, C B A, ...):
- `cached`: the default backend: one `run_episodes` call over every episode, each round's waiting
  contexts in one left-padded batch (`max_batch` rows per forward pass), and each episode's KV cache
  kept across turns (`prefix_cache_mb`), so a turn encodes only the tokens added since the last one;
- `batched`: the same without the cache across turns (every turn re-encodes the whole context);
- `one at a time`: one `run_episodes` call per episode (batch of one, no cache across turns).
The sides sample different tokens (a batch shares one generator), so sampled tokens per second is
reported with episodes per second. The user is scripted: it answers "Please go on." and ends the
episode after `--user-turns` replies, so an episode has several agent turns and a growing context.
With the tiny tokenizer's ~1,200-token first prompt, prefill is much of the work;
`generate_share_of_wall`, `prompt_tokens_encoded` and `prompt_tokens_reused` show it.

    .venv/bin/python -m bench.rollouts              # 16 episodes, 'small' model (a few minutes on 2 cores)
    .venv/bin/python -m bench.rollouts --quick
    .venv/bin/python -m bench.rollouts --device cuda --threads 0 --episodes 64 --max-batch 64   # on a GPU machine
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from bench import common


class TimedPolicy:
    """Wraps a token policy: counts generate() calls, prompt rows and tokens, and the time spent in them."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.tokenizer, self.name = inner, inner.tokenizer, inner.name
        self.seconds = 0.0
        self.calls = self.rows = self.prompt_tokens = self.padded_tokens = 0

    def reset_prefix_cache(self) -> None:
        """Passed on, so each `run_episodes` call starts from an empty cache as it does unwrapped."""
        if hasattr(self.inner, "reset_prefix_cache"):
            self.inner.reset_prefix_cache()

    def generate(self, prompts: list[list[int]], params: Any) -> list[Any]:
        t0 = time.perf_counter()
        out = self.inner.generate(prompts, params)
        self.seconds += time.perf_counter() - t0
        self.calls += 1
        self.rows += len(prompts)
        self.prompt_tokens += sum(len(p) for p in prompts)
        if getattr(self.inner, "prefix_cache", None) is not None:
            return out  # with reuse across turns the encoded width is not the prompts' width
        step = max(1, getattr(self.inner, "max_batch", 1))
        for start in range(0, len(prompts), step):  # what the backend encodes: each chunk left-padded to its longest
            chunk = prompts[start : start + step]
            self.padded_tokens += max(len(p) for p in chunk) * len(chunk)
        return out


class PatientUser:
    """States the instruction, answers 'Please go on.' and stops after `turns` replies (deterministic)."""

    name = "patient"

    def __init__(self, turns: int) -> None:
        self.turns = turns

    def first_message(self, task: Any, sample_index: int = 0) -> str:
        return task.user_instruction

    def reply(self, task: Any, dialogue: list[dict[str, Any]], sample_index: int = 0) -> Any:
        from rl.user_sim import UserReply

        replies = sum(1 for m in dialogue if m.get("role") == "user") - 1
        return UserReply(text="Please go on.", stop=replies + 1 >= self.turns)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--episodes", type=int, default=16, help="episodes per side (spread over the tasks)")
    p.add_argument("--size", default="small", help="rl.tiny_model size: test (~0.1M) or small (~3-4M parameters)")
    p.add_argument("--max-new-tokens", type=int, default=64, help="tokens per agent turn at most")
    p.add_argument("--max-turns", type=int, default=4, help="agent turns per episode at most")
    p.add_argument("--user-turns", type=int, default=3, help="user replies before the scripted user stops")
    p.add_argument(
        "--repeats",
        type=int,
        default=2,
        help="passes per side, in the order A B C C B A ... so a change of machine load hits all alike",
    )
    p.add_argument("--max-batch", type=int, default=16, help="rows per forward pass on the batched side")
    p.add_argument("--device", default="cpu")
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch threads (0: torch's default; 1 by default: on 2 shared cores more threads only contend)",
    )
    p.add_argument("--env-dir", default=str(common.MINI_TODO), help="environment folder with tasks.jsonl")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="tiny sizes: proves the script runs")
    p.add_argument("--json", default=None, help="also write the figures to this file")
    args = p.parse_args(argv)
    if args.quick:
        args.episodes, args.size, args.max_new_tokens, args.max_turns, args.user_turns, args.repeats = (
            4,
            "test",
            8,
            2,
            1,
            2,
        )
    return args


def summarize(trajs: list[Any], wall_s: float, policy: TimedPolicy) -> dict[str, Any]:
    sampled = sum(t.tokens.sampled_tokens() for t in trajs)
    turns = sum(t.dialogue.num_turns for t in trajs)
    stops: dict[str, int] = {}
    for t in trajs:
        reason = str(t.dialogue.stop_reason)
        stops[reason] = stops.get(reason, 0) + 1
    return {
        "episodes": len(trajs),
        "wall_s": wall_s,
        "episodes_per_s": common.ratio(len(trajs), wall_s),
        "sampled_tokens": sampled,
        "sampled_tokens_per_s": common.ratio(sampled, wall_s),
        "agent_turns": turns,
        "stream_tokens": sum(len(t.tokens.token_ids) for t in trajs),
        "stop_reasons": stops,
        "generate_calls": policy.calls,
        "rows_per_generate": common.ratio(policy.rows, policy.calls),
        "prompt_tokens": policy.prompt_tokens,
        "prompt_tokens_reused": reused_tokens(policy),
        "prompt_tokens_encoded": policy.prompt_tokens - reused_tokens(policy),
        "padded_prompt_tokens": policy.padded_tokens or None,
        "generate_share_of_wall": common.ratio(policy.seconds, wall_s),
    }


def reused_tokens(policy: TimedPolicy) -> int:
    """Prompt tokens served from the backend's KV cache instead of being encoded again."""
    cache = getattr(policy.inner, "prefix_cache", None)
    return cache.stats.reused_tokens if cache is not None else 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import torch

    from rl.backends.transformers_backend import TransformersPolicy
    from rl.episode import RolloutConfig
    from rl.rollout import load_env_tasks, run_episodes
    from rl.tiny_model import build_tiny, parameter_count

    if args.threads:
        torch.set_num_threads(args.threads)
    print(
        f"machine: {json.dumps(common.machine())}; torch {torch.__version__}, {torch.get_num_threads()} threads, "
        f"device {args.device}"
    )
    model, tok = build_tiny(size=args.size, seed=args.seed)
    tasks = load_env_tasks(args.env_dir)
    if not tasks:
        raise SystemExit(f"{args.env_dir}/tasks.jsonl: no tasks")
    pairs = [(args.env_dir, tasks[i % len(tasks)]) for i in range(args.episodes)]
    user = PatientUser(args.user_turns)

    def config(seed: int, max_batch: int) -> Any:
        return RolloutConfig(
            max_turns=args.max_turns,
            max_user_turns=args.user_turns + 1,
            max_new_tokens=args.max_new_tokens,
            temperature=1.0,
            seed=seed,
            max_batch=max_batch,
        )

    policies = {
        "cached": TimedPolicy(TransformersPolicy(model, tok, device=args.device, max_batch=args.max_batch)),
        "batched": TimedPolicy(
            TransformersPolicy(model, tok, device=args.device, max_batch=args.max_batch, prefix_cache_mb=0)
        ),
        "single": TimedPolicy(TransformersPolicy(model, tok, device=args.device, max_batch=1, prefix_cache_mb=0)),
    }
    warm = TransformersPolicy(model, tok, device=args.device, max_batch=1, prefix_cache_mb=0)
    run_episodes(warm, pairs[:1], user, config(args.seed + 999, 1))  # warm-up (allocator, kernels)
    prompt_tokens = len(load_prompt_len(run_episodes, warm, pairs[0], config(args.seed, 1)))

    trajs: dict[str, list[Any]] = {side: [] for side in policies}
    wall = {side: 0.0 for side in policies}
    for r in range(args.repeats):
        for side in list(policies) if r % 2 == 0 else list(policies)[::-1]:
            t0 = time.perf_counter()
            if side == "single":
                for i, pair in enumerate(pairs):
                    trajs[side].extend(run_episodes(policies[side], [pair], user, config(args.seed + 7919 * r + i, 1)))
            else:
                trajs[side].extend(
                    run_episodes(policies[side], pairs, user, config(args.seed + 7919 * r, args.max_batch))
                )
            wall[side] += time.perf_counter() - t0

    c, b, s = (summarize(trajs[side], wall[side], policies[side]) for side in ("cached", "batched", "single"))
    rows = [
        [key, c[key], b[key], s[key], common.ratio(c[key], b[key]), common.ratio(b[key], s[key])]
        for key in (
            "episodes",
            "agent_turns",
            "sampled_tokens",
            "stream_tokens",
            "generate_calls",
            "rows_per_generate",
            "prompt_tokens",
            "prompt_tokens_reused",
            "prompt_tokens_encoded",
            "padded_prompt_tokens",
            "generate_share_of_wall",
            "wall_s",
            "episodes_per_s",
            "sampled_tokens_per_s",
        )
    ]
    common.print_table(
        f"rollouts: tiny Llama '{args.size}' ({parameter_count(model) / 1e6:.2f}M parameters, {args.device}), "
        f"{len(tasks)} mini_todo tasks, first prompt {prompt_tokens} tokens, "
        f"{args.max_new_tokens} new tokens/turn at most, {args.repeats} passes per side",
        [
            "figure",
            "cached across turns",
            f"batched (max_batch {args.max_batch})",
            "one at a time",
            "cached / batched",
            "batched / one at a time",
        ],
        rows,
    )
    print(f"stop reasons: cached {c['stop_reasons']}, batched {b['stop_reasons']}, one at a time {s['stop_reasons']}")
    print("prefix cache:", json.dumps(policies["cached"].inner.prefix_cache.stats.as_dict()))
    figures = {
        "size": args.size,
        "parameters": parameter_count(model),
        "device": args.device,
        "threads": torch.get_num_threads(),
        "tasks": len(tasks),
        "first_prompt_tokens": prompt_tokens,
        "max_new_tokens": args.max_new_tokens,
        "max_turns": args.max_turns,
        "user_turns": args.user_turns,
        "max_batch": args.max_batch,
        "repeats": args.repeats,
        "cached": c,
        "batched": b,
        "one_at_a_time": s,
        "prefix_cache": policies["cached"].inner.prefix_cache.stats.as_dict(),
        "speedup_cache_episodes_per_s": common.ratio(c["episodes_per_s"], b["episodes_per_s"]),
        "speedup_cache_sampled_tokens_per_s": common.ratio(c["sampled_tokens_per_s"], b["sampled_tokens_per_s"]),
        "speedup_episodes_per_s": common.ratio(b["episodes_per_s"], s["episodes_per_s"]),
        "speedup_sampled_tokens_per_s": common.ratio(b["sampled_tokens_per_s"], s["sampled_tokens_per_s"]),
    }
    common.emit("rollouts", figures, args.json)
    return 0


def load_prompt_len(run_episodes: Any, policy: Any, pair: Any, config: Any) -> list[int]:
    """The first prompt's token ids (the stream up to the first sampled token of a one-episode run)."""
    traj = run_episodes(policy, [pair], PatientUser(1), config)[0]
    stream = traj.tokens
    first = stream.loss_mask.index(1) if 1 in stream.loss_mask else len(stream.token_ids)
    return stream.token_ids[:first]


if __name__ == "__main__":
    raise SystemExit(main())

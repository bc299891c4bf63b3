"""Many episodes: 1,000 concurrent episodes in one process; memory per episode and steps per second.

Each side runs in its own fresh child process (so resident memory is measured cleanly), on the same
tasks and the same seeded call lists, stepping every episode once per round like the rollout loop:
- `env`: one `Environment` per episode sharing its task's initial state (copy-on-write);
- `hand`: the obvious alternative: each episode owns a `copy.deepcopy` of its task's initial state and
  runs the hand-written twin of the tools (bench/handwritten/).
Memory is measured twice: resident set size (RSS, pages the OS gave the process) in the timed child, and
the bytes Python allocated (tracemalloc) in a second, untimed child per side.
Episodes are grouped as in training: `--tasks` distinct initial states, each sampled
episodes/tasks times. The task states are built before the memory baseline, as task data would be.

    .venv/bin/python -m bench.many_episodes            # 1,000 episodes, 1,000-record states (about 1-2 min)
    .venv/bin/python -m bench.many_episodes --quick
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench import common
from bench.handwritten import call as hand_call
from bench.handwritten import twin


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--env", default="todo_api", help="environment with a hand-written twin")
    p.add_argument("--episodes", type=int, default=1000)
    p.add_argument("--tasks", type=int, default=125, help="distinct initial states (episodes are spread over them)")
    p.add_argument("--records", type=int, default=1000, help="records per initial state")
    p.add_argument("--rounds", type=int, default=20, help="tool calls per episode (one per round)")
    p.add_argument(
        "--list-share",
        type=float,
        default=0.0,
        help="share of list-everything calls (0 by default: at 1,000 records they would dominate)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-committed", action="store_true", help="build the environment now even if committed")
    p.add_argument("--quick", action="store_true", help="tiny sizes: proves the script runs")
    p.add_argument("--json", default=None, help="also write the figures to this file")
    # child-process arguments (internal)
    p.add_argument("--side", choices=("env", "hand"), default=None, help=argparse.SUPPRESS)
    p.add_argument("--env-dir", default=None, help=argparse.SUPPRESS)
    p.add_argument("--skip", default="", help=argparse.SUPPRESS)
    p.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.quick:
        args.episodes, args.tasks, args.records, args.rounds = 40, 5, 50, 5
    args.tasks = max(1, min(args.tasks, args.episodes))
    return args


def workload(args: argparse.Namespace, skip: set[str]) -> tuple[list[dict], list[int], list[list[dict]]]:
    """(task initial states, task index of each episode, call list of each episode)."""
    from synth.runtime.state import copy_state

    tw = twin(args.env)
    base = tw.make_state(args.records, args.seed)
    states = [copy_state(base) for _ in range(args.tasks)]  # distinct objects, as tasks loaded from tasks.jsonl
    owner = [e % args.tasks for e in range(args.episodes)]
    calls = []
    for e in range(args.episodes):
        rng = random.Random(f"many:{args.seed}:{e}")
        mix = tw.make_calls(base, args.rounds + 8, rng, list_share=args.list_share)
        calls.append([c for c in mix if c["name"] not in skip][: args.rounds])
    return states, owner, calls


def child(args: argparse.Namespace) -> dict[str, Any]:
    """One side, measured in this (fresh) process; returns its figures."""
    skip = set(filter(None, args.skip.split(",")))
    tw = twin(args.env)
    states, owner, calls = workload(args, skip)
    if args.side == "env":
        from synth.runtime import Environment
        from synth.runtime.loader import load_env_folder

        definition = load_env_folder(args.env_dir)
        Environment(definition=definition)  # warm imports and the compiled module
    gc.collect()
    if args.trace:
        tracemalloc.start()
    base = _memory(args.trace)
    t0 = time.perf_counter()
    if args.side == "env":
        episodes: list[Any] = []
        for e in range(args.episodes):
            env = Environment(definition=definition)
            env.reset(initial_state=states[owner[e]])
            episodes.append(env)
    else:
        episodes = [copy.deepcopy(states[owner[e]]) for e in range(args.episodes)]
    start_s = time.perf_counter() - t0
    gc.collect()
    after_start = _memory(args.trace)
    steps = 0
    ok = 0
    t0 = time.perf_counter()
    for r in range(args.rounds):
        for e, ep in enumerate(episodes):
            if r >= len(calls[e]):
                continue
            c = calls[e][r]
            if args.side == "env":
                ok += bool(ep.step(c).info["ok"])
            else:
                ok += hand_call(tw.TOOLS, ep, c["name"], c["arguments"])[0]
            steps += 1
    step_s = time.perf_counter() - t0
    gc.collect()
    after_steps = _memory(args.trace)
    state_bytes = len(json.dumps(states[0]))
    indexes = len({id(getattr(ep, "_index", None)) for ep in episodes} - {id(None)}) if args.side == "env" else 0
    if args.trace:  # memory only: the tracer slows every allocation, so its times are not reported
        return {
            "side": args.side,
            "traced_kib_per_episode_at_start": (after_start - base) / args.episodes / 1024,
            "traced_kib_per_episode_after_steps": (after_steps - base) / args.episodes / 1024,
        }
    return {
        "side": args.side,
        "episodes": args.episodes,
        "steps": steps,
        "ok_steps": ok,
        "start_s": start_s,
        "start_us_per_episode": start_s / args.episodes * 1e6,
        "steps_per_s": common.ratio(steps, step_s),
        "step_s": step_s,
        "rss_base_mib": base / 2**20,
        "rss_after_start_mib": after_start / 2**20,
        "rss_after_steps_mib": after_steps / 2**20,
        "kib_per_episode_at_start": (after_start - base) / args.episodes / 1024,
        "kib_per_episode_after_steps": (after_steps - base) / args.episodes / 1024,
        "state_json_kib": state_bytes / 1024,
        "shared_indexes": indexes,
    }


def _memory(traced: bool) -> int:
    return tracemalloc.get_traced_memory()[0] if traced else common.rss_bytes()


def run_child(
    side: str, args: argparse.Namespace, env_dir: Path, skip: list[str], trace: bool = False
) -> dict[str, Any]:
    cmd = [
        sys.executable,
        "-m",
        "bench.many_episodes",
        "--side",
        side,
        "--env",
        args.env,
        "--env-dir",
        str(env_dir),
        "--episodes",
        str(args.episodes),
        "--tasks",
        str(args.tasks),
        "--records",
        str(args.records),
        "--rounds",
        str(args.rounds),
        "--list-share",
        str(args.list_share),
        "--seed",
        str(args.seed),
        "--skip",
        ",".join(skip),
    ] + (["--trace"] if trace else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=common.child_env())
    if proc.returncode != 0:
        raise SystemExit(f"{side} side failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.side:
        print(json.dumps(child(args)))
        return 0
    print(f"machine: {json.dumps(common.machine())}")
    with common.scratch_dir("many") as tmp:
        env_dir, origin = common.environment_dir(args.env, Path(tmp), use_committed=not args.no_committed)
        skip = left_out_tools(args, env_dir)
        sides = {side: run_child(side, args, env_dir, skip) for side in ("env", "hand")}
        for side in ("env", "hand"):
            sides[side].update(run_child(side, args, env_dir, skip, trace=True))
    env, hand = sides["env"], sides["hand"]
    rows = []
    for key in (
        "start_us_per_episode",
        "kib_per_episode_at_start",
        "kib_per_episode_after_steps",
        "traced_kib_per_episode_at_start",
        "traced_kib_per_episode_after_steps",
        "steps_per_s",
        "rss_after_steps_mib",
    ):
        rows.append([key, env[key], hand[key], common.ratio(hand[key], env[key])])
    common.print_table(
        f"{args.episodes} concurrent episodes of {args.env} ({origin}); {args.tasks} task states of "
        f"{args.records} records ({env['state_json_kib']:.0f} KiB as JSON); {args.rounds} calls each",
        ["figure", "env (copy-on-write)", "hand (deepcopy)", "hand / env"],
        rows,
    )
    print(
        f"shared-state indexes built on the env side: {env['shared_indexes']} for {args.tasks} task states "
        f"(synth.runtime.state caches {_index_cache_size()} per process)"
    )
    if skip:
        print(f"left out (not equivalent or not published): {', '.join(skip)}")
    figures = {
        "env": args.env,
        "env_dir": origin,
        "episodes": args.episodes,
        "tasks": args.tasks,
        "records": args.records,
        "rounds": args.rounds,
        "sides": sides,
        "left_out": skip,
        "memory_ratio_hand_over_env": common.ratio(
            hand["traced_kib_per_episode_after_steps"], env["traced_kib_per_episode_after_steps"]
        ),
        "speed_ratio_env_over_hand": common.ratio(env["steps_per_s"], hand["steps_per_s"]),
    }
    common.emit("many_episodes", figures, args.json)
    return 0


def _index_cache_size() -> int | str:
    from synth.runtime import state

    return getattr(state, "_INDEX_CACHE_SIZE", "?")


def left_out_tools(args: argparse.Namespace, env_dir: Path) -> list[str]:
    """Tools not published or not equivalent to the twin (same check as env_step)."""
    from bench.env_step import mismatching_tools
    from synth.runtime.loader import load_env_folder

    definition = load_env_folder(env_dir)
    tw = twin(args.env)
    state = tw.make_state(min(args.records, 200), args.seed)
    episodes = [tw.make_calls(state, 30, random.Random(f"check:{e}")) for e in range(4)]
    bad = {c["name"] for calls in episodes for c in calls} - set(definition.functions)
    for _ in range(4):
        found = mismatching_tools(
            definition, tw, state, [[c for c in calls if c["name"] not in bad] for calls in episodes]
        )
        if not found:
            break
        bad.update(found)
    return sorted(bad)


if __name__ == "__main__":
    raise SystemExit(main())

"""Environment step: the sandbox's price per tool call, and reset / state-hash / verification cost by size.

Side by side, in one run, on the same state and the same seeded call mix:
- `step`: `Environment.step` on a synthesized environment (restricted code, argument validation,
  copy-on-write, atomic rollback, JSON observation);
- `restricted`: the same compiled tool function called directly on a private state (sandboxed code
  without the runtime around it), its result serialized;
- `hand`: the hand-written twin in bench/handwritten/ (plain Python, result serialized).
Before timing, every call's observation and the state after it are compared between `step` and
`hand`; a tool whose results differ is reported and left out, so the ratio compares equal work.

Then, for states of 10, 1,000 and 100,000 records (todo layout): `reset` (copy-on-write, copies
nothing) against copying the state (copy.deepcopy, marshal copy, JSON reload); the first write after
a reset; a create at that size; the state hash; and `changed_paths` (what verification compares).

    .venv/bin/python -m bench.env_step                 # default sizes (about 1-2 minutes)
    .venv/bin/python -m bench.env_step --quick         # smoke run (seconds)
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench import common
from bench.handwritten import call as hand_call
from bench.handwritten import twin
from synth.errors import ToolError
from synth.runtime import Environment
from synth.runtime.loader import load_env_folder
from synth.runtime.state import SharedIndex, copy_state, state_hash

SIDES = ("step", "restricted", "hand")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--envs", default="todo_api,mcp_memory", help="environments with a hand-written twin")
    p.add_argument("--records", type=int, default=100, help="records in the state of the step benchmark")
    p.add_argument("--episodes", type=int, default=300, help="episodes per side")
    p.add_argument("--calls", type=int, default=20, help="tool calls per episode")
    p.add_argument("--sizes", default="10,1000,100000", help="state sizes (records) for reset and hash")
    p.add_argument("--repeats", type=int, default=5, help="repeats per size (the best is kept)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-committed", action="store_true", help="build the environments now even if committed")
    p.add_argument("--quick", action="store_true", help="tiny sizes: proves the script runs")
    p.add_argument("--json", default=None, help="also write the figures to this file")
    args = p.parse_args(argv)
    if args.quick:
        args.envs, args.records, args.episodes, args.calls = "todo_api", 20, 6, 10
        args.sizes, args.repeats = "10,1000", 2
    return args


# equivalence ----------------------------------------------------------------------------------------


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def mismatching_tools(definition: Any, tw: Any, initial: dict, episodes: list[list[dict]]) -> dict[str, str]:
    """Tools whose observation or state effect differs between the runtime and the twin: name -> first difference."""
    bad: dict[str, str] = {}
    for calls in episodes:
        env = Environment(definition=definition)
        env.reset(initial_state=initial)
        state = copy.deepcopy(initial)
        for c in calls:
            if c["name"] in bad:
                break
            step = env.step(c)
            ok, text = hand_call(tw.TOOLS, state, c["name"], c["arguments"])
            why = ""
            if step.info["ok"] != ok:
                why = f"runtime ok={step.info['ok']} ({step.observation[:120]}), twin ok={ok} ({text[:120]})"
            elif ok and _parsed(step.observation) != _parsed(text):
                why = f"results differ: runtime {step.observation[:120]} / twin {text[:120]}"
            elif state_hash(env.state) != state_hash(state):
                why = "states differ after the call"
            if why:
                bad[c["name"]] = why
                break  # the states have diverged: later calls of this episode prove nothing
    return bad


# timed episodes --------------------------------------------------------------------------------------


def run_step(env: Environment, initial: dict, calls: list[dict], per_tool: dict) -> tuple[float, float]:
    t0 = time.perf_counter()
    env.reset(initial_state=initial)
    reset_s = time.perf_counter() - t0
    total = 0.0
    for c in calls:
        t = time.perf_counter()
        env.step(c)
        dt = time.perf_counter() - t
        per_tool[c["name"]].append(dt)
        total += dt
    return reset_s, total


def run_restricted(functions: dict, initial: dict, calls: list[dict], per_tool: dict) -> tuple[float, float]:
    t0 = time.perf_counter()
    state = copy.deepcopy(initial)
    reset_s = time.perf_counter() - t0
    total = 0.0
    for c in calls:
        t = time.perf_counter()
        try:
            json.dumps(functions[c["name"]](state, **c["arguments"]), sort_keys=True, ensure_ascii=False)
        except ToolError:
            pass
        dt = time.perf_counter() - t
        per_tool[c["name"]].append(dt)
        total += dt
    return reset_s, total


def run_hand(tools: dict, initial: dict, calls: list[dict], per_tool: dict) -> tuple[float, float]:
    t0 = time.perf_counter()
    state = copy.deepcopy(initial)
    reset_s = time.perf_counter() - t0
    total = 0.0
    for c in calls:
        t = time.perf_counter()
        hand_call(tools, state, c["name"], c["arguments"])
        dt = time.perf_counter() - t
        per_tool[c["name"]].append(dt)
        total += dt
    return reset_s, total


def bench_env(env_id: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    env_dir, origin = common.environment_dir(env_id, workdir, use_committed=not args.no_committed)
    definition = load_env_folder(env_dir)
    tw = twin(env_id)
    initial = tw.make_state(args.records, args.seed)
    episodes = [
        tw.make_calls(initial, args.calls, random.Random(f"{args.seed}:{env_id}:{e}")) for e in range(args.episodes)
    ]
    published = set(definition.functions)
    missing = sorted({c["name"] for calls in episodes for c in calls} - published)
    bad = {name: "not published in this environment" for name in missing}
    for _ in range(4):
        kept = [[c for c in calls if c["name"] not in bad] for calls in episodes]
        found = mismatching_tools(definition, tw, initial, kept[: min(5, len(kept))])
        if not found:
            break
        bad.update(found)
    episodes = [[c for c in calls if c["name"] not in bad] for calls in episodes]
    n_calls = sum(len(calls) for calls in episodes)

    env = Environment(definition=definition)
    per_tool: dict[str, dict[str, list[float]]] = {s: defaultdict(list) for s in SIDES}
    reset_s = {s: 0.0 for s in SIDES}
    calls_s = {s: 0.0 for s in SIDES}
    for e, calls in enumerate(episodes):  # rotate the order so load spikes hit every side alike
        for k in range(3):
            side = SIDES[(e + k) % 3]
            if side == "step":
                r, c = run_step(env, initial, calls, per_tool[side])
            elif side == "restricted":
                r, c = run_restricted(definition.functions, initial, calls, per_tool[side])
            else:
                r, c = run_hand(tw.TOOLS, initial, calls, per_tool[side])
            reset_s[side] += r
            calls_s[side] += c

    rate = {s: common.ratio(n_calls, calls_s[s]) for s in SIDES}
    point = {s: [dt for name, times in per_tool[s].items() if name not in tw.LIST_TOOLS for dt in times] for s in SIDES}
    point_rate = {s: common.ratio(len(point[s]), sum(point[s])) for s in SIDES}
    ep_rate = {s: common.ratio(len(episodes), calls_s[s] + (reset_s[s] if s != "restricted" else 0.0)) for s in SIDES}
    tools = sorted({name for s in SIDES for name in per_tool[s]})
    rows = []
    per_tool_us = {}
    for name in tools:
        med = {s: common.median(per_tool[s][name]) * 1e6 for s in SIDES}
        per_tool_us[name] = {
            **{s: round(med[s], 2) for s in SIDES},
            "calls": len(per_tool["step"][name]),
            "step_over_hand": round(common.ratio(med["step"], med["hand"]), 2),
        }
        rows.append(
            [
                name,
                len(per_tool["step"][name]),
                med["step"],
                med["restricted"],
                med["hand"],
                common.ratio(med["step"], med["hand"]),
                common.ratio(med["restricted"], med["hand"]),
            ]
        )
    common.print_table(
        f"{env_id}: median us per call ({args.records} records; {origin})",
        ["tool", "calls", "step", "restricted", "hand", "step/hand", "restricted/hand"],
        rows,
    )
    common.print_table(
        f"{env_id}: throughput ({n_calls} calls per side, {len(episodes)} episodes)",
        [
            "side",
            "calls/s",
            "price vs hand",
            f"calls/s without {'/'.join(tw.LIST_TOOLS)}",
            "price vs hand",
            "episodes/s (reset + calls)",
            "price vs hand",
        ],
        [
            [
                s,
                rate[s],
                common.ratio(rate["hand"], rate[s]),
                point_rate[s],
                common.ratio(point_rate["hand"], point_rate[s]),
                ep_rate[s] if s != "restricted" else float("nan"),
                common.ratio(ep_rate["hand"], ep_rate[s]) if s != "restricted" else float("nan"),
            ]
            for s in SIDES
        ],
    )
    if bad:
        print(f"left out (not equivalent or not published): {json.dumps(bad, sort_keys=True)}")
    return {
        "env_dir": origin,
        "records": args.records,
        "episodes": len(episodes),
        "calls_per_side": n_calls,
        "calls_per_s": rate,
        "episodes_per_s": {"step": ep_rate["step"], "hand": ep_rate["hand"]},
        "point_calls_per_s": point_rate,
        "list_tools": list(tw.LIST_TOOLS),
        "point_price_step_over_hand": common.ratio(point_rate["hand"], point_rate["step"]),
        "price_step_over_hand": common.ratio(rate["hand"], rate["step"]),
        "price_restricted_over_hand": common.ratio(rate["hand"], rate["restricted"]),
        "episode_price_step_over_hand": common.ratio(ep_rate["hand"], ep_rate["step"]),
        "per_tool_median_us": per_tool_us,
        "left_out": bad,
    }


# reset, hash and verification by size ----------------------------------------------------------------


def bench_sizes(env_id: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    env_dir, _origin = common.environment_dir(env_id, workdir, use_committed=not args.no_committed)
    definition = load_env_folder(env_dir)
    tw = twin(env_id)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    reps = args.repeats
    out: dict[int, dict[str, float]] = {}
    for n in sizes:
        state = tw.make_state(n, args.seed)
        text = json.dumps(state)
        env = Environment(definition=definition)
        write = tw.write_call(state)
        create = _create_call(env_id, n)
        f: dict[str, float] = {}
        f["env_reset_us"] = common.best_of(lambda: env.reset(initial_state=state), reps * 20) * 1e6
        f["shared_index_ms"] = common.best_of(lambda: SharedIndex(state), reps) * 1e3
        env.reset(initial_state=state)
        env.step(write)  # builds and caches the shared index of this initial state once

        def reset_and_write() -> None:
            env.reset(initial_state=state)
            env.step(write)

        f["env_reset_first_write_us"] = common.best_of(reset_and_write, reps * 4) * 1e6
        hand_state: dict[str, Any] = {}

        def deep_and_write() -> None:
            s = copy.deepcopy(state)
            hand_call(tw.TOOLS, s, write["name"], write["arguments"])

        f["deepcopy_ms"] = common.best_of(lambda: copy.deepcopy(state), reps) * 1e3
        f["deepcopy_first_write_ms"] = common.best_of(deep_and_write, reps) * 1e3
        f["marshal_copy_ms"] = common.best_of(lambda: copy_state(state), reps) * 1e3
        f["json_reload_ms"] = common.best_of(lambda: json.loads(text), reps) * 1e3
        f["state_hash_ms"] = common.best_of(lambda: state_hash(state), reps) * 1e3
        env.reset(initial_state=state)
        env.step(write)
        f["changed_paths_us"] = common.best_of(env.changed_paths, reps * 4) * 1e6

        def env_create() -> None:
            env.reset(initial_state=state)
            env.step(write)  # the path to the collection is private now
            t = time.perf_counter()
            env.step(create)
            hand_state["t"] = time.perf_counter() - t

        f["env_create_us"] = _best_inner(env_create, hand_state, reps * 2) * 1e6
        hand_copy = copy.deepcopy(state)

        def hand_create() -> None:
            hand_copy[_collection(env_id)].pop(_new_key(env_id, create), None)
            t = time.perf_counter()
            hand_call(tw.TOOLS, hand_copy, create["name"], create["arguments"])
            hand_state["t"] = time.perf_counter() - t

        f["hand_create_us"] = _best_inner(hand_create, hand_state, reps * 2) * 1e6
        out[n] = f
        state = text = hand_copy = None  # free this size's data before the next
    keys = list(next(iter(out.values())).keys())
    header = ["figure"] + [f"{n:,} records" for n in sizes]
    if len(sizes) >= 2:
        header.append(f"growth exponent {sizes[-2]:,}->{sizes[-1]:,}")
    rows = []
    growth: dict[str, float] = {}
    for k in keys:
        row: list[Any] = [k] + [out[n][k] for n in sizes]
        if len(sizes) >= 2:
            growth[k] = common.growth_exponent(sizes[-2], out[sizes[-2]][k], sizes[-1], out[sizes[-1]][k])
            row.append(growth[k])
        rows.append(row)
    common.print_table(f"{env_id}: reset, copy, hash and verification by state size (best of {reps})", header, rows)
    ratios = {
        n: {
            "reset_deepcopy_over_env": common.ratio(out[n]["deepcopy_ms"] * 1e3, out[n]["env_reset_us"]),
            "episode_start_deepcopy_over_env": common.ratio(
                out[n]["deepcopy_first_write_ms"] * 1e3, out[n]["env_reset_first_write_us"]
            ),
            "create_env_over_hand": common.ratio(out[n]["env_create_us"], out[n]["hand_create_us"]),
        }
        for n in sizes
    }
    common.print_table(
        "ratios by size",
        [
            "records",
            "reset: deepcopy / env.reset",
            "episode start: deepcopy+write / reset+write",
            "create: step / hand",
        ],
        [
            [n, r["reset_deepcopy_over_env"], r["episode_start_deepcopy_over_env"], r["create_env_over_hand"]]
            for n, r in ratios.items()
        ],
    )
    return {"env": env_id, "by_size": out, "growth_exponent": growth, "ratios": ratios}


def _best_inner(fn: Any, holder: dict, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        fn()
        best = min(best, holder["t"])
    return best


def _collection(env_id: str) -> str:
    return "todos" if env_id == "todo_api" else "entities"


def _create_call(env_id: str, n: int) -> dict[str, Any]:
    if env_id == "todo_api":
        return {"name": "createTodo", "arguments": {"id": "ffffffff-0000-4000-8000-000000000000", "title": "new todo"}}
    return {
        "name": "create_entities",
        "arguments": {"entities": [{"name": "zz_new", "entityType": "person", "observations": ["new"]}]},
    }


def _new_key(env_id: str, create: dict[str, Any]) -> str:
    if env_id == "todo_api":
        return create["arguments"]["id"]
    return create["arguments"]["entities"][0]["name"]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"machine: {json.dumps(common.machine())}")
    envs = [e.strip() for e in args.envs.split(",") if e.strip()]
    with common.scratch_dir("env-step") as tmp:
        work = Path(tmp)
        figures: dict[str, Any] = {"step": {}, "sizes": None}
        for env_id in envs:
            figures["step"][env_id] = bench_env(env_id, args, work)
        figures["sizes"] = bench_sizes(envs[0], args, work)
    common.emit("env_step", figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Consistency and discriminability of a task.

- consistency: replaying the gold actions from the initial state scores 1 (every call succeeds);
- discriminability: four wrong episodes score 0: doing nothing (`noop`), the gold actions without
  the last write (`drop_last_write`), the gold actions with one argument of one write changed
  (`perturb_write_arg`; which write and which argument follow from the task id, so every run
  makes the same change), and every write replaced, one at a time, by another write tool of the same
  collection with the same arguments (`sibling_swap`: return for borrow, cancel for modify).
- a task without writes (a question) adapts them: `drop_last_write` makes the gold calls and says
  nothing, `perturb_write_arg` answers with every option of each fact (see Checks.fact_options).

The replies used with a replay state the task's required facts, so the state alone decides the
drop and perturb probes; the noop episode says nothing.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any

from synth.spec import ToolCall
from synth.task import Task
from synth.tasks.envmodel import EnvModel, natural_key
from synth.tasks.runner import Runner, replay
from synth.verify import Reward, score_episode

PROBES = ("noop", "drop_last_write", "perturb_write_arg", "sibling_swap")


@dataclass
class ProbeReport:
    """Gold replay and probe rewards of one task, and what each probe did."""

    task_id: str
    gold: Reward
    probes: dict[str, Reward] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def gold_ok(self) -> bool:
        return self.gold.reward == 1.0 and not self.notes.get("gold_errors")

    def probe_failed(self, name: str) -> bool:
        """True when the probe scored 0, as it should."""
        r = self.probes.get(name)
        return r is not None and r.reward == 0.0

    @property
    def ok(self) -> bool:
        return self.gold_ok and all(self.probe_failed(p) for p in PROBES)

    def problems(self) -> list[str]:
        out = []
        if not self.gold_ok:
            out.append(
                "gold replay scores %s (%s; diff %s)"
                % (
                    self.gold.reward,
                    self.notes.get("gold_errors", "no call errors"),
                    self.gold.breakdown.get("diff_paths"),
                )
            )
        for p in PROBES:
            if not self.probe_failed(p):
                out.append(
                    f"probe {p} scores {self.probes[p].reward if p in self.probes else 'n/a'} ({self.notes.get(p, '')})"
                )
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "ok": self.ok,
            "gold": self.gold.to_dict(),
            "probes": {k: v.to_dict() for k, v in self.probes.items()},
            "notes": dict(self.notes),
        }


def gold_messages(task: Task) -> list[str]:
    """The replies of a perfect agent: the required facts, stated."""
    facts = list(task.checks.required_facts)
    return ["Done. " + "; ".join(facts)] if facts else ["Done."]


def write_indices(task: Task, model: EnvModel) -> list[int]:
    """Positions of the gold actions that call a write tool."""
    return [i for i, a in enumerate(task.gold_actions) if a.name in model.tools and model.tools[a.name].is_write]


def _other_key(value: Any, state: dict[str, Any]) -> Any | None:
    """Another existing record key of the collection `value` is a key of, if it is one."""
    for col in sorted(state):
        recs = state[col]
        if isinstance(recs, dict) and str(value) in recs and len(recs) > 1:
            keys = sorted(recs, key=natural_key)
            other = keys[(keys.index(str(value)) + 1) % len(keys)]
            return int(other) if isinstance(value, int) and other.isdigit() else other
    return None


def perturb_value(value: Any, schema: dict[str, Any] | None, state: dict[str, Any], is_key: bool = False) -> Any:
    """A different value of the same type: another enum value, another record's key (for a key
    parameter), +1 (-1 at the maximum), text with " (changed)", the first item of a list changed."""
    schema = schema or {}
    if isinstance(value, bool):
        return not value
    if "enum" in schema and len(schema["enum"]) > 1:
        opts = list(schema["enum"])
        return opts[(opts.index(value) + 1) % len(opts)] if value in opts else opts[0]
    if isinstance(value, (int, float)):
        other = _other_key(value, state) if is_key else None
        if other is not None:
            return other
        hi = schema.get("maximum")
        return value - 1 if hi is not None and value + 1 > hi else value + 1
    if isinstance(value, str):
        other = _other_key(value, state) if is_key else None
        return other if other is not None else value + " (changed)"
    if isinstance(value, list):
        if not value:
            return ["changed"]
        return [perturb_value(value[0], schema.get("items"), state, is_key)] + copy.deepcopy(value[1:])
    if isinstance(value, dict):
        if not value:
            return {"changed": True}
        k = sorted(value)[0]
        props = schema.get("properties") or {}
        return {**copy.deepcopy(value), k: perturb_value(value[k], props.get(k), state)}
    return "changed"


def perturbed_actions(task: Task, model: EnvModel) -> tuple[list[ToolCall], str]:
    """The gold actions with one argument of one write changed, and a note of the change."""
    writes = [i for i in write_indices(task, model) if task.gold_actions[i].arguments]
    if not writes:
        return copy.deepcopy(task.gold_actions), "no write has arguments"
    rng = random.Random(f"perturb:{task.task_id}")
    i = rng.choice(writes)
    action = task.gold_actions[i]
    pname = rng.choice(sorted(action.arguments))
    tool = model.tools[action.name]
    is_key = model.collection_for_param(tool, pname) is not None
    new = perturb_value(action.arguments[pname], tool.props.get(pname, {}), task.initial_state, is_key)
    actions = copy.deepcopy(task.gold_actions)
    actions[i] = dataclasses.replace(action, arguments={**actions[i].arguments, pname: new})
    return actions, f"action {i} {action.name}.{pname}: {action.arguments[pname]!r} -> {new!r}"


def siblings(model: EnvModel, tool_name: str, arguments: dict[str, Any]) -> list[str]:
    """Other write tools of the same collection that accept these arguments (every required parameter given,
    no unknown one), sorted by name."""
    tool = model.tools[tool_name]
    cols = set(tool.writes) | ({tool.collection} if tool.collection else set())
    out = []
    for name in sorted(model.tools):
        other = model.tools[name]
        if name == tool_name or not other.is_write:
            continue
        if not cols & (set(other.writes) | ({other.collection} if other.collection else set())):
            continue
        if set(other.required) <= set(arguments) and set(arguments) <= set(other.props):
            out.append(name)
    return out


def sibling_swap(task: Task, runner: Runner, model: EnvModel, msgs: list[str]) -> tuple[Reward, str]:
    """The best reward of the gold actions with one write replaced by a sibling write tool, and a note."""
    best, note, tried = Reward(0.0, {"note": "no sibling write"}), "no sibling write takes the same arguments", 0
    for i in write_indices(task, model):
        action = task.gold_actions[i]
        for name in siblings(model, action.name, action.arguments):
            actions = copy.deepcopy(task.gold_actions)
            actions[i] = dataclasses.replace(action, name=name)
            final, _ = replay(runner, task.initial_state, actions)
            r = score_episode(task, final, msgs)
            tried += 1
            if tried == 1 or r.reward > best.reward:
                best, note = r, f"action {i} {action.name} -> {name}"
    return best, note if tried <= 1 else f"{note} (worst of {tried} swaps)"


def option_messages(task: Task) -> list[str]:
    """A reply naming every fact together with all the answers it could be confused with."""
    said = [f"{f}, or {', '.join(task.checks.fact_options.get(f, []))}" for f in task.checks.required_facts]
    return ["It is one of: " + "; ".join(said)]


def run_probes(task: Task, runner: Runner, model: EnvModel) -> ProbeReport:
    """Gold replay and the three probes of one task."""
    msgs = gold_messages(task)
    final, outcomes = replay(runner, task.initial_state, task.gold_actions)
    errors = [f"{i} {task.gold_actions[i].name}: {o.error}" for i, o in enumerate(outcomes) if not o.ok]
    report = ProbeReport(task_id=task.task_id, gold=score_episode(task, final, msgs))
    if errors:
        report.notes["gold_errors"] = "; ".join(errors)[:300]
    report.probes["noop"] = score_episode(task, copy.deepcopy(task.initial_state), [])
    writes = write_indices(task, model)
    if writes:
        last = writes[-1]
        dropped = [a for i, a in enumerate(task.gold_actions) if i != last]
        final, _ = replay(runner, task.initial_state, dropped)
        report.probes["drop_last_write"] = score_episode(task, final, msgs)
        report.notes["drop_last_write"] = f"dropped action {last} {task.gold_actions[last].name}"
        actions, note = perturbed_actions(task, model)
        final, _ = replay(runner, task.initial_state, actions)
        report.probes["perturb_write_arg"] = score_episode(task, final, msgs)
        report.notes["perturb_write_arg"] = note
    else:  # a question: the calls without the answer, and an answer listing every option
        final, _ = replay(runner, task.initial_state, task.gold_actions)
        report.probes["drop_last_write"] = score_episode(task, final, [])
        report.notes["drop_last_write"] = "no write: the gold calls, no answer"
        report.probes["perturb_write_arg"] = score_episode(task, final, option_messages(task))
        report.notes["perturb_write_arg"] = "no write: an answer listing every option"
    report.probes["sibling_swap"], report.notes["sibling_swap"] = sibling_swap(task, runner, model, msgs)
    return report


def useless_writes(task: Task, runner: Runner, model: EnvModel) -> list[int]:
    """Writes whose removal leaves the checked final state unchanged (e.g. an update later undone)."""
    out = []
    for i in write_indices(task, model):
        actions = [a for j, a in enumerate(task.gold_actions) if j != i]
        final, _ = replay(runner, task.initial_state, actions)
        if score_episode(task, final, gold_messages(task)).breakdown["state_match"]:
            out.append(i)
    return out


def summarize(reports: list[ProbeReport]) -> dict[str, Any]:
    """The counts `forgegym verify --json` prints."""
    return {
        "tasks": len(reports),
        "gold_pass": sum(1 for r in reports if r.gold_ok),
        "probes": {p: sum(1 for r in reports if r.probe_failed(p)) for p in PROBES},
        "ok": sum(1 for r in reports if r.ok),
    }


def probe_env_dir(env_dir: Any, tasks: list[Task] | None = None) -> dict[str, Any]:
    """`forgegym verify --json` for an environment folder: probe counts, env_id and the failing tasks."""
    from pathlib import Path

    from synth.task import load_tasks
    from synth.tasks.envmodel import load_model
    from synth.tasks.quality import quality_summary
    from synth.tasks.runner import RuntimeRunner

    env_dir = Path(env_dir)
    tasks = load_tasks(env_dir / "tasks.jsonl") if tasks is None else tasks
    model = load_model(env_dir)
    runner = RuntimeRunner.from_dir(str(env_dir))
    reports = [run_probes(t, runner, model) for t in tasks]
    summary = summarize(reports)
    summary["env_id"] = model.env_id
    summary["quality"] = quality_summary(tasks, model, summary["ok"])
    summary["failures"] = [{"task_id": r.task_id, "problems": r.problems()} for r in reports if not r.ok]
    return summary

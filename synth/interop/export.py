"""Export tasks and their gold trajectories as chat-message datasets for SFT in any trainer.

One row per task, with the gold episode as OpenAI-style messages, made by replaying the task's gold
actions in the runtime (only tasks whose replay verifies with reward 1 are exported):

    system     the agent's system prompt (title, domain policy; the tools too unless tools_in_system=False)
    user       the task's user instruction
    assistant  content "" and tool_calls [{"id": "call_0", "type": "function",
                                           "function": {"name", "arguments": "<JSON string>"}}]
    tool       {"tool_call_id": "call_0", "content": <observation>}      (one pair per gold action)
    assistant  a short final reply (it states every required fact)

Columns: env_id, task_id, instruction, intent, messages, and as canonical JSON strings (their shapes
differ between environments, so Arrow could not type them as one column): tools (OpenAI `tools` list,
the form TRL's SFTTrainer reads), initial_state, gold_final_state, checks, gold_actions, difficulty.

Formats: "jsonl" writes one file (`datasets.load_dataset("json", data_files=PATH)`); "hf" writes a
Hub-style folder (`data/train-<content hash>.parquet`, README.md dataset card, forgegym_export.json),
loadable with `datasets.load_dataset(PATH)`. `datasets` fills keys a message lacks with None when it
loads; `clean_messages` drops them again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from synth.errors import InputError
from synth.fsio import staged_folder, write_lines_atomic
from synth.interop.catalog import EnvCatalog, EnvEntry
from synth.interop.prompting import system_prompt
from synth.task import Task

FORMATS = ("jsonl", "hf")
EXPORT_MARKER = "forgegym_export.json"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@dataclass
class ExportReport:
    """What an export wrote and which tasks it left out (with the reason)."""

    out: str
    format: str
    rows: int = 0
    envs: list[str] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)  # [{"env_id", "task_id", "reason"}]

    def to_dict(self) -> dict[str, Any]:
        return {"out": self.out, "format": self.format, "rows": self.rows, "envs": self.envs, "skipped": self.skipped}


class GoldReplayError(Exception):
    """The task's gold actions do not replay to a verified episode."""


def final_reply(task: Task) -> str:
    """The gold agent's last message: what it did, and every fact the user asked for."""
    facts = list(task.checks.required_facts or [])
    if facts:
        return "Done. Here is what you asked for: " + "; ".join(str(f) for f in facts) + "."
    names = [a.name for a in task.gold_actions]
    if not names:
        return "Done. Nothing needed to change."
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"Done. I called {listed}, and every step succeeded."


def gold_messages(entry: EnvEntry, task: Task, tools_in_system: bool = True) -> list[dict[str, Any]]:
    """The gold episode of `task` as OpenAI-style chat messages (replayed in a fresh environment).

    Raises GoldReplayError when a gold action fails, an observation differs from the task's recorded
    gold output, or the replayed episode does not verify with reward 1.
    """
    from synth.verify import score_episode

    env = entry.new_environment()
    env.reset(task=task)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system_prompt(entry, tools_in_system=tools_in_system)},
        {"role": "user", "content": task.user_instruction},
    ]
    for i, action in enumerate(task.gold_actions):
        arguments = dict(action.arguments)
        result = env.step({"name": action.name, "arguments": arguments})
        if not result.info.get("ok"):
            raise GoldReplayError(f"gold action {i} ({action.name}) failed: {result.observation}")
        recorded = task.gold_observations()[i] if i < len(task.gold_outputs) else None
        if recorded is not None and recorded != result.observation:
            raise GoldReplayError(
                f"gold action {i} ({action.name}) now returns {result.observation[:80]!r}, "
                f"the task recorded {recorded[:80]!r}"
            )
        call_id = f"call_{i}"
        messages.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": action.name, "arguments": _canonical(arguments)},
                    }
                ],
            }
        )
        messages.append({"role": "tool", "tool_call_id": call_id, "content": result.observation})
    reply = final_reply(task)
    messages.append({"role": "assistant", "content": reply})
    reward = score_episode(task, env.state, [reply])
    if reward.reward != 1.0:
        raise GoldReplayError(f"the gold replay does not verify: {_canonical(reward.breakdown)}")
    return messages


def clean_messages(messages: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages without the None-valued keys `datasets` adds when it loads a column of mixed messages."""
    out = []
    for message in messages:
        clean = {k: v for k, v in message.items() if v is not None}
        if clean.get("tool_calls"):
            clean["tool_calls"] = [_clean_call(c) for c in clean["tool_calls"]]
        out.append(clean)
    return out


def _clean_call(call: dict[str, Any]) -> dict[str, Any]:
    clean = {k: v for k, v in call.items() if v is not None}
    if isinstance(clean.get("function"), dict):
        clean["function"] = {k: v for k, v in clean["function"].items() if v is not None}
    return clean


def actions_from_messages(messages: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool calls of the assistant turns, in order, as [{"name", "arguments": {...}}] (gold-action form)."""
    actions = []
    for message in messages:
        if message.get("role") != "assistant":
            continue
        for call in message.get("tool_calls") or []:
            fn = call["function"]
            arguments = fn.get("arguments")
            if isinstance(arguments, str):
                arguments = json.loads(arguments) if arguments.strip() else {}
            actions.append({"name": fn["name"], "arguments": arguments or {}})
    return actions


def task_row(entry: EnvEntry, task: Task, tools_in_system: bool = True) -> dict[str, Any]:
    """One dataset row for `task` (raises GoldReplayError when its gold episode does not verify)."""
    return {
        "env_id": entry.env_id,
        "task_id": task.task_id,
        "instruction": task.user_instruction,
        "intent": task.intent,
        "messages": gold_messages(entry, task, tools_in_system=tools_in_system),
        "tools": _canonical(entry.tool_schemas()),
        "initial_state": _canonical(task.initial_state),
        "gold_final_state": _canonical(task.gold_final_state),
        "checks": _canonical(
            {"exempt_paths": list(task.checks.exempt_paths), "required_facts": list(task.checks.required_facts)}
        ),
        "gold_actions": _canonical([a.to_dict() for a in task.gold_actions]),
        "difficulty": _canonical(task.difficulty),
    }


def build_rows(catalog: EnvCatalog, tools_in_system: bool = True) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """(rows sorted by env_id and task_id, skipped tasks with reasons)."""
    rows, skipped = [], []
    for entry, task in catalog.all_tasks():
        try:
            rows.append(task_row(entry, task, tools_in_system=tools_in_system))
        except GoldReplayError as err:
            skipped.append({"env_id": entry.env_id, "task_id": task.task_id, "reason": str(err)})
    return rows, skipped


def _write_jsonl(rows: list[dict[str, Any]], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    write_lines_atomic(out, (_canonical(row) for row in rows))


_CARD = """---
configs:
- config_name: default
  data_files:
  - split: train
    path: {data_file}
tags:
- forgegym
- tool-use
- agents
---

# forgegym tasks and gold trajectories

{rows} tasks from {n_envs} environment(s): {envs}.

Each row is one task of a forgegym environment with its gold episode as OpenAI-style chat messages
(`messages`: system, user, assistant `tool_calls` / `tool` results, final assistant reply). The gold
episode was replayed in the forgegym runtime and verified with reward 1.

Columns: `env_id`, `task_id`, `instruction`, `intent`, `messages`; canonical JSON strings: `tools`
(OpenAI tools list), `initial_state`, `gold_final_state`, `checks`, `gold_actions`, `difficulty`.

```python
from datasets import load_dataset
ds = load_dataset("PATH")["train"]
```
"""


def _write_hf(rows: list[dict[str, Any]], out: Path, meta: dict[str, Any]) -> None:
    import datasets

    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / EXPORT_MARKER).exists())):
        raise InputError(str(out), "--out", "exists and is not an earlier forgegym export folder: choose a new path")
    with staged_folder(out) as tmp:
        (tmp / "data").mkdir()
        # The file name carries a content hash and the card names the file exactly: `datasets` keys its
        # cache of a local folder by the folder name and the card's patterns, so a glob would let a new
        # export (or another folder of the same name) load a stale cached copy.
        digest = hashlib.sha256("\n".join(_canonical(r) for r in rows).encode("utf-8")).hexdigest()[:16]
        data_file = f"data/train-{digest}.parquet"
        table = datasets.Dataset.from_list(rows) if rows else datasets.Dataset.from_dict({"task_id": []})
        table.to_parquet(str(tmp / data_file))
        envs = meta["envs"]
        (tmp / "README.md").write_text(
            _CARD.replace("{rows}", str(len(rows)))
            .replace("{n_envs}", str(len(envs)))
            .replace("{envs}", ", ".join(envs) or "none")
            .replace("{data_file}", data_file),
            encoding="utf-8",
        )
        (tmp / EXPORT_MARKER).write_text(json.dumps(meta, sort_keys=True, indent=2) + "\n", encoding="utf-8")


def export_dataset(
    env_dirs: Iterable[str | Path] | EnvCatalog, out: str | Path, fmt: str = "jsonl", tools_in_system: bool = True
) -> ExportReport:
    """Write every task under `env_dirs` with its gold trajectory to `out` (`fmt` "jsonl" or "hf")."""
    if fmt not in FORMATS:
        raise InputError("--format", "value", f"{fmt!r} is not one of {', '.join(FORMATS)}")
    catalog = env_dirs if isinstance(env_dirs, EnvCatalog) else EnvCatalog(env_dirs)
    rows, skipped = build_rows(catalog, tools_in_system=tools_in_system)
    out = Path(out)
    report = ExportReport(out=str(out), format=fmt, rows=len(rows), envs=catalog.env_ids(), skipped=skipped)
    if fmt == "jsonl":
        _write_jsonl(rows, out)
    else:
        meta = {
            **report.to_dict(),
            "tools_in_system": tools_in_system,
            "sources": {e: str(catalog.get(e).env_dir) for e in catalog.env_ids()},
        }
        meta.pop("out")
        _write_hf(rows, out, meta)
    return report

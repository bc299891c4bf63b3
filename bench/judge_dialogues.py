"""Dialogues of the LLM user simulator on committed tasks, for labelling the user-error judge.

    python -m bench.judge_dialogues --out runs/judge_dialogues.jsonl [--per-env 12] [--base-url URL --model M]

For the first `per-env` tasks of each environment under envs_generated/, the LLM user (rl.user_sim.LLMUser,
the embedded SmolLM2 by default) opens the dialogue, a fixed agent line asks it to confirm the details, and
the user answers once. Each row: id, env_id, task_id, instruction, dialogue (user/assistant messages). The
rows carry no label; tests/data/judge_llm_user.jsonl holds them labelled (see docs/training.md).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from synth.fsio import write_lines_atomic

AGENT_LINE = "Sure. Before I start, please confirm the details: which items, names and values exactly?"
ROOT = Path(__file__).resolve().parent.parent


def make_dialogues(client: Any, env_dirs: list[Path], per_env: int) -> list[dict[str, Any]]:
    """One short dialogue per task: the LLM user's opening, the agent's question, the user's answer."""
    from rl.user_sim import LLMUser
    from synth.task import load_tasks

    user = LLMUser(client, llm_first_message=True)
    rows = []
    for env_dir in env_dirs:
        for task in load_tasks(env_dir / "tasks.jsonl")[:per_env]:
            dialogue = [{"role": "user", "content": user.first_message(task)}, {"role": "assistant", "content": AGENT_LINE}]
            reply = user.reply(task, dialogue)
            dialogue.append({"role": "user", "content": reply.text})
            rows.append({"id": f"{env_dir.name}:{task.task_id}", "env_id": env_dir.name, "task_id": task.task_id,
                         "instruction": task.user_instruction, "dialogue": dialogue})  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    import json

    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    from synth.llm import config_from_cli, open_client

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True)
    parser.add_argument("--per-env", type=int, default=12)
    parser.add_argument("--envs", nargs="*", default=["todo_api", "mcp_memory", "petstore"])
    parser.add_argument("--base-url")
    parser.add_argument("--model")
    args = parser.parse_args(argv)
    dirs = [ROOT / "envs_generated" / e for e in args.envs]
    with open_client(config_from_cli(args.base_url, args.model)) as client:
        rows = make_dialogues(client, dirs, args.per_env)
    write_lines_atomic(Path(args.out), [json.dumps(r, sort_keys=True, ensure_ascii=False) for r in rows])
    print(f"{len(rows)} dialogues written to {args.out}")
    return rows


if __name__ == "__main__":
    main()

"""Dialogues of the LLM user simulator on committed tasks, for labelling the user-error judge.

    python -m bench.judge_dialogues --out runs/judge_dialogues.jsonl [--per-env 12] [--base-url URL --model M]

For the first `per-env` tasks of each environment under envs_generated/, the LLM user (rl.user_sim.LLMUser,
the embedded SmolLM2 by default) opens the dialogue, a fixed agent line asks it to confirm the details, and
the user answers once. Each row: id, env_id, task_id, instruction, dialogue (user/assistant messages). The
rows carry no label; tests/data/judge_llm_user.jsonl holds them labelled by hand (see docs/training.md),
followed by `inject_variants` of the clean ones: one more user turn restating a value of the instruction
in another form (labelled clean) or changed (labelled an error).

    python -m bench.judge_dialogues --inject tests/data/judge_llm_user.jsonl   # rewrites the injected rows
"""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import Any

from synth.fsio import write_lines_atomic

AGENT_LINE = "Sure. Before I start, please confirm the details: which items, names and values exactly?"
AGENT_AGAIN = "Noted. Anything else to confirm?"
_KEYED_NUMBER = re.compile(r"\b(pet|order|user status|status|tags id|category id|id) (\d+)\b")
_UUID = re.compile(r"\b0*(\d+)-0000-4000-8000-0*(\d+)\b")
_DATE = re.compile(r"'(\d{4})-(\d{2})-(\d{2})T(\d{2}):00:00Z'")
_NAME = re.compile(r"'([A-Z][a-z]+ [A-Z][a-z]+)'")
_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()
_MONTHS = "January February March April May June July August September October November December".split()


def _variant_phrases(instruction: str, index: int) -> tuple[str, str, str] | None:
    """(what, paraphrase, wrong) for the first value of the instruction, the paraphrase style cycling by `index`."""
    m = _DATE.search(instruction)
    if m:
        y, mo, d, h = (int(g) for g in m.groups())
        styles = [
            f"{_MONTHS[mo - 1]} {d}, {y} at {h % 12 or 12}{'am' if h < 12 else 'pm'}",
            f"{d} {_MONTHS[mo - 1]} {y}",
            f"{mo:02d}/{d:02d}/{y}",
            f"{_MONTHS[mo - 1][:3]} {d}",
        ]
        return "date", styles[index % len(styles)], f"{_MONTHS[mo - 1]} {d % 28 + 1}, {y}"
    m = _UUID.search(instruction)
    if m:
        n = int(m.group(2))
        return "uuid", f"the todo numbered {n:,}" if index % 2 else f"todo {n}", f"todo {n + 7}"
    m = _KEYED_NUMBER.search(instruction)
    if m:
        key, n = m.group(1), int(m.group(2))
        styles = [
            f"{key} {_WORDS[n]}" if n < len(_WORDS) else f"{key} {n:,}",
            f"{key} {n}.0",
            f"{key} #{n}",
            f"{key} number {n}",
        ]
        return "number", styles[index % len(styles)], f"{key} {n + 2}"
    m = _NAME.search(instruction)
    if m:
        return "name", m.group(1).lower(), "Maria Lopez"
    return None


def inject_variants(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Two rows per clean LLM-user row with a value to restate: a paraphrase (clean) and a changed value (error)."""
    out = []
    for i, row in enumerate(r for r in rows if not r["user_error"]):
        got = _variant_phrases(row["instruction"], i)
        if got is None:
            continue
        what, same, wrong = got
        for kind, phrase, label in (("paraphrase", same, False), ("error", wrong, True)):
            turns = [
                {"role": "assistant", "content": AGENT_AGAIN},
                {"role": "user", "content": f"Just to confirm: {phrase}."},
            ]
            out.append(
                {
                    **row,
                    "id": f"{row['id']}+{kind}",
                    "dialogue": row["dialogue"] + turns,
                    "user_error": label,
                    "source": f"injected-{kind}",
                    "note": f"{what}: {phrase}",
                }
            )
    return out


ROOT = Path(__file__).resolve().parent.parent


def make_dialogues(client: Any, env_dirs: list[Path], per_env: int) -> list[dict[str, Any]]:
    """One short dialogue per task: the LLM user's opening, the agent's question, the user's answer."""
    from rl.user_sim import LLMUser
    from synth.task import load_tasks

    user = LLMUser(client, llm_first_message=True)
    rows = []
    for env_dir in env_dirs:
        for task in load_tasks(env_dir / "tasks.jsonl")[:per_env]:
            dialogue = [
                {"role": "user", "content": user.first_message(task)},
                {"role": "assistant", "content": AGENT_LINE},
            ]
            reply = user.reply(task, dialogue)
            dialogue.append({"role": "user", "content": reply.text})
            rows.append(
                {
                    "id": f"{env_dir.name}:{task.task_id}",
                    "env_id": env_dir.name,
                    "task_id": task.task_id,
                    "instruction": task.user_instruction,
                    "dialogue": dialogue,
                }
            )
    return rows


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    from synth.llm import config_from_cli, open_client

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", help="where the unlabelled LLM dialogues go")
    parser.add_argument(
        "--inject", help="a labelled file: replace its injected rows by inject_variants of its LLM rows"
    )
    parser.add_argument("--per-env", type=int, default=12)
    parser.add_argument("--envs", nargs="*", default=["todo_api", "mcp_memory", "petstore"])
    parser.add_argument("--base-url")
    parser.add_argument("--model")
    args = parser.parse_args(argv)
    if args.inject:
        path = Path(args.inject)
        llm_rows = [r for r in map(json.loads, path.read_text().splitlines()) if r.get("source") == "llm-user"]
        rows = llm_rows + inject_variants(llm_rows)
        write_lines_atomic(path, [json.dumps(r, sort_keys=True, ensure_ascii=False) for r in rows])
        print(f"{len(llm_rows)} LLM-user rows, {len(rows) - len(llm_rows)} injected rows written to {path}")
        return rows
    if not args.out:
        parser.error("--out or --inject is required")
    dirs = [ROOT / "envs_generated" / e for e in args.envs]
    with open_client(config_from_cli(args.base_url, args.model)) as client:
        rows = make_dialogues(client, dirs, args.per_env)
    write_lines_atomic(Path(args.out), [json.dumps(r, sort_keys=True, ensure_ascii=False) for r in rows])
    print(f"{len(rows)} dialogues written to {args.out}")
    return rows


if __name__ == "__main__":
    main()
